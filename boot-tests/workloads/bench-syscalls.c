// SPDX-License-Identifier: GPL-2.0
/*
 * Syscall-heavy micro-benchmark for make bench: the paths where the integer
 * checks sit thickest under a perf workload.
 *
 *   perf-open-read-close  perf_event_open() of a software event on ourself,
 *                         read() of its count with every read_format bit,
 *                         close()
 *   fork-exec             fork(), execve() of this program (it exits at
 *                         once), waitpid()
 *   pipe-pingpong         one byte back and forth between two processes
 *
 * Each phase prints "# bench: NAME n=N ns=T" with CLOCK_MONOTONIC, which
 * under QEMU's -icount follows the guest's executed instructions.
 * Run as "bench-syscalls exit" it exits 0 at once (the exec'ed child).
 */
#include "workload.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PERF_ITERS 3000
#define EXEC_ITERS 200
#define PINGPONG_ITERS 10000

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static void report(const char *name, int n, long ns, int ok)
{
	kit_diag("bench: %s n=%d ns=%ld", name, n, ns);
	kit_result(ok ? KIT_PASS : KIT_FAIL, name, "%ld ns/op", n ? ns / n : 0);
}

static void perf_open_read_close(void)
{
	struct perf_event_attr attr;
	__u64 buf[16];
	long t0 = now_ns();
	int i, ok = 1;

	kit_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID |
			   PERF_FORMAT_LOST;
	for (i = 0; i < PERF_ITERS && ok; i++) {
		int fd = kit_perf_open(&attr, 0, -1, -1, 0);

		if (fd < 0 || read(fd, buf, sizeof(buf)) <= 0)
			ok = 0;
		if (fd >= 0)
			close(fd);
	}
	report("perf-open-read-close", i, now_ns() - t0, ok);
}

static void fork_exec(const char *self)
{
	long t0 = now_ns();
	int i, ok = 1;

	for (i = 0; i < EXEC_ITERS && ok; i++) {
		int st = 0;
		pid_t pid = fork();

		if (pid == 0) {
			char *argv[] = { (char *)self, "exit", NULL };
			char *envp[] = { NULL };

			execve(self, argv, envp);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			ok = 0;
	}
	report("fork-exec", i, now_ns() - t0, ok);
}

static void pipe_pingpong(void)
{
	int ab[2], ba[2], i, st = 0, ok = 1;
	long t0;
	pid_t pid;
	char c = 0;

	if (pipe(ab) || pipe(ba)) {
		report("pipe-pingpong", 0, 0, 0);
		return;
	}
	t0 = now_ns();
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < PINGPONG_ITERS; i++)
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	for (i = 0; i < PINGPONG_ITERS && ok && pid > 0; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			ok = 0;
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st))
		ok = 0;
	report("pipe-pingpong", i, now_ns() - t0, ok);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "exit"))
		return 0;
	kit_plan(3);
	perf_open_read_close();
	fork_exec("/bin/bench-syscalls");
	pipe_pingpong();
	return kit_exit_status();
}
