// SPDX-License-Identifier: GPL-2.0
/*
 * Classification of sites against the kit's ignorelist (Clang special case
 * list), the known bugs (corpus/<bug>/known-bugs.tsv), annotations/sites.tsv
 * and the rules of annotations/rules.tsv (rules.c), which judge a site no row
 * explains.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "triage.h"

const char *const cls_names[CLS_COUNT] = {
	"new",	  "finding",	  "known-bug",	"annotated",
	"benign", "ignorelisted", "deliberate",
};

void lists_init(struct lists *l)
{
	memset(l, 0, sizeof(*l));
}

void tsv_rows_free(struct tsv_row *rows, size_t n)
{
	size_t i;
	int j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < TSV_COLS; j++)
			free(rows[i].f[j]);
		free(rows[i].where);
	}
	free(rows);
}

void lists_free(struct lists *l)
{
	size_t i;

	for (i = 0; i < l->nscl; i++) {
		free(l->scl[i].section);
		free(l->scl[i].type);
		free(l->scl[i].glob);
		free(l->scl[i].category);
		free(l->scl[i].reason);
		free(l->scl[i].where);
	}
	free(l->scl);
	tsv_rows_free(l->ann, l->nann);
	tsv_rows_free(l->bugs, l->nbugs);
	tsv_rows_free(l->rules, l->nrules);
	memset(l, 0, sizeof(*l));
}

static char *dupn(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *nb;
	size_t n = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (cap - n < 4096) {
			cap = cap ? cap * 2 : 8192;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = 0;
	return buf;
}

static char *where(const char *name, int line)
{
	char buf[600];

	snprintf(buf, sizeof(buf), "%s:%d", name, line);
	return dupn(buf, strlen(buf));
}

static const char *trim(char *s)
{
	size_t k;

	while (*s == ' ' || *s == '\t')
		s++;
	k = strlen(s);
	while (k && (s[k - 1] == ' ' || s[k - 1] == '\t' || s[k - 1] == '\r'))
		s[--k] = 0;
	return s;
}

/* Cut the next line out of *cur (NUL-terminating it); NULL at the end. */
static char *next_line(char **cur, int *lineno)
{
	char *line = *cur, *nl;

	if (!line)
		return NULL;
	nl = strchr(line, '\n');
	if (nl)
		*nl++ = 0;
	*cur = nl;
	(*lineno)++;
	return line;
}

/*
 * Clang special case list: "[section]" lines, "src:GLOB" and "fun:GLOB"
 * entries with an optional "=category", '#' comments. The comment lines
 * right above an entry are kept as its reason.
 */
int lists_load_scl_text(struct lists *l, const char *text, const char *name)
{
	char *copy = dupn(text, strlen(text)), *cur = copy, *line, *colon, *eq;
	char *section = NULL, reason[512] = "";
	const char *t;
	struct scl_entry *e, *ns;
	int lineno = 0;

	if (!copy)
		return -1;
	while ((line = next_line(&cur, &lineno))) {
		t = trim(line);
		if (!*t) {
			reason[0] = 0;
			continue;
		}
		if (*t == '#') {
			t++;
			while (*t == ' ')
				t++;
			if (!strncmp(t, "reason:", 7))
				t = trim((char *)t + 7);
			if (reason[0] && strlen(reason) + 2 < sizeof(reason))
				strcat(reason, " ");
			strncat(reason, t, sizeof(reason) - strlen(reason) - 1);
			continue;
		}
		if (*t == '[') {
			free(section);
			section = dupn(t + 1, strlen(t + 1));
			if (section && strrchr(section, ']'))
				*strrchr(section, ']') = 0;
			reason[0] = 0;
			continue;
		}
		colon = strchr(t, ':');
		if (!colon)
			continue;
		ns = realloc(l->scl, (l->nscl + 1) * sizeof(*ns));
		if (!ns)
			break;
		l->scl = ns;
		e = &l->scl[l->nscl++];
		memset(e, 0, sizeof(*e));
		e->section = section ? dupn(section, strlen(section)) : NULL;
		e->type = dupn(t, (size_t)(colon - t));
		eq = strchr(colon + 1, '=');
		if (eq) {
			e->category = dupn(eq + 1, strlen(eq + 1));
			*eq = 0;
		}
		e->glob = dupn(colon + 1, strlen(colon + 1));
		e->reason = dupn(reason, strlen(reason));
		e->where = where(name, lineno);
		reason[0] = 0;
	}
	free(section);
	free(copy);
	return 0;
}

