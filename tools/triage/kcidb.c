// SPDX-License-Identifier: GPL-2.0
/*
 * KCIDB v5 output for runs of boot jobs (ubsan-triage --kcidb; the schema
 * the kit checks it against is tools/kcidb/schema.json).
 *
 * In: a checkout file (key=value) and the runner's boots.tsv files (name,
 * result directory, build, kernel sha256, workloads, done|notrun, run key).
 * Out: the checkout; one build per kernel; for each boot a test
 * "intsan.<boot>" and one per workload "intsan.<boot>.<workload>"; one issue
 * per de-duplicated site over all logs; one incident per test and site,
 * the test being the workload whose "kit: workload begin/end" markers
 * bracket the report, else the boot.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kcidb.h"

#define KV_MAX 32

struct kv {
	char *k[KV_MAX], *v[KV_MAX];
	int n;
};

enum { ST_FAIL, ST_ERROR, ST_MISS, ST_PASS, ST_DONE, ST_SKIP, ST_NONE };

static const char *const st_names[] = {
	"FAIL", "ERROR", "MISS", "PASS", "DONE", "SKIP",
};

struct workload {
	char *name;
	unsigned long begin, end; /* marker lines; end 0: none */
	int status; /* from init's KTAP line; ST_NONE if none */
	long time_ms; /* -1 if no end marker */
};

struct boot {
	char *f[7]; /* name outdir build kernel_sha workloads state run_key */
	char *run;
	struct kv bt, job; /* boot.txt, job.txt */
	char expect[160]; /* last line of expect.txt */
	int log; /* index of its console.log, -1 if not run */
	struct workload *w;
	size_t nw;
};

struct occ {
	const struct site *s;
	int log;
	unsigned long line;
};

struct incident {
	const struct site *s;
	size_t boot, wl; /* wl == nw of the boot: the boot test */
	unsigned long count, first;
};

struct kc {
	struct boot *b;
	size_t nb;
	struct sitetab sites;
	struct occ *o;
	size_t no, co;
	int oom;
};

static char *xstrdup(struct kc *kc, const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		kc->oom = 1;
	return d;
}

static void *grow(struct kc *kc, void *v, size_t n, size_t *cap, size_t sz)
{
	void *p;

	if (n < *cap)
		return v;
	*cap = *cap ? *cap * 2 : 64;
	p = realloc(v, *cap * sz);
	if (!p)
		kc->oom = 1;
	return p;
}

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = 0;
}

static int kv_load(struct kv *kv, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *eq;
	size_t cap = 0;

	memset(kv, 0, sizeof(*kv));
	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0 && kv->n < KV_MAX) {
		chomp(line);
		eq = strchr(line, '=');
		if (!eq || eq == line)
			continue;
		*eq = 0;
		kv->k[kv->n] = strdup(line);
		kv->v[kv->n] = strdup(eq + 1);
		if (kv->k[kv->n] && kv->v[kv->n])
			kv->n++;
	}
	free(line);
	fclose(f);
	return 0;
}

static const char *kv_get(const struct kv *kv, const char *key, const char *def)
{
	int i;

	for (i = kv->n - 1; i >= 0; i--)
		if (!strcmp(kv->k[i], key))
			return kv->v[i];
	return def;
}

static void kv_free(struct kv *kv)
{
	int i;

	for (i = 0; i < kv->n; i++) {
		free(kv->k[i]);
		free(kv->v[i]);
	}
	kv->n = 0;
}

/* A path component of KCIDB: [a-zA-Z0-9_-], anything else becomes '_'. */
static void path_part(char *dst, size_t sz, const char *s)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < sz; i++) {
		unsigned char c = (unsigned char)s[i];

		dst[i] = ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '-') ?
				 (char)c :
				 '_';
	}
	dst[i] = 0;
	if (!i && sz > 1)
		snprintf(dst, sz, "_");
}

