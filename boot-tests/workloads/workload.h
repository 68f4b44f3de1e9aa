/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the guest workloads: KTAP output, perf_event_open
 * bookkeeping and the perf read_size arithmetic of the kernel.
 */
#ifndef WORKLOAD_H
#define WORKLOAD_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <sys/types.h>

#ifndef PERF_FORMAT_LOST
#define PERF_FORMAT_LOST (1U << 4)
#endif

#define KIT_FORMAT_ALL                                                     \
	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | \
	 PERF_FORMAT_ID | PERF_FORMAT_GROUP | PERF_FORMAT_LOST)

/* perf_event_validate_size() limit on read_size (382c27f4ed28) */
#define KIT_READ_SIZE_LIMIT (16 * 1024)
/* perf_event::read_size is a u16 */
#define KIT_U16_MAX 65535

enum kit_result { KIT_PASS, KIT_FAIL, KIT_SKIP };

/* number of perf_event_open() calls made by this process */
extern unsigned long kit_nr_open;

void kit_attr_init(struct perf_event_attr *attr, __u32 type, __u64 config);
int kit_perf_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		  int group_fd, unsigned long flags);
long kit_read_size(__u64 read_format, long nr_siblings);
long kit_group_read_size(__u64 leader_format, __u64 sibling_format,
			 long nr_siblings);
long kit_max_siblings(__u64 leader_format, __u64 sibling_format);
long kit_boundary_siblings(__u64 leader_format, __u64 sibling_format);
void kit_boundary_passed(__u64 leader_format, __u64 sibling_format,
			 long nr_siblings);
int kit_raise_nofile(unsigned long n);

/* KTAP v1 output on stdout; init indents it as a subtest */
void kit_plan(int nr);
void kit_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void kit_result(enum kit_result res, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int kit_exit_status(void);

/* a perf event group grown one sibling at a time */
struct kit_group {
	int *fds;
	int nr; /* open members, leader included */
	int err; /* errno of the open that stopped the growth, 0 if none */
};

int kit_group_grow(struct kit_group *g, __u64 leader_format,
		   __u64 sibling_format, int max_siblings);
void kit_group_close(struct kit_group *g);
int kit_group_limit_test(__u64 leader_format, __u64 sibling_format);

#endif /* WORKLOAD_H */
