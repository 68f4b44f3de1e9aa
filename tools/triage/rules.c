// SPDX-License-Identifier: GPL-2.0
/*
 * Judging a site nobody has explained: its facts, and the rules of
 * annotations/rules.tsv.
 *
 * The facts are what is known of a check without a human: the kind, the
 * types it converts (typedef names kept: '__sum16', 'ptr_err_t'), their
 * widths and signedness, the function and file, the value, the source line
 * at the site (from the tree the vmlinux was built in) and the system call
 * or ioctl the report was reached from. A rule matches facts and says
 * "intentional" (class annotated or benign: an idiom), "suspicious" (class
 * finding) or only names an idiom (class hint). A report whose value came
 * from user space and that no intentional rule covers is a finding too.
 *
 * The same rules read census rows (tools/census), which have every static
 * fact but no value and no stack: that is their coverage of the checks.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "triage.h"

/* Columns of a rule (annotations/rules.tsv). */
enum {
	RC_RULE,
	RC_CLASS,
	RC_KIND,
	RC_TYPES,
	RC_FUNCTION,
	RC_FILE,
	RC_DETAIL,
	RC_LINE,
	RC_ORIGIN,
	RC_REASON,
};

/* ---- types ---- */

static const struct {
	const char *name;
	int bits, is_signed;
} c_types[] = {
	{ "_Bool", 1, 0 },
	{ "bool", 1, 0 },
	{ "char", 8, 1 },
	{ "signed char", 8, 1 },
	{ "unsigned char", 8, 0 },
	{ "short", 16, 1 },
	{ "unsigned short", 16, 0 },
	{ "int", 32, 1 },
	{ "unsigned int", 32, 0 },
	{ "long", 64, 1 },
	{ "unsigned long", 64, 0 },
	{ "long long", 64, 1 },
	{ "unsigned long long", 64, 0 },
	{ "__int128", 128, 1 },
	{ "unsigned __int128", 128, 0 },
};

/* Width and signedness of a canonical C integer type name. */
static void type_width(struct ctype *t)
{
	const char *n = t->aka;
	size_t i;

	t->bits = 0;
	t->is_signed = -1;
	if (!strncmp(n, "const ", 6))
		n += 6;
	if (!strncmp(n, "volatile ", 9))
		n += 9;
	for (i = 0; i < sizeof(c_types) / sizeof(c_types[0]); i++) {
		if (!strcmp(n, c_types[i].name)) {
			t->bits = c_types[i].bits;
			t->is_signed = c_types[i].is_signed;
			return;
		}
	}
}

/*
 * "type 'NAME'" and an optional " (aka 'CANONICAL')" at p; returns the
 * text after them, or NULL if p does not start so.
 */
static const char *parse_type(const char *p, struct ctype *t)
{
	const char *q;

	if (strncmp(p, "type '", 6))
		return NULL;
	p += 6;
	q = strchr(p, '\'');
	if (!q)
		return NULL;
	tl_copy(t->name, sizeof(t->name), p, (size_t)(q - p));
	p = q + 1;
	if (!strncmp(p, " (aka '", 7) && (q = strchr(p + 7, '\''))) {
		tl_copy(t->aka, sizeof(t->aka), p + 7, (size_t)(q - p - 7));
		p = q + 1;
		if (*p == ')')
			p++;
	} else {
		strcpy(t->aka, t->name);
	}
	type_width(t);
	return p;
}

/* The word (a value) at p, up to a blank, ':' or the end. */
static void copy_word(char *dst, size_t sz, const char *p)
{
	size_t n = strcspn(p, " :");

	tl_copy(dst, sz, p, n);
}

/*
 * The types and values of a detail line:
 *   "<conv> of value V from type 'A' (aka 'B') to type 'C' ...: result R"
 *   "A op B cannot be represented in type 'T' (aka 'U')"
 *   "negation of V cannot be represented in type 'T'"
 */
static void parse_detail(struct facts *f, const char *d)
{
	const char *p;

	p = strstr(d, " of value ");
	if (p && strstr(d, " from type '")) {
		tl_copy(f->conv, sizeof(f->conv), d, (size_t)(p - d));
		copy_word(f->value, sizeof(f->value), p + 10);
		p = strstr(p, "from ");
		p = p ? parse_type(p + 5, &f->src) : NULL;
		p = p ? strstr(p, "to ") : NULL;
		if (p)
			parse_type(p + 3, &f->dst);
		p = strstr(d, ": result ");
		if (p)
			copy_word(f->result, sizeof(f->result), p + 9);
		return;
	}
	p = strstr(d, " cannot be represented in ");
	if (!p)
		return;
	tl_copy(f->value, sizeof(f->value), d, (size_t)(p - d));
	parse_type(p + 26, &f->src);
}

