// SPDX-License-Identifier: GPL-2.0
/*
 * The real perf tool and the kernel's perf_events selftests as boot
 * workloads.
 *
 * One program, installed as /usr/libexec/kit/perf-items and reached through
 * the symlinks /bin/NAME that init runs; argv[0] names the item:
 *
 *   perftool-*                  a fixed list of perf command lines (items[])
 *   perftool-test               each case of "perf test", one subtest each
 *   kselftest-perf_events-PROG  /usr/libexec/kit/perf_events/PROG, whose
 *                               KTAP is passed on
 *   true, sleep                 for the perf tests that run them
 *
 * Each command is one KTAP subtest with its wall time, and whatever it
 * prints becomes "#" diagnostics. The guest has no PMU: only software
 * events, tracepoints and breakpoints work, and what needs more is either
 * not run (with the reason) or reported as XFAIL (with the reason), never
 * left out. Exit status: 0 if nothing failed, 1 if something did, 4 if
 * everything was skipped.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "capture.h"

#define PERF "/usr/bin/perf"
#define SELFTEST_DIR "/usr/libexec/kit/perf_events"
#define SELFTEST_PREFIX "kselftest-perf_events-"
#define PMU_DIR "/sys/bus/event_source/devices/cpu"
#define MAX_ARGS 24
#define MAX_TESTS 256
#define EXIT_PAGES 8 /* ring buffer of check_exit_records() */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Events counted around the benchmarks: software events only. */
#define SW_EVENTS \
	"task-clock,cpu-clock,context-switches,cpu-migrations,page-faults"

struct step {
	const char *name;
	const char *argv[MAX_ARGS];
	/* returns 0 if the run passed, else writes why into why */
	int (*check)(const struct step *s, const struct capture *c, char *why,
		     size_t n);
	/* for check: events with optional ">=N" minimum, or a phrase */
	const char *expect;
};

struct item {
	const char *name;
	const char *about;
	struct step steps[4];
};

static int nr_pass, nr_fail, nr_skip, nr_xfail, nr_results;

enum res { RES_PASS, RES_FAIL, RES_SKIP, RES_XFAIL };

/* One KTAP result line; reason goes with SKIP and XFAIL. */
static void result(enum res r, const char *name, long ms, const char *reason)
{
	nr_results++;
	switch (r) {
	case RES_PASS:
		nr_pass++;
		printf("ok %d %s # time=%ldms\n", nr_results, name, ms);
		break;
	case RES_FAIL:
		nr_fail++;
		printf("not ok %d %s # time=%ldms\n", nr_results, name, ms);
		break;
	case RES_SKIP:
		nr_skip++;
		printf("ok %d %s # SKIP %s time=%ldms\n", nr_results, name,
		       reason, ms);
		break;
	case RES_XFAIL:
		nr_xfail++;
		printf("ok %d %s # XFAIL %s time=%ldms\n", nr_results, name,
		       reason, ms);
		break;
	}
}

static int exit_status(void)
{
	printf("# Totals: pass:%d fail:%d xfail:%d skip:%d\n", nr_pass, nr_fail,
	       nr_xfail, nr_skip);
	if (nr_fail)
		return 1;
	if (!nr_pass && !nr_xfail && nr_skip)
		return 4;
	return 0;
}

static int check_exit(const struct step *s, const struct capture *c, char *why,
		      size_t n)
{
	if (c->timed_out)
		snprintf(why, n, "timed out after %d s", CAPTURE_TIMEOUT_S);
	else if (c->status)
		snprintf(why, n, "exit status %d", c->status);
	else
		return 0;
	return -1;
}

/* The exit status, and a phrase the command prints on success. */
static int check_phrase(const struct step *s, const struct capture *c,
			char *why, size_t n)
{
	if (check_exit(s, c, why, n))
		return -1;
	if (!strstr(c->buf, s->expect)) {
		snprintf(why, n, "no \"%s\" in the output", s->expect);
		return -1;
	}
	return 0;
}

