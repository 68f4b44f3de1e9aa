// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the guest workloads, see workload.h.
 */
#include "workload.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

unsigned long kit_nr_open;

static int kit_nr_tests, kit_nr_fail, kit_nr_skip, kit_nr_pass;

void kit_attr_init(struct perf_event_attr *attr, __u32 type, __u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
}

int kit_perf_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		  int group_fd, unsigned long flags)
{
	kit_nr_open++;
	return syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* __perf_event_read_size() of kernel/events/core.c after 382c27f4ed28 */
long kit_read_size(__u64 read_format, long nr_siblings)
{
	long entry = sizeof(__u64);
	long size = 0;
	long nr = 1;

	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		size += sizeof(__u64);
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		size += sizeof(__u64);
	if (read_format & PERF_FORMAT_ID)
		entry += sizeof(__u64);
	if (read_format & PERF_FORMAT_LOST)
		entry += sizeof(__u64);
	if (read_format & PERF_FORMAT_GROUP) {
		nr += nr_siblings;
		size += sizeof(__u64);
	}
	return size + nr * entry;
}

/*
 * Largest read_size of any member of a group of a leader and nr_siblings
 * siblings: the figure that perf_event_validate_size() bounds and that
 * must fit perf_event::read_size, a u16.
 */
long kit_group_read_size(__u64 leader_format, __u64 sibling_format,
			 long nr_siblings)
{
	long leader = kit_read_size(leader_format, nr_siblings);
	long sibling = kit_read_size(sibling_format, nr_siblings);

	return nr_siblings && sibling > leader ? sibling : leader;
}

/*
 * Largest number of siblings a kernel with the 16 KiB limit of 382c27f4ed28
 * accepts in a group whose leader and siblings use these formats, or -1 if
 * read_size does not grow.
 */
long kit_max_siblings(__u64 leader_format, __u64 sibling_format)
{
	long n = 0;

	if (!((leader_format | sibling_format) & PERF_FORMAT_GROUP))
		return -1;
	while (kit_group_read_size(leader_format, sibling_format, n + 1) <=
	       KIT_READ_SIZE_LIMIT)
		n++;
	return n;
}

/*
 * Smallest number of siblings at which some member's read_size no longer
 * fits the u16 (the u16 boundary), or -1 if read_size does not grow.
 */
long kit_boundary_siblings(__u64 leader_format, __u64 sibling_format)
{
	long n = 0;

	if (!((leader_format | sibling_format) & PERF_FORMAT_GROUP))
		return -1;
	while (kit_group_read_size(leader_format, sibling_format, n) <=
	       KIT_U16_MAX)
		n++;
	return n;
}

/*
 * The kernel let a group grow to nr_siblings siblings although some member's
 * read_size then passes the u16 boundary.  One line per member kind whose
 * read_size did, with the value the kernel truncated: verdict.sh looks for
 * the sanitizer's report of that value in kernel/events/.
 */
void kit_boundary_passed(__u64 leader_format, __u64 sibling_format,
			 long nr_siblings)
{
	long leader = kit_read_size(leader_format, nr_siblings);
	long sibling = kit_read_size(sibling_format, nr_siblings);

	if (leader > KIT_U16_MAX)
		kit_diag(
			"u16 boundary passed: leader read_size %ld at %ld siblings",
			leader, nr_siblings);
	if (nr_siblings && sibling > KIT_U16_MAX)
		kit_diag(
			"u16 boundary passed: sibling read_size %ld at %ld siblings",
			sibling, nr_siblings);
}

int kit_raise_nofile(unsigned long n)
{
	struct rlimit rl = { .rlim_cur = n, .rlim_max = n };

	if (setrlimit(RLIMIT_NOFILE, &rl)) {
		kit_diag("setrlimit(RLIMIT_NOFILE, %lu): %s", n,
			 strerror(errno));
		return -1;
	}
	return 0;
}

void kit_plan(int nr)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("KTAP version 1\n1..%d\n", nr);
}

void kit_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("# ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	fflush(stdout);
}