/* ---- the stack: which system call or ioctl the value came from ---- */

static const char *const syscall_prefixes[] = {
	"__x64_sys_", "__ia32_sys_", "__x64_compat_sys_", "__ia32_compat_sys_",
	"__se_sys_",  "__do_sys_",   "__se_compat_sys_",  "__do_compat_sys_",
};

/* "sys_NAME" if func is a system call's entry, else "". */
static int syscall_name(const char *func, char *out, size_t sz)
{
	size_t i, n;

	for (i = 0; i < sizeof(syscall_prefixes) / sizeof(*syscall_prefixes);
	     i++) {
		n = strlen(syscall_prefixes[i]);
		if (!strncmp(func, syscall_prefixes[i], n)) {
			snprintf(out, sz, "sys_%s", func + n);
			return 1;
		}
	}
	return 0;
}

/*
 * System calls that run kernel code on no value of the caller's: a
 * module's init (finit_module) computes on the module's own data.
 */
static const char *const not_user_entries[] = {
	"sys_init_module",
	"sys_finit_module",
	"sys_delete_module",
};

static int user_entry(const char *sys)
{
	size_t i;

	for (i = 0; i < sizeof(not_user_entries) / sizeof(*not_user_entries);
	     i++)
		if (!strcmp(sys, not_user_entries[i]))
			return 0;
	return 1;
}

static int has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
}

/*
 * The outermost system call of the stack, and the innermost ioctl handler
 * below it, e.g. "sys_ioctl (loop_control_ioctl)"; "" if the report was
 * not reached from a system call (boot, a kernel thread, an interrupt).
 */
void facts_entry(const struct report *r, char *out, size_t sz)
{
	char sys[FUNC_MAX] = "", fn[FUNC_MAX];
	const char *ioctl = NULL;
	int i;

	for (i = 0; i < r->nframes; i++) {
		const struct frame *fr = &r->frames[i];

		if (fr->unreliable)
			continue;
		tl_norm_func(fr->func, fn, sizeof(fn));
		if (syscall_name(fn, sys, sizeof(sys)))
			break;
		if (!ioctl && has_suffix(fn, "_ioctl"))
			ioctl = fr->func;
	}
	if (!sys[0] || !user_entry(sys)) {
		out[0] = 0;
		return;
	}
	if (ioctl) {
		tl_norm_func(ioctl, fn, sizeof(fn));
		snprintf(out, sz, "%s (%s)", sys, fn);
	} else {
		snprintf(out, sz, "%s", sys);
	}
}

/* ---- the source line ---- */

/*
 * One source file in memory, the last one asked for: a census asks for
 * thousands of lines of the same files in order.
 */
static struct {
	char path[PATH_MAX_T * 2 + 2];
	char *text;
	size_t *start; /* offset of each line */
	unsigned int n;
} src_cache;

static int load_source(const char *path)
{
	FILE *fp;
	long len;
	size_t i, *st;

	if (src_cache.text && !strcmp(src_cache.path, path))
		return 0;
	free(src_cache.text);
	free(src_cache.start);
	memset(&src_cache, 0, sizeof(src_cache));
	fp = fopen(path, "rb");
	if (!fp)
		return -1;
	if (fseek(fp, 0, SEEK_END) || (len = ftell(fp)) < 0 ||
	    fseek(fp, 0, SEEK_SET)) {
		fclose(fp);
		return -1;
	}
	src_cache.text = malloc((size_t)len + 1);
	if (src_cache.text &&
	    fread(src_cache.text, 1, (size_t)len, fp) != (size_t)len) {
		free(src_cache.text);
		src_cache.text = NULL;
	}
	fclose(fp);
	if (!src_cache.text)
		return -1;
	src_cache.text[len] = 0;
	st = malloc(((size_t)len + 2) * sizeof(*st));
	if (!st)
		return -1;
	st[0] = 0;
	src_cache.n = 1;
	for (i = 0; i < (size_t)len; i++) {
		if (src_cache.text[i] == '\n') {
			src_cache.text[i] = 0;
			st[src_cache.n++] = i + 1;
		}
	}
	src_cache.start = st;
	tl_copy(src_cache.path, sizeof(src_cache.path), path, strlen(path));
	return 0;
}