/* Value of EVENT in "perf stat -x ," output, or -1 if it has none. */
static double stat_value(const char *out, const char *ev, size_t evlen)
{
	const char *line, *f;
	char *end;
	double v;

	for (line = out; *line; line = strchrnul(line, '\n'), line += !!*line) {
		v = strtod(line, &end);
		if (end == line || *end != ',')
			continue;
		f = strchr(end + 1, ','); /* the unit is the second field */
		if (f && !strncmp(f + 1, ev, evlen) &&
		    (f[1 + evlen] == ',' || f[1 + evlen] == ':'))
			return v;
	}
	return -1;
}

/*
 * perf stat -x , counted every event of s->expect ("ev,ev>=N,..."), each at
 * least N times when a minimum is given.
 */
static int check_stat(const struct step *s, const struct capture *c, char *why,
		      size_t n)
{
	const char *ev = s->expect, *next, *ge;
	double v, min;
	size_t len;

	if (check_exit(s, c, why, n))
		return -1;
	for (; *ev; ev = next + !!*next) {
		next = strchrnul(ev, ',');
		ge = memmem(ev, next - ev, ">=", 2);
		len = (ge ? ge : next) - ev;
		min = ge ? atof(ge + 2) : 0;
		v = stat_value(c->buf, ev, len);
		if (v < 0 || v < min) {
			snprintf(why, n, "%.*s: %s (expected at least %.0f)",
				 (int)len, ev,
				 v < 0 ? "not counted" : "too few", min);
			return -1;
		}
	}
	return 0;
}

/* perf report --stdio found samples, with call chains (a Children column). */
static int check_report(const struct step *s, const struct capture *c,
			char *why, size_t n)
{
	const char *p;

	if (check_exit(s, c, why, n))
		return -1;
	p = strstr(c->buf, "# Samples: ");
	if (!p || strtoul(p + 11, NULL, 10) == 0) {
		snprintf(why, n, "no samples in the report");
		return -1;
	}
	if (!strstr(c->buf, "# Children")) {
		snprintf(why, n, "no call chains in the report");
		return -1;
	}
	return 0;
}

/*
 * The fixed items. sched messaging runs on pipes (-p): the guest kernel has
 * no CONFIG_NET, so no socketpair(). Iteration counts are small: TCG.
 */
static const struct item items[] = {
	{ "perftool-stat-messaging",
	  "perf stat, software events, around perf bench sched messaging",
	  { { "stat_sched_messaging",
	      { PERF, "stat", "-x", ",", "-e", SW_EVENTS, "--", PERF, "bench",
		"sched", "messaging", "-p", "-l", "5", "-g", "2" },
	      check_stat,
	      SW_EVENTS } } },
	{ "perftool-stat-syscall",
	  "perf stat, software events and a syscall tracepoint, around perf bench syscall basic",
	  { { "stat_syscall_basic",
	      { PERF, "stat", "-x", ",", "-e",
		SW_EVENTS ",syscalls:sys_enter_getppid", "--", PERF, "bench",
		"syscall", "basic", "-l", "10000" },
	      check_stat,
	      SW_EVENTS ",syscalls:sys_enter_getppid>=10000" } } },
	{ "perftool-record-report",
	  "perf record -g -e cpu-clock, then perf report --stdio",
	  { { "record_cpu_clock_callchain",
	      { PERF, "record", "-g", "-e", "cpu-clock", "-N", "-o",
		"/tmp/perf.data", "--", PERF, "bench", "sched", "messaging",
		"-p", "-l", "20", "-g", "2" },
	      check_phrase,
	      "[ perf record: Captured and wrote" },
	    { "report_stdio",
	      { PERF, "report", "--stdio", "-i", "/tmp/perf.data",
		"--percent-limit", "5" },
	      check_report } } },
	{ "perftool-bench-evlist",
	  "perf bench internals evlist-open-close",
	  { { "evlist_open_close_dummy",
	      { PERF, "bench", "internals", "evlist-open-close" },
	      check_phrase,
	      "Average open-close took" },
	    { "evlist_open_close_sw_events",
	      { PERF, "bench", "internals", "evlist-open-close", "-e",
		"cpu-clock,task-clock,page-faults", "-n", "4", "-i", "20" },
	      check_phrase,
	      "Average open-close took" } } },
	{ "perftool-bench-breakpoint",
	  "perf bench breakpoint",
	  { { "breakpoint_thread",
	      { PERF, "bench", "breakpoint", "thread", "-b", "4", "-p", "2",
		"-t", "4" },
	      check_phrase,
	      "Total time" },
	    { "breakpoint_enable",
	      { PERF, "bench", "breakpoint", "enable", "-p", "2", "-a", "2" },
	      check_phrase,
	      "Total time" } } },
};

