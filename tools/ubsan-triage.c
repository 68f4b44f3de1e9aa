// SPDX-License-Identifier: GPL-2.0
/*
 * ubsan-triage: triage UBSAN and crash reports in kernel console logs.
 * See tools/README.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <glob.h>
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
	int *crash; /* --syz: each log's crash directory, -1 for none */
};

static void on_report(void *ctx, struct report *r)
{
	struct run *run = ctx;
	int crash = run->logs.crash ? run->logs.crash[r->log] : -1;
	struct site *s;

	if (run->only_ubsan && !report_is_ubsan(r))
		return;
	if (run->kind && strcmp(run->kind, r->kind))
		return;
	/* whatever the log's own markers say, a fuzzer was running */
	if (crash >= 0)
		strcpy(r->workload, SYZ_WORKLOAD);
	run->logs.reports[r->log]++;
	s = sites_add(&run->sites, r);
	if (!s || (crash >= 0 && site_add_crash(s, crash)))
		run->oom = 1;
}

static void usage(FILE *f)
{
	fputs("usage: ubsan-triage [options] [LOG...]   (no LOG and no --syz, or "
	      "'-': stdin)\n"
	      "  --syz DIR           a syz-manager workdir (DIR/crashes/*/) or one "
	      "crash\n"
	      "                      directory: each crash's logN, else its "
	      "reportN,\n"
	      "                      read after the LOGs; workload 'fuzzing' "
	      "(repeatable)\n"
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
	glob_t g;
	size_t i;
	int ret = 0;

	snprintf(buf, sizeof(buf), "%s/sanitizer-ignorelist", dir);
	ret |= lists_load_ignorelist(l, buf, 0);
	snprintf(buf, sizeof(buf), "%s/annotations/sites.tsv", dir);
	ret |= lists_load_annotations(l, buf, 0);
	snprintf(buf, sizeof(buf), "%s/patches/regressions/known-bugs.tsv",
		 dir);
	ret |= lists_load_known_bugs(l, buf, 0);
	/* Bridge until --kit learns the corpus: one table per corpus bug. */
	snprintf(buf, sizeof(buf), "%s/corpus/*/known-bugs.tsv", dir);
	if (glob(buf, 0, NULL, &g) == 0)
		for (i = 0; i < g.gl_pathc; i++)
			ret |= lists_load_known_bugs(l, g.gl_pathv[i], 0);
	globfree(&g);
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

/*
 * The logs to read: the named ones (none and no --syz: stdin), then the
 * crashes of the --syz directories, each with its crash directory.
 */
static int collect_paths(struct run *run, const struct syzdirs *z, int syz,
			 char **named, int nnamed, char ***paths)
{
	static char *stdin_only[] = { "-" };
	size_t n, i;

	if (!nnamed && !syz) {
		named = stdin_only;
		nnamed = 1;
	}
	n = (size_t)nnamed + z->nlogs;
	/* one more: calloc(0) may be NULL */
	*paths = calloc(n + 1, sizeof(**paths));
	run->logs.names = calloc(n + 1, sizeof(*run->logs.names));
	run->logs.lines = calloc(n + 1, sizeof(*run->logs.lines));
	run->logs.reports = calloc(n + 1, sizeof(*run->logs.reports));
	run->crash = syz ? calloc(n + 1, sizeof(*run->crash)) : NULL;
	if (!*paths || !run->logs.names || !run->logs.lines ||
	    !run->logs.reports || (syz && !run->crash))
		return -1;
	for (i = 0; i < (size_t)nnamed; i++) {
		(*paths)[i] = named[i];
		if (syz)
			run->crash[i] = -1;
	}
	for (i = 0; i < z->nlogs; i++) {
		(*paths)[nnamed + i] = z->logs[i];
		run->crash[nnamed + i] = z->crash[i];
	}
	run->logs.n = (int)n;
	run->logs.crash = run->crash;
	run->logs.crashes = z->v;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "tsv", no_argument, NULL, 't' },
		{ "fp-rate", no_argument, NULL, 'f' },
		{ "kcidb", required_argument, NULL, 'C' },
		{ "syz", required_argument, NULL, 's' },
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
	struct run run;
	struct lists lists;
	struct syzdirs syz;
	const char *vmlinux = NULL, *checkout = NULL;
	char **paths, **syzargs;
	int c, out = OUT_TABLE, ret = 0, nsyz = 0;
	size_t i;

	memset(&run, 0, sizeof(run));
	memset(&syz, 0, sizeof(syz));
	lists_init(&lists);
	syzargs = calloc((size_t)argc, sizeof(*syzargs));
	if (!syzargs) {
		fputs("ubsan-triage: out of memory\n", stderr);
		return 2;
	}
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
		case 's':
			syzargs[nsyz++] = optarg;
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
			free(syzargs);
			usage(stdout);
			return 0;
		case 'V':
			free(syzargs);
			puts("ubsan-triage " TRIAGE_VERSION);
			return 0;
		default:
			free(syzargs);
			usage(stderr);
			return 2;
		}
	}
	if (out == OUT_KCIDB) {
		free(syzargs);
		if (nsyz) {
			fputs("ubsan-triage: --syz does not go with --kcidb\n",
			      stderr);
			lists_free(&lists);
			return 2;
		}
		ret = kcidb_main(&lists, checkout, argv + optind, argc - optind,
				 stdout);
		lists_free(&lists);
		return ret ? ret : (fflush(stdout) || ferror(stdout)) ? 2 : 0;
	}
	/* an unreadable directory is exit 2, as a log is: the rest is read */
	for (c = 0; c < nsyz; c++)
		if (syz_scan(&syz, syzargs[c]))
			ret = 2;
	free(syzargs);
	if (collect_paths(&run, &syz, nsyz > 0, argv + optind, argc - optind,
			  &paths)) {
		fputs("ubsan-triage: out of memory\n", stderr);
		return 2;
	}
	sites_init(&run.sites);
	ret |= parse_logs(&run, paths, run.logs.n);
	free(paths);
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
	free(run.crash);
	syz_free(&syz);
	return ret;
bad_list:
	fprintf(stderr, "ubsan-triage: cannot read %s\n", optarg);
	free(syzargs);
	lists_free(&lists);
	return 2;
}