/* Lines lo..hi (1-based) of src/file, trimmed, joined with one blank. */
static int read_lines(const char *src, const char *file, unsigned int lo,
		      unsigned int hi, char *out, size_t sz)
{
	char path[PATH_MAX_T * 2 + 2];
	size_t len = 0;
	unsigned int n;

	out[0] = 0;
	if (!src || !src[0] || !file[0] || !lo)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", src, file);
	if (load_source(path) || lo > src_cache.n)
		return 0;
	for (n = lo; n <= hi && n <= src_cache.n; n++) {
		const char *s = src_cache.text + src_cache.start[n - 1];
		size_t k;

		while (isspace((unsigned char)*s))
			s++;
		k = strlen(s);
		while (k && isspace((unsigned char)s[k - 1]))
			k--;
		if (len + 2 >= sz)
			break;
		if (len)
			out[len++] = ' ';
		tl_copy(out + len, sz - len, s, k);
		len = strlen(out);
	}
	return 1;
}

/* Line n (1-based) of the loaded source, untrimmed. */
static const char *src_line(unsigned int n)
{
	return src_cache.text + src_cache.start[n - 1];
}

/*
 * Macros with an argument list that annotate a declaration without naming
 * it: sparse's lock contexts, attributes, allocation sizes.
 */
static const char *const annotations[] = {
	"__acquires",	   "__releases",    "__must_hold", "__cond_acquires",
	"__cond_releases", "__attribute__", "__attribute", "__printf",
	"__scanf",	   "__aligned",	    "__section",   "__alloc_size",
	"__realloc_size",
};

static int is_annotation(const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(annotations) / sizeof(annotations[0]); i++)
		if (strlen(annotations[i]) == n &&
		    !strncmp(b, annotations[i], n))
			return 1;
	return 0;
}

/*
 * The name a function definition's first line declares: the last
 * identifier before a '(' outside any parentheses, annotations left out
 * ("static void f(void) __acquires(x)" gives f). "" for a macro that
 * defines the function (SYSCALL_DEFINE3: no lower-case letter) or a line
 * of annotations alone.
 */
static void declared_name(const char *s, char *out, size_t sz)
{
	const char *p, *b, *e;
	int depth = 0;

	out[0] = 0;
	for (p = s; *p; p++) {
		if (*p == ')' && depth)
			depth--;
		if (*p != '(' || depth++)
			continue;
		for (e = p; e > s && e[-1] == ' '; e--)
			;
		for (b = e;
		     b > s && (isalnum((unsigned char)b[-1]) || b[-1] == '_');
		     b--)
			;
		if (b == e || is_annotation(b, (size_t)(e - b)))
			continue;
		tl_copy(out, sz, b, (size_t)(e - b));
	}
	for (p = out; *p && !islower((unsigned char)*p); p++)
		;
	if (!*p)
		out[0] = 0;
}

/*
 * The function whose body holds a site's line, in the kernel's style: the
 * opening brace alone in column 0 above it (a closing one there first: no
 * function), the name on the nearest line above the brace that starts in
 * column 0 (lines of annotations alone passed over). For a report whose
 * guilty frame's inline chain never reaches the site (off_chain: most
 * often a check that jumped to its handler, a sibling call, so the frame
 * is its caller's), the source says where the check is written.
 */
void written_in_source(struct report *r, const char *src)
{
	char path[PATH_MAX_T * 2 + 2], name[FUNC_MAX];
	unsigned int i, brace;
	const char *s;

	if (!r->off_chain || r->written_in[0] || !src || !src[0] ||
	    !r->file[0] || !r->line)
		return;
	snprintf(path, sizeof(path), "%s/%s", src, r->file);
	if (load_source(path) || r->line > src_cache.n)
		return;
	for (i = r->line - 1; i >= 1; i--) {
		s = src_line(i);
		if (s[0] == '}')
			return;
		if (s[0] == '{' && (!s[1] || isspace((unsigned char)s[1])))
			break;
	}
	for (brace = i; i > 1 && brace - i < 20;) {
		s = src_line(--i);
		if (!s[0] || isspace((unsigned char)s[0]) || s[0] == '#' ||
		    s[0] == '/' || s[0] == '*')
			continue;
		if (s[0] == '}' || s[0] == '{')
			return;
		declared_name(s, name, sizeof(name));
		if (!name[0] && !strncmp(s, "__", 2))
			continue;
		if (name[0] && strcmp(name, r->func))
			tl_copy(r->written_in, sizeof(r->written_in), name,
				strlen(name));
		return;
	}
}

/*
 * A line that ends a statement, a block or a comment (or is a directive):
 * the statement at the site starts after it.
 */