static int run_item(const struct item *it)
{
	struct capture c = { 0 };
	const struct step *s;
	char why[256];
	int n = 0;

	while (n < (int)ARRAY_SIZE(it->steps) && it->steps[n].name)
		n++;
	printf("KTAP version 1\n1..%d\n", n);
	diag("%s", it->about);
	for (s = it->steps; s < it->steps + n; s++) {
		int (*check)(const struct step *, const struct capture *,
			     char *, size_t) = s->check ?: check_exit;
		const char *const *a;
		char cmd[512];
		size_t len = 0;

		for (a = s->argv; *a && len < sizeof(cmd); a++)
			len += snprintf(cmd + len, sizeof(cmd) - len, "%s%s",
					a == s->argv ? "" : " ", *a);
		diag("$ %s", cmd);
		capture_run(s->argv, &c);
		if (check(s, &c, why, sizeof(why))) {
			diag("%s: %s", s->name, why);
			result(RES_FAIL, s->name, c.ms, NULL);
		} else {
			result(RES_PASS, s->name, c.ms, NULL);
		}
	}
	free(c.buf);
	return exit_status();
}

/*
 * What "Number of exit events of a simple workload" checks, without its
 * race: a task event on a child, the child reaped with waitpid() (by then
 * do_exit() has written its PERF_RECORD_EXIT), and the EXIT records in the
 * ring buffer counted. 0 if there is exactly one, else -1 and why.
 */
static int check_exit_records(char *why, size_t n)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.size = sizeof(attr),
		.sample_period = 1,
		.task = 1,
		.exclude_kernel = 1,
	};
	struct perf_event_mmap_page *pg = MAP_FAILED;
	size_t len = (1 + EXIT_PAGES) * 4096;
	struct perf_event_header *h;
	const char *failed = NULL;
	int go[2], fd = -1, nr_exit = 0;
	__u64 head, pos;
	char *data, c;
	pid_t pid;

	if (pipe2(go, O_CLOEXEC)) {
		snprintf(why, n, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		_exit(read(go[0], &c, 1) == 1 ? 0 : 1);
	}
	close(go[0]);
	if (pid < 0)
		failed = "fork";
	if (!failed) {
		fd = syscall(SYS_perf_event_open, &attr, pid, -1, -1,
			     PERF_FLAG_FD_CLOEXEC);
		if (fd < 0)
			failed = "perf_event_open";
	}
	if (!failed) {
		pg = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (pg == MAP_FAILED)
			failed = "mmap";
	}
	if (!failed && write(go[1], "", 1) != 1)
		failed = "write";
	if (failed)
		snprintf(why, n, "%s: %s", failed, strerror(errno));
	close(go[1]); /* without its byte, the child exits at EOF */
	if (pid > 0)
		waitpid(pid, NULL, 0);
	if (fd >= 0)
		close(fd);
	if (failed) {
		if (pg != MAP_FAILED)
			munmap(pg, len);
		return -1;
	}
	data = (char *)pg + 4096;
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	for (pos = 0; pos < head && pos < EXIT_PAGES * 4096; pos += h->size) {
		h = (struct perf_event_header *)(data + pos);
		if (!h->size)
			break;
		nr_exit += h->type == PERF_RECORD_EXIT;
	}
	munmap(pg, len);
	snprintf(why, n, "%d EXIT record(s) from a child reaped before reading",
		 nr_exit);
	return nr_exit == 1 ? 0 : -1;
}

