// SPDX-License-Identifier: GPL-2.0
/*
 * hot-checks budget: which functions to leave out of the integer checks so
 * that the checks' run-time cost holds a budget (issue 29's ASAP step).
 *
 *   hot-checks budget -b PERCENT [-f FLOOR] [-r CHECKS] [-k PROTECT.TSV]
 *                     [-l LIST.SCL]
 *                     -o OUT.SCL
 *                     NAME=HOT.TSV:OVERHEAD...
 *
 * Each NAME=HOT.TSV:OVERHEAD is a profile (make hot-checks' hot-checks.tsv
 * of some workloads) and the overhead make bench measured for them, in per
 * cent (report/none - 1, the worst of their metrics). A profile whose
 * overhead is over the budget needs its checks' cost cut by the share
 * 1 - PERCENT / OVERHEAD: the model's cost (tools/hot/README.md) is a floor
 * of the real one, and taken as proportional to it. A profile of hot-checks
 * diff -p (executions 0) has the real one: what each function runs more
 * than without the checks, measured.
 *
 * The unit left out is a function in one sanitizer's section, the finest
 * a Clang 19 special case list has (fun: matches the function the check
 * is written in, wherever it is inlined). The groups are taken greedily,
 * the one that does most for the profiles still short per check it holds
 * first (ASAP's order: the most cost out for the least protection lost),
 * until each profile has its share, nothing is left to take, or taking more
 * would keep fewer than FLOOR per cent (default 95) of the checks: of CHECKS,
 * a reference kernel's count (make budget gives the raw kernel's census,
 * the count make noise judges), else of the profiled kernel's, the list's
 * counted in. A list that already keeps fewer (its kernel, profiled, has
 * fewer checks than the model said) gives entries back, the least cost per
 * check first, until it keeps FLOOR per cent again. A group is never taken
 * when PROTECT.TSV (function glob, kind as in corpus/ and annotations/)
 * names its function, or a function it is inlined into, with its kind: the
 * checks that catch the corpus's bugs and the kit's findings stay.
 *
 * LIST.SCL, the budget's list so far, is kept: its entries are written
 * again, with their reasons, and the new ones added after them. Each entry
 * carries its measured cost as its reason.
 *
 * Returns 0 when the list was written and the model says the budget holds,
 * 1 when it was written short of it (protected checks, the floor, or nothing
 * left), 2 on an input error or a floor no list can keep (said on stderr;
 * the list is left as it was), -1 on a usage error.
 */
#include "budget.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "tsv.h"

#define MAX_PROFILES 8
#define MAX_REASON 4096

/* The sections of the list, in the order they are written. */
static const char *const sections[] = {
	"signed-integer-overflow",
	"implicit-signed-integer-truncation",
	"implicit-unsigned-integer-truncation",
};
#define NR_SECTIONS (int)(sizeof(sections) / sizeof(sections[0]))

struct profile {
	const char *name, *path;
	double overhead; /* measured, per cent */
	double total; /* the cost of all its checks */
	double need; /* the cost to take out */
	double taken;
};

/* a function's checks of one section */
struct group {
	char *fn;
	int section;
	double cost[MAX_PROFILES], runs[MAX_PROFILES];
	long checks[MAX_PROFILES];
	int protected, taken;
	char *reason; /* an entry of LIST.SCL: its comment lines */
};

struct budget {
	double percent;
	double floor; /* per cent of the checks to keep, at least */
	long ref; /* the checks FLOOR is a share of (-r); 0: checks_all */
	long checks_all, checks_out;
	int floor_hit; /* a group was left for the floor */
	struct profile p[MAX_PROFILES];
	int np;
	struct group *g;
	size_t ng, capg;
	char **protect_fn, **protect_kind;
	size_t nprotect;
};

/* the section of a census kind ("add-overflow", "implicit-conversion:signed
 * truncation"), or -1 if the kit's list has none for it */
static int section_of_kind(const char *kind)
{
	if (strstr(kind, "unsigned truncation"))
		return 2;
	if (strstr(kind, "signed truncation"))
		return 1;
	if (strstr(kind, "-overflow"))
		return 0;
	return -1;
}

/* does a kind of corpus/ or annotations/ cover section s? */
static int kind_covers(const char *kind, int s)
{
	if (!strcmp(kind, "implicit-conversion"))
		return s == 1 || s == 2;
	if (!strcmp(kind, "signed-integer-overflow") ||
	    !strcmp(kind, "negation-overflow"))
		return s == 0;
	return 0;
}