static unsigned long long fnv64(const char *s)
{
	unsigned long long h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static void on_report(void *ctx, struct report *r)
{
	struct kc *kc = ctx;
	struct site *s = sites_add(&kc->sites, r);

	kc->o = grow(kc, kc->o, kc->no, &kc->co, sizeof(*kc->o));
	if (!s || !kc->o) {
		kc->oom = 1;
		return;
	}
	kc->o[kc->no].s = s;
	kc->o[kc->no].log = r->log;
	kc->o[kc->no].line = r->lineno;
	kc->no++;
}

/*
 * A console line's text with its indentation: the syslog level, the
 * timestamp and the caller id ("[    1.234567][   T1] ") go, as the report
 * parser removes them (tl_split()).
 */
static const char *console_text(const char *line)
{
	struct logline l;

	tl_split(line, strlen(line), &l);
	return l.body;
}

static struct workload *wl_find(struct boot *b, const char *name, size_t n,
				int open_only)
{
	size_t i;

	for (i = b->nw; i-- > 0;)
		if (strlen(b->w[i].name) == n &&
		    !strncmp(b->w[i].name, name, n) &&
		    (!open_only || !b->w[i].end))
			return &b->w[i];
	return NULL;
}

static void wl_add(struct kc *kc, struct boot *b, const char *name, size_t n,
		   unsigned long line)
{
	struct workload *w = realloc(b->w, (b->nw + 1) * sizeof(*w));

	if (!w) {
		kc->oom = 1;
		return;
	}
	b->w = w;
	w = &b->w[b->nw];
	w->name = strndup(name, n);
	if (!w->name) {
		kc->oom = 1;
		return;
	}
	w->begin = line;
	w->end = 0;
	w->status = ST_NONE;
	w->time_ms = -1;
	b->nw++;
}

static size_t word(const char *s)
{
	size_t n = 0;

	while (s[n] && s[n] != ' ' && s[n] != '\t')
		n++;
	return n;
}

/* init's markers and its own (unindented) KTAP result lines */
static void scan_markers(struct kc *kc, struct boot *b, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	const char *t, *p;
	size_t cap = 0, n;
	unsigned long lineno = 0;
	struct workload *w;
	int ok;

	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		lineno++;
		chomp(line);
		t = console_text(line);
		if ((p = strstr(t, "kit: workload begin "))) {
			p += 20;
			wl_add(kc, b, p, word(p), lineno);
		} else if ((p = strstr(t, "kit: workload end "))) {
			p += 18;
			n = word(p);
			w = wl_find(b, p, n, 1);
			if (w) {
				w->end = lineno;
				p = strstr(p + n, "time_ms=");
				w->time_ms = p ? strtol(p + 8, NULL, 10) : 0;
			}
		} else if (!strncmp(t, "ok ", 3) || !strncmp(t, "not ok ", 7)) {
			ok = t[0] == 'o';
			p = t + (ok ? 3 : 7);
			p += strspn(p, "0123456789");
			p += strspn(p, " ");
			n = word(p);
			w = n ? wl_find(b, p, n, 0) : NULL;
			if (!w)
				continue;
			if (ok)
				w->status = strstr(p + n, "# SKIP") ? ST_SKIP :
								      ST_PASS;
			else
				w->status = strstr(p + n, "TIMEOUT") ?
						    ST_ERROR :
						    ST_FAIL;
		}
	}
	free(line);
	fclose(f);
}

static void last_line(const char *path, char *buf, size_t sz)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	while (f && fgets(buf, (int)sz, f))
		;
	if (f)
		fclose(f);
	chomp(buf);
}