/* A special case list's entry types that Clang's sanitizers read. */
static const char *const scl_types[] = { "src", "fun", "type", "global",
					 "mainfile" };

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Why LLVM's GlobPattern would refuse the glob g[0..n), or NULL. */
static const char *glob_error(const char *g, size_t n)
{
	const char *end = g + n;
	int brace = 0;

	for (; g < end; g++) {
		if (*g == '\\' && g + 1 < end) {
			g++;
		} else if (*g == '[') {
			/* a ']' right after the '[' is one of the set */
			g = g + 2 < end ? memchr(g + 2, ']', end - g - 2) :
					  NULL;
			if (!g)
				return "a '[' without its ']'";
		} else if (*g == '{') {
			if (brace)
				return "braces inside braces";
			brace = 1;
		} else if (*g == '}') {
			if (!brace)
				return "a '}' without its '{'";
			brace = 0;
		}
	}
	return brace ? "a '{' without its '}'" : NULL;
}

/* What is wrong with a line of a special case list (trimmed), or NULL. */
static const char *scl_line_error(const char *t)
{
	const char *colon, *eq;
	size_t i, n;

	if (*t == '[')
		return strlen(t) > 2 && t[strlen(t) - 1] == ']' ?
			       NULL :
			       "a section header is [SANITIZERS]";
	colon = strchr(t, ':');
	if (!colon)
		return "not an entry (TYPE:GLOB), a [section] or a # comment";
	n = (size_t)(colon - t);
	for (i = 0; i < ARRAY_LEN(scl_types); i++)
		if (strlen(scl_types[i]) == n && !strncmp(t, scl_types[i], n))
			break;
	if (i == ARRAY_LEN(scl_types))
		return "the entry type is src, fun, type, global or mainfile";
	eq = strchr(colon + 1, '=');
	if (eq && !eq[1])
		return "an empty category after '='";
	n = eq ? (size_t)(eq - colon - 1) : strlen(colon + 1);
	if (!n)
		return "an empty glob";
	return glob_error(colon + 1, n);
}

/*
 * The first line of a special case list that Clang would refuse, or that
 * would match nothing (an unknown entry type): "FILE:LINE: ..." in err,
 * and -1. The lists are read by Clang (the kernel build) and by the triage.
 */
int lists_check_scl(const char *text, const char *name, char *err, size_t sz)
{
	char *copy = dupn(text, strlen(text)), *cur = copy, *line;
	const char *t, *why = NULL;
	int lineno = 0;

	if (!copy) {
		snprintf(err, sz, "%s: out of memory", name);
		return -1;
	}
	while (!why && (line = next_line(&cur, &lineno))) {
		t = trim(line);
		if (!*t || *t == '#')
			continue;
		why = scl_line_error(t);
		if (why)
			snprintf(err, sz, "%s:%d: '%.80s': %s", name, lineno, t,
				 why);
	}
	free(copy);
	return why ? -1 : 0;
}

/*
 * The kit's tables: their columns (the header), the columns a row must
 * fill, and the values of the class column. A row has at most the
 * header's columns; trailing empty ones may be left out.
 */
static const struct tsv_spec {
	const char *file;
	const char *cols[TSV_COLS + 1];
	unsigned need; /* bit i: column i may not be empty */
	int cls; /* the class column, or -1 */
	const char *classes;
} tsv_specs[] = {
	[TSV_SITES] = { "sites.tsv",
			{ "site", "function", "kind", "class", "reason",
			  "idiom" },
			0x1f,
			3,
			"annotated ignorelisted benign bug deliberate" },
	[TSV_RULES] = { "rules.tsv",
			{ "rule", "class", "kind", "types", "function", "file",
			  "detail", "line", "origin", "reason" },
			0x203,
			1,
			"annotated benign deliberate finding hint" },
	[TSV_KNOWN_BUGS] = { "known-bugs.tsv",
			     { "name", "file", "function", "kind", "fix", "cve",
			       "detail" },
			     0xf,
			     -1,
			     NULL },
};

