// SPDX-License-Identifier: GPL-2.0
/*
 * Stable titles: what differs between two boots hitting the same bug
 * (PIDs, addresses, line numbers, CPU numbers, offsets) is replaced by a
 * placeholder, the way syzkaller does it, so that de-duplication holds
 * across boots and the titles compare with syzkaller's.
 */
#include <string.h>

#include "triage.h"

#define TMAX TITLE_MAX

static int dig(char c)
{
	return c >= '0' && c <= '9';
}

static int lhex(char c)
{
	return dig(c) || (c >= 'a' && c <= 'f');
}

static int alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int alnum(char c)
{
	return alpha(c) || dig(c);
}

static int word(char c)
{
	return alnum(c) || c == '_';
}

/*
 * One rewriting rule: at position i of s, return the length of the text
 * to replace (0: no match here) and what replaces it in rep.
 */
typedef size_t (*rule_fn)(const char *s, size_t i, char *rep, size_t rsz);

/* "syz-executor.3/1234" -> "syz-executor"; same for "syzkaller123:4". */
static size_t r_syz(const char *s, size_t i, char *rep, size_t rsz)
{
	static const char *const names[] = { "syz-executor", "syzkaller" };
	size_t j, k, d;
	int t;

	if (s[i] != 's')
		return 0;
	for (t = 0; t < 2; t++) {
		k = strlen(names[t]);
		if (strncmp(s + i, names[t], k))
			continue;
		j = i + k;
		if (t == 0 && s[j] == '.')
			j++;
		for (d = j; dig(s[j]); j++)
			;
		if (j == d)
			continue;
		if ((s[j] == '/' || s[j] == ':') && dig(s[j + 1]))
			for (j++; dig(s[j]); j++)
				;
		snprintf(rep, rsz, "%s", names[t]);
		return j - i;
	}
	return 0;
}

/* A non-alphanumeric character, then [0x] and 6+ hex digits: ADDR. */
static size_t r_addr(const char *s, size_t i, char *rep, size_t rsz)
{
	size_t j;

	if (!s[i] || alnum(s[i]))
		return 0;
	j = i + 1;
	if (s[j] == '0' && s[j + 1] == 'x') {
		size_t k = j + 2;

		while (lhex(s[k]))
			k++;
		if (k - (j + 2) >= 6) {
			snprintf(rep, rsz, "%cADDR", s[i]);
			return k - i;
		}
	}
	while (lhex(s[j]))
		j++;
	if (j - (i + 1) < 6)
		return 0;
	snprintf(rep, rsz, "%cADDR", s[i]);
	return j - i;
}

/* Up to 3 digits (longest first) that rule the rest; 0 if none. */
static size_t ip_part(const char *s, size_t i, int left)
{
	size_t k, r;

	for (k = 3; k >= 1; k--) {
		size_t j;

		for (j = 0; j < k && dig(s[i + j]); j++)
			;
		if (j < k)
			continue;
		if (!left)
			return k;
		if (s[i + k] != '.')
			continue;
		r = ip_part(s, i + k + 1, left - 1);
		if (r)
			return k + 1 + r;
	}
	return 0;
}

/* An IPv4 address: IP. */
static size_t r_ip(const char *s, size_t i, char *rep, size_t rsz)
{
	size_t k = ip_part(s, i, 3);

	if (k)
		snprintf(rep, rsz, "IP");
	return k;
}

/* ".ext:12:34" -> ".ext:LINE" */
static size_t r_line(const char *s, size_t i, char *rep, size_t rsz)
{
	size_t j = i + 1, w;

	if (s[i] != '.')
		return 0;
	while (word(s[j]))
		j++;
	if (j == i + 1 || s[j] != ':' || !dig(s[j + 1]))
		return 0;
	w = j;
	while (s[j] == ':' && dig(s[j + 1]))
		for (j++; dig(s[j]); j++)
			;
	if (w - i + 6 > rsz)
		return 0;
	memcpy(rep, s + i, w - i);
	memcpy(rep + (w - i), ":LINE", 6);
	return j - i;
}

