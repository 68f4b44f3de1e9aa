// SPDX-License-Identifier: GPL-2.0
/*
 * The census's output: one TSV row per check (per handler call, and per
 * check of a call shared by several), and a summary that counts the
 * checks and the distinct sites per kind and per subsystem (the
 * first one or two directories of the site's file: kernel/sched, net/ipv4,
 * fs, mm, include/linux ...).
 */
#include <stdlib.h>
#include <string.h>

#include "census.h"

static const char *const columns[] = {
	"site",	      "function",   "inlined",	"kind",
	"src_type",   "dst_type",   "src_bits", "dst_bits",
	"src_signed", "dst_signed", "address",
};

#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))
#define UNKNOWN "?"
#define SHOW_UNRESOLVED 20

/* A field: tabs and newlines would break the row. */
static void put_field(FILE *f, const char *s, int last)
{
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, f);
	fputc(last ? '\n' : '\t', f);
}

static void put_int(FILE *f, int resolved, int v)
{
	if (resolved)
		fprintf(f, "%d\t", v);
	else
		fputs(UNKNOWN "\t", f);
}

/* --branches: the check's jumps and what each adds, ';'-separated */
static void put_branches(FILE *f, const struct call *c)
{
	int k;

	for (k = 0; k < c->nbr; k++)
		fprintf(f, "%s0x%lx", k ? ";" : "", c->br[k]);
	fputc('\t', f);
	for (k = 0; k < c->nbr; k++)
		fprintf(f, "%s%d", k ? ";" : "", c->added[k]);
	fputc('\n', f);
}

void report_tsv(FILE *f, const struct row *rows, size_t n, int branches)
{
	const struct row *r;
	size_t i;
	int ok;

	for (i = 0; i < NCOLUMNS; i++)
		put_field(f, columns[i], i == NCOLUMNS - 1 && !branches);
	if (branches)
		fputs("branches\tadded\n", f);
	for (r = rows; r < rows + n; r++) {
		ok = r->resolved;
		put_field(f, ok ? r->chk.site : UNKNOWN, 0);
		put_field(f, r->fr->function, 0);
		put_field(f, r->fr->inlined, 0);
		put_field(f, r->chk.kind, 0);
		put_field(f, ok ? r->chk.src.name : UNKNOWN, 0);
		put_field(f, ok ? r->chk.dst.name : UNKNOWN, 0);
		put_int(f, ok, r->chk.src.bits);
		put_int(f, ok, r->chk.dst.bits);
		put_int(f, ok, r->chk.src.is_signed);
		put_int(f, ok, r->chk.dst.is_signed);
		put_field(f, r->address, !branches);
		if (branches)
			put_branches(f, r->call);
	}
}

void subsystem_of(const char *path, char *out, size_t outsz)
{
	const char *a = strchr(path, '/'), *b = a ? strchr(a + 1, '/') : NULL;
	size_t n;

	if (!a) {
		snprintf(out, outsz, "(top)");
		return;
	}
	n = b ? (size_t)(b - path) : (size_t)(a - path);
	snprintf(out, outsz, "%.*s", (int)n, path);
}

/* ---- tallies: checks and distinct sites per key ---- */

struct pair {
	char key[96];
	const char *site;
};

struct tally {
	const char *key;
	size_t checks, sites;
};

static int pair_cmp(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : strcmp(x->site, y->site);
}

static int tally_cmp(const void *a, const void *b)
{
	const struct tally *x = a, *y = b;

	if (x->checks != y->checks)
		return x->checks < y->checks ? 1 : -1;
	return strcmp(x->key, y->key);
}

typedef void (*key_fn)(const struct row *r, char *out, size_t outsz);

static void key_kind(const struct row *r, char *out, size_t outsz)
{
	snprintf(out, outsz, "%s", r->chk.kind);
}

static void key_subsystem(const struct row *r, char *out, size_t outsz)
{
	if (r->resolved)
		subsystem_of(r->chk.site, out, outsz);
	else
		snprintf(out, outsz, UNKNOWN);
}

static void print_tally(FILE *f, const char *title, const struct row *rows,
			size_t n, key_fn key)
{
	struct pair *p = calloc(n ? n : 1, sizeof(*p));
	struct tally *t = calloc(n ? n : 1, sizeof(*t));
	size_t i, nt = 0;

	if (!p || !t) {
		free(p);
		free(t);
		return;
	}
	for (i = 0; i < n; i++) {
		key(&rows[i], p[i].key, sizeof(p[i].key));
		p[i].site = rows[i].resolved ? rows[i].chk.site : UNKNOWN;
	}
	qsort(p, n, sizeof(*p), pair_cmp);
	for (i = 0; i < n; i++) {
		if (!nt || strcmp(t[nt - 1].key, p[i].key))
			t[nt++].key = p[i].key;
		t[nt - 1].checks++;
		if (!i || pair_cmp(&p[i - 1], &p[i]))
			t[nt - 1].sites++;
	}
	qsort(t, nt, sizeof(*t), tally_cmp);
	fprintf(f, "%-48s %8s %8s\n", title, "checks", "sites");
	for (i = 0; i < nt; i++)
		fprintf(f, "%-48s %8zu %8zu\n", t[i].key, t[i].checks,
			t[i].sites);
	fputc('\n', f);
	free(p);
	free(t);
}

static void print_totals(FILE *f, const struct row *rows, size_t n)
{
	size_t i, shown, resolved = 0, branch[3] = { 0 }, shared = 0;

	for (i = 0; i < n; i++) {
		resolved += rows[i].resolved;
		if (i && rows[i].call->addr == rows[i - 1].call->addr)
			continue;
		branch[rows[i].call->branch]++;
		shared += rows[i].call->shared > 1;
	}
	fprintf(f,
		"census: %zu rows (checks) at %zu handler calls (%zu calls, %zu tail jumps, %zu conditional jumps); %zu calls shared by several checks\n",
		n, branch[0] + branch[1] + branch[2], branch[0], branch[1],
		branch[2], shared);
	fprintf(f, "census: %zu resolved, %zu unresolved\n", resolved,
		n - resolved);
	for (i = 0, shown = 0; i < n; i++)
		shown += rows[i].call->br_more;
	if (shown)
		fprintf(f,
			"census: %zu checks have more than %d jumps; the others are not listed\n",
			shown, MAX_BRANCHES);
	for (i = 0, shown = 0; i < n; i++) {
		if (rows[i].resolved)
			continue;
		if (shown++ < SHOW_UNRESOLVED)
			fprintf(f, "census: unresolved: %s in %s: %s\n",
				rows[i].address, rows[i].call->symbol,
				rows[i].call->why);
	}
	if (shown > SHOW_UNRESOLVED)
		fprintf(f, "census: ... and %zu more unresolved\n",
			shown - SHOW_UNRESOLVED);
	fputc('\n', f);
}

void report_summary(FILE *f, const struct row *rows, size_t n)
{
	print_totals(f, rows, n);
	print_tally(f, "kind", rows, n, key_kind);
	print_tally(f, "subsystem", rows, n, key_subsystem);
}
