// SPDX-License-Identifier: GPL-2.0
/*
 * ubsan-census: every integer sanitizer check compiled into a vmlinux and
 * the modules named after it, one TSV row per check (per handler call, and
 * per check of a call that Clang shared between several), and a summary per
 * kind and per subsystem on stderr.
 *
 *   ubsan-census [-o FILE] [-q | --summary] [--branches] [--objdump PATH]
 *                [--symbolizer PATH] [--linker PATH] VMLINUX [MODULE.ko...]
 *
 * --branches adds two columns after address: the conditional jumps that
 * decide each check of vmlinux and the instructions each adds where the
 * check passes (branches.c; make hot-checks counts those jumps).
 *
 * Exit status: 0 done, 1 no handler call at all (a trap-mode kernel),
 * 2 usage or I/O error.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "census.h"

struct opts {
	const char *out; /* NULL: stdout */
	const char *objdump, *symbolizer, *linker;
	char **inputs; /* vmlinux, then modules */
	int ninputs;
	int quiet; /* no summary */
	int summary; /* the summary on stdout, the TSV only with -o */
	int branches; /* the columns branches and added (vmlinux's rows) */
};

struct tools {
	char objdump[256], symbolizer[256], linker[256];
};

/* One input: its image, calls, frames and rows. */
struct object {
	const char *path; /* as named */
	const char *label; /* NULL for vmlinux, else the module's file name */
	struct linked linked; /* a module's linked copy */
	struct elf *e;
	struct calls c;
	struct frames *fr;
	struct row *rows;
};

static void usage(FILE *f)
{
	fputs("usage: ubsan-census [-o FILE] [-q | --summary] [--branches] [--objdump PATH]\n"
	      "                    [--symbolizer PATH] [--linker PATH] VMLINUX [MODULE.ko...]\n"
	      "  -o FILE     write the TSV to FILE (default: stdout)\n"
	      "  -q          no summary on stderr\n"
	      "  --summary   the summary on stdout; the TSV only with -o\n"
	      "  --branches  add the columns branches (the jumps that decide each check\n"
	      "              of vmlinux) and added (the instructions each adds)\n",
	      f);
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	int i;

	o->inputs = calloc(argc, sizeof(*o->inputs));
	if (!o->inputs)
		return -1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-q")) {
			o->quiet = 1;
		} else if (!strcmp(a, "--summary")) {
			o->summary = 1;
		} else if (!strcmp(a, "--branches")) {
			o->branches = 1;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			exit(0);
		} else if (v && !strcmp(a, "-o")) {
			o->out = argv[++i];
		} else if (v && !strcmp(a, "--objdump")) {
			o->objdump = argv[++i];
		} else if (v && !strcmp(a, "--symbolizer")) {
			o->symbolizer = argv[++i];
		} else if (v && !strcmp(a, "--linker")) {
			o->linker = argv[++i];
		} else if (a[0] != '-') {
			o->inputs[o->ninputs++] = argv[i];
		} else {
			return -1;
		}
	}
	return o->ninputs ? 0 : -1;
}

static int is_module(const char *path)
{
	size_t n = strlen(path);

	return n > 3 && !strcmp(path + n - 3, ".ko");
}

static void row_address(const struct object *ob, struct row *r)
{
	const char *section;
	unsigned long off;

	if (!ob->label) {
		snprintf(r->address, sizeof(r->address), "0x%lx",
			 r->call->addr);
		return;
	}
	elf_where(ob->e, r->call->addr, &section, &off);
	snprintf(r->address, sizeof(r->address), "%s:%s+0x%lx", ob->label,
		 section, off);
}

/* Decode each call's static data into its row. */
static int decode_rows(struct object *ob)
{
	struct row *r;
	size_t i;

	ob->rows = calloc(ob->c.n ? ob->c.n : 1, sizeof(*ob->rows));
	if (!ob->rows)
		return -1;
	for (i = 0; i < ob->c.n; i++) {
		struct call *c = &ob->c.v[i];

		r = &ob->rows[i];
		r->call = c;
		r->fr = &ob->fr[i];
		row_address(ob, r);
		snprintf(r->chk.kind, sizeof(r->chk.kind), "%s", c->h->kind);
		if (!c->data)
			continue;
		if (check_decode(ob->e, c->h, c->data, &r->chk)) {
			c->why = "its static data does not decode";
			snprintf(r->chk.kind, sizeof(r->chk.kind), "%s",
				 c->h->kind);
			continue;
		}
		r->resolved = 1;
	}
	return 0;
}

