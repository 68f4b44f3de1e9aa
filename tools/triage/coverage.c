// SPDX-License-Identifier: GPL-2.0
/*
 * --coverage CENSUS: the rules of annotations/rules.tsv over every integer
 * check of a kernel (a census TSV of tools/census): how many checks each
 * rule judges, per kind. A check counts for the first rule that matches
 * it, as a report would. A rule that also asks for a value or an origin
 * (all-ones, an error code, a system call) covers a check only "if the
 * value fits": those are counted apart.
 */
#include <stdlib.h>
#include <string.h>

#include "triage.h"

/* The kinds of the table, in the names reports use. */
static const char *const cov_kinds[] = {
	"implicit-conversion",
	"signed-integer-overflow",
	"unsigned-integer-overflow",
	"negation-overflow",
};

#define NKINDS (sizeof(cov_kinds) / sizeof(cov_kinds[0]))

/* Census columns. */
enum {
	CC_SITE,
	CC_FUNC,
	CC_INLINED,
	CC_KIND,
	CC_SRC,
	CC_DST,
	CC_SRC_BITS,
	CC_DST_BITS,
	CC_SRC_SIGNED,
	CC_DST_SIGNED,
	CC_NCOLS
};

/* the census columns a tsv_row keeps (TSV_COLS) */
_Static_assert(CC_NCOLS <= TSV_COLS, "census columns");

struct cov {
	unsigned long *full, *partial; /* [rule * NKINDS + kind] */
	unsigned long none[NKINDS], total[NKINDS];
	unsigned long skipped;
};

/* 'T' as the handler prints a type, whether or not the census quoted it. */
static void quoted(char *out, size_t sz, const char *t)
{
	snprintf(out, sz, t[0] == '\'' ? "%s" : "'%s'", t);
}

/*
 * A report made of a census row: the kind and a detail in the handler's
 * words, with "?" for the values, so that the rules read it as they read
 * a report. Returns the kind's index, or -1.
 */
static int report_of_row(char *const *c, struct report *r)
{
	char src[TYPE_MAX + 2], dst[TYPE_MAX + 2];
	const char *colon, *op = NULL, *k = c[CC_KIND];
	int kind;

	memset(r, 0, sizeof(*r));
	r->fam = FAM_UBSAN;
	colon = strrchr(c[CC_SITE], ':');
	colon = colon ? memrchr(c[CC_SITE], ':', (size_t)(colon - c[CC_SITE])) :
			NULL;
	if (!colon)
		return -1;
	tl_copy(r->file, sizeof(r->file), c[CC_SITE],
		(size_t)(colon - c[CC_SITE]));
	r->line = (unsigned int)strtoul(colon + 1, NULL, 10);
	tl_copy(r->func, sizeof(r->func), c[CC_FUNC], strlen(c[CC_FUNC]));
	quoted(src, sizeof(src), c[CC_SRC]);
	quoted(dst, sizeof(dst), c[CC_DST]);
	if (!strncmp(k, "implicit-conversion:", 20)) {
		kind = 0;
		snprintf(r->detail, sizeof(r->detail),
			 "%s of value ? from type %s to type %s: result ?",
			 k + 20, src, dst);
	} else if (!strcmp(k, "negate-overflow")) {
		kind = 3;
		snprintf(r->detail, sizeof(r->detail),
			 "negation of ? cannot be represented in type %s", src);
	} else {
		op = !strcmp(k, "add-overflow") ? "+" :
		     !strcmp(k, "sub-overflow") ? "-" :
		     !strcmp(k, "mul-overflow") ? "*" :
						  NULL;
		if (!op)
			return -1;
		kind = atoi(c[CC_SRC_SIGNED]) ? 1 : 2;
		snprintf(r->detail, sizeof(r->detail),
			 "? %s ? cannot be represented in type %s", op, src);
	}
	strcpy(r->kind, cov_kinds[kind]);
	return kind;
}

static void cov_row(const struct lists *l, char *const *c, const char *src,
		    struct cov *v)
{
	struct report r;
	struct facts f;
	size_t i, partial = l->nrules;
	int kind = report_of_row(c, &r), m;