static int section_index(const char *name)
{
	int s;

	for (s = 0; s < NR_SECTIONS; s++)
		if (!strcmp(sections[s], name))
			return s;
	return -1;
}

static struct group *group_get(struct budget *b, const char *fn, int section)
{
	struct group *g;

	for (g = b->g; g < b->g + b->ng; g++)
		if (g->section == section && !strcmp(g->fn, fn))
			return g;
	if (b->ng == b->capg) {
		size_t cap = b->capg ? 2 * b->capg : 1024;
		struct group *v = realloc(b->g, cap * sizeof(*v));

		if (!v)
			return NULL;
		b->g = v;
		b->capg = cap;
	}
	g = &b->g[b->ng++];
	memset(g, 0, sizeof(*g));
	g->fn = strdup(fn);
	g->section = section;
	return g->fn ? g : NULL;
}

/* is fn, in section s, protected by a line of PROTECT.TSV? */
static int is_protected(const struct budget *b, const char *fn, int s)
{
	size_t i;

	for (i = 0; i < b->nprotect; i++)
		if (kind_covers(b->protect_kind[i], s) &&
		    !fnmatch(b->protect_fn[i], fn, 0))
			return 1;
	return 0;
}

/* the protection of a check: its function, and each it is inlined into */
static int check_protected(const struct budget *b, const char *function,
			   char *inlined, int s)
{
	char *fn;

	if (is_protected(b, function, s))
		return 1;
	for (fn = strtok(inlined, ";"); fn; fn = strtok(NULL, ";"))
		if (is_protected(b, fn, s))
			return 1;
	return 0;
}

static int read_protect(struct budget *b, const char *path)
{
	char line[4096], *f[MAX_COLS];
	FILE *in = fopen(path, "r");

	if (!in) {
		fprintf(stderr, "hot-checks budget: %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), in)) {
		if (*line == '#' || *line == '\n' || tsv_split(line, f) < 2)
			continue;
		b->protect_fn = realloc(b->protect_fn,
					(b->nprotect + 1) * sizeof(char *));
		b->protect_kind = realloc(b->protect_kind,
					  (b->nprotect + 1) * sizeof(char *));
		if (!b->protect_fn || !b->protect_kind)
			return -1;
		b->protect_fn[b->nprotect] = strdup(f[0]);
		b->protect_kind[b->nprotect++] = strdup(f[1]);
	}
	fclose(in);
	return 0;
}

/* the columns of hot-checks.tsv that the budget reads */
enum { C_COST, C_RUNS, C_FUNCTION, C_INLINED, C_KIND, NR_C };

/* one row of a profile into its group */
static int add_row(struct budget *b, int pi, char **f, const int *c)
{
	char inlined[4096], *fn;
	size_t len;
	int s = section_of_kind(f[c[C_KIND]]);
	struct group *g;

	if (s < 0)
		return 0;
	/* the function the check is written in: the innermost of the chain */
	len = strcspn(f[c[C_INLINED]], ";");
	fn = *f[c[C_INLINED]] ? f[c[C_INLINED]] : f[c[C_FUNCTION]];
	if (!*f[c[C_INLINED]])
		len = strlen(fn);
	snprintf(inlined, sizeof(inlined), "%.*s", (int)len, fn);
	g = group_get(b, inlined, s);
	if (!g)
		return -1;
	g->cost[pi] += atof(f[c[C_COST]]);
	b->p[pi].total += atof(f[c[C_COST]]);
	g->checks[pi]++;
	g->runs[pi] += atof(f[c[C_RUNS]]);
	snprintf(inlined, sizeof(inlined), "%s", f[c[C_INLINED]]);
	if (check_protected(b, f[c[C_FUNCTION]], inlined, s))
		g->protected = 1;
	return 0;
}

static int read_profile(struct budget *b, int pi)
{
	static const char *const names[NR_C] = { "cost", "executions",
						 "function", "inlined",
						 "kind" };
	char line[8192], *f[MAX_COLS];
	int c[NR_C], i, nf, lineno = 0, maxc = 0;
	FILE *in = fopen(b->p[pi].path, "r");

	if (!in) {
		fprintf(stderr, "hot-checks budget: %s: %s\n", b->p[pi].path,
			strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), in)) {
		nf = tsv_split(line, f);
		if (++lineno == 1) {
			for (i = 0; i < NR_C; i++) {
				c[i] = tsv_col(f, nf, names[i]);
				if (c[i] > maxc)
					maxc = c[i];
				if (c[i] < 0) {
					fprintf(stderr,
						"hot-checks budget: %s: no column %s\n",
						b->p[pi].path, names[i]);
					fclose(in);
					return -1;
				}
			}
			continue;
		}
		if (nf <= maxc || add_row(b, pi, f, c) < 0) {
			fprintf(stderr, "hot-checks budget: %s:%d: bad row\n",
				b->p[pi].path, lineno);
			fclose(in);
			return -1;
		}
	}
	fclose(in);
	if (lineno < 2) {
		fprintf(stderr, "hot-checks budget: %s: no checks\n",
			b->p[pi].path);
		return -1;
	}
	return 0;
}

