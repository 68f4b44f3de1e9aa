// SPDX-License-Identifier: GPL-2.0
/*
 * ubsan-triage: triage UBSAN and crash reports in kernel console logs.
 * See tools/README.md.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "triage/triage.h"
#include "triage/kcidb.h"

enum {
	OUT_TABLE,
	OUT_JSON,
	OUT_TSV,
	OUT_FPRATE,
	OUT_KCIDB,
	OUT_FINDINGS,
	OUT_ROWS
};

struct run {
	struct sitetab sites;
	struct logs logs;
	int only_ubsan;
	const char *kind;
	int oom;
	int *crash; /* --syz: each log's crash directory, -1 for none */
	/* --follow: sites are judged and printed as they are first seen */
	int follow, stop_at_finding, stop;
	struct follow_opts fo;
	const struct lists *lists;
	const char *src; /* the kernel tree, for the source lines */
};

/* --follow: a site seen for the first time, judged at once (stderr). */
static void judge_live(struct run *run, struct site *s)
{
	char site[PATH_MAX_T + 32];

	classify_site(run->lists, s, run->src);
	snprintf(site, sizeof(site), "%s:%u", s->r.file[0] ? s->r.file : "?",
		 s->r.line);
	fprintf(stderr, "follow: %-12s %-25s %-40s %s\n", cls_names[s->cls],
		s->r.kind, site, s->r.func[0] ? s->r.func : "-");
	if (s->cls != CLS_FINDING || !run->stop_at_finding || run->stop)
		return;
	fprintf(stderr, "follow: stopping at the first finding\n");
	run->stop = 1;
	if (run->fo.pid > 0)
		kill(run->fo.pid, SIGTERM);
}

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
	else if (run->follow && s->count == 1)
		judge_live(run, s);
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
	      "  -o, --output FILE   write FILE whole or not at all (a scratch name\n"
	      "                      renamed over it), after checking the space\n"
	      "  --fp-rate           sites per class and the false-positive "
	      "rate\n"
	      "  --kcidb CHECKOUT    one KCIDB v5 document; the arguments are "
	      "the\n"
	      "                      runner's boots.tsv files, not logs\n"
	      "  --kit DIR           DIR/sanitizer-ignorelist/*.scl,\n"
	      "                      DIR/annotations/sites.tsv,\n"
	      "                      DIR/annotations/rules.tsv,\n"
	      "                      DIR/corpus/*/known-bugs.tsv\n"
	      "  --ignorelist PATH   special case list file or directory of "
	      "*.scl\n"
	      "  --annotations FILE  annotations/sites.tsv\n"
	      "  --known-bugs FILE   a known-bugs.tsv (repeatable)\n"
	      "  --vmlinux FILE      symbolize frames with llvm-symbolizer\n"
	      "  --src DIR           the kernel tree, for the source line at a "
	      "site\n"
	      "                      (default: the folder of --vmlinux, or its\n"
	      "                      source link)\n"
	      "  --follow            read one LOG while it grows; print each "
	      "site\n"
	      "                      to stderr as it is first seen, judged\n"
	      "  --pid PID           --follow: stop when PID has exited\n"
	      "  --idle SECONDS      --follow: stop after SECONDS without a "
	      "line\n"
	      "  --stop-at-finding   --follow: stop at the first finding "
	      "(SIGTERM\n"
	      "                      to --pid), exit 3\n"
	      "  --coverage CENSUS   the rules over a census TSV: checks "
	      "covered\n"
	      "  --check-lists       load the lists, read no log: exit 0, or 2 "
	      "naming\n"
	      "                      the first bad line\n"
	      "  --findings md|json  the findings of the LOGs: evidence, "
	      "verdict\n"
	      "  --tree NAME=DIR     --findings: is the statement still in "
	      "DIR\n"
	      "  --redundant-rows    each annotations/sites.tsv row against the "
	      "rules\n"
	      "                      over the sites of the LOGs: exit 1 if the "
	      "rules\n"
	      "                      judge every site of a row as the row does\n"
	      "  --only-ubsan        ignore non-UBSAN reports\n"
	      "  --filter-kind KIND  keep only reports of this kind\n"
	      "exit: 0 no new site and no finding, 1 a new site or a "
	      "finding,\n"
	      "      (--redundant-rows: 1 a redundant row), 2 usage or I/O "
	      "error,\n"
	      "      3 stopped at a finding\n",
	      f);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Every DIR/corpus/<bug>/known-bugs.tsv, in the order of the folders'
 * names. Returns how many were read, or -1 (the error names the file).
 */
