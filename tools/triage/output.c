// SPDX-License-Identifier: GPL-2.0
/*
 * Output: a table for people, TSV for sh/awk, one JSON document.
 */
#include <string.h>

#include "triage.h"

/* TSV and table cells: no tabs or newlines inside a field. */
static void flat(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			fputs(" | ", f);
		else if (*s == '\t' || (unsigned char)*s < 0x20)
			putc(' ', f);
		else
			putc(*s, f);
	}
}

static const char *site_str(const struct report *r, char *buf, size_t sz)
{
	if (!r->file[0])
		snprintf(buf, sz, "-");
	else if (r->col)
		snprintf(buf, sz, "%s:%u:%u", r->file, r->line, r->col);
	else
		snprintf(buf, sz, "%s:%u", r->file, r->line);
	return buf;
}

/*
 * Sites per class, and over the integer-check sites (test_ubsan's
 * deliberate ones left out): how many nobody has explained yet (class
 * new) and how many of the explained ones are intentional (false
 * positives). A rate is only given over the explained ones.
 */
void class_counts(const struct sitetab *t, struct counts *k)
{
	size_t i;
	const struct site *s;

	memset(k, 0, sizeof(*k));
	for (i = 0; i < t->n; i++) {
		s = t->v[i];
		k->cls[s->cls]++;
		/* Deliberate reports are neither noise nor findings. */
		if (s->cls == CLS_DELIBERATE)
			continue;
		if (!report_is_ubsan(&s->r) || !ubsan_int_kind(s->r.kind))
			continue;
		k->int_sites++;
		if (s->cls == CLS_NEW)
			k->unexplained++;
		if (s->cls == CLS_FINDING)
			k->findings++;
		if (s->cls == CLS_ANNOTATED || s->cls == CLS_BENIGN ||
		    s->cls == CLS_IGNORELISTED)
			k->intentional++;
	}
	k->explained = k->int_sites - k->unexplained - k->findings;
}

void out_tsv(FILE *f, const struct sitetab *t)
{
	size_t i;
	const struct site *s;
	char site[PATH_MAX_T + 32];

	for (i = 0; i < t->n; i++) {
		s = t->v[i];
		fprintf(f, "%s\t%s\t%s\t%s\t%lu\t", cls_names[s->cls],
			s->r.kind, site_str(&s->r, site, sizeof(site)),
			s->r.func[0] ? site_func(&s->r) : "-", s->count);
		flat(f, s->r.title);
		putc('\t', f);
		flat(f, s->r.detail);
		fprintf(f, "\t%s\t%s\n", s->idiom[0] ? s->idiom : "-",
			s->r.workload[0] ? s->r.workload : "-");
	}
}

/* text, with sep in place of each of its newlines */
static void indented(FILE *f, const char *text, const char *sep)
{
	const char *nl;

	while ((nl = strchr(text, '\n'))) {
		fwrite(text, 1, (size_t)(nl - text), f);
		fputs(sep, f);
		text = nl + 1;
	}
	fputs(text, f);
}

void out_table(FILE *f, const struct sitetab *t, const struct logs *lg)
{
	size_t i;
	const struct site *s;
	char site[PATH_MAX_T + 32];

	fprintf(f, "%5s  %-12s  %-25s  %-40s  %-28s  %s\n", "COUNT", "CLASS",
		"KIND", "SITE", "FUNCTION", "TITLE");
	for (i = 0; i < t->n; i++) {
		s = t->v[i];
		fprintf(f, "%5lu  %-12s  %-25s  %-40s  %-28s  ", s->count,
			cls_names[s->cls], s->r.kind,
			site_str(&s->r, site, sizeof(site)),
			s->r.func[0] ? site_func(&s->r) : "-");
		flat(f, s->r.title);
		fputs(s->r.corrupted ? "  (corrupted)\n" : "\n", f);
	}
	for (i = 0; i < t->n; i++) {
		s = t->v[i];
		if (s->cls != CLS_NEW && s->cls != CLS_FINDING && !s->reason[0])
			continue;
		fprintf(f, "\n%s [%s] first %s:%lu", s->r.title,
			cls_names[s->cls], lg->names[s->first.log],
			s->first.line);
		if (s->r.detail[0] && report_is_ubsan(&s->r)) {
			fputs("\n  detail: ", f);
			flat(f, s->r.detail);
		}
		if (s->reason[0])
			fprintf(f, "\n  reason: %s", s->reason);
		if (s->cls == CLS_NEW || s->cls == CLS_FINDING) {
			fputs("\n  suggestion:\n    ", f);
			indented(f, s->suggestion, "\n    ");
		}
		putc('\n', f);
	}
	fprintf(f, "\n%lu reports, %zu distinct sites in %d log(s)\n",
		t->reports, t->n, lg->n);
}

void out_fprate(FILE *f, const struct sitetab *t)
{
	struct counts k;
	int i;

	class_counts(t, &k);
	for (i = 0; i < CLS_COUNT; i++)
		fprintf(f, "%-12s %lu\n", cls_names[i], k.cls[i]);
	fprintf(f, "int_sites    %lu\n", k.int_sites);
	fprintf(f, "unexplained  %lu\n", k.unexplained);
	fprintf(f, "findings     %lu\n", k.findings);
	if (k.explained)
		fprintf(f, "fp_rate      %lu/%lu = %.3f\n", k.intentional,
			k.explained,
			(double)k.intentional / (double)k.explained);
	else
		fprintf(f, "fp_rate      %lu/%lu = -\n", k.intentional,
			k.explained);
}

