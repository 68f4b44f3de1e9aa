// SPDX-License-Identifier: GPL-2.0
/*
 * --follow: read a console log while it grows (a boot in progress, a
 * fuzzing VM's console, a FIFO), as tail -f does, until the writer is done:
 * the end of a pipe, the exit of a given process, a quiet spell, a signal,
 * or the caller's stop (the first finding). The parser sees the same lines
 * in the same order as a batch read of the finished log, so the sites are
 * the same.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "triage.h"

#define FOLLOW_CHUNK (1u << 16)
#define FOLLOW_NAP_MS 200

static volatile sig_atomic_t follow_signalled;

static void on_signal(int sig)
{
	(void)sig;
	follow_signalled = 1;
}

/* SIGINT and SIGTERM end a follow (after one more read), for good. */
static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static void nap(void)
{
	struct timespec ts = { 0, FOLLOW_NAP_MS * 1000000L };

	nanosleep(&ts, NULL);
}

/* Is the writer done? A pipe's end is final; a file needs a sign. */
static int writer_done(const struct follow_opts *o, int is_fifo, int idle_ms)
{
	if (is_fifo || follow_signalled || (o->stop && *o->stop))
		return 1;
	if (o->pid > 0 && kill(o->pid, 0) && errno == ESRCH)
		return 1;
	return o->idle_s > 0 && idle_ms >= o->idle_s * 1000;
}

/*
 * Feed the whole lines of buf[0..*have) to the parser and keep the partial
 * last line at the start of buf.
 */
static void feed_lines(struct parser *p, char *buf, size_t *have)
{
	char *nl = memrchr(buf, '\n', *have);
	size_t done;

	if (!nl) {
		if (*have < FOLLOW_CHUNK)
			return;
		parser_line(p, buf, *have); /* an over-long line: cut it */
		*have = 0;
		return;
	}
	done = (size_t)(nl - buf) + 1;
	parser_feed(p, buf, done, 0);
	memmove(buf, buf + done, *have - done);
	*have -= done;
}

/*
 * Open a log that its writer may not have made yet (a runner that removes
 * the old log before QEMU creates the new one), as tail -F does: wait for
 * it until the writer is done (--pid, --idle, a signal).
 */
int follow_open(const char *path, const struct follow_opts *o)
{
	int fd, waited_ms = 0;

	install_signals();
	while ((fd = open(path, O_RDONLY)) < 0 && errno == ENOENT &&
	       !writer_done(o, 0, waited_ms)) {
		nap();
		waited_ms += FOLLOW_NAP_MS;
	}
	return fd;
}

int follow_fd(struct parser *p, int fd, const struct follow_opts *o)
{
	char *buf = malloc(FOLLOW_CHUNK);
	struct stat st;
	size_t have = 0;
	ssize_t got;
	int is_fifo, idle_ms = 0, ret = 0, last = 0;

	if (!buf)
		return -ENOMEM;
	is_fifo = !fstat(fd, &st) && !S_ISREG(st.st_mode);
	install_signals();
	for (;;) {
		if (o->stop && *o->stop)
			break;
		got = read(fd, buf + have, FOLLOW_CHUNK - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ret = -errno;
			break;
		}
		if (got > 0) {
			have += (size_t)got;
			feed_lines(p, buf, &have);
			idle_ms = 0;
			continue;
		}
		if (last)
			break;
		/* one more read after the sign: what came with it */
		last = writer_done(o, is_fifo, idle_ms);
		if (!last) {
			nap();
			idle_ms += FOLLOW_NAP_MS;
		}
	}
	parser_feed(p, buf, have, 1);
	free(buf);
	return ret;
}
