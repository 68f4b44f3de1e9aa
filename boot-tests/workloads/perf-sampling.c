// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling through mmap'ed ring buffers with software events, groups read
 * with PERF_SAMPLE_READ, callchains, a tracepoint, a hardware breakpoint,
 * the ENABLE/DISABLE/RESET/PERIOD/REFRESH ioctls and inheritance across
 * fork().  Every record in a ring is walked and each PERF_RECORD_SAMPLE's
 * size is checked against the size its sample_type implies.
 */
#define _GNU_SOURCE
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/hw_breakpoint.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FIXED_SAMPLE_BITS                                            \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |      \
	 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
#define MAX_CALLCHAIN 1024
#define CLOCK_PERIOD_NS 200000
#define WORK_PAGES 128

static long page_size;

struct ring {
	void *base;
	size_t len;
	struct perf_event_mmap_page *pg;
	char *data;
	__u64 data_size;
};

struct ring_stats {
	int samples, lost, other, bad;
	pid_t pid; /* if set, count the samples of this pid */
	int pid_samples;
};

/* what a PERF_RECORD_SAMPLE of this event must look like */
struct sample_fmt {
	__u64 sample_type;
	__u64 read_format;
	long nr_siblings;
};

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* Burn CPU, fault in fresh pages and sleep a little: every sw event moves. */
static void work(int ms, int pages, int sleeps)
{
	long end = now_ns() + ms * 1000000L;
	volatile unsigned long sink = 0;
	char *p;
	int i;

	while (now_ns() < end)
		for (i = 0; i < 1000; i++)
			sink += i;
	p = mmap(NULL, pages * page_size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED) {
		madvise(p, pages * page_size, MADV_NOHUGEPAGE);
		for (i = 0; i < pages; i++)
			p[i * page_size] = 1;
		munmap(p, pages * page_size);
	}
	for (i = 0; i < sleeps; i++)
		usleep(200);
}

static int ring_map(struct ring *r, int fd, int order)
{
	r->len = (1 + (1UL << order)) * page_size;
	r->base = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (r->base == MAP_FAILED) {
		kit_diag("mmap(%zu): %s", r->len, strerror(errno));
		r->base = NULL;
		return -1;
	}
	r->pg = r->base;
	r->data = (char *)r->base +
		  (r->pg->data_offset ? r->pg->data_offset : (__u64)page_size);
	r->data_size = r->pg->data_size ? r->pg->data_size : r->len - page_size;
	return 0;
}

static void ring_unmap(struct ring *r)
{
	if (r->base)
		munmap(r->base, r->len);
	r->base = NULL;
}

static void ring_copy(struct ring *r, __u64 pos, void *dst, size_t len)
{
	size_t off = pos % r->data_size;
	size_t first = len < r->data_size - off ? len : r->data_size - off;

	memcpy(dst, r->data + off, first);
	memcpy((char *)dst + first, r->data, len - first);
}

static int check_sample(const char *rec, size_t size,
			const struct sample_fmt *f, struct ring_stats *st)
{
	__u64 st_bits = f->sample_type;
	size_t off = sizeof(struct perf_event_header);
	__u64 nr;

	if (st_bits & PERF_SAMPLE_TID) {
		size_t tid_off = off +
				 8 * !!(st_bits & PERF_SAMPLE_IDENTIFIER) +
				 8 * !!(st_bits & PERF_SAMPLE_IP);
		__u32 pid;

		memcpy(&pid, rec + tid_off, sizeof(pid));
		if (st->pid && pid == (__u32)st->pid)
			st->pid_samples++;
	}
	off += 8 * __builtin_popcountll(st_bits & FIXED_SAMPLE_BITS);
	if (st_bits & PERF_SAMPLE_READ) {
		if ((f->read_format & PERF_FORMAT_GROUP) && off + 8 <= size) {
			memcpy(&nr, rec + off, sizeof(nr));
			if (nr != (__u64)f->nr_siblings + 1) {
				kit_diag("sample read nr=%llu, expected %ld",
					 (unsigned long long)nr,
					 f->nr_siblings + 1);
				return -1;
			}
		}
		off += kit_read_size(f->read_format, f->nr_siblings);
	}
	if (st_bits & PERF_SAMPLE_CALLCHAIN) {
		if (off + 8 > size)
			goto bad;
		memcpy(&nr, rec + off, sizeof(nr));
		if (nr > MAX_CALLCHAIN) {
			kit_diag("callchain nr=%llu", (unsigned long long)nr);
			return -1;
		}
		off += 8 + 8 * nr;
	}
	if (off == size)
		return 0;
bad:
	kit_diag("sample of %zu bytes, expected %zu (sample_type %#llx)", size,
		 off, (unsigned long long)st_bits);
	return -1;
}