static int load_corpus_bugs(struct lists *l, const char *dir)
{
	char corpus[4096], path[4096 + 300], **names = NULL, **nn;
	struct dirent *de;
	size_t n = 0, i;
	int found = 0, ret = 0;
	DIR *d;

	snprintf(corpus, sizeof(corpus), "%s/corpus", dir);
	d = opendir(corpus);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		nn = realloc(names, (n + 1) * sizeof(*nn));
		if (!nn || !(nn[n] = strdup(de->d_name))) {
			names = nn ? nn : names;
			ret = -1;
			break;
		}
		names = nn;
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_name);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%.255s/known-bugs.tsv", corpus,
			 names[i]);
		if (!ret && !access(path, F_OK)) {
			found++;
			if (lists_load_known_bugs(l, path, 1))
				ret = -1;
		}
		free(names[i]);
	}
	free(names);
	return ret ? ret : found;
}

/* The kit's lists; the first bad one stops it (its error names it). */
static int load_kit(struct lists *l, const char *dir)
{
	char buf[4096];

	snprintf(buf, sizeof(buf), "%s/sanitizer-ignorelist", dir);
	if (lists_load_ignorelist(l, buf, 0))
		return -1;
	snprintf(buf, sizeof(buf), "%s/annotations/sites.tsv", dir);
	if (lists_load_annotations(l, buf, 0))
		return -1;
	if (load_corpus_bugs(l, dir) < 0)
		return -1;
	snprintf(buf, sizeof(buf), "%s/annotations/rules.tsv", dir);
	return lists_load_rules(l, buf, 0);
}

/* --tree NAME=DIR */
static int add_tree(struct trees *t, char *arg)
{
	char *eq = strchr(arg, '=');

	if (!eq || eq == arg || !eq[1] || t->n == TREES_MAX)
		return -1;
	*eq = 0;
	t->name[t->n] = arg;
	t->dir[t->n++] = eq + 1;
	return 0;
}

/*
 * The tree a vmlinux was built in: its folder if a Makefile is beside it,
 * else a "source" link beside it (as /lib/modules/VERSION/source names the
 * tree of an installed kernel; a copied vmlinux, such as make detect's).
 */
static const char *default_src(const char *vmlinux, char *buf, size_t sz)
{
	static const char *const where[] = { "", "/source" };
	char tmp[4096], mk[4200];
	const char *dir;
	size_t i;

	snprintf(tmp, sizeof(tmp), "%s", vmlinux);
	dir = dirname(tmp);
	for (i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		snprintf(buf, sz, "%s%s", dir, where[i]);
		snprintf(mk, sizeof(mk), "%s/Makefile", buf);
		if (!access(mk, R_OK))
			return buf;
	}
	return NULL;
}

/*
 * A LOG that is a file must be a console log: not empty, and mostly text
 * (tl_binary). Pipes and terminals are read as they come. Returns -1 after
 * naming the file; an unreadable one is parse_logs()'s to name.
 */
static int check_log(const char *path)
{
	static char buf[65536];
	int fd = strcmp(path, "-") ? open(path, O_RDONLY) : 0;
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	const char *why = NULL;
	struct stat st;
	ssize_t got;

	if (fd < 0)
		return 0;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode)) {
		got = pread(fd, buf, sizeof(buf), lseek(fd, 0, SEEK_CUR));
		if (got == 0)
			why = "empty, not a console log";
		else if (got > 0 && tl_binary(buf, (size_t)got))
			why = "binary, not a console log (over 30% of its "
			      "first 64 KiB is not text)";
	}
	if (strcmp(path, "-"))
		close(fd);
	if (why)
		fprintf(stderr, "ubsan-triage: %s: %s\n", name, why);
	return why ? -1 : 0;
}

