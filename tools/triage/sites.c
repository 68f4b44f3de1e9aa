// SPDX-License-Identifier: GPL-2.0
/*
 * De-duplication of reports by site: kind + file:line:col, the trapping
 * address for a trap without a site, or the title for other reports
 * without a site.
 */
#include <stdlib.h>
#include <string.h>

#include "triage.h"

void sites_init(struct sitetab *t)
{
	memset(t, 0, sizeof(*t));
}

void sites_free(struct sitetab *t)
{
	size_t i;
	int j;

	for (i = 0; i < t->n; i++) {
		for (j = 0; j < t->v[i]->r.nframes; j++)
			free(t->v[i]->r.frames[j].src);
		free(t->v[i]->r.rip.src);
		free(t->v[i]->crashes);
		free(t->v[i]);
	}
	free(t->v);
	free(t->hash);
	memset(t, 0, sizeof(*t));
}

static size_t hash_str(const char *s)
{
	size_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static void make_key(char *key, size_t sz, const struct report *r)
{
	if (r->file[0])
		snprintf(key, sz, "%s %s:%u:%u", r->kind, r->file, r->line,
			 r->col);
	/* a trap without a site yet: its address tells two traps apart */
	else if (r->trapped && r->has_rip && r->rip.func[0])
		snprintf(key, sz, "%s %s%s+0x%lx", r->kind, r->rip.module,
			 r->rip.func, r->rip.off);
	else
		snprintf(key, sz, "%s", r->title);
}

static int grow(struct sitetab *t)
{
	size_t i, j, cap = t->hcap ? t->hcap * 2 : 256;
	size_t *h = calloc(cap, sizeof(*h));
	struct site **v;

	if (!h)
		return -1;
	for (i = 0; i < t->n; i++) {
		j = hash_str(t->v[i]->key) & (cap - 1);
		while (h[j])
			j = (j + 1) & (cap - 1);
		h[j] = i + 1;
	}
	free(t->hash);
	t->hash = h;
	t->hcap = cap;
	v = realloc(t->v, cap / 2 * sizeof(*v));
	if (!v)
		return -1;
	t->v = v;
	t->cap = cap / 2;
	return 0;
}

/* Count one report; returns its site (new or existing), NULL on ENOMEM. */
struct site *sites_add(struct sitetab *t, const struct report *r)
{
	char key[sizeof(((struct site *)0)->key)];
	char wl[sizeof(r->workload)];
	struct site *s;
	size_t j;

	make_key(key, sizeof(key), r);
	t->reports++;
	if (t->n + 1 > t->cap && grow(t))
		return NULL;
	j = hash_str(key) & (t->hcap - 1);
	while (t->hash[j]) {
		s = t->v[t->hash[j] - 1];
		if (!strcmp(s->key, key)) {
			s->count++;
			s->last.log = r->log;
			s->last.line = r->lineno;
			/*
			 * prefer a complete report as the representative; the
			 * workload stays the first occurrence's
			 */
			if ((s->r.corrupted || s->r.truncated) &&
			    !r->corrupted && !r->truncated) {
				memcpy(wl, s->r.workload, sizeof(wl));
				s->r = *r;
				memcpy(s->r.workload, wl, sizeof(wl));
			}
			return s;
		}
		j = (j + 1) & (t->hcap - 1);
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->r = *r;
	memcpy(s->key, key, sizeof(key));
	s->count = 1;
	s->first.log = s->last.log = r->log;
	s->first.line = s->last.line = r->lineno;
	t->v[t->n] = s;
	t->hash[j] = ++t->n;
	return s;
}

/* Note that s was seen in crash directory CRASH (--syz); -1: no memory. */
int site_add_crash(struct site *s, int crash)
{
	size_t i;
	int *v;

	for (i = 0; i < s->ncrashes; i++)
		if (s->crashes[i] == crash)
			return 0;
	v = realloc(s->crashes, (s->ncrashes + 1) * sizeof(*v));
	if (!v)
		return -1;
	v[s->ncrashes++] = crash;
	s->crashes = v;
	return 0;
}

static int by_first(const void *a, const void *b)
{
	const struct site *x = *(struct site *const *)a;
	const struct site *y = *(struct site *const *)b;

	if (x->first.log != y->first.log)
		return x->first.log < y->first.log ? -1 : 1;
	if (x->first.line != y->first.line)
		return x->first.line < y->first.line ? -1 : 1;
	return 0;
}

/*
 * Order sites by first occurrence (log, line): interleaved reports end in
 * another order than they start. The hash is indexed again.
 */
void sites_sort(struct sitetab *t)
{
	size_t i, j;

	if (t->n < 2)
		return;
	qsort(t->v, t->n, sizeof(*t->v), by_first);
	memset(t->hash, 0, t->hcap * sizeof(*t->hash));
	for (i = 0; i < t->n; i++) {
		j = hash_str(t->v[i]->key) & (t->hcap - 1);
		while (t->hash[j])
			j = (j + 1) & (t->hcap - 1);
		t->hash[j] = i + 1;
	}
}