/*
 * perf test cases the guest cannot pass, by the start of their description.
 * The guest has no PMU (QEMU TCG's CPU model has no architectural perfmon,
 * so the kernel registers no "cpu" PMU): software events, tracepoints and
 * breakpoints only. Its programs are static, and it has no shell, Python or
 * binutils. With run 0 a case is not run and reported as SKIP with the
 * reason; with run 1 it runs, and a failure is reported as XFAIL, a skip as
 * SKIP, with the reason. A case with a sign is racy: its failure is the
 * expected one only if the perf test -v rerun passes or prints the sign,
 * and the kit's own check of the same thing (without the race) passes;
 * any other failure stays a failure.
 */
static const struct {
	const char *desc;
	int run;
	const char *reason;
	const char *sign;
	int (*check)(char *why, size_t n);
} perf_test_env[] = {
	{ "PERF_RECORD_* events & perf_sample fields", 1,
	  "expects PERF_RECORD_MMAP events for a dynamically linked sleep, its libc and ld.so; the guest's sleep is a link to a static program" },
	{ "'import perf' in python", 0,
	  "perf is built without libpython, and the guest has no Python" },
	{ "Object code reading", 0,
	  "needs the hardware event cycles:u (no PMU) and objdump (not in the guest)" },
	{ "Setup struct perf_event_attr", 1,
	  "needs Python and perf's tests/attr files (the guest has neither)" },
	{ "PE file support", 1,
	  "needs libbfd (perf is built without) and the PE test files" },
	{ "Number of exit events of a simple workload", 1,
	  "a race in perf's test, not the kernel's count: it waits for both the workload's EXIT record and its SIGCHLD, but gives up after 1000 poll()s, and these return at once (POLLHUP) once the record is out; do_exit() writes it before exit_mm() since 'perf: Fix sample vs do_exit()', SIGCHLD only after, and on one CPU the woken test can use up its polls while the workload waits in exit_mmap() (chance decides a run, -v or not); 6.1's version opens the hardware cycles event, and perf skips it",
	  "Failed after retrying 1000 times", check_exit_records },
};

/* A "perf test" case from "perf test list": "  6: Parse event ..." */
struct perf_test {
	int nr;
	char desc[160];
};

static int parse_test_list(const char *out, struct perf_test *t, int max)
{
	const char *line, *p;
	char *end;
	int n = 0;
	long nr;

	for (line = out; *line && n < max;
	     line = strchrnul(line, '\n'), line += !!*line) {
		nr = strtol(line, &end, 10);
		if (end == line || nr <= 0 || end[0] != ':' || end[1] != ' ')
			continue; /* not a case, or a subtest "4:1:" */
		p = end + 2;
		t[n].nr = nr;
		snprintf(t[n].desc, sizeof(t[n].desc), "%.*s",
			 (int)(strchrnul(p, '\n') - p), p);
		n++;
	}
	return n;
}

/*
 * The verdict of one "perf test N" run from its result lines
 * ("desc : Ok", ": Skip", ": Skip (reason)", ": FAILED!"), subtests
 * included: failed if any failed, passed if any passed, else skipped.
 */
static enum res perf_test_verdict(const struct capture *c, char *reason,
				  size_t n)
{
	int ok = 0, skip = 0, failed = 0;
	const char *line, *eol, *p;

	snprintf(reason, n, "skipped by perf test");
	for (line = c->buf; *line; line = eol + !!*eol) {
		eol = strchrnul(line, '\n');
		if (memmem(line, eol - line, ": Ok", 4)) {
			ok++;
		} else if (memmem(line, eol - line, ": FAILED!", 9)) {
			failed++;
		} else if ((p = memmem(line, eol - line, ": Skip", 6))) {
			skip++;
			if (p[6] == ' ' && p[7] == '(' && eol[-1] == ')')
				snprintf(reason, n, "perf test: %.*s",
					 (int)(eol - p - 9), p + 8);
		}
	}
	if (c->timed_out || failed || c->status || (!ok && !skip))
		return RES_FAIL;
	return ok ? RES_PASS : RES_SKIP;
}

