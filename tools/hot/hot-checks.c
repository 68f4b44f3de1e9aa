// SPDX-License-Identifier: GPL-2.0
/*
 * hot-checks: the per-check profile of make hot-checks, from a census with
 * --branches (tools/census) and the counts of the hot-checks.so QEMU
 * plugin (plugin.c).
 *
 *   hot-checks addresses CENSUS.TSV
 *       the jumps to count, one hex address a line (the plugin's addrs=)
 *   hot-checks report [-n N] [-o OUT.TSV] [-m OUT.MD] CENSUS.TSV COUNTS.TSV
 *       the checks by cost: OUT.TSV (every check), the totals and the top N
 *       (default 20) on stdout, the top N as a Markdown table in OUT.MD
 *   hot-checks budget -b PERCENT ... -o OUT.SCL NAME=HOT.TSV:OVERHEAD...
 *       the functions to leave out so that the checks hold a budget
 *       (budget.c)
 *   hot-checks diff [-n N] [-o OUT.TSV] [-c CENSUS.TSV [-p PROFILE.TSV]] OLD.FUNCS OLD.INSNS NEW.FUNCS NEW.INSNS
 *       two kernels under one workload, function by function, in guest
 *       instructions measured (diff.c)
 *
 * A check executes each time one of its jumps (the census's branches
 * column) does; each execution adds the jump's "added" instructions. Its
 * cost is the sum over its jumps of executions times added; its share is
 * that cost over the sum of all checks' costs (the overhead the census's
 * model sees), "of_kernel" the same over the instructions the guest ran in
 * the kernel. A jump that the census gave to several checks (a shared
 * handler call whose path does not say which) is split evenly among them.
 *
 * Exit status: 0 done, 1 no jump of the census ran (wrong kernel, or the
 * plugin did not run), 2 usage or input error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "budget.h"
#include "diff.h"
#include "tsv.h"

struct jump {
	unsigned long addr;
	int added;
	unsigned long long runs;
	int rows; /* the checks it is given to */
};

struct check {
	char *site, *function, *inlined, *kind, *branches;
	size_t *jumps; /* indices into the jump table */
	int njumps;
	double runs, cost, added;
};

struct profile {
	struct check *v;
	size_t n;
	struct jump *j;
	size_t nj, capj;
	unsigned long long insns_kernel, insns_user, insns_boot;
};

static void usage(FILE *f)
{
	fputs("usage: hot-checks addresses CENSUS.TSV\n"
	      "       hot-checks report [-n N] [-o OUT.TSV] [-m OUT.MD] CENSUS.TSV COUNTS.TSV\n"
	      "       hot-checks budget -b PERCENT [-f FLOOR] [-r CHECKS] [-k PROTECT.TSV] [-l LIST.SCL] -o OUT.SCL\n"
	      "                         NAME=HOT.TSV:OVERHEAD...\n"
	      "       hot-checks diff [-n N] [-o OUT.TSV] [-c CENSUS.TSV [-p PROFILE.TSV]]\n"
	      "                       OLD.FUNCS OLD.INSNS NEW.FUNCS NEW.INSNS\n",
	      f);
}

