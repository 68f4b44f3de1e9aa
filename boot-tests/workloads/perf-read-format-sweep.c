// SPDX-License-Identifier: GPL-2.0
/*
 * Every leader read_format (all 32 combinations of the 5 bits) crossed with
 * siblings that read nothing, the group, or everything.  Each group grows
 * until the kernel refuses a sibling with E2BIG or until some member's
 * read_size, computed here as the kernel does, passes the u16 boundary:
 * perf_event::read_size is a u16, so 65535 bytes is the most it holds.  When
 * nothing reads the group, read_size does not grow and the group stops at a
 * small cap.
 *
 * The verdict is the invariant, not the kernel's constant: E2BIG at or
 * before the boundary passes, whatever the limit (the observed one is
 * printed); a group that reaches the boundary without E2BIG is the bug, and
 * the subtest fails with the size reached.  Groups that stayed below the
 * boundary are then read back: the leader and the last sibling must return
 * exactly the size computed here.  A group past the boundary is never read.
 */
#include "workload.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NO_GROUP_CAP 16

static const __u64 sibling_formats[] = { 0, PERF_FORMAT_GROUP, KIT_FORMAT_ALL };

/* what the kernel accepted and refused, over every group whose size grows */
struct sweep_stats {
	long accepted; /* largest read_size accepted */
	long refused; /* smallest read_size refused with E2BIG */
	int growing; /* groups whose read_size grows with their size */
	int at_16k; /* of those, stopped where a 16 KiB limit stops them */
	int passed; /* of those, grown past the u16 boundary */
};

static int check_read(const char *who, int fd, __u64 fmt, long nsib, __u64 *buf)
{
	long want = kit_read_size(fmt, nsib);
	ssize_t n;

	if (want > KIT_U16_MAX)
		return 0;
	n = read(fd, buf, KIT_U16_MAX + 1);
	if (n != want) {
		kit_diag("read(%s) = %zd (%s), expected %ld", who, n,
			 n < 0 ? strerror(errno) : "short", want);
		return -1;
	}
	if ((fmt & PERF_FORMAT_GROUP) && buf[0] != (__u64)nsib + 1) {
		kit_diag("read(%s): nr = %llu, expected %ld", who,
			 (unsigned long long)buf[0], nsib + 1);
		return -1;
	}
	return 0;
}

/* the group's largest read_size, kept within the stats */
static void note_limit(struct sweep_stats *st, __u64 lf, __u64 sf, long nsib)
{
	long accepted = kit_group_read_size(lf, sf, nsib);
	long refused = kit_group_read_size(lf, sf, nsib + 1);

	if (accepted > st->accepted)
		st->accepted = accepted;
	if (!st->refused || refused < st->refused)
		st->refused = refused;
	if (nsib == kit_max_siblings(lf, sf))
		st->at_16k++;
}

static enum kit_result sweep_one(__u64 lf, __u64 sf, __u64 *buf,
				 struct sweep_stats *st, char *msg, size_t len)
{
	long boundary = kit_boundary_siblings(lf, sf);
	long cap = boundary < 0 ? NO_GROUP_CAP : boundary;
	struct kit_group g = { 0 };
	enum kit_result res = KIT_PASS;
	long nsib;

	msg[0] = 0;
	kit_group_grow(&g, lf, sf, cap);
	nsib = g.nr - 1;
	if (!g.nr) {
		snprintf(msg, len, "leader: %s", strerror(g.err));
		return KIT_FAIL;
	}
	if (boundary < 0) {
		if (g.err) {
			snprintf(msg, len, "stopped at %ld siblings: %s", nsib,
				 strerror(g.err));
			res = KIT_FAIL;
		}
	} else if (g.err == E2BIG) {
		st->growing++;
		note_limit(st, lf, sf, nsib);
		snprintf(
			msg, len,
			"limit %ld siblings: read_size %ld accepted, %ld refused",
			nsib, kit_group_read_size(lf, sf, nsib),
			kit_group_read_size(lf, sf, nsib + 1));
	} else if (!g.err) {
		st->growing++;
		st->passed++;
		kit_diag("vulnerable: no E2BIG up to %ld siblings", nsib);
		kit_boundary_passed(lf, sf, nsib);
		snprintf(msg, len,
			 "u16 boundary passed: read_size %ld at %ld siblings",
			 kit_group_read_size(lf, sf, nsib), nsib);
		kit_group_close(&g);
		return KIT_FAIL;
	} else {
		st->growing++;
		snprintf(msg, len, "stopped at %ld siblings: %s", nsib,
			 strerror(g.err));
		res = KIT_FAIL;
	}
	if (check_read("leader", g.fds[0], lf, nsib, buf))
		res = KIT_FAIL;
	if (nsib && check_read("sibling", g.fds[nsib], sf, nsib, buf))
		res = KIT_FAIL;
	kit_group_close(&g);
	return res;
}

int main(void)
{
	int nsf = sizeof(sibling_formats) / sizeof(sibling_formats[0]);
	__u64 *buf = malloc(KIT_U16_MAX + 1);
	struct sweep_stats st = { 0 };
	long most = NO_GROUP_CAP, n;
	char name[64], msg[128];
	enum kit_result res;
	__u64 lf;
	int i;

	kit_plan((KIT_FORMAT_ALL + 1) * nsf);
	/* the largest group, its leader, stdio and a few more */
	for (lf = 0; lf <= KIT_FORMAT_ALL; lf++) {
		for (i = 0; i < nsf; i++) {
			n = kit_boundary_siblings(lf, sibling_formats[i]);
			if (n > most)
				most = n;
		}
	}
	kit_raise_nofile(most + 1 + 16);
	for (lf = 0; lf <= KIT_FORMAT_ALL; lf++) {
		for (i = 0; i < nsf; i++) {
			snprintf(name, sizeof(name),
				 "leader_%#04llx_sibling_%#04llx",
				 (unsigned long long)lf,
				 (unsigned long long)sibling_formats[i]);
			res = sweep_one(lf, sibling_formats[i], buf, &st, msg,
					sizeof(msg));
			if (msg[0])
				kit_result(res, name, "%s", msg);
			else
				kit_result(res, name, NULL);
		}
	}
	kit_diag(
		"read_size limit: accepted up to %ld, refused from %ld (u16 boundary %d); the 16 KiB limit in %d of %d groups",
		st.accepted, st.refused, KIT_U16_MAX, st.at_16k, st.growing);
	kit_diag("groups grown past the u16 boundary: %d", st.passed);
	kit_diag("perf_event_open calls: %lu", kit_nr_open);
	free(buf);
	return kit_exit_status();
}