/* Is word one of the blank-separated words of list? */
static int one_of(const char *word, const char *list)
{
	size_t n = strlen(word);
	const char *p;

	for (p = list; n && (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return 1;
	return 0;
}

/* What is wrong with a row (trimmed; cut into fields here), or NULL. */
static const char *tsv_row_error(const struct tsv_spec *s, char *row, char *why,
				 size_t sz)
{
	char *f[TSV_COLS + 1], *tab;
	int ncols = 0, nf = 0, j;

	while (s->cols[ncols])
		ncols++;
	for (; row; row = tab) {
		tab = strchr(row, '\t');
		if (tab)
			*tab++ = 0;
		if (nf <= ncols)
			f[nf] = row;
		nf++;
	}
	if (nf > ncols) {
		snprintf(why, sz,
			 "%d columns: a %s row has at most %d (%s ... %s, tab "
			 "separated)",
			 nf, s->file, ncols, s->cols[0], s->cols[ncols - 1]);
		return why;
	}
	for (j = 0; j < ncols; j++) {
		const char *v = j < nf ? trim(f[j]) : "";
		size_t k, len;

		if ((s->need >> j & 1) && !*v) {
			len = (size_t)snprintf(why, sz, "no %s: a %s row needs",
					       s->cols[j], s->file);
			for (k = 0; k < (size_t)ncols && len < sz; k++)
				if (s->need >> k & 1)
					len += (size_t)snprintf(why + len,
								sz - len, " %s",
								s->cols[k]);
			if (len < sz)
				snprintf(why + len, sz - len,
					 ", tab separated");
			return why;
		}
		if (j == s->cls && !one_of(v, s->classes)) {
			snprintf(why, sz, "class '%.40s' is not one of %s", v,
				 s->classes);
			return why;
		}
	}
	return NULL;
}

/*
 * The first malformed row of one of the kit's tables (enum tsv_kind):
 * "FILE:LINE: ..." in err, and -1. The lines the reader skips (blank, '#',
 * a header) are skipped here too.
 */
int lists_check_tsv(const char *text, const char *name, int kind, char *err,
		    size_t sz)
{
	const struct tsv_spec *s = &tsv_specs[kind];
	char *copy = dupn(text, strlen(text)), *cur = copy, *line, hdr[32];
	char why[200];
	const char *bad = NULL;
	int lineno = 0;

	if (!copy) {
		snprintf(err, sz, "%s: out of memory", name);
		return -1;
	}
	snprintf(hdr, sizeof(hdr), "%s\t", s->cols[0]);
	while (!bad && (line = next_line(&cur, &lineno))) {
		if (!*trim(line) || line[0] == '#' ||
		    !strncmp(line, hdr, strlen(hdr)))
			continue;
		bad = tsv_row_error(s, line, why, sizeof(why));
		if (bad)
			snprintf(err, sz, "%s:%d: %s", name, lineno, bad);
	}
	free(copy);
	return bad ? -1 : 0;
}

static int has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * A list that read_file() could not read: an error, named, unless it is
 * optional (must == 0) and simply absent.
 */
static int read_error(const char *path, int must)
{
	if (!must && errno == ENOENT)
		return 0;
	fprintf(stderr, "ubsan-triage: %s: %s\n", path, strerror(errno));
	return -1;
}

/* The text of a list, or NULL with *ret set (read_error). */
static char *read_list(const char *path, int must, int *ret)
{
	char *text = read_file(path);

	*ret = text ? 0 : read_error(path, must);
	return text;
}

static int load_scl_file(struct lists *l, const char *path, int must)
{
	char err[LIST_ERR_MAX];
	int ret;
	char *text = read_list(path, must, &ret);

	if (!text)
		return ret;
	ret = lists_check_scl(text, path, err, sizeof(err));
	if (ret)
		fprintf(stderr, "ubsan-triage: %s\n", err);
	else
		ret = lists_load_scl_text(l, text, path);
	free(text);
	return ret;
}

/* A file, or every *.scl in a directory (sorted); stops at a bad one. */
int lists_load_ignorelist(struct lists *l, const char *path, int must)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **names = NULL, **nn, buf[4096];
	size_t n = 0, i;
	int ret = 0;

	if (!d) {
		if (errno == ENOTDIR)
			return load_scl_file(l, path, must);
		return read_error(path, must);
	}
	while ((de = readdir(d))) {
		if (!has_suffix(de->d_name, ".scl"))
			continue;
		nn = realloc(names, (n + 1) * sizeof(*nn));
		if (!nn)
			break;
		names = nn;
		names[n++] = dupn(de->d_name, strlen(de->d_name));
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "%s/%s", path, names[i]);
		if (!ret && load_scl_file(l, buf, 1))
			ret = -1;
		free(names[i]);
	}
	free(names);
	return ret;
}