/* Consume every record between data_tail and data_head. */
static void ring_parse(struct ring *r, const struct sample_fmt *f,
		       struct ring_stats *st)
{
	static char rec[65536];
	__u64 head = __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = r->pg->data_tail;
	struct perf_event_header h;

	while (tail < head) {
		ring_copy(r, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size % 8 || tail + h.size > head) {
			kit_diag("bad record: type %u size %u", h.type, h.size);
			st->bad++;
			tail = head;
			break;
		}
		ring_copy(r, tail, rec, h.size);
		if (h.type == PERF_RECORD_SAMPLE) {
			st->samples++;
			if (check_sample(rec, h.size, f, st))
				st->bad++;
		} else if (h.type == PERF_RECORD_LOST) {
			st->lost++;
		} else {
			st->other++;
		}
		tail += h.size;
	}
	__atomic_store_n(&r->pg->data_tail, tail, __ATOMIC_RELEASE);
}

static const struct {
	const char *name;
	__u64 config;
	__u64 period;
} sw_events[] = {
	{ "cpu-clock", PERF_COUNT_SW_CPU_CLOCK, CLOCK_PERIOD_NS },
	{ "task-clock", PERF_COUNT_SW_TASK_CLOCK, CLOCK_PERIOD_NS },
	{ "page-faults", PERF_COUNT_SW_PAGE_FAULTS, 1 },
	{ "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES, 1 },
};

static const struct {
	const char *name;
	__u64 sample_type;
	__u64 read_format;
} sample_sets[] = {
	{ "ip-tid-time", PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
	  0 },
	{ "all-fixed", FIXED_SAMPLE_BITS, 0 },
	{ "callchain", PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN,
	  0 },
	{ "read", PERF_SAMPLE_IP | PERF_SAMPLE_READ,
	  PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
		  PERF_FORMAT_ID | PERF_FORMAT_LOST },
};

static const char *sample_result(const struct ring_stats *st, int min)
{
	static char buf[128];

	snprintf(buf, sizeof(buf), "samples=%d lost=%d other=%d bad=%d",
		 st->samples, st->lost, st->other, st->bad);
	kit_diag("%s", buf);
	return st->bad || st->samples < min ? "fail" : NULL;
}

/* Open one sampling event (or group), run the work, walk its ring. */
static enum kit_result sample_run(struct perf_event_attr *attr, int order,
				  const struct sample_fmt *f, int nr_counting,
				  int min_samples)
{
	static const __u64 counting[] = { PERF_COUNT_SW_TASK_CLOCK,
					  PERF_COUNT_SW_PAGE_FAULTS,
					  PERF_COUNT_SW_CONTEXT_SWITCHES };
	struct ring_stats st = { 0 };
	struct perf_event_attr sa;
	struct ring r = { 0 };
	int fd, sfd[3], i, n = 0;
	enum kit_result res = KIT_FAIL;

	fd = kit_perf_open(attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		kit_diag("perf_event_open: %s", strerror(errno));
		return KIT_FAIL;
	}
	for (i = 0; i < nr_counting; i++, n++) {
		kit_attr_init(&sa, PERF_TYPE_SOFTWARE, counting[i]);
		sa.read_format = attr->read_format;
		sfd[i] = kit_perf_open(&sa, 0, -1, fd, PERF_FLAG_FD_CLOEXEC);
		if (sfd[i] < 0) {
			kit_diag("sibling: %s", strerror(errno));
			goto out;
		}
	}
	if (ring_map(&r, fd, order))
		goto out;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	work(30, 32, 8);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	ring_parse(&r, f, &st);
	res = sample_result(&st, min_samples) ? KIT_FAIL : KIT_PASS;
out:
	ring_unmap(&r);
	while (n > 0)
		close(sfd[--n]);
	close(fd);
	return res;
}

static void test_sw_sampling(void)
{
	unsigned int e, s;
	struct perf_event_attr attr;
	struct sample_fmt f;
	char name[96];

	for (e = 0; e < sizeof(sw_events) / sizeof(sw_events[0]); e++) {
		for (s = 0; s < sizeof(sample_sets) / sizeof(sample_sets[0]);
		     s++) {
			kit_attr_init(&attr, PERF_TYPE_SOFTWARE,
				      sw_events[e].config);
			attr.sample_period = sw_events[e].period;
			attr.sample_type = sample_sets[s].sample_type;
			attr.read_format = sample_sets[s].read_format;
			attr.disabled = 1;
			f = (struct sample_fmt){ attr.sample_type,
						 attr.read_format, 0 };
			snprintf(name, sizeof(name), "sample_%s_%s",
				 sw_events[e].name, sample_sets[s].name);
			kit_result(sample_run(&attr, (e + s) % 4, &f, 0, 1),
				   name, NULL);
		}
	}
}

/* A cpu-clock leader samples the values of its counting siblings. */
static void test_group_read(const char *name, __u64 extra)
{
	struct perf_event_attr attr;
	struct sample_fmt f;

	kit_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	attr.sample_period = CLOCK_PERIOD_NS;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_READ |
			   extra;
	attr.read_format = KIT_FORMAT_ALL;
	attr.disabled = 1;
	f = (struct sample_fmt){ attr.sample_type, attr.read_format, 3 };
	kit_result(sample_run(&attr, 2, &f, 3, 1), name, NULL);
}

static int read_u64(int fd, __u64 *v)
{
	return read(fd, v, sizeof(*v)) == sizeof(*v) ? 0 : -1;
}

static long tracepoint_id(char *which, size_t size)
{
	static const char *const roots[] = { "/sys/kernel/tracing",
					     "/sys/kernel/debug/tracing" };
	static const char *const events[] = { "syscalls/sys_enter_getppid",
					      "raw_syscalls/sys_enter" };
	char path[256], buf[32];
	unsigned int i, j;
	int fd;
	ssize_t n;

	mount("tracefs", roots[0], "tracefs", 0, NULL);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	for (i = 0; i < 2; i++) {
		for (j = 0; j < 2; j++) {
			snprintf(path, sizeof(path), "%s/events/%s/id",
				 roots[i], events[j]);
			fd = open(path, O_RDONLY);
			if (fd < 0)
				continue;
			n = read(fd, buf, sizeof(buf) - 1);
			close(fd);
			if (n <= 0)
				continue;
			buf[n] = '\0';
			snprintf(which, size, "%s", events[j]);
			return atol(buf);
		}
	}
	return -1;
}

static void test_tracepoint(void)
{
	struct ring_stats st = { 0 };
	struct perf_event_attr attr;
	struct sample_fmt f;
	struct ring r = { 0 };
	char which[64];
	long id = tracepoint_id(which, sizeof(which));
	__u64 count = 0;
	int fd, i;

	if (id < 0) {
		kit_result(KIT_SKIP, "tracepoint", "no syscall tracepoints");
		return;
	}
	kit_attr_init(&attr, PERF_TYPE_TRACEPOINT, id);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	attr.disabled = 1;
	fd = kit_perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		kit_diag("%s (id %ld): %s", which, id, strerror(errno));
		kit_result(KIT_FAIL, "tracepoint", NULL);
		return;
	}
	if (!ring_map(&r, fd, 3)) {
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		for (i = 0; i < 100; i++)
			syscall(SYS_getppid);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		read_u64(fd, &count);
		f = (struct sample_fmt){ attr.sample_type, 0, 0 };
		ring_parse(&r, &f, &st);
	}
	kit_diag("%s: count=%llu", which, (unsigned long long)count);
	kit_result(count >= 100 && !sample_result(&st, 1) ? KIT_PASS : KIT_FAIL,
		   "tracepoint", NULL);
	ring_unmap(&r);
	close(fd);
}