static int parse_logs(struct run *run, char **paths, int n)
{
	struct parser p;
	int i, fd, err, ret = 0;

	parser_init(&p, on_report, run);
	for (i = 0; i < n; i++) {
		const char *path = paths[i];

		run->logs.names[i] = strcmp(path, "-") ? path : "<stdin>";
		if (!strcmp(path, "-"))
			fd = 0;
		else if (run->follow)
			fd = follow_open(path, &run->fo);
		else
			fd = open(path, O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "ubsan-triage: %s: %s\n", path,
				strerror(errno));
			ret = 2;
			continue;
		}
		parser_begin_log(&p, i);
		run->fo.stop = &run->stop;
		err = run->follow ? follow_fd(&p, fd, &run->fo) :
				    parser_read_fd(&p, fd);
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

/* The room on PATH's filesystem, in bytes; -1 if unknown. */
static long long space_for(const char *path)
{
	char dir[4096];
	struct statvfs vfs;

	snprintf(dir, sizeof(dir), "%s", path);
	if (statvfs(dirname(dir), &vfs))
		return -1;
	return (long long)vfs.f_bavail * (long long)vfs.f_frsize;
}

/* The kit's line for a full disk (tools/space.sh), in KiB. */
static int no_space(const char *path, size_t len, long long avail)
{
	fprintf(stderr,
		"ubsan-triage: no space: %s needs %zu KiB, has %lld KiB free\n",
		path, (len + 1023) / 1024, avail < 0 ? 0 : avail / 1024);
	return 2;
}

/*
 * --output FILE: the whole output, held in memory, is written to a scratch
 * name beside FILE and renamed over it once complete, so that a full disk
 * leaves FILE as it was, never cut short. Its size being known, the room
 * for it is checked first (KIT_SPACE_PRECHECK=0: not checked, as in
 * tools/space.sh). Returns 0, or 2 with one line on stderr.
 */
static int save_output(const char *path, const char *buf, size_t len)
{
	const char *pre = getenv("KIT_SPACE_PRECHECK");
	long long avail = space_for(path);
	char tmp[4096 + 32];
	size_t done = 0;
	ssize_t n;
	int fd, err = 0;

	if (avail >= 0 && (long long)len > avail && !(pre && !strcmp(pre, "0")))
		return no_space(path, len, avail);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		err = errno;
		goto fail;
	}
	while (done < len) {
		n = write(fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno;
			break;
		}
		done += (size_t)n;
	}
	if (close(fd) && !err)
		err = errno;
	if (!err && rename(tmp, path))
		err = errno;
	if (!err)
		return 0;
	unlink(tmp);
fail:
	if (err == ENOSPC || err == EDQUOT)
		return no_space(path, len, space_for(path));
	fprintf(stderr, "ubsan-triage: %s: %s\n", path, strerror(err));
	return 2;
}

/*
 * The output on stdout is complete: else one line naming the file it is
 * redirected to (or "standard output") and the error. Returns 0 or 2.
 */
static int stdout_done(void)
{
	char name[4096] = "standard output";
	int err = fflush(stdout) ? errno : 0;
	ssize_t n;

	if (!err && !ferror(stdout))
		return 0;
	n = readlink("/proc/self/fd/1", name, sizeof(name) - 1);
	if (n > 0 && name[0] == '/')
		name[n] = 0;
	else
		strcpy(name, "standard output");
	fprintf(stderr, "ubsan-triage: %s: %s\n", name,
		err ? strerror(err) : "write error");
	return 2;
}

/* Where the output goes (stdout, or memory for --output), and its end. */
struct sink {
	const char *path;
	char *buf;
	size_t len;
	FILE *f;
};

static int sink_open(struct sink *s)
{
	s->f = s->path ? open_memstream(&s->buf, &s->len) : stdout;
	if (!s->f)
		fputs("ubsan-triage: out of memory\n", stderr);
	return s->f ? 0 : -1;
}

/*
 * The end of a run whose status so far is ERR (nonzero: an error): stdout
 * checked, or --output's FILE written; a run with an error, or whose file
 * could not be written, leaves no FILE (not even an earlier one). Returns
 * 0, or 2 with one line on stderr.
 */
