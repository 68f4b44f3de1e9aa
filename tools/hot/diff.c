// SPDX-License-Identifier: GPL-2.0
/*
 * hot-checks diff: what a kernel's checks cost, function by function,
 * measured rather than estimated. The same workload is run under the
 * hot-checks.so plugin with insns= on two kernels (the bench's none and
 * report, say); each instruction's executions are given to the function it
 * is written in (FUNCS: llvm-symbolizer's innermost frame, so an inlined function's code is its own whether the
 * compiler inlined it or not); the two kernels' functions are joined by
 * name. A function that the checks push out of line thus carries its own
 * call's cost, and its callers do not gain what it was.
 *
 *   hot-checks diff [-n N] [-o OUT.TSV] [-c CENSUS.TSV [-p PROFILE.TSV]]
 *                   OLD.FUNCS OLD.INSNS NEW.FUNCS NEW.INSNS
 *
 * OUT.TSV: "rank delta share old new checks function", every function that
 * ran in either kernel, by delta (new - old) then name; share is the delta
 * over the total delta, per cent; checks is the function's rows in the new
 * kernel's census (-c) written in that function (the innermost of its inline
 * chain). Stdout: the totals and the top N (default 20).
 *
 * PROFILE.TSV: the census's checks in hot-checks.tsv's columns ("rank cost
 * executions site function inlined kind"), each costing its function's
 * delta, when positive, shared evenly among the function's checks;
 * executions is 0 (not counted). hot-checks budget takes it as it takes a
 * profile of make hot-checks: the cost measured, what the checks make the
 * compiler spend around them included, instead of their own instructions.
 *
 * What a row shows is everything that differs in that function: the
 * checks' own instructions and what they cost the compiler (registers kept
 * live for the handler, loops not unrolled, calls not inlined). The totals
 * are exact sums of the instructions. Rows are per name (static functions of one
 * name are one row). Instructions of no function of vmlinux (modules, whose
 * addresses vmlinux does not know) are "[outside vmlinux]".
 *
 * Exit status: 0 done, 1 no kernel instruction ran in one of the runs, 2 usage
 * or input error.
 */
#include "args.h"
#include "diff.h"
#include "tsv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OUTSIDE "[outside vmlinux]"

struct sym {
	unsigned long addr;
	char *name;
	unsigned long long insns;
};

/* one function of one kernel, or a row of the diff */
struct fn {
	char *name;
	unsigned long long old, new, checks;
	long long delta;
};

struct fns {
	struct fn *v;
	size_t n, cap;
};

/* a row of the new kernel's census: the columns a profile needs */
struct crow {
	char *site, *function, *inlined, *kind;
	char *owner; /* the function it is written in: inlined's first */
	double cost;
};

struct census {
	struct crow *v;
	size_t n, cap;
};

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_fn_name(const void *a, const void *b)
{
	return strcmp(((const struct fn *)a)->name,
		      ((const struct fn *)b)->name);
}

static int cmp_fn_delta(const void *a, const void *b)
{
	const struct fn *x = a, *y = b;

	if (x->delta != y->delta)
		return x->delta > y->delta ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* a row called name, its first count old */
static struct fn *fns_add(struct fns *t, const char *name,
			  unsigned long long old)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 4096;
		struct fn *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		t->v = v;
		t->cap = cap;
	}
	memset(&t->v[t->n], 0, sizeof(t->v[t->n]));
	t->v[t->n].name = strdup(name);
	t->v[t->n].old = old;
	return t->v[t->n].name ? &t->v[t->n++] : NULL;
}

/*
 * FUNCS: "ADDRESS<TAB>FUNCTION" lines, the function each instruction is
 * written in; sorted by address. -1 on error.
 */
