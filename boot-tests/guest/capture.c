// SPDX-License-Identifier: GPL-2.0
/*
 * Run one command in the guest and capture its output (see capture.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"

long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void capture_line(struct capture *c, char *line)
{
	if (c->on_line) {
		c->on_line(line, c->ctx);
		return;
	}
	if (c->quiet || c->tail)
		return;
	if (c->shown < CAPTURE_SHOWN_LINES)
		diag("%s", line);
	else if (c->shown == CAPTURE_SHOWN_LINES)
		diag("(more output not shown)");
	c->shown++;
}

/* Append what was read and pass complete lines on; the rest stays. */
static void capture_data(struct capture *c, size_t *start)
{
	char *nl;

	while ((nl = memchr(c->buf + *start, '\n', c->len - *start))) {
		*nl = '\0';
		capture_line(c, c->buf + *start);
		*nl = '\n';
		*start = nl + 1 - c->buf;
	}
}

/* Pass on the last c->tail lines of the output. */
static void show_tail(const struct capture *c)
{
	const char *p = c->buf + c->len, *eol;
	int n = 0;

	if (p > c->buf && p[-1] == '\n')
		p--;
	while (p > c->buf && n < c->tail) {
		if (*--p == '\n')
			n++;
	}
	if (*p == '\n')
		p++;
	for (; *p; p = eol + !!*eol) {
		eol = strchrnul(p, '\n');
		diag("%.*s", (int)(eol - p), p);
	}
}

/*
 * Run argv with stdout and stderr on one pipe, in /tmp, in its own process
 * group, and capture its output. The group is killed after c->timeout_s,
 * and what is left of it once the command has exited.
 */
void capture_run(const char *const argv[], struct capture *c)
{
	static char *const default_envp[] = { "PATH=/usr/bin:/bin", "HOME=/tmp",
					      "PAGER=cat", NULL };
	char *const *envp = c->envp ?: default_envp;
	const char *cwd = c->cwd ?: "/tmp";
	int timeout_s = c->timeout_s > 0 ? c->timeout_s : CAPTURE_TIMEOUT_S;
	long t0 = now_ms(), deadline = t0 + timeout_s * 1000L, grace = 0;
	size_t start = 0;
	int p[2], wst = 0, eof = 0;
	char chunk[4096];
	pid_t pid, r = 0;

	fflush(stdout);
	c->len = 0;
	c->timed_out = 0;
	c->shown = 0;
	if (!c->buf)
		c->buf = malloc(CAPTURE_MAX + 1);
	if (!c->buf || pipe2(p, O_CLOEXEC)) {
		diag("%s: %s", argv[0], strerror(errno));
		c->status = 127;
		return;
	}
	c->buf[0] = '\0';
	pid = fork();
	c->pid = pid;
	if (pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(p[1], 1);
		dup2(p[1], 2);
		if (chdir(cwd))
			dprintf(2, "chdir %s: %s\n", cwd, strerror(errno));
		execve(argv[0], (char *const *)argv, envp);
		dprintf(2, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	if (pid < 0) {
		diag("fork: %s", strerror(errno));
		close(p[0]);
		c->status = 127;
		return;
	}
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	while (!eof) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };
		ssize_t n;

		poll(&pfd, 1, 50);
		while ((n = read(p[0], chunk, sizeof(chunk))) > 0) {
			if ((size_t)n > CAPTURE_MAX - c->len)
				n = CAPTURE_MAX - c->len; /* keep the head */
			memcpy(c->buf + c->len, chunk, n);
			c->len += n;
			capture_data(c, &start);
		}
		eof = n == 0;
		if (r == 0) {
			r = waitpid(pid, &wst, WNOHANG);
			if (r == 0 && !c->timed_out && now_ms() > deadline) {
				kill(-pid, SIGKILL);
				c->timed_out = 1;
			} else if (r != 0) {
				/* leftovers would hold the pipe open */
				kill(-pid, SIGKILL);
				grace = now_ms() + 1000;
			}
		} else if (now_ms() > grace) {
			break;
		}
	}
	close(p[0]);
	/* it closed its output but runs on: wait for it, up to the deadline */
	while (r == 0) {
		r = waitpid(pid, &wst, WNOHANG);
		if (r == 0 && now_ms() > deadline) {
			kill(-pid, SIGKILL);
			c->timed_out = 1;
			r = waitpid(pid, &wst, 0);
		} else if (r == 0) {
			poll(NULL, 0, 50);
		}
	}
	kill(-pid, SIGKILL); /* what is left of its process group */
	if (c->len > start) {
		c->buf[c->len] = '\0';
		capture_line(c, c->buf + start);
	}
	c->buf[c->len] = '\0';
	if (c->tail)
		show_tail(c);
	c->signal = WIFSIGNALED(wst) ? WTERMSIG(wst) : 0;
	if (c->signal)
		c->status = 128 + c->signal;
	else
		c->status = WEXITSTATUS(wst);
	c->ms = now_ms() - t0;
}

void capture_free(struct capture *c)
{
	free(c->buf);
	c->buf = NULL;
}
