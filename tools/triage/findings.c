// SPDX-License-Identifier: GPL-2.0
/*
 * --findings: the findings of a set of runs, one report (Markdown or
 * JSON). A finding is a site the rules judged suspicious (class finding,
 * open until someone judges it), or a site whose annotations/sites.tsv row
 * records the judgement: idiom "finding:NAME" on a row of class bug is a
 * confirmed finding, whose fix is patches/findings/NAME/; idiom
 * "rejected-finding" (or "rejected-finding:IDIOM", naming the idiom it is) on
 * any other row is a rejected one, the row's reason
 * saying why. Each comes with its evidence (entry, value, the statement,
 * the next use, a fix direction), the program that reached it, and
 * whether its statement is still in each kernel tree given with --tree
 * (its line there, "no" if it is gone, unknown without the source line).
 */
#include <stdlib.h>
#include <string.h>

#include "triage.h"

enum fverdict { V_NONE, V_OPEN, V_CONFIRMED, V_REJECTED };

static const char *const verdict_names[] = {
	"-",
	"open",
	"confirmed",
	"rejected",
};

static enum fverdict verdict_of(const struct site *s)
{
	if (s->cls == CLS_FINDING)
		return V_OPEN;
	if (s->cls == CLS_KNOWN_BUG && !strncmp(s->idiom, "finding:", 8))
		return V_CONFIRMED;
	if (!strncmp(s->idiom, "rejected-finding", 16) &&
	    (!s->idiom[16] || s->idiom[16] == ':'))
		return V_REJECTED;
	return V_NONE;
}

/*
 * Is the statement at the site still in the tree? The line of the
 * statement at the site, looked up in the same file of the other tree:
 * its line number there, 0 if it is gone.
 */
static unsigned int still_in(const struct facts *f, const char *tree)
{
	char path[PATH_MAX_T * 2 + 2], buf[1024], want[256];
	const char *s = f->site_text;
	unsigned int n = 0;
	FILE *fp;

	if (!s[0])
		return 0;
	tl_copy(want, sizeof(want), s, strlen(s));
	snprintf(path, sizeof(path), "%s/%s", tree, f->file);
	fp = fopen(path, "r");
	if (!fp)
		return 0;
	while (fgets(buf, sizeof(buf), fp)) {
		n++;
		if (strstr(buf, want)) {
			fclose(fp);
			return n;
		}
	}
	fclose(fp);
	return 0;
}

static void md_site(FILE *out, const struct site *s, const struct facts *f,
		    const char *evidence, const struct trees *t,
		    const struct logs *lg)
{
	char site[PATH_MAX_T + 32];
	unsigned int at;
	int i;

	snprintf(site, sizeof(site), "%s:%u", s->r.file, s->r.line);
	fprintf(out, "\n## %s in %s (%s)\n\n", site,
		s->r.func[0] ? site_func(&s->r) : "?",
		verdict_names[verdict_of(s)]);
	fprintf(out, "- kind: %s\n- reached by: %s (%s, line %lu)\n", s->r.kind,
		s->r.workload[0] ? s->r.workload : "boot",
		lg->names[s->first.log], s->first.line);
	fprintf(out, "- judged: %s\n", s->reason);
	for (i = 0; i < t->n; i++) {
		at = still_in(f, t->dir[i]);
		if (at)
			fprintf(out, "- in %s: yes, %s:%u\n", t->name[i],
				s->r.file, at);
		else if (!f->site_text[0])
			fprintf(out, "- in %s: unknown (no source line)\n",
				t->name[i]);
		else
			fprintf(out, "- in %s: no\n", t->name[i]);
	}
	fprintf(out, "\n```\n%s\n```\n", evidence);
}

static void json_site_f(struct json *j, const struct site *s,
			const struct facts *f, const char *evidence,
			const struct trees *t, const struct logs *lg)
{
	char site[PATH_MAX_T + 32];
	int i;

	snprintf(site, sizeof(site), "%s:%u", s->r.file, s->r.line);
	json_object(j, NULL, JSON_LINES);
	json_string(j, "site", site);
	json_string(j, "function", site_func(&s->r));
	json_string(j, "kind", s->r.kind);
	json_string(j, "verdict", verdict_names[verdict_of(s)]);
	json_string(j, "rule", s->idiom);
	json_string(j, "reason", s->reason);
	json_string(j, "workload", s->r.workload);
	json_string(j, "log", lg->names[s->first.log]);
	json_uint(j, "line", s->first.line);
	json_uint(j, "count", s->count);
	json_string(j, "entry", f->entry);
	json_string(j, "detail", s->r.detail);
	json_string(j, "evidence", evidence);
	json_object(j, "kernels", JSON_INLINE);
	for (i = 0; i < t->n; i++) {
		if (f->site_text[0])
			json_uint(j, t->name[i], still_in(f, t->dir[i]));
		else
			json_null(j, t->name[i]);
	}
	json_end(j);
	json_end(j);
}

int findings_report(FILE *out, const struct sitetab *st, const struct logs *lg,
		    const struct trees *t, const char *src, int json)
{
	char evidence[2048];
	struct facts f;
	struct json j;
	unsigned long count[4] = { 0 };
	size_t i;
	int n = 0;

	if (json) {
		json_init(&j, out);
		json_object(&j, NULL, JSON_LINES);
		json_string(&j, "tool", "ubsan-triage --findings");
		json_array(&j, "findings", JSON_LINES);
	} else {
		fputs("# Findings\n", out);
	}
	for (i = 0; i < st->n; i++) {
		const struct site *s = st->v[i];
		enum fverdict v = verdict_of(s);

		if (v == V_NONE)
			continue;
		count[v]++;
		facts_of_report(&f, &s->r, src);
		finding_text(&f, src, s->reason, evidence, sizeof(evidence));
		if (json)
			json_site_f(&j, s, &f, evidence, t, lg);
		else
			md_site(out, s, &f, evidence, t, lg);
		n++;
	}
	if (json) {
		fprintf(out,
			"\n  ],\n  \"summary\": {\"findings\": %d, \"open\": "
			"%lu, \"confirmed\": %lu, \"rejected\": %lu}\n}\n",
			n, count[V_OPEN], count[V_CONFIRMED],
			count[V_REJECTED]);
	} else {
		fprintf(out,
			"\n%d finding(s): %lu open, %lu confirmed, %lu "
			"rejected, in %d log(s)\n",
			n, count[V_OPEN], count[V_CONFIRMED], count[V_REJECTED],
			lg->n);
	}
	return count[V_OPEN] ? 1 : 0;
}
