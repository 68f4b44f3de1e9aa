// SPDX-License-Identifier: GPL-2.0
/*
 * The 2024 NTP maxerror overflow, fixed by 87d571d6fb77 ("ntp: Clamp maxerror
 * and esterror to operating range"). No CVE.
 *
 * adjtimex() sets the maximum error to LONG_MAX.  A fixed kernel clamps it
 * to NTP_PHASE_LIMIT (16 s).  A vulnerable one stores it as it is, and the
 * next second_overflow(), once a second in the timekeeping update, adds
 * 500 us to it in signed 64 bits: it wraps negative, and stays negative
 * until the NTP state is cleared.
 */
#include "workload.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/timex.h>
#include <time.h>

#define NTP_PHASE_LIMIT 16000000L

int main(void)
{
	struct timex tx = { .modes = ADJ_MAXERROR, .maxerror = LONG_MAX };
	struct timespec tick = { .tv_nsec = 50 * 1000 * 1000 };
	long worst = 0;
	int i;

	kit_plan(1);
	if (adjtimex(&tx) < 0)
		goto fail;
	/*
	 * Read it back for 2.5 s, so that second_overflow() runs at least
	 * twice; a change of clocksource clears the NTP state (early in a
	 * boot, the switch to the TSC), so the wrapped value is looked for
	 * in every read, not only the last.
	 */
	for (i = 0; i < 50; i++) {
		nanosleep(&tick, NULL);
		tx = (struct timex){ .modes = 0 };
		if (adjtimex(&tx) < 0)
			goto fail;
		if (tx.maxerror < worst)
			worst = tx.maxerror;
	}
	kit_diag("maxerror read back: %ld, lowest %ld", tx.maxerror, worst);
	if (worst >= 0 && tx.maxerror <= NTP_PHASE_LIMIT)
		kit_result(KIT_PASS, "adjtimex_maxerror_max", NULL);
	else
		kit_result(KIT_FAIL, "adjtimex_maxerror_max", "vulnerable");
	return kit_exit_status();
fail:
	kit_result(KIT_FAIL, "adjtimex_maxerror_max", "%s", strerror(errno));
	return kit_exit_status();
}
