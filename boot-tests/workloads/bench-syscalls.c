// SPDX-License-Identifier: GPL-2.0
/*
 * The micro-benchmarks of make bench: the paths where the integer checks sit
 * thickest under a perf workload, and what every kernel runs.
 *
 *   perf-open-read-close  perf_event_open() of a software event on ourself,
 *                         read() of its count with every read_format bit,
 *                         close()
 *   fork-exec             fork(), execve() of this program (it exits at
 *                         once), waitpid()
 *   pipe-pingpong         one byte back and forth between two processes
 *   file-cwru             create, write 16 KiB, read back, unlink (tmpfs)
 *   tcp-loopback          100 TCP connections over 127.0.0.1, 64 KiB each
 *                         (SKIP in a kernel without TCP, such as tiny)
 *   sched-messaging       perf bench sched messaging on pipes (SKIP without
 *                         the perf tool in the guest)
 *
 * Each phase prints "# bench: NAME n=N ns=T" with CLOCK_MONOTONIC, which
 * under QEMU's -icount follows the guest's executed instructions.
 * Run as "bench-syscalls exit" it exits 0 at once (the exec'ed child).
 * kit.bench=NAME[,NAME...] on the kernel's command line runs those phases
 * alone (make hot-diff HOT_PHASES=...: one phase's profile).
 */
#include "cmdline.h"
#include "workload.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PERF_ITERS 3000
#define EXEC_ITERS 200
#define PINGPONG_ITERS 10000
#define FILE_ITERS 500
#define FILE_BYTES 16384
#define TCP_CONNS 100
#define TCP_BYTES (64 * 1024)
#define TCP_CHUNK 4096
#define PERF "/usr/bin/perf"
/* perf bench sched messaging -p -g MSG_GROUPS -l MSG_LOOPS */
#define MSG_GROUPS "2"
#define MSG_LOOPS "20"

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

static void fork_exec(void)
{
	const char *self = "/bin/bench-syscalls";
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

/* a file a round: create, write FILE_BYTES, read them back, unlink */
static void file_cwru(void)
{
	static char buf[FILE_BYTES];
	const char *dir = access("/dev/shm", W_OK) ? "/" : "/dev/shm";
	char path[64];
	long t0 = now_ns();
	int i, ok = 1;

	memset(buf, 'k', sizeof(buf));
	snprintf(path, sizeof(path), "%s/bench-file", dir);
	for (i = 0; i < FILE_ITERS && ok; i++) {
		int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0600);

		if (fd < 0 || write(fd, buf, sizeof(buf)) != sizeof(buf) ||
		    lseek(fd, 0, SEEK_SET) ||
		    read(fd, buf, sizeof(buf)) != sizeof(buf))
			ok = 0;
		if (fd >= 0)
			close(fd);
		if (unlink(path))
			ok = 0;
	}
	report("file-cwru", i, now_ns() - t0, ok);
}

/* the child: TCP_CONNS connections, each sending TCP_BYTES and reading one byte back */
static int tcp_client(const struct sockaddr_in *sa)
{
	static char buf[TCP_CHUNK];
	int i;

	for (i = 0; i < TCP_CONNS; i++) {
		int s = socket(AF_INET, SOCK_STREAM, 0), n;
		char c;

		if (s < 0 ||
		    connect(s, (const struct sockaddr *)sa, sizeof(*sa)))
			return 1;
		for (n = 0; n < TCP_BYTES; n += TCP_CHUNK)
			if (write(s, buf, TCP_CHUNK) != TCP_CHUNK)
				return 1;
		shutdown(s, SHUT_WR);
		if (read(s, &c, 1) != 1)
			return 1;
		close(s);
	}
	return 0;
}