/* TSV with a header line; '#' lines and blank lines are skipped. */
int lists_load_tsv_text(struct tsv_row **rows, size_t *n, const char *text,
			const char *name, const char *hdr)
{
	char *copy = dupn(text, strlen(text)), *cur = copy, *line, *tab;
	struct tsv_row *nr, *r;
	int lineno = 0, j;

	if (!copy)
		return -1;
	while ((line = next_line(&cur, &lineno))) {
		if (!*trim(line) || line[0] == '#' || !strncmp(line, hdr, 5))
			continue;
		nr = realloc(*rows, (*n + 1) * sizeof(*nr));
		if (!nr)
			break;
		*rows = nr;
		r = &nr[(*n)++];
		for (j = 0; j < TSV_COLS; j++) {
			tab = line ? strchr(line, '\t') : NULL;
			if (tab)
				*tab = 0;
			r->f[j] = dupn(line ? trim(line) : "",
				       line ? strlen(trim(line)) : 0);
			line = tab ? tab + 1 : NULL;
		}
		r->where = where(name, lineno);
	}
	free(copy);
	return 0;
}

int lists_load_tsv(struct tsv_row **rows, size_t *n, const char *path,
		   const char *hdr, int must)
{
	char *text = read_file(path);
	int ret;

	if (!text)
		return must ? -1 : 0;
	ret = lists_load_tsv_text(rows, n, text, path, hdr);
	free(text);
	return ret;
}

#define KNOWN_BUGS_HDR "name\tfile\tfunction\tkind\tfix\tcve\tdetail"

/* The first line that is not blank or a comment must be the header. */
static int known_bugs_header(const char *text, const char *path)
{
	const char *p = text, *nl;
	int lineno = 1;
	size_t n = 0;

	for (; *p; p = nl + 1, lineno++) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		n = (size_t)(nl - p);
		if (n && p[n - 1] == '\r')
			n--;
		if (n && p[0] != '#' && strspn(p, " \t") < n)
			break;
		if (!*nl)
			return 0;
	}
	if (!*p ||
	    (n == strlen(KNOWN_BUGS_HDR) && !memcmp(p, KNOWN_BUGS_HDR, n)))
		return 0;
	fprintf(stderr,
		"ubsan-triage: %s:%d: not the header of a known-bugs.tsv "
		"(name, file, function, kind, fix, cve, detail, tab "
		"separated)\n",
		path, lineno);
	return -1;
}

/*
 * One of the kit's tables (enum tsv_kind), checked (lists_check_tsv) and
 * then read; a known-bugs.tsv starts with its header.
 */
static int load_table(struct tsv_row **rows, size_t *n, const char *path,
		      int kind, int must)
{
	static const char *const hdr[] = { [TSV_SITES] = "site\t",
					   [TSV_RULES] = "rule\t",
					   [TSV_KNOWN_BUGS] = "name\t" };
	char err[LIST_ERR_MAX];
	int ret;
	char *text = read_list(path, must, &ret);

	if (!text)
		return ret;
	if (kind == TSV_KNOWN_BUGS)
		ret = known_bugs_header(text, path);
	if (!ret && lists_check_tsv(text, path, kind, err, sizeof(err))) {
		fprintf(stderr, "ubsan-triage: %s\n", err);
		ret = -1;
	}
	if (!ret)
		ret = lists_load_tsv_text(rows, n, text, path, hdr[kind]);
	free(text);
	return ret;
}

int lists_load_annotations(struct lists *l, const char *path, int must)
{
	return load_table(&l->ann, &l->nann, path, TSV_SITES, must);
}

/* patches/regressions/known-bugs.tsv, or one of corpus/<bug>/ */
int lists_load_known_bugs(struct lists *l, const char *path, int must)
{
	return load_table(&l->bugs, &l->nbugs, path, TSV_KNOWN_BUGS, must);
}

int lists_load_rules(struct lists *l, const char *path, int must)
{
	return load_table(&l->rules, &l->nrules, path, TSV_RULES, must);
}

