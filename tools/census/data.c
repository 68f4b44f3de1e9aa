// SPDX-License-Identifier: GPL-2.0
/*
 * The tables of the census (which handlers are integer checks, what their
 * kinds are called) and the decoding of a check's static data, the first
 * argument of every handler call. The layouts are Clang's, as the kit's
 * handlers read them (lib/ubsan.h with patches 0001 and 0002), for x86_64:
 *
 *   struct source_location { const char *file; u32 line; u32 column; }
 *   struct type_descriptor { u16 type_kind; u16 type_info; char name[]; }
 *   struct overflow_data { loc; type_descriptor *type; }
 *   struct implicit_conversion_data {
 *           loc; type_descriptor *from_type, *to_type;
 *           unsigned char kind; unsigned int bitfield_bits; }
 *
 * type_info of an integer (type_kind 0): bit 0 signed, bits 1.. log2 width.
 */
#include <stdint.h>
#include <string.h>

#include "census.h"

const struct handler handlers[] = {
	{ "__ubsan_handle_add_overflow", "add-overflow", HC_OVERFLOW },
	{ "__ubsan_handle_sub_overflow", "sub-overflow", HC_OVERFLOW },
	{ "__ubsan_handle_mul_overflow", "mul-overflow", HC_OVERFLOW },
	{ "__ubsan_handle_negate_overflow", "negate-overflow", HC_NEGATE },
	{ "__ubsan_handle_implicit_conversion", "implicit-conversion",
	  HC_CONVERSION },
};

const size_t nhandlers = sizeof(handlers) / sizeof(handlers[0]);

/* implicit_conversion_data::kind, as the kit's handler names them */
static const char *const conversion_kinds[] = {
	[0] = "truncation",
	[1] = "unsigned truncation",
	[2] = "signed truncation",
	[3] = "sign change",
	[4] = "truncation and sign change",
};

#define ABORT_SUFFIX "_abort"

const struct handler *handler_find(const char *sym, size_t n)
{
	size_t i, len;

	for (i = 0; i < nhandlers; i++) {
		len = strlen(handlers[i].symbol);
		if (n < len || memcmp(sym, handlers[i].symbol, len))
			continue;
		if (n == len)
			return &handlers[i];
		if (n == len + strlen(ABORT_SUFFIX) &&
		    !memcmp(sym + len, ABORT_SUFFIX, n - len))
			return &handlers[i];
	}
	return NULL;
}

#define OFF_TYPE 16
#define OFF_FROM 16
#define OFF_TO 24
#define OFF_KIND 32
#define TD_KIND_INTEGER 0

static int read_u64(const struct elf *e, unsigned long va, uint64_t *v)
{
	const void *p = elf_at(e, va, sizeof(*v));

	if (!p)
		return -1;
	memcpy(v, p, sizeof(*v));
	return 0;
}

static int read_u32(const struct elf *e, unsigned long va, uint32_t *v)
{
	const void *p = elf_at(e, va, sizeof(*v));

	if (!p)
		return -1;
	memcpy(v, p, sizeof(*v));
	return 0;
}

/* A source path as compiled: printable, not empty, "./" dropped. */
static const char *read_path(const struct elf *e, unsigned long va)
{
	const char *s = elf_str(e, va), *p;

	if (!s || !*s)
		return NULL;
	for (p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return NULL;
	while (s[0] == '.' && s[1] == '/')
		s += 2;
	return s;
}

static int read_location(const struct elf *e, unsigned long va, char *out,
			 size_t outsz)
{
	uint64_t file;
	uint32_t line, col;
	const char *path;

	if (read_u64(e, va, &file) || read_u32(e, va + 8, &line) ||
	    read_u32(e, va + 12, &col))
		return -1;
	path = read_path(e, file);
	if (!path || !line)
		return -1;
	snprintf(out, outsz, "%s:%u:%u", path, line, col);
	return 0;
}

/* The descriptor whose address is stored at va. */
static int read_type(const struct elf *e, unsigned long va, struct ctype *t)
{
	const unsigned char *td;
	uint64_t p;
	uint16_t kind, info;

	if (read_u64(e, va, &p))
		return -1;
	td = elf_at(e, p, 4);
	t->name = elf_str(e, p + 4);
	if (!td || !t->name || !t->name[0])
		return -1;
	kind = td[0] | td[1] << 8;
	info = td[2] | td[3] << 8;
	t->bits = 0;
	t->is_signed = 0;
	if (kind == TD_KIND_INTEGER && (info >> 1) < 16) {
		t->bits = 1 << (info >> 1);
		t->is_signed = info & 1;
	}
	return 0;
}

static int conversion_kind(const struct elf *e, unsigned long va,
			   const struct handler *h, char *out, size_t outsz)
{
	const unsigned char *k = elf_at(e, va + OFF_KIND, 1);

	if (!k)
		return -1;
	if (*k < sizeof(conversion_kinds) / sizeof(conversion_kinds[0]))
		snprintf(out, outsz, "%s:%s", h->kind, conversion_kinds[*k]);
	else
		snprintf(out, outsz, "%s:kind-%u", h->kind, *k);
	return 0;
}

int check_decode(const struct elf *e, const struct handler *h, unsigned long va,
		 struct check *c)
{
	if (read_location(e, va, c->site, sizeof(c->site)))
		return -1;
	if (h->cls != HC_CONVERSION) {
		snprintf(c->kind, sizeof(c->kind), "%s", h->kind);
		if (read_type(e, va + OFF_TYPE, &c->src))
			return -1;
		c->dst = c->src;
		return 0;
	}
	if (read_type(e, va + OFF_FROM, &c->src) ||
	    read_type(e, va + OFF_TO, &c->dst))
		return -1;
	return conversion_kind(e, va, h, c->kind, sizeof(c->kind));
}
