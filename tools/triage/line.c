// SPDX-License-Identifier: GPL-2.0
/*
 * Console line helpers: prefix removal, stack frame parsing, path and
 * function name normalisation.
 */
#include <string.h>

#include "triage.h"

static int is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

static int is_hex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       is_digit(c) || c == '_' || c == '.' || c == '$';
}

/* "[T123]" or "[ C0]" at p; returns the char after ']' or NULL. */
static inline const char *parse_caller(const char *p, const char *end,
				       unsigned long *caller)
{
	unsigned long id = 0;
	char t;

	p++;
	while (p < end && *p == ' ')
		p++;
	if (p >= end || (*p != 'T' && *p != 'C'))
		return NULL;
	t = *p++;
	if (p >= end || !is_digit(*p))
		return NULL;
	while (p < end && is_digit(*p))
		id = id * 10 + (unsigned long)(*p++ - '0');
	if (p >= end || *p != ']')
		return NULL;
	*caller = (unsigned long)(unsigned char)t | (id << 8);
	return p + 1;
}

/* "[  12.345678]" at p; returns the char after ']' or NULL. */
static inline const char *parse_stamp(const char *p, const char *end)
{
	const char *d;

	p++;
	while (p < end && *p == ' ')
		p++;
	d = p;
	while (p < end && ((unsigned char)(*p - '0') < 10 || *p == '.'))
		p++;
	if (p == d || p >= end || *p != ']' || !is_digit(*d))
		return NULL;
	return p + 1;
}

/* Syslog level "<4>" at p: the char after it, or p. */
static inline const char *skip_level(const char *p, const char *end)
{
	const char *q = p + 1;

	if (p >= end || *p != '<')
		return p;
	while (q < end && q - p < 5 && is_digit(*q))
		q++;
	return q > p + 1 && q < end && *q == '>' ? q + 1 : p;
}

/*
 * The usual prefix, printk's "[%5lu.%06lu]" and its caller "[%6s]"
 * ("[  123.456789][ T6213]"), checked at fixed places (the caller is
 * optional); 0 if p does not start with it. p has 23 bytes at least.
 */
static int blank_or_digit(char c)
{
	return c == ' ' || is_digit(c);
}

static int fast_prefix(const char *p, const char **q, unsigned long *caller)
{
	unsigned long id = 0;
	int i;
	char t;

	if (p[0] != '[' || p[6] != '.' || p[13] != ']' || !is_digit(p[5]) ||
	    !blank_or_digit(p[1]) || !blank_or_digit(p[2]) ||
	    !blank_or_digit(p[3]) || !blank_or_digit(p[4]) || !is_digit(p[7]) ||
	    !is_digit(p[8]) || !is_digit(p[9]) || !is_digit(p[10]) ||
	    !is_digit(p[11]) || !is_digit(p[12]))
		return 0;
	*q = p + 14;
	p += 14;
	if (p[0] != '[' || p[7] != ']')
		return 1;
	for (i = 1; i < 6 && p[i] == ' '; i++)
		;
	t = p[i];
	if (t != 'T' && t != 'C')
		return 1;
	for (i++; i < 7; i++) {
		if (!is_digit(p[i]))
			return 1;
		id = id * 10 + (unsigned long)(p[i] - '0');
	}
	*caller = (unsigned long)(unsigned char)t | (id << 8);
	*q = p + 8;
	return 1;
}

/*
 * Split a console line: "** N printk messages dropped ** ", a login
 * prompt ("syzkaller login: ") and a syslog level before the timestamp
 * and caller prefixes are removed; the line's context is its caller, or
 * CTX_CONSOLE with a timestamp only, or CTX_NONE.
 */