/* One level of "{a,b}" expansion, recursively, then fnmatch. */
static int brace_match(const char *pat, const char *name)
{
	const char *o = strchr(pat, '{'), *c, *a, *b;
	char buf[512];
	size_t pre;

	if (!o || !(c = strchr(o, '}')))
		return fnmatch(pat, name, 0) == 0;
	pre = (size_t)(o - pat);
	for (a = o + 1; a <= c; a = b + 1) {
		b = a;
		while (b < c && *b != ',')
			b++;
		if (pre + (size_t)(b - a) + strlen(c + 1) + 1 > sizeof(buf))
			return 0;
		memcpy(buf, pat, pre);
		memcpy(buf + pre, a, (size_t)(b - a));
		strcpy(buf + pre + (b - a), c + 1);
		if (brace_match(buf, name))
			return 1;
	}
	return 0;
}

/* Section names: "a|b" alternatives, each a glob with "{x,y}" braces. */
int scl_section_match(const char *section, const char *name)
{
	char alt[256];
	const char *p = section, *bar;

	for (;;) {
		bar = strchr(p, '|');
		tl_copy(alt, sizeof(alt), p,
			bar ? (size_t)(bar - p) : strlen(p));
		if (brace_match(alt, name))
			return 1;
		if (!bar)
			return 0;
		p = bar + 1;
	}
}

static int entry_applies(const struct scl_entry *e, const struct report *r)
{
	const char *names[16];
	char slash[PATH_MAX_T + 1];
	int n, i;

	n = sanitizer_names(r, names, 16);
	if (!n)
		return 0;
	if (e->section) {
		for (i = 0; i < n; i++)
			if (scl_section_match(e->section, names[i]))
				break;
		if (i == n)
			return 0;
	}
	if (!strcmp(e->type, "fun"))
		return (r->func[0] && brace_match(e->glob, r->func)) ||
		       (r->written_in[0] &&
			brace_match(e->glob, r->written_in));
	if (!strcmp(e->type, "src")) {
		if (!r->file[0])
			return 0;
		snprintf(slash, sizeof(slash), "/%s", r->file);
		return brace_match(e->glob, r->file) ||
		       brace_match(e->glob, slash);
	}
	return 0;
}

int report_kind_matches(const char *want, const struct report *r)
{
	const char *names[16];
	int n, i;

	if (!want[0] || !strcmp(want, "*") || !strcmp(want, r->kind))
		return 1;
	n = sanitizer_names(r, names, 16);
	for (i = 0; i < n; i++)
		if (!strcmp(want, names[i]))
			return 1;
	return 0;
}

/* A column glob of a row or rule: empty or "*" matches anything. */
int glob_or_any(const char *glob, const char *name)
{
	return !glob[0] || !strcmp(glob, "*") || brace_match(glob, name);
}

static int row_matches(const char *file, const char *func, const char *kind,
		       const struct report *r)
{
	char f[PATH_MAX_T];
	const char *colon;

	tl_copy(f, sizeof(f), file, strlen(file));
	colon = strchr(f, ':');
	if (colon)
		f[colon - f] = 0;
	if (!r->file[0] || (strcmp(f, r->file) && fnmatch(f, r->file, 0)))
		return 0;
	if (!glob_or_any(func, r->func) &&
	    !(r->written_in[0] && glob_or_any(func, r->written_in)))
		return 0;
	return report_kind_matches(kind, r);
}

/* The ignorelist entry (or, for other kinds, the annotation row) to add. */
static void suggest_entry(struct site *s, const char **names, int n, size_t off)
{
	const struct report *r = &s->r;
	char *out = s->suggestion + off;
	size_t sz = sizeof(s->suggestion) - off;

	if (!n || !ubsan_int_kind(r->kind)) {
		snprintf(out, sz, "%s:%u\t%s\t%s\tbug\tTODO",
			 r->file[0] ? r->file : "?", r->line,
			 r->func[0] ? r->func : "?", r->kind);
		return;
	}
	if (r->func[0])
		snprintf(out, sz, "[%s]\n# reason: TODO\nfun:%s", names[0],
			 r->written_in[0] ? r->written_in : r->func);
	else
		snprintf(out, sz, "[%s]\n# reason: TODO\nsrc:%s", names[0],
			 r->file);
}

