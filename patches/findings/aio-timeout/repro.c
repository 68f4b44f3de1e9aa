// SPDX-License-Identifier: GPL-2.0
/*
 * A finding of the kit's triage, confirmed (patches/findings/aio-timeout/, aio:
 * "Refuse an invalid timeout of io_getevents() and io_pgetevents()").
 *
 * io_getevents() converts its user timeout to ktime without validating
 * it: tv_sec = -10^10 overflows the s64 multiplication by NSEC_PER_SEC and
 * wraps to a wait of about 267 years. With no event to wait for, a fixed
 * kernel refuses the timeout with EINVAL at once; an unfixed one sleeps
 * until the alarm (3 s) interrupts it with EINTR.
 */
#include "workload.h"

#include <errno.h>
#include <linux/aio_abi.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void on_alarm(int sig)
{
	(void)sig;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct timespec ts = { .tv_sec = -10000000000L, .tv_nsec = 0 };
	struct io_event ev;
	aio_context_t ctx = 0;
	long ret;
	int err;

	kit_plan(1);
	if (syscall(SYS_io_setup, 1, &ctx) < 0) {
		kit_result(KIT_SKIP, "io_getevents_timeout_overflow",
			   "io_setup: %s", strerror(errno));
		return kit_exit_status();
	}
	sigaction(SIGALRM, &sa, NULL); /* no SA_RESTART: EINTR */
	alarm(3);
	ret = syscall(SYS_io_getevents, ctx, 1L, 1L, &ev, &ts);
	err = errno;
	alarm(0);
	if (ret < 0 && err == EINVAL) {
		kit_result(KIT_PASS, "io_getevents_timeout_overflow", NULL);
	} else {
		kit_diag("wrong: a timeout of -10^10 s gave %ld (%s): it was "
			 "taken as a long wait",
			 ret, ret < 0 ? strerror(err) : "no error");
		kit_result(KIT_FAIL, "io_getevents_timeout_overflow",
			   "not refused");
	}
	syscall(SYS_io_destroy, ctx);
	return kit_exit_status();
}