void tl_split(const char *raw, size_t n, struct logline *l)
{
	const char *p = raw, *end = raw + n, *q, *login;
	int stamped = 0;

	l->caller = 0;
	while (end > p && (end[-1] == '\r' || end[-1] == '\n'))
		end--;
	if (p < end && *p == '*' && end - p > 3 && !memcmp(p, "** ", 3) &&
	    is_digit(p[3])) {
		q = tl_find(p + 3, (size_t)(end - p - 3), " ** ");
		if (q && tl_find(p, (size_t)(q - p), "printk messages dropped"))
			p = q + 4;
	}
	p = skip_level(p, end);
	q = NULL;
	if (end - p >= 23 && fast_prefix(p, &q, &l->caller)) {
		stamped = 1;
	} else if (p < end && *p == '[') {
		q = parse_stamp(p, end);
		if (q) {
			stamped = 1;
			if (q < end && *q == '[') {
				const char *c =
					parse_caller(q, end, &l->caller);

				if (c)
					q = c;
			}
		} else {
			q = parse_caller(p, end, &l->caller);
		}
	} else if (p < end && *p != '<' &&
		   (login = tl_find(p, (size_t)(end - p), " login: "))) {
		/* another writer's text, then the kernel's line */
		for (; login;
		     login = tl_find(login + 1, (size_t)(end - login - 1),
				     " login: ")) {
			tl_split(login + 8, (size_t)(end - login - 8), l);
			if (l->ctx != CTX_NONE)
				return;
		}
		l->caller = 0;
	}
	if (q) {
		p = q;
		if (p < end && *p == ' ')
			p++;
	}
	l->ctx = l->caller ? l->caller : stamped ? CTX_CONSOLE : CTX_NONE;
	l->body = p;
	l->bn = (size_t)(end - p);
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	l->s = p;
	l->n = (size_t)(end - p);
}

/*
 * A header found at l->s + *hpos in a line without a prefix: if the
 * kernel's own prefix ("[  1.2][ T3] ") comes right before it, another
 * writer's text came first on the serial line; the line is the kernel's
 * from that prefix on (its context, its content). *hpos is then 0.
 */
void tl_resplit(struct logline *l, size_t *hpos)
{
	const char *h = l->s + *hpos, *end = l->s + l->n, *q = h;
	struct logline m;

	while (q > l->s && (q = memrchr(l->s, '[', (size_t)(q - l->s)))) {
		tl_split(q, (size_t)(end - q), &m);
		if (m.ctx != CTX_NONE && m.s == h) {
			*l = m;
			*hpos = 0;
			return;
		}
	}
}

int tl_starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && memcmp(s, prefix, k) == 0;
}

const char *tl_find(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	const char *p = s, *end = s + n;

	if (!k)
		return s;
	while ((size_t)(end - p) >= k) {
		p = memchr(p, needle[0], (size_t)(end - p) - k + 1);
		if (!p)
			return NULL;
		if (memcmp(p, needle, k) == 0)
			return p;
		p++;
	}
	return NULL;
}

void tl_copy(char *dst, size_t dsz, const char *s, size_t n)
{
	if (n >= dsz)
		n = dsz - 1;
	memcpy(dst, s, n);
	dst[n] = 0;
}

/* The length of the UTF-8 sequence at s[0..n), or 0 if there is none. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] >= 0xc2 && s[0] < 0xe0 ? 2 :
		     s[0] >= 0xe0 && s[0] < 0xf0 ? 3 :
		     s[0] >= 0xf0 && s[0] < 0xf5 ? 4 :
						   0;
	size_t i;

	if (len > n)
		return 0;
	for (i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/*
 * Is s[0..n), the start of a file, binary rather than a console log? Over
 * 30% of its bytes are neither printable ASCII, the controls a console
 * prints (tab, newline, carriage return, backspace, form feed, escape) nor
 * UTF-8. A console that a program wrote a binary to stays mostly text.
 */