static int load_boots(struct kc *kc, const char *tsv, char ***logs, int *nlogs)
{
	FILE *f = fopen(tsv, "r");
	char *line = NULL, *p, *tab, buf[4096], run[256];
	size_t cap = 0, bcap = kc->nb, lcap = (size_t)*nlogs;
	const char *slash;
	struct boot *b;
	int i;

	if (!f) {
		fprintf(stderr, "ubsan-triage: %s: %s\n", tsv, strerror(errno));
		return 2;
	}
	/* the run: the name of the directory holding boots.tsv */
	snprintf(buf, sizeof(buf), "%s", tsv);
	p = strrchr(buf, '/');
	if (p)
		*p = 0;
	slash = strrchr(buf, '/');
	snprintf(run, sizeof(run), "%.200s",
		 p ? (slash ? slash + 1 : buf) : "run");
	while (getline(&line, &cap, f) > 0) {
		chomp(line);
		if (!line[0] || line[0] == '#')
			continue;
		kc->b = grow(kc, kc->b, kc->nb, &bcap, sizeof(*kc->b));
		if (!kc->b)
			break;
		b = &kc->b[kc->nb++];
		memset(b, 0, sizeof(*b));
		b->log = -1;
		for (i = 0, p = line; i < 7; i++) {
			tab = p ? strchr(p, '\t') : NULL;
			if (tab)
				*tab = 0;
			b->f[i] = xstrdup(kc, p ? p : "-");
			p = tab ? tab + 1 : NULL;
		}
		b->run = xstrdup(kc, run);
		snprintf(buf, sizeof(buf), "%s/console.log", b->f[1]);
		if (strcmp(b->f[5], "done") || access(buf, R_OK))
			continue;
		snprintf(buf, sizeof(buf), "%s/boot.txt", b->f[1]);
		kv_load(&b->bt, buf);
		snprintf(buf, sizeof(buf), "%s/job.txt", b->f[1]);
		kv_load(&b->job, buf);
		snprintf(buf, sizeof(buf), "%s/expect.txt", b->f[1]);
		last_line(buf, b->expect, sizeof(b->expect));
		*logs = grow(kc, *logs, (size_t)*nlogs, &lcap, sizeof(**logs));
		if (!*logs)
			break;
		snprintf(buf, sizeof(buf), "%s/console.log", b->f[1]);
		b->log = *nlogs;
		(*logs)[(*nlogs)++] = xstrdup(kc, buf);
		scan_markers(kc, b, buf);
	}
	free(line);
	fclose(f);
	return 0;
}

static int boot_status(const struct boot *b)
{
	const char *v = kv_get(&b->bt, "verdict", "");

	if (b->log < 0)
		return ST_MISS;
	if (!strcmp(v, "pass"))
		return ST_PASS;
	if (!strcmp(v, "timeout"))
		return ST_ERROR;
	return ST_FAIL;
}

static int wl_status(const struct boot *b, const struct workload *w)
{
	const char *v = kv_get(&b->bt, "verdict", "");

	if (w->status != ST_NONE)
		return w->status;
	if (!w->end && (!strcmp(v, "oops") || !strcmp(v, "panic")))
		return ST_FAIL; /* the kernel died while it ran */
	return ST_ERROR;
}

static void test_id(char *buf, size_t sz, const char *origin,
		    const struct boot *b, const struct workload *w)
{
	const char *key = strcmp(b->f[6], "-") ? b->f[6] : b->run;

	if (w)
		snprintf(buf, sz, "%s:%s.%s.%s", origin, key, b->f[0], w->name);
	else
		snprintf(buf, sz, "%s:%s.%s", origin, key, b->f[0]);
}

static void build_id(char *buf, size_t sz, const char *origin,
		     const struct boot *b)
{
	snprintf(buf, sz, "%s:build-%.16s", origin, b->f[3]);
}

static void issue_id(char *buf, size_t sz, const char *origin,
		     const struct site *s)
{
	snprintf(buf, sz, "%s:site-%016llx", origin, fnv64(s->key));
}

