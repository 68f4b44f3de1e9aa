// SPDX-License-Identifier: GPL-2.0
/*
 * The 2014 adjtimex() frequency overflow, fixed by 5e5aeb4367b4 ("time:
 * adjtimex: Validate the ADJ_FREQUENCY values"), with 29183a70b0b8 ("ntp:
 * Fixup adjtimex freq validation on 32-bit systems"). No CVE.
 *
 * adjtimex() sets the frequency offset to LONG_MAX (in units of 2^-16
 * ppm).  A fixed kernel refuses a value whose scaling to the kernel's
 * units would overflow, with EINVAL.  A vulnerable one multiplies it by
 * PPM_SCALE in signed 64 bits, a signed wrap, and takes the clamped
 * result.  The frequency is set back to 0 afterwards.
 */
#include "workload.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/timex.h>

int main(void)
{
	struct timex tx = { .modes = ADJ_FREQUENCY, .freq = LONG_MAX };
	int ret;

	kit_plan(1);
	ret = adjtimex(&tx);
	if (ret < 0 && errno == EINVAL) {
		kit_result(KIT_PASS, "adjtimex_freq_max", NULL);
	} else if (ret >= 0) {
		kit_diag("vulnerable: a frequency of LONG_MAX was taken");
		kit_result(KIT_FAIL, "adjtimex_freq_max", "vulnerable");
	} else {
		kit_result(KIT_FAIL, "adjtimex_freq_max", "%s",
			   strerror(errno));
	}
	tx = (struct timex){ .modes = ADJ_FREQUENCY, .freq = 0 };
	adjtimex(&tx);
	return kit_exit_status();
}