static int ends_statement(const char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (!n || strchr(";{}:", s[n - 1]) || s[0] == '#')
		return 1;
	if (n >= 2 && s[n - 2] == '*' && s[n - 1] == '/')
		return 1;
	return s[0] == '*' || !strncmp(s, "/*", 2) || !strncmp(s, "//", 2);
}

/* A comment line: the line numbers are not this tree's. */
static int is_comment(const char *s)
{
	return s[0] == '*' || !strncmp(s, "/*", 2) || !strncmp(s, "//", 2);
}

/*
 * The statement at the site: its line, joined with the lines before and
 * after it that continue the same statement (three at most each way), so
 * that a rule sees "x = max_t(u32, a, b);" of a call split over lines.
 */
void facts_source(struct facts *f, const char *src)
{
	char l[512];
	unsigned int lo = f->lineno, hi = f->lineno;

	f->line[0] = f->site_text[0] = 0;
	if (!read_lines(src, f->file, lo, hi, l, sizeof(l)) || is_comment(l))
		return;
	tl_copy(f->site_text, sizeof(f->site_text), l, strlen(l));
	while (lo > 1 && f->lineno - lo < 3 &&
	       read_lines(src, f->file, lo - 1, lo - 1, l, sizeof(l)) &&
	       !ends_statement(l))
		lo--;
	while (hi - f->lineno < 3 &&
	       read_lines(src, f->file, hi, hi, l, sizeof(l)) &&
	       !ends_statement(l))
		hi++;
	read_lines(src, f->file, lo, hi, f->line, sizeof(f->line));
	f->stmt_end = hi;
}

/* The left-hand side of the statement's assignment, "" if none. */
static void assigned(const char *stmt, char *out, size_t sz)
{
	const char *p, *e;

	out[0] = 0;
	for (p = stmt; (p = strchr(p, '=')); p++) {
		if (p > stmt && strchr("=!<>", p[-1]))
			continue;
		if (p[1] == '=')
			continue;
		break;
	}
	if (!p)
		return;
	e = p;
	if (e > stmt && strchr("+-*/%&|^", e[-1]))
		e--;
	while (e > stmt && e[-1] == ' ')
		e--;
	p = e;
	while (p > stmt &&
	       (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.' ||
		p[-1] == '>' || (p[-1] == '-' && *p == '>')))
		p--;
	tl_copy(out, sz, p, (size_t)(e - p));
}

/*
 * Where the narrowed value is used next: the first of the next 40 lines
 * that names what the statement assigned; "" if nothing was assigned or
 * it is not seen again.
 */
static void next_use(const struct facts *f, const char *src, char *out,
		     size_t sz)
{
	char lhs[96], line[512];
	unsigned int n;

	out[0] = 0;
	assigned(f->line, lhs, sizeof(lhs));
	if (!lhs[0])
		return;
	for (n = f->stmt_end + 1; n <= f->stmt_end + 40; n++) {
		if (!read_lines(src, f->file, n, n, line, sizeof(line)))
			return;
		if (strstr(line, lhs)) {
			snprintf(out, sz, "%s:%u: %s", f->file, n, line);
			return;
		}
	}
}

/* ---- facts of a report, and of a census row ---- */

void facts_of_report(struct facts *f, const struct report *r, const char *src)
{
	memset(f, 0, sizeof(*f));
	f->kind = r->kind;
	f->file = r->file;
	f->func = r->func;
	f->detail = r->detail;
	f->lineno = r->line;
	parse_detail(f, r->detail);
	facts_entry(r, f->entry, sizeof(f->entry));
	facts_source(f, src);
}

/* "s64" style: the signedness and width of a type, "?" if unknown. */
static void width_name(const struct ctype *t, char *out, size_t sz)
{
	if (!t->bits)
		snprintf(out, sz, "?");
	else
		snprintf(out, sz, "%c%d", t->is_signed ? 's' : 'u', t->bits);
}

/*
 * The types column matches "SRC>DST" (a conversion) or "TYPE" (an
 * arithmetic check), written three ways: as printed (typedef names), as
 * the canonical types, and as widths ("u64>u32", "s32").
 */