static long read_funcs(const char *path, struct sym **out)
{
	char *line = NULL, *f[MAX_COLS];
	size_t cap = 0, n = 0, size = 0;
	struct sym *v = NULL, *w;
	FILE *in = fopen(path, "r");

	if (!in) {
		fprintf(stderr, "hot-checks diff: %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, in) > 0) {
		if (tsv_split(line, f) != 2) {
			fprintf(stderr,
				"hot-checks diff: %s: not ADDRESS<TAB>FUNCTION: %s\n",
				path, f[0]);
			goto fail;
		}
		if (n == size) {
			size = size ? 2 * size : 8192;
			w = realloc(v, size * sizeof(*v));
			if (!w)
				goto fail;
			v = w;
		}
		v[n].addr = strtoul(f[0], NULL, 16);
		v[n].insns = 0;
		v[n].name = strdup(f[1]);
		if (!v[n++].name)
			goto fail;
	}
	free(line);
	fclose(in);
	if (n)
		qsort(v, n, sizeof(*v), cmp_sym);
	*out = v;
	return (long)n;
fail:
	free(line);
	fclose(in);
	return -1;
}

/* the entry of addr, or -1 */
static long sym_at(const struct sym *s, size_t n, unsigned long addr)
{
	struct sym key = { .addr = addr };
	const struct sym *r = n ? bsearch(&key, s, n, sizeof(*s), cmp_sym) :
				  NULL;

	return r ? r - s : -1;
}

/*
 * One run's functions: the instructions of insns_file given to their
 * functions, a row per name; *total is every instruction's executions. -1
 * on error.
 */
static int read_run(const char *funcs, const char *insns_file, struct fns *t,
		    unsigned long long *total)
{
	char *line = NULL, *f[MAX_COLS];
	size_t cap = 0, i;
	unsigned long long outside = 0, insns;
	struct sym *s;
	long n = read_funcs(funcs, &s), k;
	FILE *in;
	int nf, rc = -1;

	if (n < 0)
		return -1;
	in = fopen(insns_file, "r");
	if (!in) {
		fprintf(stderr, "hot-checks diff: %s: %s\n", insns_file,
			strerror(errno));
		goto out;
	}
	*total = 0;
	while (getline(&line, &cap, in) > 0) {
		if (line[0] == '#' || !strncmp(line, "address\t", 8))
			continue;
		nf = tsv_split(line, f);
		if (nf != 2) {
			fprintf(stderr,
				"hot-checks diff: %s: not an instruction: %s\n",
				insns_file, f[0]);
			goto out;
		}
		insns = strtoull(f[1], NULL, 10);
		k = sym_at(s, n, strtoul(f[0], NULL, 16));
		if (k >= 0 && strcmp(s[k].name, "??"))
			s[k].insns += insns;
		else
			outside += insns;
		*total += insns;
	}
	for (i = 0; i < (size_t)n; i++)
		if (s[i].insns && !fns_add(t, s[i].name, s[i].insns))
			goto out;
	if (outside && !fns_add(t, OUTSIDE, outside))
		goto out;
	rc = 0;
out:
	if (in)
		fclose(in);
	free(line);
	for (i = 0; i < (size_t)n; i++)
		free(s[i].name);
	free(s);
	return rc;
}

/* rows of one name summed (static functions of the same name) */
static void merge_names(struct fns *t)
{
	size_t i, k = 0;

	qsort(t->v, t->n, sizeof(*t->v), cmp_fn_name);
	for (i = 0; i < t->n; i++) {
		if (k && !strcmp(t->v[k - 1].name, t->v[i].name)) {
			t->v[k - 1].old += t->v[i].old;
			free(t->v[i].name);
			continue;
		}
		t->v[k++] = t->v[i];
	}
	t->n = k;
}

/* old and new (both merged, by name) joined into d */
static int join(const struct fns *old, const struct fns *new, struct fns *d)
{
	size_t i = 0, j = 0;
	struct fn *r;
	int c;

	while (i < old->n || j < new->n) {
		if (i == old->n)
			c = 1;
		else if (j == new->n)
			c = -1;
		else
			c = strcmp(old->v[i].name, new->v[j].name);
		r = fns_add(d, c <= 0 ? old->v[i].name : new->v[j].name, 0);
		if (!r)
			return -1;
		if (c <= 0)
			r->old = old->v[i++].old;
		if (c >= 0)
			r->new = new->v[j++].old;
		r->delta = (long long)(r->new - r->old);
	}
	return 0;
}

/* the column indices of a census header's fields in c; 0 if all found */
static int census_cols(char **f, int nf, int *c, int *maxc)
{
	static const char *const names[] = { "site", "function", "inlined",
					     "kind" };
	int i;

	for (i = 0; i < 4; i++) {
		c[i] = tsv_col(f, nf, names[i]);
		if (c[i] < 0)
			return -1;
		*maxc = c[i] > *maxc ? c[i] : *maxc;
	}
	return 0;
}

/* a census row's columns copied into t; -1 when memory is out */
static int census_add(struct census *t, char **f, const int *c)
{
	struct crow *r;

	if (t->n == t->cap) {
		size_t size = t->cap ? 2 * t->cap : 8192;

		r = realloc(t->v, size * sizeof(*r));
		if (!r)
			return -1;
		t->v = r;
		t->cap = size;
	}
	r = &t->v[t->n];
	r->cost = 0;
	r->site = strdup(f[c[0]]);
	r->function = strdup(f[c[1]]);
	r->inlined = strdup(f[c[2]]);
	r->kind = strdup(f[c[3]]);
	r->owner = *f[c[2]] ? strndup(f[c[2]], strcspn(f[c[2]], ";")) :
			      strdup(f[c[1]]);
	if (!r->site || !r->function || !r->inlined || !r->kind || !r->owner)
		return -1;
	t->n++;
	return 0;
}

/* the census's rows (site, function, inlined, kind); -1 on error */
static int read_census(const char *path, struct census *t)
{
	char *line = NULL, *f[MAX_COLS];
	size_t cap = 0;
	int c[4], nf, maxc = 0, head = 1, rc = 0;
	FILE *in = fopen(path, "r");

	if (!in) {
		fprintf(stderr, "hot-checks diff: %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	while (!rc && getline(&line, &cap, in) > 0) {
		nf = tsv_split(line, f);
		if (head)
			rc = census_cols(f, nf, c, &maxc);
		else if (nf <= maxc || census_add(t, f, c))
			rc = -1;
		head = 0;
	}
	if (rc || head)
		fprintf(stderr,
			"hot-checks diff: %s: not a census, or out of memory\n",
			path);
	free(line);
	fclose(in);
	return rc || head ? -1 : 0;
}

/* each row's checks: the census rows written in its function; and each
 * census row's share of that function's delta */
static void count_checks(struct census *t, struct fns *d)
{
	struct fn key, *r;
	size_t i;

	for (i = 0; i < t->n; i++) {
		key.name = t->v[i].owner;
		r = bsearch(&key, d->v, d->n, sizeof(*d->v), cmp_fn_name);
		if (r)
			r->checks++;
	}
	for (i = 0; i < t->n; i++) {
		key.name = t->v[i].owner;
		r = bsearch(&key, d->v, d->n, sizeof(*d->v), cmp_fn_name);
		if (r && r->delta > 0)
			t->v[i].cost = (double)r->delta / (double)r->checks;
	}
}

static int cmp_crow_cost(const void *a, const void *b)
{
	const struct crow *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return strcmp(x->site, y->site);
}

/* an output file, or NULL (said on stderr) */
static FILE *out_open(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		fprintf(stderr, "hot-checks diff: %s: %s\n", path,
			strerror(errno));
	return f;
}

/* 0 when f was written whole, else -1 (said on stderr) */
static int out_close(FILE *f, const char *path)
{
	if (!fclose(f))
		return 0;
	fprintf(stderr, "hot-checks diff: cannot write %s\n", path);
	return -1;
}

/* the census's checks with their measured cost, for hot-checks budget */
static int write_profile(const char *path, struct census *t)
{
	FILE *f = out_open(path);
	size_t i;

	if (!f)
		return -1;
	qsort(t->v, t->n, sizeof(*t->v), cmp_crow_cost);
	fputs("rank\tcost\texecutions\tsite\tfunction\tinlined\tkind\n", f);
	for (i = 0; i < t->n; i++)
		fprintf(f, "%zu\t%.1f\t0\t%s\t%s\t%s\t%s\n", i + 1,
			t->v[i].cost, t->v[i].site, t->v[i].function,
			t->v[i].inlined, t->v[i].kind);
	return out_close(f, path);
}

static double pct(long long part, long long whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

static int write_rows(const char *path, const struct fns *d, long long delta)
{
	FILE *f = out_open(path);
	size_t i;

	if (!f)
		return -1;
	fputs("rank\tdelta\tshare\told\tnew\tchecks\tfunction\n", f);
	for (i = 0; i < d->n; i++)
		fprintf(f, "%zu\t%lld\t%.4f\t%llu\t%llu\t%llu\t%s\n", i + 1,
			d->v[i].delta, pct(d->v[i].delta, delta), d->v[i].old,
			d->v[i].new, d->v[i].checks, d->v[i].name);
	return out_close(f, path);
}

static void print_top(const struct fns *d, unsigned long long old,
		      unsigned long long new, size_t top)
{
	long long delta = (long long)(new - old), up = 0, down = 0, cum = 0;
	size_t i, half = 0;

	for (i = 0; i < d->n; i++) {
		if (d->v[i].delta > 0)
			up += d->v[i].delta;
		else
			down += d->v[i].delta;
	}
	for (i = 0; i < d->n && d->v[i].delta > 0 && !half; i++) {
		cum += d->v[i].delta;
		if (2 * cum >= up)
			half = i + 1;
	}
	printf("hot-checks diff: kernel instructions %llu -> %llu: %+lld (%+.2f %%)\n",
	       old, new, delta, pct(delta, (long long)old));
	printf("hot-checks diff: %zu functions; %+lld where the new kernel runs more, %+lld where less; half of the more is the top %zu\n",
	       d->n, up, down, half);
	printf("%4s %12s %7s %12s %12s %6s  %s\n", "#", "delta", "share", "old",
	       "new", "checks", "function");
	for (i = 0; i < d->n && i < top && d->v[i].delta > 0; i++)
		printf("%4zu %+12lld %6.1f%% %12llu %12llu %6llu  %s\n", i + 1,
		       d->v[i].delta, pct(d->v[i].delta, delta), d->v[i].old,
		       d->v[i].new, d->v[i].checks, d->v[i].name);
}

int diff_main(int argc, char **argv)
{
	struct fns old = { 0 }, new = { 0 }, d = { 0 };
	unsigned long long told = 0, tnew = 0;
	const char *out = NULL, *census = NULL, *profile = NULL, *n = "20";
	const struct opt opts[] = {
		{ 'n', &n },
		{ 'o', &out },
		{ 'c', &census },
		{ 'p', &profile },
	};
	struct census rows = { 0 };
	size_t top;
	int k = args_parse(argc, argv, opts, sizeof(opts) / sizeof(opts[0]));

	if (k < 0 || argc - k != 4 || (profile && !census))
		return -1;
	top = strtoul(n, NULL, 10);
	argv += k;
	if (read_run(argv[0], argv[1], &old, &told) ||
	    read_run(argv[2], argv[3], &new, &tnew))
		return 2;
	if (!told || !tnew) {
		fprintf(stderr,
			"hot-checks diff: no kernel instruction ran in %s\n",
			told ? argv[3] : argv[1]);
		return 1;
	}
	merge_names(&old);
	merge_names(&new);
	if (join(&old, &new, &d))
		return 2;
	if (census && read_census(census, &rows))
		return 2;
	count_checks(&rows, &d);
	if (profile && write_profile(profile, &rows))
		return 2;
	qsort(d.v, d.n, sizeof(*d.v), cmp_fn_delta);
	if (out && write_rows(out, &d, (long long)(tnew - told)))
		return 2;
	print_top(&d, told, tnew, top);
	return 0;
}