/* the server's side of one connection: read until EOF, answer one byte */
static int tcp_serve(int ls)
{
	static char buf[TCP_CHUNK];
	long got = 0, n;
	int s = accept(ls, NULL, NULL);

	if (s < 0)
		return 0;
	while ((n = read(s, buf, sizeof(buf))) > 0)
		got += n;
	/* a client that died must not take the workload with it: no SIGPIPE */
	n = send(s, "k", 1, MSG_NOSIGNAL);
	close(s);
	return got == TCP_BYTES && n == 1;
}

/* TCP over 127.0.0.1: connect, send, shut down, answer, close */
static void tcp_loopback(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int ls, i, st = 0, ok = 1;
	long t0;
	pid_t pid;

	ls = socket(AF_INET, SOCK_STREAM, 0);
	if (ls < 0) {
		kit_result(KIT_SKIP, "tcp-loopback",
			   "no TCP in this kernel: %s", strerror(errno));
		return;
	}
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	/* init brought lo up */
	if (bind(ls, (struct sockaddr *)&sa, sizeof(sa)) || listen(ls, 8) ||
	    getsockname(ls, (struct sockaddr *)&sa, &len)) {
		kit_diag("tcp-loopback: %s", strerror(errno));
		report("tcp-loopback", 0, 0, 0);
		close(ls);
		return;
	}
	t0 = now_ns();
	pid = fork();
	if (pid == 0)
		_exit(tcp_client(&sa));
	for (i = 0; i < TCP_CONNS && ok && pid > 0; i++)
		ok = tcp_serve(ls);
	/* a failed connection leaves the client blocked: stop it */
	if (!ok && pid > 0)
		kill(pid, SIGKILL);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st))
		ok = 0;
	close(ls);
	report("tcp-loopback", i, now_ns() - t0, ok);
}

/* the perf tool's scheduler benchmark, on pipes, where the guest has it */
static void sched_messaging(void)
{
	char *argv[] = { PERF, "bench",	   "sched", "messaging", "-p",
			 "-g", MSG_GROUPS, "-l",    MSG_LOOPS,	 NULL };
	char *envp[] = { NULL };
	int st = 0, ok, null;
	long t0;
	pid_t pid;

	if (access(PERF, X_OK)) {
		kit_result(KIT_SKIP, "sched-messaging", "no %s in the guest",
			   PERF);
		return;
	}
	t0 = now_ns();
	pid = fork();
	if (pid == 0) {
		/* its own output says nothing the bench reads */
		null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, 1);
		execve(PERF, argv, envp);
		_exit(127);
	}
	ok = pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	     !WEXITSTATUS(st);
	report("sched-messaging", 1, now_ns() - t0, ok);
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

static const struct phase {
	const char *name;
	void (*run)(void);
} phases[] = {
	{ "perf-open-read-close", perf_open_read_close },
	{ "fork-exec", fork_exec },
	{ "pipe-pingpong", pipe_pingpong },
	{ "file-cwru", file_cwru },
	{ "tcp-loopback", tcp_loopback },
	{ "sched-messaging", sched_messaging },
};

#define NPHASES (sizeof(phases) / sizeof(phases[0]))

/* whether name is in the comma-separated list (none: every phase runs) */
static int chosen(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *s;

	if (!*list)
		return 1;
	for (s = list;; s++) {
		if (!strncmp(s, name, n) && (s[n] == ',' || !s[n]))
			return 1;
		s = strchr(s, ',');
		if (!s)
			return 0;
	}
}

int main(int argc, char **argv)
{
	char list[256] = "";
	size_t i, n = 0;

	if (argc > 1 && !strcmp(argv[1], "exit"))
		return 0;
	cmdline_get("kit.bench", list, sizeof(list));
	for (i = 0; i < NPHASES; i++)
		n += chosen(list, phases[i].name);
	if (!n) {
		kit_diag("bench: kit.bench=%s names no phase", list);
		return 1;
	}
	kit_plan((int)n);
	for (i = 0; i < NPHASES; i++)
		if (chosen(list, phases[i].name))
			phases[i].run();
	return kit_exit_status();
}