static int types_match(const char *glob, const struct facts *f)
{
	char a[2 * TYPE_MAX + 2], ws[8], wd[8];
	int conv = f->dst.name[0] != 0;

	if (!glob[0] || !strcmp(glob, "*"))
		return 1;
	if (!f->src.name[0])
		return 0;
	width_name(&f->src, ws, sizeof(ws));
	width_name(&f->dst, wd, sizeof(wd));
	snprintf(a, sizeof(a), conv ? "%s>%s" : "%s", f->src.name, f->dst.name);
	if (glob_or_any(glob, a))
		return 1;
	snprintf(a, sizeof(a), conv ? "%s>%s" : "%s", f->src.aka, f->dst.aka);
	if (glob_or_any(glob, a))
		return 1;
	snprintf(a, sizeof(a), conv ? "%s>%s" : "%s", ws, wd);
	return glob_or_any(glob, a);
}

static int any(const char *col)
{
	return !col[0] || !strcmp(col, "*");
}

static int origin_match(const char *want, const struct facts *f)
{
	if (any(want))
		return 1;
	if (!strcmp(want, "user"))
		return f->entry[0] != 0;
	if (!strcmp(want, "kernel"))
		return !f->entry[0];
	return 0;
}

/*
 * Does rule i match these facts? 0: no; 1: yes; 2 (a census row only):
 * every static column matches, and the rule also asks for a value or an
 * origin, which only a report has. A line glob without the source does
 * not match.
 */
int rule_matches(const struct tsv_row *i, const struct facts *f,
		 const struct report *r)
{
	if (!report_kind_matches(i->f[RC_KIND], r))
		return 0;
	if (!types_match(i->f[RC_TYPES], f))
		return 0;
	if (!glob_or_any(i->f[RC_FUNCTION], f->func) ||
	    !glob_or_any(i->f[RC_FILE], f->file))
		return 0;
	if (!any(i->f[RC_LINE]) &&
	    (!f->line[0] || !glob_or_any(i->f[RC_LINE], f->line)))
		return 0;
	if (f->census && any(i->f[RC_DETAIL]) && any(i->f[RC_ORIGIN]))
		return 1;
	if (f->census)
		return rule_is_static(i) ? 2 : 0;
	if (!glob_or_any(i->f[RC_DETAIL], f->detail))
		return 0;
	return origin_match(i->f[RC_ORIGIN], f);
}

/* Does the rule name anything a census row has: types, a function... */
int rule_is_static(const struct tsv_row *i)
{
	return !any(i->f[RC_TYPES]) || !any(i->f[RC_FUNCTION]) ||
	       !any(i->f[RC_FILE]) || !any(i->f[RC_LINE]);
}

const char *rule_name(const struct tsv_row *i)
{
	return i->f[RC_RULE];
}

const char *rule_class(const struct tsv_row *i)
{
	return i->f[RC_CLASS];
}

const char *rule_reason(const struct tsv_row *i)
{
	return i->f[RC_REASON];
}

/* ---- what a finding says ---- */

/* The fix direction for a finding of this kind. */
static const char *fix_direction(const struct facts *f)
{
	if (f->dst.name[0] && f->src.bits > f->dst.bits)
		return "check the range before narrowing (refuse a value that "
		       "does not fit the destination with -EINVAL or "
		       "-EOVERFLOW), or widen the destination to the source's "
		       "type";
	if (f->dst.name[0])
		return "check the sign before converting (refuse a negative "
		       "value), or give both sides one signedness";
	if (strstr(f->kind, "negation"))
		return "refuse the one value whose negation does not fit "
		       "(the type's minimum) before negating";
	return "validate the operands, or compute with "
	       "check_add_overflow()/check_mul_overflow() and refuse the "
	       "value that overflows";
}

/*
 * The evidence and fix direction of a finding: never an ignorelist line.
 * why says what made it a finding (a rule's reason, or user origin).
 */
void finding_text(const struct facts *f, const char *src, const char *why,
		  char *out, size_t sz)
{
	char use[600];
	size_t n;

	n = (size_t)snprintf(out, sz, "# finding: %s\n", why);
	if (n < sz)
		n += (size_t)snprintf(
			out + n, sz - n, "entry: %s\n",
			f->entry[0] ? f->entry :
				      "- (no system call on the stack)");
	if (n < sz)
		n += (size_t)snprintf(out + n, sz - n, "value: %s\n",
				      f->detail ? f->detail : "-");
	if (n < sz && f->line[0])
		n += (size_t)snprintf(out + n, sz - n, "line: %s:%u: %s\n",
				      f->file, f->lineno, f->line);
	next_use(f, src, use, sizeof(use));
	if (n < sz && use[0])
		n += (size_t)snprintf(out + n, sz - n, "next use: %s\n", use);
	if (n < sz)
		snprintf(out + n, sz - n, "fix: %s", fix_direction(f));
}
