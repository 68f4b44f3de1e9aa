// SPDX-License-Identifier: GPL-2.0
/*
 * ubsan-census: every integer sanitizer check compiled into a vmlinux, one
 * TSV row per handler call, and a summary per kind and per subsystem.
 *
 *   ubsan-census [-o FILE] [-q] [--objdump PATH] [--symbolizer PATH] VMLINUX
 *
 * Exit status: 0 done, 1 no handler call at all (a trap-mode kernel),
 * 2 usage or I/O error.
 */
#include <stdlib.h>
#include <string.h>

#include "census.h"

struct opts {
	const char *out; /* NULL: stdout */
	const char *objdump, *symbolizer;
	const char *vmlinux;
	int quiet;
};

static void usage(FILE *f)
{
	fputs("usage: ubsan-census [-o FILE] [-q] [--objdump PATH] [--symbolizer PATH] VMLINUX\n"
	      "  -o FILE    write the TSV to FILE (default: stdout)\n"
	      "  -q         no summary on stderr\n",
	      f);
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-q")) {
			o->quiet = 1;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			exit(0);
		} else if (v && !strcmp(a, "-o")) {
			o->out = v;
			i++;
		} else if (v && !strcmp(a, "--objdump")) {
			o->objdump = v;
			i++;
		} else if (v && !strcmp(a, "--symbolizer")) {
			o->symbolizer = v;
			i++;
		} else if (a[0] != '-' && !o->vmlinux) {
			o->vmlinux = a;
		} else {
			return -1;
		}
	}
	return o->vmlinux ? 0 : -1;
}

/* Decode each call's static data into its row. */
static void decode_rows(const struct elf *e, const struct calls *c,
			const struct frames *fr, struct row *rows)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		struct row *r = &rows[i];

		r->call = &c->v[i];
		r->fr = &fr[i];
		snprintf(r->chk.kind, sizeof(r->chk.kind), "%s",
			 c->v[i].h->kind);
		if (!c->v[i].data)
			continue;
		if (check_decode(e, c->v[i].h, c->v[i].data, &r->chk)) {
			c->v[i].why = "its static data does not decode";
			snprintf(r->chk.kind, sizeof(r->chk.kind), "%s",
				 c->v[i].h->kind);
			continue;
		}
		r->resolved = 1;
	}
}

static int write_tsv(const struct opts *o, const struct row *rows, size_t n)
{
	FILE *f = o->out ? fopen(o->out, "w") : stdout;

	if (!f) {
		fprintf(stderr, "ubsan-census: cannot write %s\n", o->out);
		return -1;
	}
	report_tsv(f, rows, n);
	if (f != stdout ? fclose(f) : fflush(f)) {
		fprintf(stderr, "ubsan-census: write error\n");
		return -1;
	}
	return 0;
}

static int census(const struct opts *o)
{
	char err[512], objdump[256], symbolizer[256];
	struct calls c = { 0 };
	struct frames *fr = NULL;
	struct row *rows = NULL;
	struct elf *e;
	int ret = 2;

	e = elf_open(o->vmlinux, err, sizeof(err));
	if (!e) {
		fprintf(stderr, "ubsan-census: %s\n", err);
		return 2;
	}
	tool_path("llvm-objdump", o->objdump, objdump, sizeof(objdump));
	tool_path("llvm-symbolizer", o->symbolizer, symbolizer,
		  sizeof(symbolizer));
	if (disasm_calls(objdump, o->vmlinux, &c)) {
		fprintf(stderr, "ubsan-census: %s failed on %s\n", objdump,
			o->vmlinux);
		goto out;
	}
	fr = calloc(c.n ? c.n : 1, sizeof(*fr));
	rows = calloc(c.n ? c.n : 1, sizeof(*rows));
	if (!fr || !rows || symbolize_calls(symbolizer, o->vmlinux, &c, fr)) {
		fprintf(stderr, "ubsan-census: %s failed on %s\n", symbolizer,
			o->vmlinux);
		goto out;
	}
	decode_rows(e, &c, fr, rows);
	if (write_tsv(o, rows, c.n))
		goto out;
	if (!o->quiet)
		report_summary(stderr, rows, c.n);
	ret = 0;
	if (!c.n) {
		fprintf(stderr,
			"ubsan-census: no call to an integer handler in %s: a kernel built with CONFIG_UBSAN_TRAP (TRAP=1) has none, its checks trap in place; census a reporting kernel\n",
			o->vmlinux);
		ret = 1;
	}
out:
	for (size_t i = 0; fr && i < c.n; i++) {
		free(fr[i].function);
		free(fr[i].inlined);
	}
	for (size_t i = 0; i < c.n; i++)
		free(c.v[i].symbol);
	free(c.v);
	free(fr);
	free(rows);
	elf_close(e);
	return ret;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };

	if (parse_opts(argc, argv, &o)) {
		usage(stderr);
		return 2;
	}
	return census(&o);
}