int tl_binary(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, bad = 0, len;

	while (i < n) {
		if ((u[i] >= 0x20 && u[i] < 0x7f) || u[i] == '\t' ||
		    u[i] == '\n' || u[i] == '\r' || u[i] == '\b' ||
		    u[i] == '\f' || u[i] == 0x1b) {
			i++;
			continue;
		}
		len = utf8_len(u + i, n - i);
		if (len) {
			i += len;
			continue;
		}
		bad++;
		i++;
	}
	return bad * 10 > n * 3;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static const char *parse_hex(const char *p, const char *end, unsigned long *v)
{
	const char *s = p;
	unsigned long x = 0;
	char c;

	while (p < end && is_hex(*p)) {
		c = *p++;
		x = x * 16 + (unsigned long)(is_digit(c) ?
						     c - '0' :
						     (c | 0x20) - 'a' + 10);
	}
	*v = x;
	return p > s ? p : NULL;
}

/*
 * Parse a stack frame: "[<addr>] ? func+0x12/0x340 [module]". Leading
 * "[<addr>]" groups and "? " are optional. Returns 1 if it is a frame.
 */
int tl_frame(const char *s, size_t n, struct frame *f)
{
	const char *p = s, *end = s + n, *name, *q;

	while (end - p >= 2 && p[0] == '[' && p[1] == '<') {
		q = memchr(p, ']', (size_t)(end - p));
		if (!q)
			return 0;
		p = skip_blanks(q + 1, end);
	}
	f->unreliable = 0;
	if (end - p >= 2 && p[0] == '?' && p[1] == ' ') {
		f->unreliable = 1;
		p = skip_blanks(p + 2, end);
	}
	name = p;
	while (p < end && is_ident(*p))
		p++;
	if (p == name || end - p < 4 || memcmp(p, "+0x", 3) != 0)
		return 0;
	tl_copy(f->func, sizeof(f->func), name, (size_t)(p - name));
	p = parse_hex(p + 3, end, &f->off);
	if (!p)
		return 0;
	f->size = 0;
	if (end - p >= 3 && memcmp(p, "/0x", 3) == 0) {
		p = parse_hex(p + 3, end, &f->size);
		if (!p)
			return 0;
	}
	f->module[0] = 0;
	f->src = NULL;
	p = skip_blanks(p, end);
	if (p < end && *p == '[') {
		q = memchr(p, ']', (size_t)(end - p));
		if (q)
			tl_copy(f->module, sizeof(f->module), p + 1,
				(size_t)(q - p - 1));
	}
	return 1;
}

/* "RIP: 0010:func+0x1/0x2"; *kernel says whether the segment is 0010. */
int tl_rip(const char *s, size_t n, struct frame *f, int *kernel)
{
	const char *p = s + 5, *end = s + n, *q;

	if (!tl_starts(s, n, "RIP: "))
		return 0;
	p = skip_blanks(p, end);
	q = p;
	while (q < end && is_hex(*q))
		q++;
	*kernel = 1;
	if (q < end && *q == ':' && q > p) {
		*kernel = (q - p == 4 && memcmp(p, "0010", 4) == 0);
		p = q + 1;
	}
	return tl_frame(p, (size_t)(end - p), f);
}

/* Top-level directories of the kernel tree. */
static const char *const top_dirs[] = {
	"arch",	   "block", "certs",	"crypto",  "drivers", "fs",
	"include", "init",  "io_uring", "ipc",	   "kernel",  "lib",
	"mm",	   "net",   "rust",	"samples", "scripts", "security",
	"sound",   "tools", "usr",	"virt",
};

static int is_top_dir(const char *c, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(top_dirs) / sizeof(top_dirs[0]); i++)
		if (strlen(top_dirs[i]) == n && memcmp(top_dirs[i], c, n) == 0)
			return 1;
	return 0;
}

/*
 * Strip a build-tree prefix: return the path from its first component that
 * is a top-level kernel directory. The first component of an absolute path
 * (e.g. /usr/...) is never taken: a kernel tree does not sit at the root.
 */
const char *tl_strip_path(const char *path)
{
	const char *p = path, *slash;
	int first = (*path == '/');

	while (p[0] == '.' && (p[1] == '/' || (p[1] == '.' && p[2] == '/')))
		p += (p[1] == '/') ? 2 : 3;
	for (;;) {
		while (*p == '/')
			p++;
		slash = strchr(p, '/');
		if (!slash)
			return path;
		if (!first && is_top_dir(p, (size_t)(slash - p)))
			return p;
		first = 0;
		p = slash + 1;
	}
}

/* Drop compiler suffixes: .cold, .isra.N, .constprop.N, .part.N, .llvm.N */
void tl_norm_func(const char *in, char *out, size_t outsz)
{
	const char *dot = strchr(in, '.');

	tl_copy(out, outsz, in, dot ? (size_t)(dot - in) : strlen(in));
}