/* w: a workload's test, NULL: the boot's; missing: w never started */
static void out_test(struct json *j, const char *origin, const struct boot *b,
		     const struct workload *w, int status, int missing)
{
	char id[1024], path[512], g[200], part[200];
	const char *host = kv_get(&b->job, "host", "");

	json_object(j, NULL, JSON_LINES);
	build_id(id, sizeof(id), origin, b);
	json_string(j, "build_id", id);
	test_id(id, sizeof(id), origin, b, w);
	json_string(j, "id", id);
	json_string(j, "origin", origin);
	path_part(g, sizeof(g), b->f[0]);
	if (w) {
		path_part(part, sizeof(part), w->name);
		snprintf(path, sizeof(path), "intsan.%s.%s", g, part);
	} else {
		snprintf(path, sizeof(path), "intsan.%s", g);
	}
	json_string(j, "path", path);
	json_string(j, "status", st_names[status]);
	if (!w && b->log < 0) {
		json_string(j, "comment",
			    "not run: host faults on every attempt");
	} else if (!w) {
		snprintf(path, sizeof(path), "boot %s of %s: %s%s%s", b->f[0],
			 b->f[2], kv_get(&b->bt, "verdict", "?"),
			 b->expect[0] ? "; " : "", b->expect);
		json_string(j, "comment", path);
		if (kv_get(&b->job, "start_time", NULL))
			json_string(j, "start_time",
				    kv_get(&b->job, "start_time", ""));
		if (kv_get(&b->bt, "wall_s", NULL))
			json_fixed(j, "duration",
				   atof(kv_get(&b->bt, "wall_s", "0")), 3);
	} else {
		snprintf(path, sizeof(path), "workload %s in boot %s%s",
			 w->name, b->f[0], missing ? ": never started" : "");
		json_string(j, "comment", path);
		if (w->time_ms >= 0)
			json_fixed(j, "duration", (double)w->time_ms / 1000.0,
				   3);
	}
	if (host[0]) {
		json_object(j, "environment", JSON_INLINE);
		snprintf(path, sizeof(path), "%s, QEMU %s", host,
			 kv_get(&b->bt, "accel", "?"));
		json_string(j, "comment", path);
		json_end(j);
	}
	json_object(j, "misc", JSON_INLINE);
	json_string(j, "run", b->run);
	json_string(j, "result_dir", b->f[1]);
	if (!w && b->log >= 0) {
		json_string(j, "verdict", kv_get(&b->bt, "verdict", ""));
		json_string(j, "expectation", b->expect);
	}
	json_end(j);
	json_end(j);
}

/* Is workload NAME (n bytes) in the boot's explicit list? */
static int wanted_missing(const struct boot *b, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < b->nw; i++)
		if (strlen(b->w[i].name) == n &&
		    !strncmp(b->w[i].name, name, n))
			return 0;
	return 1;
}

static void out_tests(struct json *j, const char *origin, struct kc *kc)
{
	char name[256];
	struct workload miss = { name, 0, 0, ST_MISS, -1 };
	const char *p, *list;
	size_t i, k, n;

	json_array(j, "tests", JSON_LINES);
	for (i = 0; i < kc->nb; i++) {
		const struct boot *b = &kc->b[i];

		out_test(j, origin, b, NULL, boot_status(b), 0);
		for (k = 0; k < b->nw; k++)
			out_test(j, origin, b, &b->w[k], wl_status(b, &b->w[k]),
				 0);
		/* an explicit list: what never started is MISS */
		list = b->log >= 0 ? kv_get(&b->bt, "workloads", "all") :
				     b->f[4];
		if (!strcmp(list, "all") || !strcmp(list, "none"))
			continue;
		for (p = list; *p; p += n + (p[n] == ',')) {
			n = strcspn(p, ",");
			if (!n || !wanted_missing(b, p, n))
				continue;
			snprintf(name, sizeof(name), "%.*s", (int)n, p);
			out_test(j, origin, b, &miss, ST_MISS, 1);
		}
	}
	json_end(j);
}

static void out_builds(struct json *j, const char *origin, const char *co_id,
		       const struct kv *co, struct kc *kc)
{
	char id[512], text[512];
	size_t i, k;

	json_array(j, "builds", JSON_LINES);
	for (i = 0; i < kc->nb; i++) {
		const struct boot *b = &kc->b[i];

		for (k = 0; k < i; k++)
			if (!strcmp(kc->b[k].f[3], b->f[3]))
				break;
		if (k < i)
			continue;
		json_object(j, NULL, JSON_LINES);
		json_string(j, "checkout_id", co_id);
		build_id(id, sizeof(id), origin, b);
		json_string(j, "id", id);
		json_string(j, "origin", origin);
		json_string(j, "architecture", "x86_64");
		json_string(j, "config_name", b->f[2]);
		json_string(j, "compiler", kv_get(co, "compiler", "clang"));
		snprintf(text, sizeof(text), "%s: bzImage sha256 %s", b->f[2],
			 b->f[3]);
		json_string(j, "comment", text);
		json_string(j, "status", "PASS");
		json_object(j, "misc", JSON_INLINE);
		json_string(j, "kernel_sha256", b->f[3]);
		json_end(j);
		json_end(j);
	}
	json_end(j);
}

