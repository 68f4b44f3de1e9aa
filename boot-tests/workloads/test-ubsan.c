// SPDX-License-Identifier: GPL-2.0
/*
 * Load lib/test_ubsan.ko: its init triggers one report of each kind the
 * kernel was built to catch and returns 0.  The reports themselves are
 * judged by the triage stage from the console log, not here.
 *
 * Its quiet cases also make five checks on wrapping types (a wrap_u8 and a
 * wrap_s32 once, then one wrap_u8 three times), which the kit's handlers
 * count instead of reporting, the first call through the type's name and
 * the later ones through what the handler remembers: the count in
 * /sys/module/ubsan/parameters/wrap_silenced must grow by five.
 * And it truncates PTR_ERR() of a pointer into an int, which is counted in
 * ptr_err_silenced: that count must grow (by one at least: other tasks may
 * truncate PTR_ERR() values of their own meanwhile).  Its all-ones case
 * stores -1 and ~0U into narrower unsigned types: all_ones_silenced must
 * grow by two at least.
 */
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MODULE_PATH "/lib/modules/test_ubsan.ko"
#define PARAMS "/sys/module/ubsan/parameters/"

/* A count of silenced checks; -1 when the kernel has none (no kit handlers). */
static long silenced(const char *name)
{
	char buf[32], path[128];
	long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), PARAMS "%s", name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		n = strtol(buf, NULL, 10);
	fclose(f);
	return n;
}

/* The count must have grown by want, or by want at least if at_least. */
static void check_silenced(const char *name, long before, long want,
			   int at_least)
{
	long after = silenced(name), grew = after - before;

	kit_diag("%s: %ld before, %ld after", name, before, after);
	if (before < 0 || after < 0) {
		kit_result(KIT_SKIP, name, "no %s%s", PARAMS, name);
		return;
	}
	kit_result(grew == want || (at_least && grew > want) ? KIT_PASS :
							       KIT_FAIL,
		   name, "%ld checks silenced, expected %s%ld", grew,
		   at_least ? "at least " : "", want);
}

/*
 * CONFIG_UBSAN_UNSIGNED_WRAP_SIZE_T (patch 0034) keeps quiet the unsigned
 * wrap-arounds not computed in size_t, test_ubsan's unsigned int case
 * among them: say so, for the verdict, which then expects no report there.
 */
static void check_size_t_mode(long before)
{
	long after = silenced("unsigned_not_size_t");

	if (before < 0 || after < 0)
		kit_result(KIT_SKIP, "unsigned_not_size_t", "no %s%s", PARAMS,
			   "unsigned_not_size_t");
	else if (after == before)
		kit_result(KIT_SKIP, "unsigned_not_size_t",
			   "every unsigned wrap-around is reported");
	else
		kit_result(KIT_PASS, "unsigned_not_size_t",
			   "size_t mode: %ld unsigned wrap-arounds kept quiet",
			   after - before);
}

static void skip_counts(const char *why)
{
	kit_result(KIT_SKIP, "wrap_silenced", "%s", why);
	kit_result(KIT_SKIP, "ptr_err_silenced", "%s", why);
	kit_result(KIT_SKIP, "all_ones_silenced", "%s", why);
	kit_result(KIT_SKIP, "unsigned_not_size_t", "%s", why);
	kit_result(KIT_SKIP, "unload", "%s", why);
}

int main(void)
{
	long wraps, ptr_errs, all_ones, not_size_t;
	int fd;

	kit_plan(6);
	wraps = silenced("wrap_silenced");
	ptr_errs = silenced("ptr_err_silenced");
	all_ones = silenced("all_ones_silenced");
	not_size_t = silenced("unsigned_not_size_t");
	fd = open(MODULE_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		kit_diag("%s: %s", MODULE_PATH, strerror(errno));
		kit_result(KIT_SKIP, "load", "test_ubsan.ko not in initramfs");
		skip_counts("not loaded");
		return kit_exit_status();
	}
	if (syscall(SYS_finit_module, fd, "", 0)) {
		kit_diag("finit_module(%s): %s", MODULE_PATH, strerror(errno));
		kit_result(KIT_FAIL, "load", NULL);
		skip_counts("not loaded");
		close(fd);
		return kit_exit_status();
	}
	close(fd);
	kit_result(KIT_PASS, "load", NULL);
	check_silenced("wrap_silenced", wraps, 5, 0);
	check_silenced("ptr_err_silenced", ptr_errs, 1, 1);
	check_silenced("all_ones_silenced", all_ones, 2, 1);
	check_size_t_mode(not_size_t);
	if (syscall(SYS_delete_module, "test_ubsan", O_NONBLOCK)) {
		kit_diag("delete_module(test_ubsan): %s", strerror(errno));
		kit_result(KIT_SKIP, "unload", "optional");
	} else {
		kit_result(KIT_PASS, "unload", NULL);
	}
	return kit_exit_status();
}
