// SPDX-License-Identifier: GPL-2.0
/*
 * The 2024 NTP time constant overflow, fixed by 06c03c8edce3 ("ntp:
 * Safeguard against time_constant overflow"). No CVE.
 *
 * adjtimex() sets the PLL time constant to LONG_MAX without STA_NANO, so
 * that the kernel adds 4 to it.  A fixed kernel clamps it to MAXTC (10)
 * first; a vulnerable one adds 4 to LONG_MAX in signed 64 bits, and the
 * wrapped value is then clamped to 0.
 */
#include "workload.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/timex.h>

/* the kernel's MAXTC; glibc's <sys/timex.h> still has the old 6 */
#define KERNEL_MAXTC 10

int main(void)
{
	/* ADJ_MICRO clears STA_NANO before the time constant is taken. */
	struct timex tx = { .modes = ADJ_MICRO | ADJ_TIMECONST,
			    .constant = LONG_MAX };
	struct timex back = { .modes = 0 };

	kit_plan(1);
	if (adjtimex(&tx) < 0 || adjtimex(&back) < 0) {
		kit_result(KIT_FAIL, "adjtimex_timeconst_max", "%s",
			   strerror(errno));
		return kit_exit_status();
	}
	kit_diag("time constant read back: %ld", back.constant);
	if (back.constant != KERNEL_MAXTC)
		kit_diag("vulnerable: LONG_MAX + 4 wrapped before the clamp");
	kit_result(back.constant == KERNEL_MAXTC ? KIT_PASS : KIT_FAIL,
		   "adjtimex_timeconst_max", NULL);
	return kit_exit_status();
}
