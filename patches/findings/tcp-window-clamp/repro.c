// SPDX-License-Identifier: GPL-2.0
/*
 * A finding of the kit's triage, confirmed (patches/findings/tcp-window-clamp/,
 * tcp: "Raise a negative TCP_WINDOW_CLAMP to the minimum clamp").
 *
 * setsockopt(TCP_WINDOW_CLAMP) raises a clamp below SOCK_MIN_RCVBUF / 2 to
 * that minimum, but compares in size_t: a negative value passes as a huge
 * number and is stored cut to the u32 window_clamp. Set -9 and 1 on a fresh
 * socket and read them back: a fixed kernel raises both to the same
 * minimum; an unfixed one reads back -9 (2^32 - 9, no clamp at all).
 */
#include "workload.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* the clamp the kernel keeps for val, or -errno */
static long clamp_of(int val)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0), got = 0;
	socklen_t len = sizeof(got);
	long ret;

	if (fd < 0)
		return -errno;
	if (setsockopt(fd, IPPROTO_TCP, TCP_WINDOW_CLAMP, &val, sizeof(val)))
		ret = -errno;
	else if (getsockopt(fd, IPPROTO_TCP, TCP_WINDOW_CLAMP, &got, &len))
		ret = -errno;
	else
		ret = (unsigned int)got;
	close(fd);
	return ret;
}

int main(void)
{
	long min = clamp_of(1), neg = clamp_of(-9);

	kit_plan(1);
	if (min < 0) {
		kit_result(KIT_SKIP, "tcp_window_clamp_negative", "TCP: %s",
			   strerror((int)-min));
		return kit_exit_status();
	}
	kit_diag("clamp of 1: %ld, clamp of -9: %ld", min, neg);
	/* refusing the value is right too: it is not stored cut */
	if (neg == -EINVAL || neg == min)
		kit_result(KIT_PASS, "tcp_window_clamp_negative", NULL);
	else
		kit_result(KIT_FAIL, "tcp_window_clamp_negative",
			   "-9 kept as %ld, the minimum is %ld", neg, min);
	return kit_exit_status();
}