/* Real bugs and unexplained sites are the code's; the rest the tool's. */
static void out_issue(struct json *j, const char *origin, const struct site *s)
{
	char id[512], cat[160], kind[KIND_MAX];
	int code = s->cls == CLS_NEW || s->cls == CLS_KNOWN_BUG ||
		   s->cls == CLS_FINDING;

	json_object(j, NULL, JSON_LINES);
	issue_id(id, sizeof(id), origin, s);
	json_string(j, "id", id);
	json_uint(j, "version", 1);
	json_string(j, "origin", origin);
	json_string(j, "report_subject", s->r.title);
	json_string(j, "comment", s->r.detail[0] ? s->r.detail : s->r.title);
	path_part(kind, sizeof(kind), s->r.kind);
	snprintf(cat, sizeof(cat), "%s.%s",
		 report_is_ubsan(&s->r) ? "ubsan" : "crash", kind);
	json_array(j, "categories", JSON_INLINE);
	json_string(j, NULL, cat);
	json_end(j);
	json_object(j, "culprit", JSON_INLINE);
	json_bool(j, "code", code);
	json_bool(j, "tool", !code);
	json_bool(j, "harness", 0);
	json_end(j);
	json_object(j, "misc", JSON_INLINE);
	json_string(j, "class", cls_names[s->cls]);
	json_string(j, "kind", s->r.kind);
	json_string(j, "file", s->r.file);
	json_uint(j, "line", s->r.line);
	json_uint(j, "col", s->r.col);
	json_string(j, "function", site_func(&s->r));
	json_string(j, "reason", s->reason);
	json_uint(j, "count", s->count);
	json_end(j);
	json_end(j);
}

static void out_issues(struct json *j, const char *origin, struct kc *kc)
{
	size_t i;

	json_array(j, "issues", JSON_LINES);
	for (i = 0; i < kc->sites.n; i++)
		out_issue(j, origin, kc->sites.v[i]);
	json_end(j);
}

static void out_incidents(struct json *j, const char *origin, struct kc *kc)
{
	struct incident *inc = NULL;
	size_t ninc = 0, cinc = 0, i, k, bi, wi;
	char id[1024], tid[1024];

	for (i = 0; i < kc->no; i++) {
		const struct occ *o = &kc->o[i];
		const struct boot *b = NULL;

		for (bi = 0; bi < kc->nb; bi++)
			if (kc->b[bi].log == o->log) {
				b = &kc->b[bi];
				break;
			}
		if (!b)
			continue;
		for (wi = b->nw; wi-- > 0;)
			if (b->w[wi].begin <= o->line &&
			    (!b->w[wi].end || o->line <= b->w[wi].end))
				break;
		if (wi == (size_t)-1)
			wi = b->nw;
		for (k = 0; k < ninc; k++)
			if (inc[k].s == o->s && inc[k].boot == bi &&
			    inc[k].wl == wi)
				break;
		if (k == ninc) {
			inc = grow(kc, inc, ninc, &cinc, sizeof(*inc));
			if (!inc)
				return;
			inc[ninc].s = o->s;
			inc[ninc].boot = bi;
			inc[ninc].wl = wi;
			inc[ninc].count = 0;
			inc[ninc].first = o->line;
			ninc++;
		}
		inc[k].count++;
	}
	json_array(j, "incidents", JSON_LINES);
	for (k = 0; k < ninc; k++) {
		const struct boot *b = &kc->b[inc[k].boot];
		const struct workload *w =
			inc[k].wl < b->nw ? &b->w[inc[k].wl] : NULL;

		json_object(j, NULL, JSON_LINES);
		test_id(tid, sizeof(tid), origin, b, w);
		issue_id(id, sizeof(id), origin, inc[k].s);
		snprintf(id + strlen(id), sizeof(id) - strlen(id), "@%s",
			 tid + strlen(origin) + 1);
		json_string(j, "id", id);
		json_string(j, "origin", origin);
		issue_id(id, sizeof(id), origin, inc[k].s);
		json_string(j, "issue_id", id);
		json_uint(j, "issue_version", 1);
		build_id(id, sizeof(id), origin, b);
		json_string(j, "build_id", id);
		json_string(j, "test_id", tid);
		json_bool(j, "present", 1);
		json_string(j, "comment", inc[k].s->r.title);
		json_object(j, "misc", JSON_INLINE);
		json_uint(j, "count", inc[k].count);
		json_uint(j, "first_line", inc[k].first);
		json_end(j);
		json_end(j);
	}
	json_end(j);
	free(inc);
}

