// SPDX-License-Identifier: GPL-2.0
/*
 * Load lib/test_ubsan.ko: its init triggers one report of each kind the
 * kernel was built to catch and returns 0.  The reports themselves are
 * judged by the triage stage from the console log, not here.
 */
#include "kit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MODULE_PATH "/lib/modules/test_ubsan.ko"

int main(void)
{
	int fd;

	kit_plan(2);
	fd = open(MODULE_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		kit_diag("%s: %s", MODULE_PATH, strerror(errno));
		kit_result(KIT_SKIP, "load", "test_ubsan.ko not in initramfs");
		kit_result(KIT_SKIP, "unload", "not loaded");
		return kit_exit_status();
	}
	if (syscall(SYS_finit_module, fd, "", 0)) {
		kit_diag("finit_module(%s): %s", MODULE_PATH, strerror(errno));
		kit_result(KIT_FAIL, "load", NULL);
		kit_result(KIT_SKIP, "unload", "not loaded");
		close(fd);
		return kit_exit_status();
	}
	close(fd);
	kit_result(KIT_PASS, "load", NULL);
	if (syscall(SYS_delete_module, "test_ubsan", O_NONBLOCK)) {
		kit_diag("delete_module(test_ubsan): %s", strerror(errno));
		kit_result(KIT_SKIP, "unload", "optional");
	} else {
		kit_result(KIT_PASS, "unload", NULL);
	}
	return kit_exit_status();
}