/* Census one input; 0 on success, messages on stderr. */
static int census_image(const struct tools *t, struct object *ob)
{
	const char *image = ob->path;
	char err[512];

	if (ob->label) {
		if (module_link(t->linker, ob->path, &ob->linked)) {
			fprintf(stderr, "ubsan-census: %s cannot link %s\n",
				t->linker, ob->path);
			return -1;
		}
		image = ob->linked.elf;
	}
	ob->e = elf_open(image, err, sizeof(err));
	if (!ob->e) {
		fprintf(stderr, "ubsan-census: %s\n", err);
		return -1;
	}
	if (disasm_calls(t->objdump, image, &ob->c)) {
		fprintf(stderr, "ubsan-census: %s failed on %s\n", t->objdump,
			ob->path);
		return -1;
	}
	ob->fr = calloc(ob->c.n ? ob->c.n : 1, sizeof(*ob->fr));
	if (!ob->fr || symbolize_calls(t->symbolizer, image, &ob->c, ob->fr)) {
		fprintf(stderr, "ubsan-census: %s failed on %s\n",
			t->symbolizer, ob->path);
		return -1;
	}
	return decode_rows(ob);
}

/* A module's linked copy goes as soon as it is read (the map stays). */
static int census_object(const struct tools *t, struct object *ob)
{
	int ret = census_image(t, ob);

	module_unlink(&ob->linked);
	return ret;
}

static void object_free(struct object *ob)
{
	size_t i;

	for (i = 0; ob->fr && i < ob->c.n; i++) {
		free(ob->fr[i].function);
		free(ob->fr[i].inlined);
	}
	for (i = 0; i < ob->c.n; i++)
		free(ob->c.v[i].symbol);
	free(ob->c.v);
	free(ob->fr);
	free(ob->rows);
	elf_close(ob->e);
	module_unlink(&ob->linked);
}

static int write_tsv(const struct opts *o, const struct row *rows, size_t n)
{
	FILE *f = o->out ? fopen(o->out, "w") : stdout;
	int err;

	if (!f) {
		fprintf(stderr, "ubsan-census: cannot write %s: %s\n", o->out,
			strerror(errno));
		return -1;
	}
	report_tsv(f, rows, n, o->branches);
	/* a write that failed earlier (ENOSPC) leaves the error flag only */
	err = fflush(f) ? errno : ferror(f) ? EIO : 0;
	if (f != stdout && fclose(f) && !err)
		err = errno;
	if (err) {
		fprintf(stderr, "ubsan-census: %s: %s\n",
			o->out ? o->out : "standard output", strerror(err));
		return -1;
	}
	return 0;
}

/* All objects' rows, in the order of the inputs. */
static struct row *all_rows(struct object *obs, int n, size_t *nrows)
{
	struct row *rows;
	size_t total = 0, k = 0;
	int i;

	for (i = 0; i < n; i++)
		total += obs[i].c.n;
	rows = calloc(total ? total : 1, sizeof(*rows));
	if (!rows)
		return NULL;
	for (i = 0; i < n; i++) {
		memcpy(rows + k, obs[i].rows, obs[i].c.n * sizeof(*rows));
		k += obs[i].c.n;
	}
	*nrows = total;
	return rows;
}

static int census(const struct opts *o, struct object *obs)
{
	struct row *rows = NULL;
	struct tools t;
	size_t nrows = 0;
	int i, ret = 2;

	tool_path("llvm-objdump", o->objdump, t.objdump, sizeof(t.objdump));
	tool_path("llvm-symbolizer", o->symbolizer, t.symbolizer,
		  sizeof(t.symbolizer));
	tool_path("ld.lld", o->linker, t.linker, sizeof(t.linker));
	for (i = 0; i < o->ninputs; i++) {
		obs[i].path = o->inputs[i];
		if (is_module(obs[i].path)) {
			obs[i].label = strrchr(obs[i].path, '/');
			obs[i].label = obs[i].label ? obs[i].label + 1 :
						      obs[i].path;
		}
		obs[i].c.branches = o->branches && !obs[i].label;
		if (census_object(&t, &obs[i]))
			return 2;
	}
	rows = all_rows(obs, o->ninputs, &nrows);
	if (!rows || ((!o->summary || o->out) && write_tsv(o, rows, nrows)))
		goto out;
	if (o->summary)
		report_summary(stdout, rows, nrows);
	else if (!o->quiet)
		report_summary(stderr, rows, nrows);
	ret = 0;
	if (!obs[0].c.n) {
		fprintf(stderr,
			"ubsan-census: no call to an integer handler in %s: a kernel built with CONFIG_UBSAN_TRAP (TRAP=1) has none, its checks trap in place; census a reporting kernel\n",
			obs[0].path);
		ret = 1;
	}
out:
	free(rows);
	return ret;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct object *obs;
	int i, ret;

	if (parse_opts(argc, argv, &o)) {
		usage(stderr);
		return 2;
	}
	obs = calloc(o.ninputs, sizeof(*obs));
	if (!obs)
		return 2;
	ret = census(&o, obs);
	for (i = 0; i < o.ninputs; i++)
		object_free(&obs[i]);
	free(obs);
	free(o.inputs);
	return ret;
}