static int sink_end(struct sink *s, int err)
{
	int ret = 0;

	if (!s->path)
		return stdout_done();
	if (fclose(s->f)) {
		fputs("ubsan-triage: out of memory\n", stderr);
		ret = 2;
	} else if (!err) {
		ret = save_output(s->path, s->buf, s->len);
	}
	free(s->buf);
	if (err || ret)
		unlink(s->path);
	return ret;
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
		{ "src", required_argument, NULL, 'S' },
		{ "follow", no_argument, NULL, 'F' },
		{ "pid", required_argument, NULL, 'P' },
		{ "idle", required_argument, NULL, 'I' },
		{ "stop-at-finding", no_argument, NULL, 'X' },
		{ "coverage", required_argument, NULL, 'c' },
		{ "findings", required_argument, NULL, 'R' },
		{ "tree", required_argument, NULL, 'T' },
		{ "check-lists", no_argument, NULL, 'L' },
		{ "output", required_argument, NULL, 'o' },
		{ "redundant-rows", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct run run;
	struct lists lists;
	struct syzdirs syz;
	const char *vmlinux = NULL, *checkout = NULL, *census = NULL;
	char srcbuf[4096];
	struct trees trees = { 0 };
	struct sink sink = { 0 };
	int findings_json = 0, check_lists = 0;
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
	while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			out = OUT_JSON;
			break;
		case 't':
			out = OUT_TSV;
			break;
		case 'o':
			sink.path = optarg;
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
		case 'S':
			run.src = optarg;
			break;
		case 'F':
			run.follow = 1;
			break;
		case 'P':
			run.fo.pid = atoi(optarg);
			break;
		case 'I':
			run.fo.idle_s = atoi(optarg);
			break;
		case 'X':
			run.stop_at_finding = 1;
			break;
		case 'c':
			census = optarg;
			break;
		case 'R':
			out = OUT_FINDINGS;
			findings_json = !strcmp(optarg, "json");
			break;
		case 'r':
			out = OUT_ROWS;
			break;
		case 'T':
			if (add_tree(&trees, optarg))
				goto bad_arg;
			break;
		case 'L':
			check_lists = 1;
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
	run.lists = &lists;
	if (check_lists) {
		free(syzargs);
		lists_free(&lists);
		return 0;
	}
	if (!run.src && vmlinux)
		run.src = default_src(vmlinux, srcbuf, sizeof(srcbuf));
	if (!census && run.follow && (nsyz || argc - optind != 1)) {
		free(syzargs);
		fputs("ubsan-triage: --follow reads one LOG\n", stderr);
		lists_free(&lists);
		return 2;
	}
	if (!census && out == OUT_KCIDB && nsyz) {
		free(syzargs);
		fputs("ubsan-triage: --syz does not go with --kcidb\n", stderr);
		lists_free(&lists);
		return 2;
	}
	if (sink_open(&sink)) {
		free(syzargs);
		lists_free(&lists);
		return 2;
	}
	if (census) {
		free(syzargs);
		ret = coverage_main(&lists, census, run.src, sink.f);
		lists_free(&lists);
		return sink_end(&sink, ret >= 2) ? 2 : ret;
	}
	if (out == OUT_KCIDB) {
		free(syzargs);
		ret = kcidb_main(&lists, checkout, argv + optind, argc - optind,
				 sink.f);
		lists_free(&lists);
		return sink_end(&sink, ret) ? 2 : ret;
	}
	/* an empty or binary LOG: nothing is read, nothing written */
	for (c = optind; !run.follow && c <= argc; c++) {
		if (c == argc && (c > optind || nsyz))
			break;
		if (check_log(c < argc ? argv[c] : "-"))
			ret = 2;
	}
	if (ret) {
		free(syzargs);
		lists_free(&lists);
		sink_end(&sink, 1);
		return ret;
	}
	/* an unreadable directory is exit 2, as a log is: the rest is read */
	for (c = 0; c < nsyz; c++)
		if (syz_scan(&syz, syzargs[c]))
			ret = 2;
	free(syzargs);
	if (collect_paths(&run, &syz, nsyz > 0, argv + optind, argc - optind,
			  &paths)) {
		fputs("ubsan-triage: out of memory\n", stderr);
		sink_end(&sink, 2);
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
	for (i = 0; i < run.sites.n; i++) {
		written_in_source(&run.sites.v[i]->r, run.src);
		classify_site(&lists, run.sites.v[i], run.src);
	}
	if (out == OUT_ROWS)
		ret |= rows_vs_rules(&lists, &run.sites, run.src, sink.f);
	else if (out == OUT_FINDINGS)
		ret |= findings_report(sink.f, &run.sites, &run.logs, &trees,
				       run.src, findings_json);
	else if (out == OUT_JSON)
		out_json(sink.f, &run.sites, &run.logs);
	else if (out == OUT_TSV)
		out_tsv(sink.f, &run.sites);
	else if (out == OUT_FPRATE)
		out_fprate(sink.f, &run.sites);
	else
		out_table(sink.f, &run.sites, &run.logs);
	if (sink_end(&sink, ret & 2))
		ret = 2;
	for (i = 0; out != OUT_ROWS && !ret && i < run.sites.n; i++)
		if (run.sites.v[i]->cls == CLS_NEW ||
		    run.sites.v[i]->cls == CLS_FINDING)
			ret = 1;
	if (!(ret & 2) && run.stop)
		ret = 3;
	sites_free(&run.sites);
	lists_free(&lists);
	free(run.logs.names);
	free(run.logs.lines);
	free(run.logs.reports);
	free(run.crash);
	syz_free(&syz);
	return ret;
bad_arg:
	fprintf(stderr, "ubsan-triage: --tree NAME=DIR, at most %d: %s\n",
		TREES_MAX, optarg);
	free(syzargs);
	lists_free(&lists);
	return 2;
bad_list:
	/* the loader has named the file and line */
	free(syzargs);
	lists_free(&lists);
	return 2;
}