/* LIST.SCL so far: every entry, with the comment lines above it */
static int read_list(struct budget *b, const char *path)
{
	char line[MAX_REASON], reason[MAX_REASON] = "";
	int s = -1, lineno = 0;
	FILE *in = fopen(path, "r");
	struct group *g;

	if (!in && errno == ENOENT)
		return 0;
	if (!in) {
		fprintf(stderr, "hot-checks budget: %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), in)) {
		lineno++;
		line[strcspn(line, "\n")] = 0;
		if (*line == '[') {
			line[strcspn(line, "]")] = 0;
			s = section_index(line + 1);
		} else if (!strncmp(line, "# budget:", 9)) {
			snprintf(reason, sizeof(reason), "%s", line);
		} else if (!strncmp(line, "fun:", 4)) {
			if (s < 0) {
				fprintf(stderr,
					"hot-checks budget: %s:%d: an entry outside the kit's sections\n",
					path, lineno);
				fclose(in);
				return -1;
			}
			/* protected since: the entry goes */
			if (is_protected(b, line + 4, s)) {
				printf("  dropped, protected now: %s [%s]\n",
				       line + 4, sections[s]);
				*reason = 0;
				continue;
			}
			g = group_get(b, line + 4, s);
			if (!g) {
				fclose(in);
				return -1;
			}
			g->taken = 1;
			g->reason = strdup(reason);
			*reason = 0;
		}
	}
	fclose(in);
	return 0;
}

/* a group's checks: the most any profile has (a profile has every check of
 * its kernel, run or not), or, for an entry of the list that the profiled
 * kernel no longer has, what its reason says */
static long group_checks(const struct budget *b, const struct group *g)
{
	long n = 0;
	int i;

	for (i = 0; i < b->np; i++)
		if (g->checks[i] > n)
			n = g->checks[i];
	if (!n && g->reason)
		sscanf(g->reason, "# budget: %ld checks", &n);
	return n;
}

/* how much group g does for the profiles still short of their share, per
 * check it takes: the cost out for the protection lost, as ASAP orders */
static double score(const struct budget *b, const struct group *g)
{
	double v = 0;
	int i;

	for (i = 0; i < b->np; i++)
		if (b->p[i].taken < b->p[i].need)
			v += g->cost[i] / b->p[i].need;
	return v / (group_checks(b, g) ? group_checks(b, g) : 1);
}

static int short_of_share(const struct budget *b)
{
	int i;

	for (i = 0; i < b->np; i++)
		if (b->p[i].taken < b->p[i].need)
			return 1;
	return 0;
}

/* the reason of a new entry: what its checks cost in each profile */
static void new_reason(const struct budget *b, struct group *g)
{
	char buf[MAX_REASON];
	int i, o;

	o = snprintf(buf, sizeof(buf), "# budget: %ld checks",
		     group_checks(b, g));
	for (i = 0; i < b->np && o < (int)sizeof(buf); i++) {
		double share =
			b->p[i].total ? 100 * g->cost[i] / b->p[i].total : 0;

		/* a profile of hot-checks diff -p counts no executions: its
		 * cost is the instructions its functions run more, measured */
		if (g->runs[i] == 0 && g->cost[i] > 0)
			o += snprintf(
				buf + o, sizeof(buf) - o,
				"; in %s, %.0f instructions more than without the checks, %.2f %% of what its checks' functions add (measured +%.2f %%)",
				b->p[i].name, g->cost[i], share,
				b->p[i].overhead);
		else
			o += snprintf(
				buf + o, sizeof(buf) - o,
				"; in %s, run %.0f times, %.0f instructions, %.2f %% of its checks' cost (measured +%.2f %%)",
				b->p[i].name, g->runs[i], g->cost[i], share,
				b->p[i].overhead);
	}
	g->reason = strdup(buf);
}

/* would the checks kept, with out checks out, stay over the floor? */
static int over_floor(const struct budget *b, long out)
{
	long ref = b->ref ? b->ref : b->checks_all;

	return 100.0 * (b->checks_all - out) >= b->floor * ref;
}

/* what an entry of the list cost per check, from its reason: the sum of
 * its shares of each profile's cost ("N.NN % of ...") */
static double reason_share(const struct budget *b, const struct group *g)
{
	const char *p, *q;
	double v = 0;

	for (p = g->reason ? strstr(g->reason, " % of ") : NULL; p;
	     p = strstr(p + 1, " % of ")) {
		for (q = p; q > g->reason &&
			    (isdigit((unsigned char)q[-1]) || q[-1] == '.');
		     q--)
			;
		v += atof(q);
	}
	return v / (group_checks(b, g) ? group_checks(b, g) : 1);
}

/* under the floor already (the list's kernel has fewer checks than the
 * model said): entries go back, the least cost per check first */
static void give_back(struct budget *b)
{
	struct group *g, *least;

	while (!over_floor(b, b->checks_out)) {
		least = NULL;
		for (g = b->g; g < b->g + b->ng; g++)
			/* an entry of no known checks gives nothing back */
			if (g->taken && group_checks(b, g) &&
			    (!least ||
			     reason_share(b, g) < reason_share(b, least)))
				least = g;
		if (!least)
			return;
		least->taken = 0;
		b->checks_out -= group_checks(b, least);
		b->floor_hit = 1;
		printf("  given back, under the floor: %s [%s], %ld checks\n",
		       least->fn, sections[least->section],
		       group_checks(b, least));
	}
}

/* 0, or -1 when no list can keep FLOOR per cent of the reference */
static int take(struct budget *b)
{
	struct group *g, *best;
	int i;

	for (i = 0; i < b->np; i++) {
		double keep = b->p[i].overhead > b->percent ?
				      b->percent / b->p[i].overhead :
				      1;

		b->p[i].need = b->p[i].total * (1 - keep);
	}
	/* what the list so far takes already, if the profile still has it */
	for (g = b->g; g < b->g + b->ng; g++) {
		b->checks_all += group_checks(b, g);
		if (g->taken)
			b->checks_out += group_checks(b, g);
	}
	if (!over_floor(b, 0)) {
		fprintf(stderr,
			"hot-checks budget: the kernel has %ld checks, under %g %% of the reference's %ld even with nothing left out\n",
			b->checks_all, b->floor, b->ref);
		return -1;
	}
	give_back(b);
	for (g = b->g; g < b->g + b->ng; g++)
		for (i = 0; g->taken && i < b->np; i++)
			b->p[i].taken += g->cost[i];
	while (short_of_share(b)) {
		best = NULL;
		for (g = b->g; g < b->g + b->ng; g++) {
			if (g->taken || g->protected || score(b, g) <= 0)
				continue;
			/* the checks kept stay over the floor */
			if (!over_floor(b,
					b->checks_out + group_checks(b, g))) {
				b->floor_hit = 1;
				continue;
			}
			if (!best || score(b, g) > score(b, best))
				best = g;
		}
		if (!best)
			break;
		best->taken = 2;
		b->checks_out += group_checks(b, best);
		for (i = 0; i < b->np; i++)
			b->p[i].taken += best->cost[i];
		new_reason(b, best);
	}
	return 0;
}

static int write_list(const struct budget *b, const char *path)
{
	char tmp[4096];
	const struct group *g;
	int s;
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "hot-checks budget: cannot write %s: %s\n", tmp,
			strerror(errno));
		return -1;
	}
	fprintf(f,
		"# The overhead budget of %g %% (make budget BUDGET=%g; bench/README.md).\n"
		"# Generated: the functions whose integer checks cost the most in make\n"
		"# bench's workloads, taken out section by section until the model says\n"
		"# the budget holds. The checks of the corpus's bugs and of the kit's\n"
		"# findings are never taken. Each entry's reason is its measured cost.\n",
		b->percent, b->percent);
	for (s = 0; s < NR_SECTIONS; s++) {
		int first = 1;

		for (g = b->g; g < b->g + b->ng; g++) {
			if (g->section != s || !g->taken)
				continue;
			if (first)
				fprintf(f, "\n[%s]\n", sections[s]);
			first = 0;
			if (g->reason && *g->reason)
				fprintf(f, "%s\n", g->reason);
			fprintf(f, "fun:%s\n", g->fn);
		}
	}
	if (fclose(f) || rename(tmp, path)) {
		fprintf(stderr, "hot-checks budget: cannot write %s\n", path);
		remove(tmp);
		return -1;
	}
	return 0;
}