/*
 * Why perf test -v skipped or failed: the last line it printed before
 * "test child finished", unless that is its own chatter.
 */
static void perf_test_why(const struct capture *c, char *reason, size_t n)
{
	static const char *const chatter[] = { "--- start ---",
					       "test child forked",
					       "Using CPUID" };
	const char *end = strstr(c->buf, "test child finished"), *p;
	unsigned int i;

	if (!end || end == c->buf)
		return;
	for (p = end - 1; p > c->buf && p[-1] != '\n'; p--)
		;
	for (i = 0; i < ARRAY_SIZE(chatter); i++) {
		if (!strncmp(p, chatter[i], strlen(chatter[i])))
			return;
	}
	snprintf(reason, n, "perf test -v: %.*s", (int)(end - 1 - p), p);
}

/*
 * A racy case failed: the failure is its race if the kit's check of the
 * same thing, which has no race, passes, and the perf test -v rerun in c
 * passed (this time the race went the other way) or printed its sign.
 */
static int racy_failure(const struct capture *c, const char *sign,
			int (*check)(char *why, size_t n))
{
	char why[200];
	int ok = !check(why, sizeof(why));

	diag("the kit's check, without the race: %s: %s", why,
	     ok ? "ok" : "FAILED");
	if (!ok)
		return 0;
	if (perf_test_verdict(c, why, sizeof(why)) == RES_PASS) {
		diag("perf test -v passed: the race went the other way");
		return 1;
	}
	if (strstr(c->buf, sign))
		return 1;
	diag("perf test -v failed too, without \"%s\"", sign);
	return 0;
}

static int run_perf_test(void)
{
	static struct perf_test t[MAX_TESTS];
	const char *list[] = { PERF, "test", "list", NULL };
	struct capture c = { .quiet = 1 };
	char nr[16], name[200], reason[200];
	unsigned int k;
	int i, n;

	capture_run(list, &c);
	n = parse_test_list(c.buf, t, MAX_TESTS);
	printf("KTAP version 1\n1..%d\n", n ? n : 1);
	diag("perf test: %d cases; those that need what the guest lacks are skipped without running",
	     n);
	if (!n) {
		diag("perf test list: exit status %d, no cases", c.status);
		result(RES_FAIL, "perf_test_list", c.ms, NULL);
		free(c.buf);
		return exit_status();
	}
	c.quiet = 0;
	for (i = 0; i < n; i++) {
		const char *argv[] = { PERF, "test", nr, NULL };
		const char *vargv[] = { PERF, "test", "-v", nr, NULL };
		const char *env = NULL, *sign = NULL;
		int (*check)(char *why, size_t n) = NULL;
		enum res r;
		long ms;

		snprintf(nr, sizeof(nr), "%d", t[i].nr);
		snprintf(name, sizeof(name), "perf_test_%d %s", t[i].nr,
			 t[i].desc);
		for (k = 0; k < ARRAY_SIZE(perf_test_env); k++) {
			if (!strncmp(t[i].desc, perf_test_env[k].desc,
				     strlen(perf_test_env[k].desc))) {
				env = perf_test_env[k].reason;
				sign = perf_test_env[k].sign;
				check = perf_test_env[k].check;
				break;
			}
		}
		if (env && !perf_test_env[k].run) {
			result(RES_SKIP, name, 0, env);
			continue;
		}
		capture_run(argv, &c);
		ms = c.ms;
		r = perf_test_verdict(&c, reason, sizeof(reason));
		if (r == RES_FAIL || (r == RES_SKIP && !strchr(reason, ':'))) {
			/* perf says why only with -v */
			diag("perf test %d: exit status %d%s; the end of perf test -v %d:",
			     t[i].nr, c.status,
			     c.timed_out ? ", timed out" : "", t[i].nr);
			c.tail = r == RES_FAIL ? 40 : 6;
			capture_run(vargv, &c);
			c.tail = 0;
			if (r == RES_SKIP)
				perf_test_why(&c, reason, sizeof(reason));
		}
		if (r == RES_FAIL && sign && !racy_failure(&c, sign, check)) {
			diag("perf test %d: not the failure of its race",
			     t[i].nr);
			env = NULL;
		}
		if (r == RES_FAIL && env)
			result(RES_XFAIL, name, ms, env);
		else if (r == RES_SKIP && env)
			result(RES_SKIP, name, ms, env);
		else
			result(r, name, ms, reason);
	}
	free(c.buf);
	return exit_status();
}