	if (kind < 0) {
		v->skipped++;
		return;
	}
	facts_of_report(&f, &r, src);
	f.detail = NULL;
	f.census = 1;
	v->total[kind]++;
	for (i = 0; i < l->nrules; i++) {
		if (!strcmp(rule_class(&l->rules[i]), "hint"))
			continue;
		m = rule_matches(&l->rules[i], &f, &r);
		if (m == 1) {
			v->full[i * NKINDS + kind]++;
			return;
		}
		if (m == 2 && partial == l->nrules)
			partial = i;
	}
	if (partial < l->nrules)
		v->partial[partial * NKINDS + kind]++;
	else
		v->none[kind]++;
}

/* Has a rule before rule i the same name and no static column? */
static int named_before(const struct lists *l, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (!rule_is_static(&l->rules[j]) &&
		    !strcmp(rule_name(&l->rules[j]), rule_name(&l->rules[i])))
			return 1;
	return 0;
}

static void cov_print(FILE *out, const struct lists *l, const struct cov *v)
{
	unsigned long sum;
	size_t i, k;

	fprintf(out, "%-18s %-10s", "rule", "class");
	for (k = 0; k < NKINDS; k++)
		fprintf(out, " %26s", cov_kinds[k]);
	fputs("  (covered, +if the value fits)\n", out);
	for (i = 0; i < l->nrules; i++) {
		sum = 0;
		for (k = 0; k < NKINDS; k++)
			sum += v->full[i * NKINDS + k] +
			       v->partial[i * NKINDS + k];
		if (!sum)
			continue;
		fprintf(out, "%-18s %-10s", rule_name(&l->rules[i]),
			rule_class(&l->rules[i]));
		for (k = 0; k < NKINDS; k++)
			fprintf(out, " %17lu +%-8lu", v->full[i * NKINDS + k],
				v->partial[i * NKINDS + k]);
		fprintf(out, "  (%s)\n", l->rules[i].where);
	}
	fputs("judged at run time only (by the value or the stack):", out);
	for (i = 0; i < l->nrules; i++)
		if (!rule_is_static(&l->rules[i]) &&
		    strcmp(rule_class(&l->rules[i]), "hint") &&
		    !named_before(l, i))
			fprintf(out, " %s", rule_name(&l->rules[i]));
	fprintf(out, ", and every check reached from a system call\n");
	fprintf(out, "%-29s", "no static rule");
	for (k = 0; k < NKINDS; k++)
		fprintf(out, " %26lu", v->none[k]);
	fprintf(out, "\n%-29s", "checks");
	for (k = 0; k < NKINDS; k++)
		fprintf(out, " %26lu", v->total[k]);
	fprintf(out, "\n");
	if (v->skipped)
		fprintf(out, "(%lu census rows of other kinds left out)\n",
			v->skipped);
}

int coverage_main(const struct lists *l, const char *census, const char *src,
		  FILE *out)
{
	struct tsv_row *rows = NULL;
	size_t n = 0, i;
	struct cov v;

	if (lists_load_tsv(&rows, &n, census, "site\t", 1)) {
		fprintf(stderr, "ubsan-triage: cannot read %s\n", census);
		return 2;
	}
	memset(&v, 0, sizeof(v));
	v.full = calloc(l->nrules * NKINDS + 1, sizeof(*v.full));
	v.partial = calloc(l->nrules * NKINDS + 1, sizeof(*v.partial));
	for (i = 0; v.full && v.partial && i < n; i++) {
		/* the columns up to dst_signed; a missing one reads as "" */
		if (!rows[i].f[CC_DST_SIGNED][0]) {
			fprintf(stderr, "%s: fewer than %d columns\n",
				rows[i].where, CC_NCOLS);
			v.skipped++;
			continue;
		}
		cov_row(l, rows[i].f, src, &v);
	}
	if (v.full && v.partial)
		cov_print(out, l, &v);
	tsv_rows_free(rows, n);
	free(v.full);
	free(v.partial);
	return v.full && v.partial ? 0 : 2;
}