/* The hint rule that names the idiom of a new site, if any. */
static void suggest(const struct lists *l, struct site *s,
		    const struct facts *f)
{
	const char *names[16];
	const struct report *r = &s->r;
	int n = sanitizer_names(r, names, 16);
	size_t i, len = 0;

	for (i = 0; i < l->nrules; i++) {
		if (!strcmp(rule_class(&l->rules[i]), "hint") &&
		    rule_matches(&l->rules[i], f, r))
			break;
	}
	if (i < l->nrules) {
		tl_copy(s->idiom, sizeof(s->idiom), rule_name(&l->rules[i]),
			strlen(rule_name(&l->rules[i])));
		len = (size_t)snprintf(s->suggestion, sizeof(s->suggestion),
				       "# looks like %s: %s\n", s->idiom,
				       rule_reason(&l->rules[i]));
		if (len >= sizeof(s->suggestion))
			len = sizeof(s->suggestion) - 1;
	}
	suggest_entry(s, names, n, len);
}

static int ann_class(const char *c)
{
	if (!strcmp(c, "benign"))
		return CLS_BENIGN;
	if (!strcmp(c, "ignorelisted"))
		return CLS_IGNORELISTED;
	if (!strcmp(c, "bug"))
		return CLS_KNOWN_BUG;
	if (!strcmp(c, "deliberate"))
		return CLS_DELIBERATE;
	if (!strcmp(c, "finding"))
		return CLS_FINDING;
	return CLS_ANNOTATED;
}

/*
 * A site no row explains: the first rule that judges it (intentional or
 * suspicious), else a finding if its value came from user space, else
 * new. A finding's suggestion is its evidence and a fix direction, never
 * an ignorelist line.
 */
static void judge_site(const struct lists *l, struct site *s, const char *src)
{
	const struct report *r = &s->r;
	struct facts f;
	char why[600];
	size_t i;

	facts_of_report(&f, r, src);
	for (i = 0; i < l->nrules; i++) {
		const struct tsv_row *d = &l->rules[i];

		if (!strcmp(rule_class(d), "hint") || !rule_matches(d, &f, r))
			continue;
		s->cls = ann_class(rule_class(d));
		snprintf(s->reason, sizeof(s->reason), "%s: %s (%s)",
			 rule_name(d), rule_reason(d), d->where);
		tl_copy(s->idiom, sizeof(s->idiom), rule_name(d),
			strlen(rule_name(d)));
		if (s->cls == CLS_FINDING)
			finding_text(&f, src, s->reason, s->suggestion,
				     sizeof(s->suggestion));
		return;
	}
	if (f.entry[0] && ubsan_int_kind(r->kind)) {
		s->cls = CLS_FINDING;
		snprintf(why, sizeof(why),
			 "user-controlled: reached from %s, and no rule says "
			 "the code means it",
			 f.entry);
		tl_copy(s->reason, sizeof(s->reason), why, strlen(why));
		strcpy(s->idiom, "user-input");
		finding_text(&f, src, why, s->suggestion,
			     sizeof(s->suggestion));
		return;
	}
	s->cls = CLS_NEW;
	suggest(l, s, &f);
}

/*
 * The ignorelist (it should have silenced the site: the list is broken or
 * stale), then the known bugs: 1 if one of them classed the site.
 */
static int classify_lists(const struct lists *l, struct site *s)
{
	const struct report *r = &s->r;
	size_t i, hit = l->nscl;

	for (i = 0; i < l->nscl; i++) {
		if (!entry_applies(&l->scl[i], r))
			continue;
		if (l->scl[i].category &&
		    !strcmp(l->scl[i].category, "sanitize")) {
			hit = l->nscl;
			break;
		}
		if (hit == l->nscl)
			hit = i;
	}
	if (hit < l->nscl) {
		s->cls = CLS_IGNORELISTED;
		snprintf(s->reason, sizeof(s->reason),
			 "ignorelist broken or stale: %s:%s matches (%s)%s%s",
			 l->scl[hit].type, l->scl[hit].glob, l->scl[hit].where,
			 l->scl[hit].reason[0] ? ": " : "", l->scl[hit].reason);
		return 1;
	}
	for (i = 0; i < l->nbugs; i++) {
		const struct tsv_row *b = &l->bugs[i];

		if (!row_matches(b->f[1], b->f[2], b->f[3], r) ||
		    !glob_or_any(b->f[6], r->detail))
			continue;
		s->cls = CLS_KNOWN_BUG;
		snprintf(s->reason, sizeof(s->reason), "%s%s%s%s%s", b->f[0],
			 b->f[4][0] ? " fix: " : "", b->f[4],
			 b->f[5][0] ? " " : "", b->f[5]);
		return 1;
	}
	return 0;
}

