// SPDX-License-Identifier: GPL-2.0
/*
 * A small pattern language for the report tables (formats.c), matched
 * against one console line. It is not a regular expression engine: it has
 * just what the tables need, and every pattern is a literal string in C.
 *
 *   text     itself (a '\' makes the next character literal)
 *   *        any run of characters, longest first
 *   {a|b|}   one of the alternatives (may be empty), captured; {*} is
 *            the shortest text that lets the rest match
 *   {?a|b}   the same, not captured
 *   %w       a word of [a-z0-9-], captured (a KASAN bug type)
 *   %i       an identifier [A-Za-z0-9_], captured
 *   %f       a function: an identifier followed by '.' or '+', captured
 *   %s       a source location "dir/file.ext:NN", captured
 *   %r       the rest of the line, captured
 *   %d %x    decimal, hexadecimal digits (one or more)
 *   %p       a printed address: "[<ffff...>]", "[<0x...>]" or "[ffff...]"
 *   %b       blanks (zero or more)
 *   %.       any one character
 *   %$       the end of the line
 *
 * With PM_FRAMES only %f captures (stack programs), otherwise every
 * capturing token does. PM_NOCASE compares letters without case.
 */
#include <string.h>

#include "triage.h"

static int same(char a, char b, int flags)
{
	if (a == b)
		return 1;
	if (!(flags & PM_NOCASE))
		return 0;
	if (a >= 'A' && a <= 'Z')
		a = (char)(a + 32);
	if (b >= 'A' && b <= 'Z')
		b = (char)(b + 32);
	return a == b;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_lhex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f');
}

static int is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       is_digit(c) || c == '_';
}

static int is_word(char c)
{
	return (c >= 'a' && c <= 'z') || is_digit(c) || c == '-';
}

static int is_path(char c)
{
	return is_ident(c) || c == '-' || c == '/' || c == '.';
}

/* The end of the run of characters of a class from s[i]. */
static size_t run(const char *s, size_t n, size_t i, int (*cls)(char))
{
	while (i < n && cls(s[i]))
		i++;
	return i;
}

/* "[<ffff>]", "[<0xffff>]" or "[ffff]" at s[i]; returns its end or 0. */
size_t pm_pc(const char *s, size_t n, size_t i)
{
	size_t j = i + 1, h;
	int angle = 0;

	if (i >= n || s[i] != '[')
		return 0;
	if (j < n && s[j] == '<') {
		angle = 1;
		j++;
	}
	if (j + 1 < n && s[j] == '0' && s[j + 1] == 'x')
		j += 2;
	for (h = j; j < n && is_lhex(s[j]); j++)
		;
	if (j == h)
		return 0;
	if (angle && j < n && s[j] == '>')
		j++;
	if (j >= n || s[j] != ']')
		return 0;
	return j + 1;
}

/* End of the alternative group starting at p ('{'), and its first '|'. */
static const char *group_end(const char *p)
{
	int depth = 0;

	for (; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == '{')
			depth++;
		else if (*p == '}' && --depth == 0)
			return p;
	}
	return p;
}

static long pm_at(const char *p, const char *s, size_t n, size_t i,
		  struct pmatch *m, int flags);

static int add_cap(struct pmatch *m, int flags, int is_frame, const char *s,
		   size_t from, size_t to)
{
	if ((flags & PM_FRAMES) && !is_frame)
		return m->ncap;
	if (m->ncap < PM_MAXCAP) {
		m->cap[m->ncap].s = s + from;
		m->cap[m->ncap].n = to - from;
		m->ncap++;
	}
	return m->ncap;
}

/* Try the rest of the pattern after a token that consumed s[i..j). */
static long pm_then(const char *rest, const char *s, size_t n, size_t i,
		    size_t j, struct pmatch *m, int flags, int cap, int frame)
{
	int save = m->ncap;
	long r;

	if (cap)
		add_cap(m, flags, frame, s, i, j);
	r = pm_at(rest, s, n, j, m, flags);
	if (r < 0)
		m->ncap = save;
	return r;
}

/*
 * An alternative must match s[i..j) exactly, then the rest from j. An
 * alternative without '*' has one end; with '*', every end is tried,
 * longest first.
 */
static long pm_group(const char *p, const char *s, size_t n, size_t i,
		     struct pmatch *m, int flags)
{
	const char *end = group_end(p), *alt = p + 1, *bar;
	char buf[256];
	int cap = 1, save = m->ncap;
	size_t k, j;
	long r;