void kit_result(enum kit_result res, const char *name, const char *fmt, ...)
{
	va_list ap;

	kit_nr_tests++;
	printf("%s %d %s", res == KIT_FAIL ? "not ok" : "ok", kit_nr_tests,
	       name);
	if (res == KIT_SKIP) {
		kit_nr_skip++;
		fputs(" # SKIP", stdout);
	} else if (res == KIT_FAIL) {
		kit_nr_fail++;
	} else {
		kit_nr_pass++;
	}
	if (fmt) {
		fputs(res == KIT_SKIP ? " " : " # ", stdout);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	putchar('\n');
	fflush(stdout);
}

/* 0 if nothing failed, 4 (kselftest's skip) if everything skipped, else 1 */
int kit_exit_status(void)
{
	kit_diag("Totals: pass:%d fail:%d skip:%d perf_event_open:%lu",
		 kit_nr_pass, kit_nr_fail, kit_nr_skip, kit_nr_open);
	if (kit_nr_fail)
		return 1;
	if (kit_nr_tests && kit_nr_skip == kit_nr_tests)
		return 4;
	return 0;
}

/*
 * Open a disabled task-clock leader, then add disabled dummy siblings until
 * there are max_siblings or perf_event_open() fails.
 */
int kit_group_grow(struct kit_group *g, __u64 leader_format,
		   __u64 sibling_format, int max_siblings)
{
	struct perf_event_attr leader, sibling;
	int fd;

	kit_attr_init(&leader, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	leader.disabled = 1;
	leader.read_format = leader_format;
	kit_attr_init(&sibling, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	sibling.disabled = 1;
	sibling.read_format = sibling_format;

	g->err = 0;
	if (!g->fds) {
		g->fds = calloc(max_siblings + 1, sizeof(int));
		if (!g->fds) {
			g->err = ENOMEM;
			return -1;
		}
	}
	if (!g->nr) {
		fd = kit_perf_open(&leader, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			g->err = errno;
			return -1;
		}
		g->fds[g->nr++] = fd;
	}
	while (g->nr <= max_siblings) {
		fd = kit_perf_open(&sibling, 0, -1, g->fds[0],
				   PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			g->err = errno;
			return -1;
		}
		g->fds[g->nr++] = fd;
	}
	return 0;
}

void kit_group_close(struct kit_group *g)
{
	/* siblings first, so that the leader never has to re-home them */
	while (g->nr > 0)
		close(g->fds[--g->nr]);
	free(g->fds);
	g->fds = NULL;
}

/*
 * Grow one group past the point where some member's u16 read_size wraps,
 * unless the kernel refuses with E2BIG first (as a fixed kernel must).
 * The group is only read back when nobody's read_size can have wrapped.
 */
int kit_group_limit_test(__u64 leader_format, __u64 sibling_format)
{
	long expect = kit_max_siblings(leader_format, sibling_format);
	long wrap = kit_boundary_siblings(leader_format, sibling_format);
	long cap = wrap + 16, nsib, want;
	struct kit_group g = { 0 };
	__u64 *buf;
	ssize_t n;

	kit_plan(2);
	kit_diag("leader read_format=%#llx sibling read_format=%#llx",
		 (unsigned long long)leader_format,
		 (unsigned long long)sibling_format);
	kit_diag(
		"fixed kernel limit: %ld siblings; u16 read_size wraps at %ld siblings; trying up to %ld",
		expect, wrap, cap);
	kit_raise_nofile(8192);

	kit_group_grow(&g, leader_format, sibling_format, cap);
	nsib = g.nr - 1;
	if (!g.nr) {
		kit_result(KIT_FAIL, "e2big_limit", "leader: %s",
			   strerror(g.err));
	} else if (g.err == E2BIG) {
		kit_diag("E2BIG after %ld siblings (expected %ld)", nsib,
			 expect);
		kit_result(nsib < wrap ? KIT_PASS : KIT_FAIL, "e2big_limit",
			   NULL);
	} else if (!g.err) {
		kit_diag("vulnerable: no E2BIG up to %ld siblings", nsib);
		kit_result(KIT_FAIL, "e2big_limit", "vulnerable");
	} else {
		kit_diag("stopped after %ld siblings: %s", nsib,
			 strerror(g.err));
		kit_result(KIT_FAIL, "e2big_limit", NULL);
	}
	if (g.nr && nsib >= wrap)
		kit_boundary_passed(leader_format, sibling_format, wrap);

	if (!g.nr || nsib >= wrap) {
		kit_result(KIT_SKIP, "read_group", "not safe to read");
	} else {
		want = kit_read_size(leader_format, nsib);
		buf = calloc(1, KIT_U16_MAX + 1);
		n = buf ? read(g.fds[0], buf, KIT_U16_MAX + 1) : -1;
		kit_diag("read(leader) = %zd, expected %ld", n, want);
		if (n == want && (!(leader_format & PERF_FORMAT_GROUP) ||
				  buf[0] == (__u64)g.nr))
			kit_result(KIT_PASS, "read_group", NULL);
		else
			kit_result(KIT_FAIL, "read_group", NULL);
		free(buf);
	}
	kit_diag("perf_event_open calls: %lu", kit_nr_open);
	kit_group_close(&g);
	return kit_exit_status();
}