/*
 * Order: ignorelist, known bugs, annotation rows, rules; otherwise new.
 */
void classify_site(const struct lists *l, struct site *s, const char *src)
{
	const struct report *r = &s->r;
	size_t i;

	s->reason[0] = s->suggestion[0] = s->idiom[0] = 0;
	if (classify_lists(l, s))
		return;
	for (i = 0; i < l->nann; i++) {
		const struct tsv_row *a = &l->ann[i];

		if (!row_matches(a->f[0], a->f[1], a->f[2], r))
			continue;
		s->cls = ann_class(a->f[3]);
		snprintf(s->reason, sizeof(s->reason), "%s (%s)", a->f[4],
			 a->where);
		tl_copy(s->idiom, sizeof(s->idiom), a->f[5], strlen(a->f[5]));
		return;
	}
	judge_site(l, s, src);
}

/* ---- --redundant-rows: the rows that a rule already makes ---- */

/* Columns of a row of annotations/sites.tsv. */
enum { AC_SITE, AC_FUNCTION, AC_KIND, AC_CLASS, AC_REASON, AC_IDIOM };

/* What --redundant-rows says of a row. */
enum {
	RV_REDUNDANT, /* the rules judge every site of it as it does */
	RV_DIFFERS, /* they judge a site otherwise, or not at all */
	RV_BUG, /* a human's verdict, kept whatever the rules say */
	RV_FINDING,
	RV_REJECTED,
	RV_UNSEEN, /* no site of the logs */
	RV_COUNT,
};

static const char *const rv_names[RV_COUNT] = {
	"redundant", "differs", "bug", "finding", "rejected", "unseen",
};

static int intentional(int cls)
{
	return cls == CLS_ANNOTATED || cls == CLS_BENIGN ||
	       cls == CLS_IGNORELISTED;
}

/*
 * A row that records a verdict no rule can give, whatever the rules say of
 * its sites: a bug (class bug), a finding someone confirmed (idiom
 * finding:NAME) or rejected (idiom rejected-finding[:IDIOM]). RV_BUG,
 * RV_FINDING, RV_REJECTED, or RV_COUNT for another row.
 */
static int row_keeps(const struct tsv_row *a)
{
	if (ann_class(a->f[AC_CLASS]) == CLS_KNOWN_BUG)
		return RV_BUG;
	if (ann_class(a->f[AC_CLASS]) == CLS_FINDING ||
	    !strncmp(a->f[AC_IDIOM], "finding", 7))
		return RV_FINDING;
	if (!strncmp(a->f[AC_IDIOM], "rejected-finding", 16))
		return RV_REJECTED;
	return RV_COUNT;
}

/*
 * Do the rules judge a site as the row does? The same class, or an
 * intentional class on both sides and the rule named as the row's idiom
 * (a checksum the kit annotated, which the checksum rule calls benign).
 * A finding or a new site never is.
 */
static int same_judgement(const struct tsv_row *a, const struct site *byrule)
{
	int cls = ann_class(a->f[AC_CLASS]);

	if (byrule->cls == CLS_NEW || byrule->cls == CLS_FINDING)
		return 0;
	if (byrule->cls == cls)
		return 1;
	return intentional(cls) && intentional(byrule->cls) &&
	       !strcmp(byrule->idiom, a->f[AC_IDIOM]);
}

/* Add name to the "+" separated list names, once. */
static void add_name(char *names, size_t sz, const char *name)
{
	size_t k = strlen(name), n = strlen(names);
	const char *p = names;

	while (*p) {
		if (!strncmp(p, name, k) && (p[k] == '+' || !p[k]))
			return;
		p += strcspn(p, "+");
		if (*p)
			p++;
	}
	snprintf(names + n, sz - n, "%s%s", n ? "+" : "", name);
}

#define RV_RULES 32

/* The redundant rows, per rule (or "+" list of rules) that makes them. */
struct rv_tally {
	char name[64];
	unsigned long n;
};

