// SPDX-License-Identifier: GPL-2.0
/*
 * Every leader read_format (all 32 combinations of the 5 bits) crossed with
 * siblings that read nothing, the group, or everything.  Each group grows
 * to the kernel's read_size limit (one open past it must fail with E2BIG)
 * or, when nothing reads the group, to a small cap.  Then the leader and
 * the last sibling are read and the byte counts are checked against the
 * sizes computed here.  No group ever gets near the u16 wrap point, so the
 * reads are safe even on a kernel without the fixes.
 */
#include "kit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NO_GROUP_CAP 16

static const __u64 sibling_formats[] = { 0, PERF_FORMAT_GROUP, KIT_FORMAT_ALL };

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

static enum kit_result sweep_one(__u64 lf, __u64 sf, __u64 *buf)
{
	long expect = kit_max_siblings(lf, sf);
	long cap = expect < 0 ? NO_GROUP_CAP : expect + 1;
	struct kit_group g = { 0 };
	enum kit_result res = KIT_PASS;
	long nsib;

	kit_group_grow(&g, lf, sf, cap);
	nsib = g.nr - 1;
	if (!g.nr) {
		kit_diag("leader: %s", strerror(g.err));
		return KIT_FAIL;
	}
	if (expect < 0 ? g.err != 0 : g.err != E2BIG || nsib != expect) {
		kit_diag("stopped at %ld siblings (%s), expected %ld%s", nsib,
			 g.err ? strerror(g.err) : "no error", expect,
			 expect < 0 ? "" : " then E2BIG");
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
	char name[64];
	__u64 lf;
	int i;

	kit_plan((KIT_FORMAT_ALL + 1) * nsf);
	kit_raise_nofile(8192);
	for (lf = 0; lf <= KIT_FORMAT_ALL; lf++) {
		for (i = 0; i < nsf; i++) {
			snprintf(name, sizeof(name),
				 "leader_%#04llx_sibling_%#04llx",
				 (unsigned long long)lf,
				 (unsigned long long)sibling_formats[i]);
			kit_result(sweep_one(lf, sibling_formats[i], buf), name,
				   NULL);
		}
	}
	kit_diag("perf_event_open calls: %lu", kit_nr_open);
	free(buf);
	return kit_exit_status();
}
