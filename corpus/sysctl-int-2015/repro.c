// SPDX-License-Identifier: GPL-2.0
/*
 * 230633d109e3 ("kernel/sysctl.c: detect overflows when converting to int",
 * 2015; no CVE).
 *
 * Writes 2^32 + 1000 to net.core.netdev_max_backlog, a proc_dointvec
 * sysctl.  A fixed kernel refuses it with EINVAL; a vulnerable one keeps
 * the low 32 bits and reads back 1000.  The old value is put back.
 */
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SYSCTL "/proc/sys/net/core/netdev_max_backlog"

static long get(void)
{
	char buf[32] = "";
	int fd = open(SYSCTL, O_RDONLY);

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) <= 0)
		buf[0] = '\0';
	if (fd >= 0)
		close(fd);
	return buf[0] ? strtol(buf, NULL, 10) : -1;
}

static int set(const char *val)
{
	int fd = open(SYSCTL, O_WRONLY), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, val, strlen(val)) < 0 ? -1 : 0;
	close(fd);
	return ret;
}

int main(void)
{
	long old = get(), now;
	char buf[32];

	kit_plan(1);
	if (old < 0) {
		kit_result(KIT_FAIL, "dointvec_overflow", "%s: %s", SYSCTL,
			   strerror(errno));
		return kit_exit_status();
	}
	if (set("4294968296") && errno == EINVAL) {
		kit_result(KIT_PASS, "dointvec_overflow", NULL);
	} else {
		now = get();
		kit_diag("vulnerable: wrote 4294968296, read back %ld", now);
		kit_result(KIT_FAIL, "dointvec_overflow", "vulnerable");
	}
	snprintf(buf, sizeof(buf), "%ld", old);
	set(buf);
	return kit_exit_status();
}
