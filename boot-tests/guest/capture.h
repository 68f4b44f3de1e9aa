/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running one command in the guest and capturing what it prints: shared by
 * the workload runners (perf-items.c, items.c). Output goes to stdout as
 * KTAP "#" diagnostics; init makes it a subtest of the boot's KTAP.
 */
#ifndef CAPTURE_H
#define CAPTURE_H

#include <stddef.h>
#include <sys/types.h>

#define CAPTURE_TIMEOUT_S 120 /* when capture::timeout_s is 0 */
#define CAPTURE_MAX (1 << 20)
#define CAPTURE_SHOWN_LINES 150

struct capture {
	/* set by the caller */
	int timeout_s; /* the command's process group is killed after it */
	const char *cwd; /* default /tmp */
	char *const *envp; /* default PATH=/usr/bin:/bin, HOME=/tmp */
	int quiet; /* pass nothing on */
	int tail; /* pass on only the last lines, this many, at the end */
	/* called for each line instead of printing it as a diagnostic */
	void (*on_line)(char *line, void *ctx);
	void *ctx;
	/* filled in by capture_run() */
	char *buf; /* everything the command printed, up to CAPTURE_MAX */
	size_t len;
	int status; /* exit status, 128 + signal if killed */
	int signal; /* the signal that killed it, 0 if it exited */
	int timed_out;
	long ms;
	int shown; /* lines passed on as diagnostics */
	pid_t pid; /* of the command, while it runs */
};

long now_ms(void);
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Run argv (argv[0] a path) and capture its output into c. */
void capture_run(const char *const argv[], struct capture *c);
void capture_free(struct capture *c);

#endif /* CAPTURE_H */