static void summary(const struct budget *b)
{
	const struct group *g;
	long added = 0, listed = 0;
	int i;

	for (g = b->g; g < b->g + b->ng; g++) {
		added += g->taken == 2;
		listed += g->taken != 0;
	}
	printf("budget %g %%: %ld entries added, %ld in all; %ld of %ld checks out, %.2f %% kept%s\n",
	       b->percent, added, listed, b->checks_out, b->checks_all,
	       b->checks_all ?
		       100.0 * (b->checks_all - b->checks_out) / b->checks_all :
		       100,
	       b->floor_hit ? " (the floor stopped it)" : "");
	if (b->ref)
		printf("  of the reference's %ld checks: %.2f %% kept, floor %g %%\n",
		       b->ref, 100.0 * (b->checks_all - b->checks_out) / b->ref,
		       b->floor);
	for (i = 0; i < b->np; i++)
		printf("  %s: measured +%.2f %%, needs %.1f %% of its checks' cost out, takes %.1f %%\n",
		       b->p[i].name, b->p[i].overhead,
		       b->p[i].total ? 100 * b->p[i].need / b->p[i].total : 0,
		       b->p[i].total ? 100 * b->p[i].taken / b->p[i].total : 0);
	for (g = b->g; g < b->g + b->ng; g++)
		for (i = 0; i < b->np; i++)
			if (g->protected && b->p[i].total &&
			    g->cost[i] >= 0.01 * b->p[i].total)
				printf("  kept, protected: %s [%s], %.1f %% of %s's checks' cost\n",
				       g->fn, sections[g->section],
				       100 * g->cost[i] / b->p[i].total,
				       b->p[i].name);
}