static void test_breakpoint(void)
{
	struct perf_event_attr attr;
	volatile __u64 var = 0;
	__u64 count = 0;
	int fd, i;

	kit_attr_init(&attr, PERF_TYPE_BREAKPOINT, 0);
	attr.bp_type = HW_BREAKPOINT_W;
	attr.bp_addr = (unsigned long)&var;
	attr.bp_len = HW_BREAKPOINT_LEN_8;
	attr.sample_period = 1;
	attr.exclude_kernel = 1;
	attr.disabled = 1;
	fd = kit_perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		kit_diag("breakpoint: %s", strerror(errno));
		kit_result(errno == ENODEV || errno == EOPNOTSUPP ||
					   errno == ENOENT ?
				   KIT_SKIP :
				   KIT_FAIL,
			   "breakpoint",
			   errno == ENODEV ? "no breakpoints" : NULL);
		return;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < 10; i++)
		var = var + i;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	read_u64(fd, &count);
	kit_diag("breakpoint: %llu hits for 10 writes",
		 (unsigned long long)count);
	kit_result(count == 10 ? KIT_PASS : KIT_FAIL, "breakpoint", NULL);
	close(fd);
}

static void test_enable_disable_reset(void)
{
	struct perf_event_attr attr;
	__u64 v0 = 1, v1 = 0, v2 = 0, v3 = 1, v4 = 0;
	int fd, ok;

	kit_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = 1;
	fd = kit_perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		kit_diag("task-clock: %s", strerror(errno));
		kit_result(KIT_FAIL, "ioctl_enable_disable_reset", NULL);
		return;
	}
	read_u64(fd, &v0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	work(10, 0, 0);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	read_u64(fd, &v1);
	work(10, 0, 0);
	read_u64(fd, &v2);
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	read_u64(fd, &v3);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	work(10, 0, 0);
	read_u64(fd, &v4);
	close(fd);
	kit_diag("before=%llu enabled=%llu disabled=%llu reset=%llu again=%llu",
		 (unsigned long long)v0, (unsigned long long)v1,
		 (unsigned long long)v2, (unsigned long long)v3,
		 (unsigned long long)v4);
	ok = v0 == 0 && v1 > 0 && v2 == v1 && v3 == 0 && v4 > 0;
	kit_result(ok ? KIT_PASS : KIT_FAIL, "ioctl_enable_disable_reset",
		   NULL);
}

