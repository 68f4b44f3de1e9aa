// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON writer of every document the tool prints (--json, --kcidb):
 * string escaping, and objects and arrays whose commas, line breaks and
 * indentation (two spaces a level) are placed here and nowhere else.
 * A container is opened with a layout: inline ({"a": 1, "b": 2}), one
 * member a line with the closing bracket on a line of its own, or one
 * element a line with the closing bracket right after the last one.
 */
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

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->overflow = 0;
}

static void indent(struct json *j, int depth)
{
	putc('\n', j->f);
	fprintf(j->f, "%*s", 2 * depth, "");
}

/*
 * Before a value: the comma after the previous one, its line break and
 * indentation if the container has them, and its key inside an object
 * (key NULL in an array, or for the document itself). Returns 0 for a
 * value that is not written: inside a container past JSON_DEPTH (no
 * document nests that deep; the JSON stays valid).
 */
static int json_next(struct json *j, const char *key)
{
	struct json_level *c;

	if (j->overflow)
		return 0;
	if (!j->depth)
		return 1;
	c = &j->level[j->depth - 1];
	if (c->layout == JSON_INLINE) {
		fputs(c->n ? ", " : "", j->f);
	} else {
		fputs(c->n ? "," : "", j->f);
		indent(j, j->depth);
	}
	c->n++;
	if (key) {
		json_str(j->f, key);
		fputs(": ", j->f);
	}
	return 1;
}

static void json_open(struct json *j, const char *key, char close,
		      enum json_layout layout)
{
	struct json_level *c;

	if (j->depth == JSON_DEPTH || !json_next(j, key)) {
		j->overflow++;
		return;
	}
	putc(close == '}' ? '{' : '[', j->f);
	c = &j->level[j->depth++];
	c->close = close;
	c->layout = (unsigned char)layout;
	c->n = 0;
}

void json_object(struct json *j, const char *key, enum json_layout layout)
{
	json_open(j, key, '}', layout);
}

void json_array(struct json *j, const char *key, enum json_layout layout)
{
	json_open(j, key, ']', layout);
}

/* Closing the document ends its last line. */
void json_end(struct json *j)
{
	struct json_level *c;

	if (j->overflow) {
		j->overflow--;
		return;
	}
	if (!j->depth)
		return;
	c = &j->level[--j->depth];
	if (c->layout == JSON_LINES)
		indent(j, j->depth);
	putc(c->close, j->f);
	if (!j->depth)
		putc('\n', j->f);
}

void json_string(struct json *j, const char *key, const char *v)
{
	if (!json_next(j, key))
		return;
	json_str(j->f, v);
}

void json_uint(struct json *j, const char *key, unsigned long v)
{
	if (!json_next(j, key))
		return;
	fprintf(j->f, "%lu", v);
}

void json_bool(struct json *j, const char *key, int v)
{
	if (!json_next(j, key))
		return;
	fputs(v ? "true" : "false", j->f);
}

/* A number with the given decimals. */
void json_fixed(struct json *j, const char *key, double v, int decimals)
{
	if (!json_next(j, key))
		return;
	fprintf(j->f, "%.*f", decimals, v);
}

void json_null(struct json *j, const char *key)
{
	if (!json_next(j, key))
		return;
	fputs("null", j->f);
}