/* "func+0x12/0x340" -> "func" */
static size_t r_offset(const char *s, size_t i, char *rep, size_t rsz)
{
	size_t j = i + 1, k, m;

	if (!alpha(s[i]))
		return 0;
	while (word(s[j]) || s[j] == '.')
		j++;
	if (j < i + 2 || strncmp(s + j, "+0x", 3))
		return 0;
	for (k = j + 3; dig(s[k]) || (s[k] >= 'a' && s[k] <= 'z'); k++)
		;
	if (k == j + 3 || strncmp(s + k, "/0x", 3))
		return 0;
	for (k += 3, m = k; dig(s[k]) || (s[k] >= 'a' && s[k] <= 'z'); k++)
		;
	if (k == m)
		return 0;
	if (j - i >= rsz)
		return 0;
	memcpy(rep, s + i, j - i);
	rep[j - i] = 0;
	return k - i;
}

/* "CPU#3" -> "CPU" */
static size_t r_cpu(const char *s, size_t i, char *rep, size_t rsz)
{
	size_t j;

	if (s[i] != 'C' || strncmp(s + i, "CPU#", 4) || !dig(s[i + 4]))
		return 0;
	for (j = i + 4; dig(s[j]); j++)
		;
	snprintf(rep, rsz, "CPU");
	return j - i;
}

/* A number between two non-word characters: NUM (keeps both). */
static size_t r_num(const char *s, size_t i, char *rep, size_t rsz)
{
	size_t j = i + 1;

	if (!s[i] || word(s[i]) || !dig(s[j]))
		return 0;
	while (dig(s[j]))
		j++;
	if (s[j] && word(s[j]))
		return 0;
	if (s[j]) {
		snprintf(rep, rsz, "%cNUM%c", s[i], s[j]);
		return j + 1 - i;
	}
	snprintf(rep, rsz, "%cNUM", s[i]);
	return j - i;
}

/* 7 or more digits anywhere: NUM. */
static size_t r_long(const char *s, size_t i, char *rep, size_t rsz)
{
	size_t j = i;

	while (dig(s[j]))
		j++;
	if (j - i < 7)
		return 0;
	snprintf(rep, rsz, "NUM");
	return j - i;
}

/* Apply a rule left to right, without overlaps. Returns 1 if changed. */
static int apply(rule_fn rule, char *s, size_t sz)
{
	char out[TMAX], rep[TMAX];
	size_t i = 0, k = 0, m, r;
	int changed = 0;

	while (s[i] && k + 1 < sizeof(out)) {
		m = rule(s, i, rep, sizeof(rep));
		if (m) {
			r = strlen(rep);
			if (k + r >= sizeof(out))
				break;
			memcpy(out + k, rep, r);
			k += r;
			i += m;
			changed = 1;
			continue;
		}
		out[k++] = s[i++];
	}
	out[k] = 0;
	if (changed)
		tl_copy(s, sz, out, k);
	return changed;
}

void title_stable(const char *in, char *out, size_t sz)
{
	static const rule_fn rules[] = {
		r_syz, r_addr, r_ip, r_line, r_offset, r_cpu, r_num, r_long,
	};
	char t[TMAX];
	size_t i, k = 0, r;
	int guard;

	tl_copy(t, sizeof(t), in, strlen(in));
	for (r = 0; r < sizeof(rules) / sizeof(rules[0]); r++)
		for (guard = 0; guard < 16 && apply(rules[r], t, sizeof(t));
		     guard++)
			;
	/* at most 120 characters of it, printable, single blanks */
	for (i = 0; t[i] && i < 120 && k + 1 < sz; i++) {
		char c = t[i] == '\t' ? ' ' : t[i];

		if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f)
			continue;
		if (c == ' ' && (k == 0 || out[k - 1] == ' '))
			continue;
		out[k++] = c;
	}
	while (k && out[k - 1] == ' ')
		k--;
	out[k] = 0;
}