/* page-faults sampled every fault, then PERIOD or REFRESH changes that */
static void test_period_refresh(const char *name, int refresh)
{
	struct ring_stats st = { 0 };
	struct perf_event_attr attr;
	struct sample_fmt f;
	struct ring r = { 0 };
	__u64 period = 8, c1 = 0, c2 = 0;
	int fd, lo, hi, ok = 0;

	kit_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	attr.disabled = 1;
	f = (struct sample_fmt){ attr.sample_type, 0, 0 };
	fd = kit_perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 || ring_map(&r, fd, 3)) {
		kit_diag("page-faults: %s", strerror(errno));
		goto out;
	}
	if (refresh) {
		/* enabled for three overflows, then disabled by the kernel */
		if (ioctl(fd, PERF_EVENT_IOC_REFRESH, 3)) {
			kit_diag("REFRESH: %s", strerror(errno));
			goto out;
		}
		lo = 1;
		hi = 5;
	} else {
		if (ioctl(fd, PERF_EVENT_IOC_PERIOD, &period)) {
			kit_diag("PERIOD: %s", strerror(errno));
			goto out;
		}
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		/* two rounds of WORK_PAGES faults, one sample per 8 */
		lo = 2 * WORK_PAGES / 8 / 2;
		hi = 2 * WORK_PAGES / 8 * 2;
	}
	work(0, WORK_PAGES, 0);
	read_u64(fd, &c1);
	work(0, WORK_PAGES, 0);
	read_u64(fd, &c2);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ring_parse(&r, &f, &st);
	kit_diag("%s: %d samples (want %d..%d), count %llu then %llu", name,
		 st.samples, lo, hi, (unsigned long long)c1,
		 (unsigned long long)c2);
	if (refresh)
		ok = st.samples >= lo && st.samples <= hi && c1 == c2;
	else
		ok = st.samples >= lo && st.samples <= hi && c2 > c1;
	ok = ok && !st.bad;