static void json_frame(struct json *j, const char *key, const struct frame *fr)
{
	const char *p, *nl;
	char buf[FUNC_MAX + PATH_MAX_T + 64];

	json_object(j, key, JSON_INLINE);
	json_string(j, "func", fr->func);
	json_uint(j, "offset", fr->off);
	json_uint(j, "size", fr->size);
	json_string(j, "module", fr->module);
	json_bool(j, "unreliable", fr->unreliable);
	if (fr->src) {
		json_array(j, "src", JSON_INLINE);
		for (p = fr->src; *p; p = nl + (*nl ? 1 : 0)) {
			nl = strchr(p, '\n');
			if (!nl)
				nl = p + strlen(p);
			tl_copy(buf, sizeof(buf), p, (size_t)(nl - p));
			json_string(j, NULL, buf);
		}
		json_end(j);
	}
	json_end(j);
}

/* --syz: the crash directories a site was seen in, in order of reading */
static void json_crashes(struct json *j, const struct site *s,
			 const struct crashdir *c)
{
	size_t i;

	json_array(j, "crashes", JSON_ROWS);
	for (i = 0; i < s->ncrashes; i++) {
		json_object(j, NULL, JSON_INLINE);
		json_string(j, "name", c[s->crashes[i]].name);
		json_string(j, "description", c[s->crashes[i]].description);
		json_string(j, "path", c[s->crashes[i]].path);
		json_end(j);
	}
	json_end(j);
}

/* Where in the logs: {"log": name, "line": N} */
static void json_where(struct json *j, const char *key,
		       const struct occurrence *o, const struct logs *lg)
{
	json_object(j, key, JSON_INLINE);
	json_string(j, "log", lg->names[o->log]);
	json_uint(j, "line", o->line);
	json_end(j);
}

static void json_site(struct json *j, const struct site *s,
		      const struct logs *lg)
{
	const struct report *r = &s->r;
	char site[PATH_MAX_T + 32];
	int i;

	json_object(j, NULL, JSON_LINES);
	json_string(j, "title", r->title);
	json_string(j, "syz_title", r->syz_title);
	json_string(j, "kind", r->kind);
	json_string(j, "site",
		    r->file[0] ? site_str(r, site, sizeof(site)) : "");
	json_string(j, "file", r->file);
	json_uint(j, "line", r->line);
	json_uint(j, "col", r->col);
	json_string(j, "function", site_func(r));
	json_string(j, "detail", r->detail);
	json_string(j, "class", cls_names[s->cls]);
	json_string(j, "reason", s->reason);
	json_string(j, "suggestion", s->suggestion);
	json_string(j, "idiom", s->idiom);
	json_string(j, "workload", r->workload);
	json_uint(j, "count", s->count);
	json_where(j, "first", &s->first, lg);
	json_where(j, "last", &s->last, lg);
	if (lg->crash)
		json_crashes(j, s, lg->crashes);
	if (r->has_rip)
		json_frame(j, "rip", &r->rip);
	json_array(j, "stack", JSON_ROWS);
	for (i = 0; i < r->nframes; i++)
		json_frame(j, NULL, &r->frames[i]);
	json_end(j);
	json_bool(j, "corrupted", r->corrupted);
	json_bool(j, "truncated", r->truncated);
	json_end(j);
}

static void json_summary(struct json *j, const struct sitetab *t)
{
	struct counts k;
	int i;

	class_counts(t, &k);
	json_object(j, "summary", JSON_LINES);
	json_uint(j, "reports", t->reports);
	json_uint(j, "sites", t->n);
	for (i = 0; i < CLS_COUNT; i++)
		json_uint(j, cls_names[i], k.cls[i]);
	json_uint(j, "int_sanitizer_sites", k.int_sites);
	json_uint(j, "unexplained_sites", k.unexplained);
	json_uint(j, "finding_sites", k.findings);
	json_uint(j, "explained_sites", k.explained);
	json_uint(j, "false_positive_sites", k.intentional);
	if (k.explained)
		json_fixed(j, "fp_rate",
			   (double)k.intentional / (double)k.explained, 4);
	else
		json_null(j, "fp_rate");
	json_end(j);
}

void out_json(FILE *f, const struct sitetab *t, const struct logs *lg)
{
	struct json j;
	size_t i;
	int l;

	json_init(&j, f);
	json_object(&j, NULL, JSON_LINES);
	json_string(&j, "tool", "ubsan-triage");
	json_string(&j, "version", TRIAGE_VERSION);
	json_array(&j, "logs", JSON_LINES);
	for (l = 0; l < lg->n; l++) {
		json_object(&j, NULL, JSON_INLINE);
		json_string(&j, "path", lg->names[l]);
		json_uint(&j, "lines", lg->lines[l]);
		json_uint(&j, "reports", lg->reports[l]);
		json_end(&j);
	}
	json_end(&j);
	json_array(&j, "sites", JSON_LINES);
	for (i = 0; i < t->n; i++)
		json_site(&j, t->v[i], lg);
	json_end(&j);
	json_summary(&j, t);
	json_end(&j);
}