/*
 * kselftest cases that fail for want of a PMU, by name prefix. Their
 * "not ok" becomes "ok ... # XFAIL reason" when the kernel has no "cpu"
 * PMU; with one, they count as they are.
 */
static const struct {
	const char *name;
	int stuck; /* hangs after failing: killed after its first failure */
	const char *reason;
} selftest_xfail[] = {
	{ "remove_on_exec.", 0,
	  "needs PERF_TYPE_HARDWARE (instructions) for its sigtrap event; no PMU" },
	{ "perf_mmap.aux.", 1,
	  "no AUX-capable PMU: the fixture SKIPs, but 6.1's harness still runs the body, on a NULL buffer; it fails, then spins in user space (killed after 2 s, not the harness's 30 s)" },
};

/* A case that hangs once it has failed, from the harness's "#  RUN" line */
static int stuck_case(const char *run)
{
	unsigned int i;

	run += strspn(run, " ");
	for (i = 0; i < ARRAY_SIZE(selftest_xfail); i++) {
		if (selftest_xfail[i].stuck &&
		    !strncmp(run, selftest_xfail[i].name,
			     strlen(selftest_xfail[i].name)))
			return 1;
	}
	return 0;
}

struct ksft_ctx {
	int has_pmu;
	int rewritten;
	int stuck; /* the running case hangs once it has failed */
	struct capture *c;
	long t_case; /* when the current case started */
};

static int read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/*
 * The harness runs each case in a child. A case that has already failed
 * and is known to hang without a PMU: give it two seconds, say where it
 * waits (state, wchan, /proc/PID/syscall), and kill it rather than wait
 * for the harness's 30 s timeout.
 */
static void kill_stuck_case(pid_t harness)
{
	char path[64], stat[512], wchan[128], sys[128];
	struct dirent *e;
	int ppid, killed = 0;
	char state, *p;
	DIR *d;

	sleep(2);
	d = opendir("/proc");
	while (d && (e = readdir(d))) {
		pid_t pid = atoi(e->d_name);

		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		if (pid <= 0 || read_text(path, stat, sizeof(stat)))
			continue;
		p = strrchr(stat, ')');
		if (!p || sscanf(p + 1, " %c %d", &state, &ppid) != 2 ||
		    ppid != harness)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/wchan", pid);
		if (read_text(path, wchan, sizeof(wchan)))
			strcpy(wchan, "?");
		snprintf(path, sizeof(path), "/proc/%d/syscall", pid);
		if (read_text(path, sys, sizeof(sys)))
			strcpy(sys, "?");
		diag("kit: case pid %d still running after its failure: state %c, wchan %s, syscall %s; killed",
		     pid, state, wchan[0] ? wchan : "0", sys);
		kill(pid, SIGKILL);
		killed++;
	}
	if (d)
		closedir(d);
	if (!killed)
		diag("kit: the failed case ended by itself");
}

