// SPDX-License-Identifier: GPL-2.0
/*
 * Load lib/test_ubsan.ko: its init triggers one report of each kind the
 * kernel was built to catch and returns 0.  The reports themselves are
 * judged by the triage stage from the console log, not here.
 *
 * Its quiet case also makes two checks on wrapping types (wrap_u8 and
 * wrap_s32), which the kit's handlers count instead of reporting: the
 * count in /sys/module/ubsan/parameters/wrap_silenced must grow by two.
 */
#include "kit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MODULE_PATH "/lib/modules/test_ubsan.ko"
#define WRAP_SILENCED "/sys/module/ubsan/parameters/wrap_silenced"

/* -1 when the kernel has no such count (no kit handlers). */
static long wrap_silenced(void)
{
	char buf[32];
	long n = -1;
	FILE *f = fopen(WRAP_SILENCED, "re");

	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		n = strtol(buf, NULL, 10);
	fclose(f);
	return n;
}

static void check_wrap_silenced(long before)
{
	long after = wrap_silenced();

	kit_diag("wrap_silenced: %ld before, %ld after", before, after);
	if (before < 0 || after < 0) {
		kit_result(KIT_SKIP, "wrap_silenced", "no %s", WRAP_SILENCED);
		return;
	}
	kit_result(after - before == 2 ? KIT_PASS : KIT_FAIL, "wrap_silenced",
		   "%ld checks on wrapping types silenced, expected 2",
		   after - before);
}

int main(void)
{
	long before;
	int fd;

	kit_plan(3);
	before = wrap_silenced();
	fd = open(MODULE_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		kit_diag("%s: %s", MODULE_PATH, strerror(errno));
		kit_result(KIT_SKIP, "load", "test_ubsan.ko not in initramfs");
		kit_result(KIT_SKIP, "wrap_silenced", "not loaded");
		kit_result(KIT_SKIP, "unload", "not loaded");
		return kit_exit_status();
	}
	if (syscall(SYS_finit_module, fd, "", 0)) {
		kit_diag("finit_module(%s): %s", MODULE_PATH, strerror(errno));
		kit_result(KIT_FAIL, "load", NULL);
		kit_result(KIT_SKIP, "wrap_silenced", "not loaded");
		kit_result(KIT_SKIP, "unload", "not loaded");
		close(fd);
		return kit_exit_status();
	}
	close(fd);
	kit_result(KIT_PASS, "load", NULL);
	check_wrap_silenced(before);
	if (syscall(SYS_delete_module, "test_ubsan", O_NONBLOCK)) {
		kit_diag("delete_module(test_ubsan): %s", strerror(errno));
		kit_result(KIT_SKIP, "unload", "optional");
	} else {
		kit_result(KIT_PASS, "unload", NULL);
	}
	return kit_exit_status();
}