static int cmp_jump(const void *a, const void *b)
{
	const struct jump *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static long jump_find(const struct profile *p, unsigned long addr)
{
	size_t lo = 0, hi = p->nj;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->j[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->nj && p->j[lo].addr == addr ? (long)lo : -1;
}

static int jump_push(struct profile *p, unsigned long addr, int added)
{
	if (p->nj == p->capj) {
		size_t cap = p->capj ? 2 * p->capj : 4096;
		struct jump *v = realloc(p->j, cap * sizeof(*v));

		if (!v)
			return -1;
		p->j = v;
		p->capj = cap;
	}
	p->j[p->nj].addr = addr;
	p->j[p->nj].added = added;
	p->j[p->nj].runs = 0;
	p->j[p->nj++].rows = 0;
	return 0;
}

/* The census's rows and their jumps; 0 on success. */
static int read_census(const char *path, struct profile *p)
{
	enum { SITE, FUNC, INL, KIND, BR, ADDED, NC };
	static const char *const names[NC] = { "site", "function", "inlined",
					       "kind", "branches", "added" };
	char *line = NULL, *f[MAX_COLS], *s, *a, *end;
	int c[NC], nf, i, lineno = 0;
	size_t cap = 0, capv = 0, k, w;
	FILE *in = fopen(path, "r");
	struct check *ck;

	if (!in) {
		fprintf(stderr, "hot-checks: cannot read %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, in) > 0) {
		lineno++;
		nf = tsv_split(line, f);
		if (lineno == 1) {
			for (i = 0; i < NC; i++)
				c[i] = tsv_col(f, nf, names[i]);
			if (c[SITE] < 0 || c[KIND] < 0 || c[BR] < 0 ||
			    c[ADDED] < 0 || c[FUNC] < 0 || c[INL] < 0) {
				fprintf(stderr,
					"hot-checks: %s: no branches and added columns (ubsan-census --branches)\n",
					path);
				goto fail;
			}
			continue;
		}
		if (nf <= c[ADDED] || !*f[c[BR]])
			continue; /* a module's row: no jumps */
		if (p->n == capv) {
			struct check *v;

			capv = capv ? 2 * capv : 8192;
			v = realloc(p->v, capv * sizeof(*v));
			if (!v)
				goto fail;
			p->v = v;
		}
		ck = &p->v[p->n];
		memset(ck, 0, sizeof(*ck));
		ck->site = strdup(f[c[SITE]]);
		ck->function = strdup(f[c[FUNC]]);
		ck->inlined = strdup(f[c[INL]]);
		ck->kind = strdup(f[c[KIND]]);
		ck->branches = strdup(f[c[BR]]);
		ck->jumps =
			calloc(strlen(f[c[BR]]) / 3 + 1, sizeof(*ck->jumps));
		if (!ck->site || !ck->function || !ck->inlined || !ck->kind ||
		    !ck->branches || !ck->jumps)
			goto fail;
		p->n++;
		/* jumps and added, in step: "0x1;0x2" and "3;1" */
		for (s = f[c[BR]], a = f[c[ADDED]]; *s;) {
			unsigned long addr = strtoul(s, &end, 16);
			long added;

			if (end == s || (*end && *end != ';'))
				goto bad;
			s = *end ? end + 1 : end;
			added = strtol(a, &end, 10);
			if (end == a || (*end && *end != ';'))
				goto bad;
			a = *end ? end + 1 : end;
			if (jump_push(p, addr, (int)added))
				goto fail;
			ck->jumps[ck->njumps++] = p->nj - 1; /* fixed below */
		}
	}
	fclose(in);
	free(line);
	/* one entry per address: sort, merge, then point the rows at them */
	{
		struct jump *raw = malloc((p->nj ? p->nj : 1) * sizeof(*raw));

		if (!raw)
			return -1;
		memcpy(raw, p->j, p->nj * sizeof(*raw));
		qsort(p->j, p->nj, sizeof(*p->j), cmp_jump);
		for (k = 0, w = 0; k < p->nj; k++)
			if (!w || p->j[w - 1].addr != p->j[k].addr)
				p->j[w++] = p->j[k];
		p->nj = w;
		for (k = 0; k < p->n; k++)
			for (i = 0; i < p->v[k].njumps; i++) {
				long t = jump_find(p,
						   raw[p->v[k].jumps[i]].addr);

				p->v[k].jumps[i] = t;
				p->j[t].rows++;
			}
		free(raw);
	}
	return 0;
bad:
	fprintf(stderr, "hot-checks: %s:%d: bad branches or added column\n",
		path, lineno);
fail:
	fclose(in);
	free(line);
	return -1;
}

static unsigned long long field_u64(const char *line, const char *key)
{
	const char *s = strstr(line, key);

	return s ? strtoull(s + strlen(key), NULL, 10) : 0;
}

/* The plugin's counts; the number of its rows that are jumps we know. */
static long read_counts(const char *path, struct profile *p)
{
	char *line = NULL, *f[MAX_COLS], *end;
	size_t cap = 0;
	long known = 0, t;
	FILE *in = fopen(path, "r");
	int nf;

	if (!in) {
		fprintf(stderr, "hot-checks: cannot read %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, in) > 0) {
		if (line[0] == '#') {
			p->insns_kernel = field_u64(line, "insns_kernel=");
			p->insns_user = field_u64(line, "insns_user=");
			p->insns_boot = field_u64(line, "insns_boot=");
			continue;
		}
		nf = tsv_split(line, f);
		if (nf < 2 || !strcmp(f[0], "address"))
			continue;
		t = jump_find(p, strtoul(f[0], &end, 16));
		if (t < 0)
			continue;
		p->j[t].runs = strtoull(f[1], &end, 10);
		known++;
	}
	fclose(in);
	free(line);
	return known;
}

static void tally(struct profile *p)
{
	struct check *ck;
	int i;

	for (ck = p->v; ck < p->v + p->n; ck++) {
		double w = 0;

		for (i = 0; i < ck->njumps; i++) {
			const struct jump *j = &p->j[ck->jumps[i]];
			double share = (double)j->runs / j->rows;

			ck->runs += share;
			ck->cost += share * j->added;
			w += j->added;
		}
		/* per execution; with no execution, the jumps' mean */
		ck->added = ck->runs > 0 ? ck->cost / ck->runs :
					   w / (ck->njumps ? ck->njumps : 1);
	}
}

static int by_cost(const void *a, const void *b)
{
	const struct check *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost < y->cost ? 1 : -1;
	if (x->runs != y->runs)
		return x->runs < y->runs ? 1 : -1;
	return strcmp(x->site, y->site);
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0;
}

/* "1234567" as "1,234,567" */
static const char *grouped(double v, char *buf, size_t sz)
{
	char raw[32];
	size_t n, i, o = 0;

	snprintf(raw, sizeof(raw), "%.0f", v);
	n = strlen(raw);
	for (i = 0; i < n && o + 2 < sz; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = raw[i];
	}
	buf[o] = 0;
	return buf;
}

static const char *one_decimal(double v, char *buf, size_t sz)
{
	snprintf(buf, sz, "%.1f", v);
	if (strlen(buf) > 2 && !strcmp(buf + strlen(buf) - 2, ".0"))
		buf[strlen(buf) - 2] = 0;
	return buf;
}

static int write_tsv(const char *path, const struct profile *p, double total)
{
	const struct check *ck;
	char b1[32];
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "hot-checks: cannot write %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	fputs("rank\tcost\tshare\tof_kernel\texecutions\tadded\tsite\tfunction\tinlined\tkind\tbranches\n",
	      f);
	for (ck = p->v; ck < p->v + p->n; ck++)
		fprintf(f,
			"%zu\t%.0f\t%.4f\t%.4f\t%.0f\t%s\t%s\t%s\t%s\t%s\t%s\n",
			(size_t)(ck - p->v) + 1, ck->cost, pct(ck->cost, total),
			pct(ck->cost, (double)p->insns_kernel), ck->runs,
			one_decimal(ck->added, b1, sizeof(b1)), ck->site,
			ck->function, ck->inlined, ck->kind, ck->branches);
	if (fclose(f)) {
		fprintf(stderr, "hot-checks: cannot write %s\n", path);
		return -1;
	}
	return 0;
}

/* "function", or "inner < middle < function" down the inline chain */
static void where(const struct check *ck, char *buf, size_t sz)
{
	const char *s;
	size_t o = 0;

	for (s = ck->inlined; *s && o + 4 < sz; s++) {
		if (*s == ';') {
			memcpy(buf + o, " < ", 3);
			o += 3;
		} else {
			buf[o++] = *s;
		}
	}
	snprintf(buf + o, sz - o, "%s%s", o ? " < " : "", ck->function);
}

static void print_top(FILE *f, const struct profile *p, double total,
		      size_t top, int md)
{
	char b1[32], b2[32], b3[32], w[1024];
	double cum = 0;
	size_t i;

	if (md)
		fputs("| # | cost (insns) | share | cum. | executions | added | site | function (inlined < outer) | kind |\n"
		      "|---:|---:|---:|---:|---:|---:|---|---|---|\n",
		      f);
	else
		fprintf(f, "%4s %14s %6s %6s %12s %5s  %s\n", "#", "cost",
			"share", "cum", "executions", "added",
			"site  function  kind");
	for (i = 0; i < top && i < p->n; i++) {
		const struct check *ck = &p->v[i];

		cum += ck->cost;
		where(ck, w, sizeof(w));
		if (md)
			fprintf(f,
				"| %zu | %s | %.1f%% | %.1f%% | %s | %s | `%s` | `%s` | %s |\n",
				i + 1, grouped(ck->cost, b1, sizeof(b1)),
				pct(ck->cost, total), pct(cum, total),
				grouped(ck->runs, b2, sizeof(b2)),
				one_decimal(ck->added, b3, sizeof(b3)),
				ck->site, w, ck->kind);
		else
			fprintf(f,
				"%4zu %14.0f %5.1f%% %5.1f%% %12.0f %5s  %s  %s  %s\n",
				i + 1, ck->cost, pct(ck->cost, total),
				pct(cum, total), ck->runs,
				one_decimal(ck->added, b1, sizeof(b1)),
				ck->site, w, ck->kind);
	}
}

/* How many of the costliest checks make up frac of the total. */
static size_t checks_for(const struct profile *p, double total, double frac)
{
	double cum = 0;
	size_t i;

	for (i = 0; i < p->n && cum < frac * total; i++)
		cum += p->v[i].cost;
	return i;
}

static int report(int argc, char **argv)
{
	const char *out = NULL, *md = NULL, *n = "20";
	const struct opt opts[] = { { 'n', &n }, { 'o', &out }, { 'm', &md } };
	struct profile p = { 0 };
	size_t top, i, ran = 0, jran = 0;
	double total = 0, runs = 0;
	char b1[32], b2[32];
	long known;
	int k = args_parse(argc, argv, opts, sizeof(opts) / sizeof(opts[0]));

	if (k < 0 || argc - k != 2)
		return -1;
	top = strtoul(n, NULL, 10);
	if (read_census(argv[k], &p))
		return 2;
	known = read_counts(argv[k + 1], &p);
	if (known < 0)
		return 2;
	tally(&p);
	qsort(p.v, p.n, sizeof(*p.v), by_cost);
	for (i = 0; i < p.n; i++) {
		total += p.v[i].cost;
		runs += p.v[i].runs;
		ran += p.v[i].runs > 0;
	}
	for (i = 0; i < p.nj; i++)
		jran += p.j[i].runs > 0;
	if (out && write_tsv(out, &p, total))
		return 2;
	printf("hot-checks: %zu checks at %zu jumps (%ld counted); %zu checks ran (%zu jumps), %zu did not\n",
	       p.n, p.nj, known, ran, jran, p.n - ran);
	printf("hot-checks: guest instructions: kernel %s, user %s",
	       grouped((double)p.insns_kernel, b1, sizeof(b1)),
	       grouped((double)p.insns_user, b2, sizeof(b2)));
	printf(" (before the kernel, not counted: %s)\n",
	       grouped((double)p.insns_boot, b1, sizeof(b1)));
	printf("hot-checks: the checks ran %s times and added %s instructions: %.2f%% of the kernel's, %.2f%% of kernel and user\n",
	       grouped(runs, b1, sizeof(b1)), grouped(total, b2, sizeof(b2)),
	       pct(total, (double)p.insns_kernel),
	       pct(total, (double)(p.insns_kernel + p.insns_user)));
	printf("hot-checks: half of it is the top %zu checks, 90%% the top %zu, 99%% the top %zu\n",
	       checks_for(&p, total, 0.5), checks_for(&p, total, 0.9),
	       checks_for(&p, total, 0.99));
	print_top(stdout, &p, total, top, 0);
	if (md) {
		FILE *f = fopen(md, "w");

		if (!f) {
			fprintf(stderr, "hot-checks: cannot write %s\n", md);
			return 2;
		}
		print_top(f, &p, total, top, 1);
		if (fclose(f))
			return 2;
	}
	if (!jran) {
		fprintf(stderr,
			"hot-checks: no jump of the census ran: another kernel's census, or the plugin counted nothing\n");
		return 1;
	}
	return 0;
}

static int addresses(const char *census)
{
	struct profile p = { 0 };
	size_t i;

	if (read_census(census, &p))
		return 2;
	for (i = 0; i < p.nj; i++)
		printf("0x%lx\n", p.j[i].addr);
	return fflush(stdout) ? 2 : 0;
}

int main(int argc, char **argv)
{
	int ret = -1;

	if (argc == 2 &&
	    (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "addresses"))
		ret = addresses(argv[2]);
	else if (argc >= 4 && !strcmp(argv[1], "report"))
		ret = report(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "budget"))
		ret = budget_main(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "diff"))
		ret = diff_main(argc - 2, argv + 2);
	if (ret < 0) {
		usage(stderr);
		return 2;
	}
	return ret;
}