/* Pass the harness's KTAP on, with times, and XFAIL what needs a PMU. */
static void ksft_line(char *line, void *arg)
{
	struct ksft_ctx *k = arg;
	long ms = now_ms() - k->t_case;
	const char *name, *hash;
	unsigned int i;
	int not_ok, nr;
	char *end;

	if (!strncmp(line, "TAP version ", 12)) {
		printf("KTAP version 1\n");
		return;
	}
	if (!strncmp(line, "#  RUN ", 7)) {
		k->t_case = now_ms();
		k->stuck = !k->has_pmu && stuck_case(line + 7);
	} else if (k->stuck && strstr(line, ":Expected ")) {
		printf("%s\n", line);
		k->stuck = 0;
		kill_stuck_case(k->c->pid);
		return;
	}
	not_ok = !strncmp(line, "not ok ", 7);
	if (!not_ok && strncmp(line, "ok ", 3)) {
		/* the plan, diagnostics, and anything else */
		if (!strncmp(line, "# Totals:", 9)) /* ours follows */
			printf("# (harness)%s\n", line + 1);
		else if (!strncmp(line, "1..", 3) || line[0] == '#')
			printf("%s\n", line);
		else
			diag("%s", line);
		return;
	}
	nr = strtol(line + (not_ok ? 7 : 3), &end, 10);
	name = end + 1;
	hash = strstr(name, " # ");
	nr_results++;
	if (!not_ok) {
		if (hash && !strncmp(hash, " # SKIP", 7))
			nr_skip++;
		else
			nr_pass++;
		printf("%s%stime=%ldms\n", line, hash ? " " : " # ", ms);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(selftest_xfail); i++) {
		if (!k->has_pmu && !strncmp(name, selftest_xfail[i].name,
					    strlen(selftest_xfail[i].name))) {
			nr_xfail++;
			k->rewritten++;
			printf("ok %d %.*s # XFAIL %s time=%ldms\n", nr,
			       (int)(hash ? hash - name : (long)strlen(name)),
			       name, selftest_xfail[i].reason, ms);
			return;
		}
	}
	nr_fail++;
	printf("%s%stime=%ldms\n", line, hash ? " " : " # ", ms);
}

static int run_selftest(const char *prog)
{
	struct ksft_ctx k = { .has_pmu = !access(PMU_DIR, F_OK),
			      .t_case = now_ms() };
	struct capture c = { .on_line = ksft_line, .ctx = &k };
	char path[256];
	const char *argv[] = { path, NULL };

	k.c = &c;
	snprintf(path, sizeof(path), "%s/%s", SELFTEST_DIR, prog);
	diag("%s: tools/testing/selftests/perf_events/%s, %s PMU", path, prog,
	     k.has_pmu ? "with a" : "no");
	capture_run(argv, &c);
	free(c.buf);
	if (k.rewritten)
		diag("%d failed case(s) counted as XFAIL: no PMU", k.rewritten);
	/* the harness exits 1 if a case failed: all of them XFAIL here */
	if (c.status == 1 && k.rewritten && !nr_fail)
		c.status = 0;
	if (c.timed_out || (c.status && c.status != 4) || !nr_results) {
		diag("%s: exit status %d%s", prog, c.status,
		     c.timed_out ? ", timed out" : "");
		return 1;
	}
	printf("# Totals: pass:%d fail:%d xfail:%d skip:%d\n", nr_pass, nr_fail,
	       nr_xfail, nr_skip);
	if (c.status == 4 || (!nr_pass && !nr_xfail && nr_skip))
		return 4;
	return 0;
}

/* perf finds tracepoints through tracefs (and older paths through debugfs) */
static void mount_tracefs(void)
{
	if (mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL) &&
	    errno != EBUSY)
		diag("mount tracefs: %s", strerror(errno));
	if (mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) &&
	    errno != EBUSY)
		diag("mount debugfs: %s", strerror(errno));
}

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/');
	unsigned int i;

	name = name ? name + 1 : argv[0];
	/* the workloads of some perf tests: /usr/bin/true and sleep link here */
	if (!strcmp(name, "true"))
		return 0;
	if (!strcmp(name, "sleep"))
		return argc > 1 ? (int)sleep(atoi(argv[1])) : 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	mount_tracefs();
	if (!strncmp(name, SELFTEST_PREFIX, strlen(SELFTEST_PREFIX)))
		return run_selftest(name + strlen(SELFTEST_PREFIX));
	if (!strcmp(name, "perftool-test"))
		return run_perf_test();
	for (i = 0; i < ARRAY_SIZE(items); i++) {
		if (!strcmp(name, items[i].name))
			return run_item(&items[i]);
	}
	printf("KTAP version 1\n1..1\n");
	diag("%s: no such item", name);
	result(RES_FAIL, name, 0, NULL);
	return 1;
}