/* What the checkout file says that has no member of its own */
static void out_checkout_misc(struct json *j, const struct kv *co)
{
	int i;

	json_object(j, "misc", JSON_INLINE);
	for (i = 0; i < co->n; i++)
		if (strcmp(co->k[i], "origin") &&
		    strcmp(co->k[i], "tree_name") &&
		    strcmp(co->k[i], "patchset_hash") &&
		    strcmp(co->k[i], "comment"))
			json_string(j, co->k[i], co->v[i]);
	json_end(j);
}

static void out_doc(FILE *f, const struct kv *co, struct kc *kc)
{
	const char *origin = kv_get(co, "origin", "intsan");
	const char *tree = kv_get(co, "tree_name", "linux-source");
	const char *ver = kv_get(co, "version", "");
	const char *hash = kv_get(co, "patchset_hash", "");
	char id[512];
	struct json j;

	snprintf(id, sizeof(id), "%s:%s-%s+%.16s", origin, tree, ver, hash);
	json_init(&j, f);
	json_object(&j, NULL, JSON_LINES);
	json_object(&j, "version", JSON_INLINE);
	json_uint(&j, "major", 5);
	json_uint(&j, "minor", 3);
	json_end(&j);
	json_array(&j, "checkouts", JSON_LINES);
	json_object(&j, NULL, JSON_LINES);
	json_string(&j, "id", id);
	json_string(&j, "origin", origin);
	json_string(&j, "tree_name", tree);
	json_string(&j, "patchset_hash", hash);
	json_string(&j, "comment", kv_get(co, "comment", ""));
	json_bool(&j, "valid", 1);
	out_checkout_misc(&j, co);
	json_end(&j);
	json_end(&j);
	out_builds(&j, origin, id, co, kc);
	out_tests(&j, origin, kc);
	out_issues(&j, origin, kc);
	out_incidents(&j, origin, kc);
	json_end(&j);
}

int kcidb_main(const struct lists *l, const char *checkout, char **boots, int n,
	       FILE *out)
{
	struct kc kc;
	struct kv co;
	struct parser p;
	char **logs = NULL;
	int nlogs = 0, i, fd, ret = 0;
	size_t k;

	memset(&kc, 0, sizeof(kc));
	sites_init(&kc.sites);
	if (kv_load(&co, checkout)) {
		fprintf(stderr, "ubsan-triage: %s: %s\n", checkout,
			strerror(errno));
		return 2;
	}
	for (i = 0; i < n && !ret; i++)
		ret = load_boots(&kc, boots[i], &logs, &nlogs);
	parser_init(&p, on_report, &kc);
	for (i = 0; !ret && i < nlogs; i++) {
		fd = open(logs[i], O_RDONLY);
		if (fd < 0) {
			ret = 2;
			break;
		}
		parser_begin_log(&p, i);
		if (parser_read_fd(&p, fd))
			ret = 2;
		parser_end_log(&p);
		close(fd);
	}
	parser_free(&p);
	for (k = 0; k < kc.sites.n; k++)
		classify_site(l, kc.sites.v[k], NULL);
	if (kc.oom) {
		fputs("ubsan-triage: out of memory\n", stderr);
		ret = 2;
	}
	if (!ret)
		out_doc(out, &co, &kc);
	for (k = 0; k < kc.nb; k++) {
		struct boot *b = &kc.b[k];
		size_t w;

		for (i = 0; i < 7; i++)
			free(b->f[i]);
		free(b->run);
		kv_free(&b->bt);
		kv_free(&b->job);
		for (w = 0; w < b->nw; w++)
			free(b->w[w].name);
		free(b->w);
	}
	for (i = 0; i < nlogs; i++)
		free(logs[i]);
	free(logs);
	free(kc.b);
	free(kc.o);
	sites_free(&kc.sites);
	kv_free(&co);
	return ret;
}