/* NAME=HOT.TSV:OVERHEAD */
static int parse_profile(struct profile *p, char *arg)
{
	char *eq = strchr(arg, '='), *colon = strrchr(arg, ':'), *end;

	if (!eq || !colon || colon < eq)
		return -1;
	*eq = *colon = 0;
	p->name = arg;
	p->path = eq + 1;
	p->overhead = strtod(colon + 1, &end);
	return *end || end == colon + 1 ? -1 : 0;
}

/* s as a number, the whole of it: 0, or -1 */
static int number(const char *s, double *v)
{
	char *end;

	*v = strtod(s, &end);
	return *end || end == s ? -1 : 0;
}

int budget_main(int argc, char **argv)
{
	static struct budget b = { .floor = 95 };
	const char *protect = NULL, *list = NULL, *out = NULL;
	const char *pct = NULL, *floor = "95", *ref = "0";
	const struct opt opts[] = {
		{ 'b', &pct },	   { 'f', &floor }, { 'r', &ref },
		{ 'k', &protect }, { 'l', &list },  { 'o', &out },
	};
	double r;
	int i = args_parse(argc, argv, opts, sizeof(opts) / sizeof(opts[0]));

	if (i < 0 || !pct || number(pct, &b.percent) ||
	    !(b.percent > 0 && b.percent < 100) || number(floor, &b.floor) ||
	    !(b.floor >= 0 && b.floor <= 100) || number(ref, &r) || r < 0 ||
	    r != (long)r)
		return -1;
	b.ref = (long)r;
	if (!out || i == argc || argc - i > MAX_PROFILES)
		return -1;
	for (; i < argc; i++)
		if (parse_profile(&b.p[b.np++], argv[i])) {
			fprintf(stderr,
				"hot-checks budget: %s: not NAME=HOT.TSV:OVERHEAD\n",
				argv[i]);
			return 2;
		}
	if ((protect && read_protect(&b, protect)) ||
	    (list && read_list(&b, list)))
		return 2;
	for (i = 0; i < b.np; i++)
		if (read_profile(&b, i))
			return 2;
	if (take(&b))
		return 2;
	if (write_list(&b, out))
		return 2;
	summary(&b);
	return short_of_share(&b) ? 1 : 0;
}
