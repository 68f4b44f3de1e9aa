// SPDX-License-Identifier: GPL-2.0
/*
 * ubsan-triage: triage UBSAN and crash reports in kernel console logs.
 * See tools/README.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "triage/triage.h"
#include "triage/kcidb.h"

enum { OUT_TABLE, OUT_JSON, OUT_TSV, OUT_FPRATE, OUT_KCIDB };

struct run {
	struct sitetab sites;
	struct logs logs;
	int only_ubsan;
	const char *kind;
	int oom;
};

static void on_report(void *ctx, struct report *r)
{
	struct run *run = ctx;

	if (run->only_ubsan && !report_is_ubsan(r))
		return;
	if (run->kind && strcmp(run->kind, r->kind))
		return;
	run->logs.reports[r->log]++;
	if (!sites_add(&run->sites, r))
		run->oom = 1;
}

static void usage(FILE *f)
{
	fputs("usage: ubsan-triage [options] [LOG...]   (no LOG or '-': stdin)\n"
	      "  --json              one JSON document\n"
	      "  --tsv               class kind site function count title "
	      "detail\n"
	      "  --fp-rate           sites per class and the false-positive "
	      "rate\n"
	      "  --kcidb CHECKOUT    one KCIDB v5 document; the arguments are "
	      "the\n"
	      "                      runner's boots.tsv files, not logs\n"
	      "  --kit DIR           DIR/sanitizer-ignorelist/*.scl,\n"
	      "                      DIR/annotations/sites.tsv,\n"
	      "                      DIR/patches/regressions/known-bugs.tsv\n"
	      "  --ignorelist PATH   special case list file or directory of "
	      "*.scl\n"
	      "  --annotations FILE  annotations/sites.tsv\n"
	      "  --known-bugs FILE   patches/regressions/known-bugs.tsv\n"
	      "  --vmlinux FILE      symbolize frames with llvm-symbolizer\n"
	      "  --only-ubsan        ignore non-UBSAN reports\n"
	      "  --filter-kind KIND  keep only reports of this kind\n"
	      "exit: 0 no new site, 1 a new site, 2 usage or I/O error\n",
	      f);
}

static int load_kit(struct lists *l, const char *dir)
{
	char buf[4096];
	int ret = 0;

	snprintf(buf, sizeof(buf), "%s/sanitizer-ignorelist", dir);
	ret |= lists_load_ignorelist(l, buf, 0);
	snprintf(buf, sizeof(buf), "%s/annotations/sites.tsv", dir);
	ret |= lists_load_annotations(l, buf, 0);
	snprintf(buf, sizeof(buf), "%s/patches/regressions/known-bugs.tsv",
		 dir);
	ret |= lists_load_known_bugs(l, buf, 0);
	snprintf(buf, sizeof(buf), "%s/annotations/idioms.tsv", dir);
	ret |= lists_load_idioms(l, buf, 0);
	return ret;
}

static int parse_logs(struct run *run, char **paths, int n)
{
	struct parser p;
	int i, fd, err, ret = 0;

	parser_init(&p, on_report, run);
	for (i = 0; i < n; i++) {
		const char *path = paths[i];

		run->logs.names[i] = strcmp(path, "-") ? path : "<stdin>";
		fd = strcmp(path, "-") ? open(path, O_RDONLY) : 0;
		if (fd < 0) {
			fprintf(stderr, "ubsan-triage: %s: %s\n", path,
				strerror(errno));
			ret = 2;
			continue;
		}
		parser_begin_log(&p, i);
		err = parser_read_fd(&p, fd);
		parser_end_log(&p);
		run->logs.lines[i] = p.lineno;
		if (err) {
			fprintf(stderr, "ubsan-triage: %s: %s\n", path,
				strerror(-err));
			ret = 2;
		}
		if (fd)
			close(fd);
	}
	parser_free(&p);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "tsv", no_argument, NULL, 't' },
		{ "fp-rate", no_argument, NULL, 'f' },
		{ "kcidb", required_argument, NULL, 'C' },
		{ "kit", required_argument, NULL, 'k' },
		{ "ignorelist", required_argument, NULL, 'i' },
		{ "annotations", required_argument, NULL, 'a' },
		{ "known-bugs", required_argument, NULL, 'b' },
		{ "vmlinux", required_argument, NULL, 'v' },
		{ "only-ubsan", no_argument, NULL, 'u' },
		{ "filter-kind", required_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static char *stdin_only[] = { "-" };
	struct run run;
	struct lists lists;
	const char *vmlinux = NULL, *checkout = NULL;
	char **paths;
	int c, out = OUT_TABLE, ret = 0, npaths;
	size_t i;

	memset(&run, 0, sizeof(run));
	lists_init(&lists);
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			out = OUT_JSON;
			break;
		case 't':
			out = OUT_TSV;
			break;
		case 'f':
			out = OUT_FPRATE;
			break;
		case 'C':
			out = OUT_KCIDB;
			checkout = optarg;
			break;
		case 'k':
			if (load_kit(&lists, optarg))
				goto bad_list;
			break;
		case 'i':
			if (lists_load_ignorelist(&lists, optarg, 1))
				goto bad_list;
			break;
		case 'a':
			if (lists_load_annotations(&lists, optarg, 1))
				goto bad_list;
			break;
		case 'b':
			if (lists_load_known_bugs(&lists, optarg, 1))
				goto bad_list;
			break;
		case 'v':
			vmlinux = optarg;
			break;
		case 'u':
			run.only_ubsan = 1;
			break;
		case 'K':
			run.kind = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			puts("ubsan-triage " TRIAGE_VERSION);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (out == OUT_KCIDB) {
		ret = kcidb_main(&lists, checkout, argv + optind, argc - optind,
				 stdout);
		lists_free(&lists);
		return ret ? ret : (fflush(stdout) || ferror(stdout)) ? 2 : 0;
	}
	paths = optind < argc ? argv + optind : stdin_only;
	npaths = optind < argc ? argc - optind : 1;
	run.logs.n = npaths;
	run.logs.names = calloc((size_t)npaths, sizeof(*run.logs.names));
	run.logs.lines = calloc((size_t)npaths, sizeof(*run.logs.lines));
	run.logs.reports = calloc((size_t)npaths, sizeof(*run.logs.reports));
	if (!run.logs.names || !run.logs.lines || !run.logs.reports) {
		fputs("ubsan-triage: out of memory\n", stderr);
		return 2;
	}
	sites_init(&run.sites);
	ret = parse_logs(&run, paths, npaths);
	if (run.oom) {
		fputs("ubsan-triage: out of memory\n", stderr);
		ret = 2;
	}
	sites_sort(&run.sites);
	/* first: a trap's site (file:line) comes from symbolization */
	if (vmlinux)
		symbolize_sites(&run.sites, vmlinux);
	for (i = 0; i < run.sites.n; i++)
		classify_site(&lists, run.sites.v[i]);
	if (out == OUT_JSON)
		out_json(stdout, &run.sites, &run.logs);
	else if (out == OUT_TSV)
		out_tsv(stdout, &run.sites);
	else if (out == OUT_FPRATE)
		out_fprate(stdout, &run.sites);
	else
		out_table(stdout, &run.sites, &run.logs);
	if (fflush(stdout) || ferror(stdout))
		ret = 2;
	for (i = 0; !ret && i < run.sites.n; i++)
		if (run.sites.v[i]->cls == CLS_NEW)
			ret = 1;
	sites_free(&run.sites);
	lists_free(&lists);
	free(run.logs.names);
	free(run.logs.lines);
	free(run.logs.reports);
	return ret;
bad_list:
	fprintf(stderr, "ubsan-triage: cannot read %s\n", optarg);
	lists_free(&lists);
	return 2;
}