out:
	kit_result(ok ? KIT_PASS : KIT_FAIL, name, NULL);
	ring_unmap(&r);
	if (fd >= 0)
		close(fd);
}

/*
 * Inherited events: the child's counts and samples reach the parent.  An
 * inherited per-task event cannot be mmap'ed, so the sampling one is bound
 * to CPU 0, and so are parent and child.
 */
static void test_inherit(void)
{
	struct ring_stats st = { 0 };
	struct perf_event_attr attr;
	struct sample_fmt f;
	struct ring r = { 0 };
	int cfd, sfd, wst;
	__u64 faults = 0;
	cpu_set_t cpus;
	pid_t pid;

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	kit_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit = 1;
	cfd = kit_perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	kit_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	attr.inherit = 1;
	attr.sample_period = CLOCK_PERIOD_NS;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	f = (struct sample_fmt){ attr.sample_type, 0, 0 };
	sfd = kit_perf_open(&attr, 0, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (cfd < 0 || sfd < 0 || ring_map(&r, sfd, 4)) {
		kit_diag("inherit: %s", strerror(errno));
		kit_result(KIT_FAIL, "inherit_count", NULL);
		kit_result(KIT_FAIL, "inherit_sample", NULL);
		goto out;
	}
	pid = fork();
	if (pid == 0) {
		work(30, 2 * WORK_PAGES, 0);
		_exit(0);
	}
	waitpid(pid, &wst, 0);
	read_u64(cfd, &faults);
	st.pid = pid;
	ring_parse(&r, &f, &st);
	kit_diag("inherit: %llu page faults, %d samples from the child",
		 (unsigned long long)faults, st.pid_samples);
	kit_result(faults >= 2 * WORK_PAGES ? KIT_PASS : KIT_FAIL,
		   "inherit_count", NULL);
	kit_result(!sample_result(&st, 1) && st.pid_samples > 0 ? KIT_PASS :
								  KIT_FAIL,
		   "inherit_sample", NULL);
out:
	ring_unmap(&r);
	if (sfd >= 0)
		close(sfd);
	if (cfd >= 0)
		close(cfd);
}

int main(void)
{
	page_size = sysconf(_SC_PAGESIZE);
	kit_plan(16 + 2 + 1 + 1 + 3 + 2);
	test_sw_sampling();
	test_group_read("group_read", 0);
	test_group_read("group_read_callchain", PERF_SAMPLE_CALLCHAIN);
	test_tracepoint();
	test_breakpoint();
	test_enable_disable_reset();
	test_period_refresh("ioctl_period", 0);
	test_period_refresh("ioctl_refresh", 1);
	test_inherit();
	kit_diag("perf_event_open calls: %lu", kit_nr_open);
	return kit_exit_status();
}