static void tally(struct rv_tally *t, int *nt, const char *name)
{
	int i;

	for (i = 0; i < *nt; i++) {
		if (!strcmp(t[i].name, name)) {
			t[i].n++;
			return;
		}
	}
	if (*nt == RV_RULES)
		return;
	tl_copy(t[*nt].name, sizeof(t[*nt].name), name, strlen(name));
	t[(*nt)++].n = 1;
}

/*
 * For every row of annotations/sites.tsv: the sites of the logs it
 * explains (a site the ignorelist or a known bug classes is not a row's),
 * and what the rules alone say of each, as if the row were not there. One
 * line a row:
 *   VERDICT WHERE SITE FUNCTION KIND CLASS IDIOM RULES JUDGED
 * VERDICT is one of rv_names; RULES, for a redundant row, the rules that
 * judge its sites ("-" otherwise); JUDGED, FILE:LINE:COL=CLASS/IDIOM for
 * each of its sites by the rules alone ("-" for none). Then "#" lines: the
 * counts, and the redundant rows per rule. Returns 1 if a row is
 * redundant, 0 if none is, 2 without memory.
 */
int rows_vs_rules(const struct lists *l, const struct sitetab *t,
		  const char *src, FILE *out)
{
	unsigned long count[RV_COUNT] = { 0 };
	struct rv_tally per[RV_RULES];
	struct site *byrule;
	char *ours, names[256];
	size_t i, j, n;
	int v, same, nper = 0;

	byrule = calloc(t->n + 1, sizeof(*byrule));
	ours = calloc(t->n + 1, 1);
	if (!byrule || !ours) {
		free(byrule);
		free(ours);
		return 2;
	}
	for (j = 0; j < t->n; j++) {
		byrule[j] = *t->v[j];
		byrule[j].reason[0] = byrule[j].suggestion[0] = 0;
		byrule[j].idiom[0] = 0;
		ours[j] = !classify_lists(l, &byrule[j]);
		if (ours[j])
			judge_site(l, &byrule[j], src);
	}
	for (i = 0; i < l->nann; i++) {
		const struct tsv_row *a = &l->ann[i];

		n = 0;
		same = 1;
		names[0] = 0;
		for (j = 0; j < t->n; j++) {
			if (!ours[j] ||
			    !row_matches(a->f[AC_SITE], a->f[AC_FUNCTION],
					 a->f[AC_KIND], &t->v[j]->r))
				continue;
			n++;
			if (same_judgement(a, &byrule[j]))
				add_name(names, sizeof(names), byrule[j].idiom);
			else
				same = 0;
		}
		v = row_keeps(a);
		if (!n)
			v = RV_UNSEEN;
		else if (v == RV_COUNT)
			v = same ? RV_REDUNDANT : RV_DIFFERS;
		count[v]++;
		if (v == RV_REDUNDANT)
			tally(per, &nper, names);
		fprintf(out, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t", rv_names[v],
			a->where, a->f[AC_SITE], a->f[AC_FUNCTION],
			a->f[AC_KIND], a->f[AC_CLASS],
			a->f[AC_IDIOM][0] ? a->f[AC_IDIOM] : "-",
			v == RV_REDUNDANT ? names : "-");
		for (j = 0, n = 0; j < t->n; j++) {
			if (!ours[j] ||
			    !row_matches(a->f[AC_SITE], a->f[AC_FUNCTION],
					 a->f[AC_KIND], &t->v[j]->r))
				continue;
			fprintf(out, "%s%s:%u:%u=%s/%s", n++ ? " " : "",
				byrule[j].r.file, byrule[j].r.line,
				byrule[j].r.col, cls_names[byrule[j].cls],
				byrule[j].idiom[0] ? byrule[j].idiom : "-");
		}
		fputs(n ? "\n" : "-\n", out);
	}
	fprintf(out, "# %zu rows:", l->nann);
	for (v = 0; v < RV_COUNT; v++)
		fprintf(out, " %lu %s%s", count[v], rv_names[v],
			v < RV_COUNT - 1 ? "," : "\n");
	for (v = 0; v < nper; v++)
		fprintf(out, "# redundant by %s: %lu\n", per[v].name, per[v].n);
	free(byrule);
	free(ours);
	return count[RV_REDUNDANT] ? 1 : 0;
}