	if (*alt == '?') {
		cap = 0;
		alt++;
	}
	if (!*end)
		return -1;
	while (alt <= end) {
		for (bar = alt; bar < end && *bar != '|'; bar++)
			if (*bar == '\\' && bar + 1 < end)
				bar++;
		k = (size_t)(bar - alt);
		if (k >= sizeof(buf))
			return -1;
		memcpy(buf, alt, k);
		buf[k] = 0;
		if (k == 1 && buf[0] == '*') {
			/* "{*}": the shortest text that lets the rest match */
			for (j = i; j <= n; j++) {
				m->ncap = save;
				if (cap)
					add_cap(m, flags, 0, s, i, j);
				r = pm_at(end + 1, s, n, j, m, flags);
				if (r >= 0)
					return r;
				if (m->budget <= 0)
					break;
			}
			m->ncap = save;
			alt = bar + 1;
			continue;
		}
		for (j = memchr(buf, '*', k) ? n : i;; j--) {
			r = pm_at(buf, s, memchr(buf, '*', k) ? j : n, i, m,
				  flags);
			if (r >= 0) {
				m->ncap = save;
				if (cap)
					add_cap(m, flags, 0, s, i, (size_t)r);
				r = pm_at(end + 1, s, n, (size_t)r, m, flags);
				if (r >= 0)
					return r;
			}
			m->ncap = save;
			if (!memchr(buf, '*', k) || j == i)
				break;
		}
		alt = bar + 1;
	}
	return -1;
}

/*
 * Match p at s[i..n). Returns the end of the match, or -1. Backtracking
 * over '*' is bounded (m->budget): a pathological line fails to match
 * rather than taking forever; kernel lines need a tiny part of it.
 */
static long pm_at(const char *p, const char *s, size_t n, size_t i,
		  struct pmatch *m, int flags)
{
	size_t j;
	long r;

	if (m->budget <= 0 || --m->budget == 0)
		return -1;
	for (;;) {
		switch (*p) {
		case 0:
			return (long)i;
		case '*':
			for (j = n + 1; j-- > i;) {
				r = pm_at(p + 1, s, n, j, m, flags);
				if (r >= 0)
					return r;
			}
			return -1;
		case '{':
			return pm_group(p, s, n, i, m, flags);
		case '\\':
			if (!p[1])
				return -1;
			if (i >= n || s[i] != p[1])
				return -1;
			i++;
			p += 2;
			continue;
		case '%':
			break;
		default:
			if (i >= n || !same(s[i], *p, flags))
				return -1;
			i++;
			p++;
			continue;
		}
		/* a % token */
		j = i;
		switch (p[1]) {
		case 'w':
		case 'i':
			j = run(s, n, i, p[1] == 'w' ? is_word : is_ident);
			if (j == i)
				return -1;
			return pm_then(p + 2, s, n, i, j, m, flags, 1, 0);
		case 'f':
			j = run(s, n, i, is_ident);
			if (j == i || j >= n || (s[j] != '.' && s[j] != '+'))
				return -1;
			return pm_then(p + 2, s, n, i, j, m, flags, 1, 1);
		case 's': {
			size_t dot = 0, k;

			while (j < n && is_path(s[j])) {
				if (s[j] == '.')
					dot = j;
				j++;
			}
			/* ".ext" of lower-case letters, then ":NN" */
			if (!dot || dot == i || j >= n || s[j] != ':' ||
			    j == dot + 1)
				return -1;
			for (k = dot + 1; k < j; k++)
				if (s[k] < 'a' || s[k] > 'z')
					return -1;
			j++;
			k = j;
			while (j < n && is_digit(s[j]))
				j++;
			if (j == k)
				return -1;
			return pm_then(p + 2, s, n, i, j, m, flags, 1, 0);
		}
		case 'r':
			return pm_then(p + 2, s, n, i, n, m, flags, 1, 0);
		case 'd':
		case 'x':
			j = run(s, n, i, p[1] == 'd' ? is_digit : is_lhex);
			if (j == i)
				return -1;
			break;
		case 'p':
			j = pm_pc(s, n, i);
			if (!j)
				return -1;
			break;
		case 'b':
			while (j < n && (s[j] == ' ' || s[j] == '\t'))
				j++;
			break;
		case '.':
			if (j >= n)
				return -1;
			j++;
			break;
		case '$':
			if (i != n)
				return -1;
			break;
		default:
			return -1;
		}
		i = j;
		p += 2;
	}
}

/* Match p anywhere in s (leftmost). Returns 1 and fills m on a match. */
int pm_find(const char *p, const char *s, size_t n, struct pmatch *m, int flags)
{
	size_t i;
	long r;
	char c = *p;
	int literal = c && c != '*' && c != '{' && c != '%' && c != '\\' &&
		      !(flags & PM_NOCASE);

	m->budget = PM_BUDGET;
	for (i = 0; i <= n; i++) {
		if (literal) {
			const char *q = i < n ? memchr(s + i, c, n - i) : NULL;

			if (!q)
				return 0;
			i = (size_t)(q - s);
		}
		m->ncap = 0;
		r = pm_at(p, s, n, i, m, flags);
		if (r >= 0) {
			m->start = i;
			m->end = (size_t)r;
			return 1;
		}
	}
	return 0;
}
