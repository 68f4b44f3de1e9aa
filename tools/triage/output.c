// SPDX-License-Identifier: GPL-2.0
/*
 * Output: a table for people, TSV for sh/awk, one JSON document.
 */
#include <string.h>

#include "triage.h"

/* Length of a valid UTF-8 sequence at s, or 0. */
static int utf8_len(const unsigned char *s)
{
	int n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

/* A JSON string; invalid UTF-8 bytes become U+FFFD. */
void json_str(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	int n;

	putc('"', f);
	for (; *s; s++) {
		switch (*s) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		default:
			if (*s < 0x20 || *s == 0x7f) {
				fprintf(f, "\\u%04x", *s);
			} else if (*s < 0x80) {
				putc(*s, f);
			} else if ((n = utf8_len(s))) {
				fwrite(s, 1, (size_t)n, f);
				s += n - 1;
			} else {
				fputs("\\ufffd", f);
			}
		}
	}
	putc('"', f);
}

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
			s->r.func[0] ? s->r.func : "-", s->count);
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
			s->r.func[0] ? s->r.func : "-");
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

static void json_frame(FILE *f, const struct frame *fr, int last)
{
	const char *p, *nl;
	char buf[FUNC_MAX + PATH_MAX_T + 64];
	int first = 1;

	fputs("{\"func\": ", f);
	json_str(f, fr->func);
	fprintf(f, ", \"offset\": %lu, \"size\": %lu, \"module\": ", fr->off,
		fr->size);
	json_str(f, fr->module);
	fprintf(f, ", \"unreliable\": %s", fr->unreliable ? "true" : "false");
	if (fr->src) {
		fputs(", \"src\": [", f);
		for (p = fr->src; *p; p = nl + (*nl ? 1 : 0)) {
			nl = strchr(p, '\n');
			if (!nl)
				nl = p + strlen(p);
			tl_copy(buf, sizeof(buf), p, (size_t)(nl - p));
			fputs(first ? "" : ", ", f);
			json_str(f, buf);
			first = 0;
		}
		putc(']', f);
	}
	fputs(last ? "}" : "},", f);
}

/* --syz: the crash directories a site was seen in, in order of reading */
static void json_crashes(FILE *f, const struct site *s,
			 const struct crashdir *c)
{
	size_t i;

	fputs(",\n      \"crashes\": [", f);
	for (i = 0; i < s->ncrashes; i++) {
		fputs(i ? ",\n        {\"name\": " : "\n        {\"name\": ",
		      f);
		json_str(f, c[s->crashes[i]].name);
		fputs(", \"description\": ", f);
		json_str(f, c[s->crashes[i]].description);
		fputs(", \"path\": ", f);
		json_str(f, c[s->crashes[i]].path);
		putc('}', f);
	}
	putc(']', f);
}

static void json_site(FILE *f, const struct site *s, const struct logs *lg)
{
	const struct report *r = &s->r;
	char site[PATH_MAX_T + 32];
	int i;

#define FIELD(name, val)                             \
	do {                                         \
		fputs(",\n      \"" name "\": ", f); \
		json_str(f, val);                    \
	} while (0)
	fputs("    {\n      \"title\": ", f);
	json_str(f, r->title);
	FIELD("syz_title", r->syz_title);
	FIELD("kind", r->kind);
	FIELD("site", r->file[0] ? site_str(r, site, sizeof(site)) : "");
	FIELD("file", r->file);
	fprintf(f, ",\n      \"line\": %u,\n      \"col\": %u", r->line,
		r->col);
	FIELD("function", r->func);
	FIELD("detail", r->detail);
	FIELD("class", cls_names[s->cls]);
	FIELD("reason", s->reason);
	FIELD("suggestion", s->suggestion);
	FIELD("idiom", s->idiom);
	FIELD("workload", r->workload);
	fprintf(f, ",\n      \"count\": %lu", s->count);
	fputs(",\n      \"first\": {\"log\": ", f);
	json_str(f, lg->names[s->first.log]);
	fprintf(f, ", \"line\": %lu}", s->first.line);
	fputs(",\n      \"last\": {\"log\": ", f);
	json_str(f, lg->names[s->last.log]);
	fprintf(f, ", \"line\": %lu}", s->last.line);
	if (lg->crash)
		json_crashes(f, s, lg->crashes);
	if (r->has_rip) {
		fputs(",\n      \"rip\": ", f);
		json_frame(f, &r->rip, 1);
	}
	fputs(",\n      \"stack\": [", f);
	for (i = 0; i < r->nframes; i++) {
		fputs(i ? "\n        " : "\n        ", f);
		json_frame(f, &r->frames[i], i == r->nframes - 1);
	}
	fprintf(f, "]");
	fprintf(f, ",\n      \"corrupted\": %s",
		r->corrupted ? "true" : "false");
	fprintf(f, ",\n      \"truncated\": %s\n    }",
		r->truncated ? "true" : "false");
#undef FIELD
}

void out_json(FILE *f, const struct sitetab *t, const struct logs *lg)
{
	struct counts k;
	size_t i;
	int j;

	fputs("{\n  \"tool\": \"ubsan-triage\",\n  \"version\": ", f);
	json_str(f, TRIAGE_VERSION);
	fputs(",\n  \"logs\": [", f);
	for (j = 0; j < lg->n; j++) {
		fputs(j ? ",\n    {\"path\": " : "\n    {\"path\": ", f);
		json_str(f, lg->names[j]);
		fprintf(f, ", \"lines\": %lu, \"reports\": %lu}", lg->lines[j],
			lg->reports[j]);
	}
	fputs("\n  ],\n  \"sites\": [\n", f);
	for (i = 0; i < t->n; i++) {
		json_site(f, t->v[i], lg);
		fputs(i + 1 < t->n ? ",\n" : "\n", f);
	}
	class_counts(t, &k);
	fprintf(f,
		"  ],\n  \"summary\": {\n    \"reports\": %lu,\n"
		"    \"sites\": %zu",
		t->reports, t->n);
	for (j = 0; j < CLS_COUNT; j++)
		fprintf(f, ",\n    \"%s\": %lu", cls_names[j], k.cls[j]);
	fprintf(f, ",\n    \"int_sanitizer_sites\": %lu", k.int_sites);
	fprintf(f, ",\n    \"unexplained_sites\": %lu", k.unexplained);
	fprintf(f, ",\n    \"finding_sites\": %lu", k.findings);
	fprintf(f, ",\n    \"explained_sites\": %lu", k.explained);
	fprintf(f, ",\n    \"false_positive_sites\": %lu", k.intentional);
	if (k.explained)
		fprintf(f, ",\n    \"fp_rate\": %.4f\n  }\n}\n",
			(double)k.intentional / (double)k.explained);
	else
		fputs(",\n    \"fp_rate\": null\n  }\n}\n", f);
}
