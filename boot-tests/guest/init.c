// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the boot-test initramfs: runs the workloads in /bin one after the
 * other, each with a timeout, and reports KTAP v1 through /dev/kmsg so that
 * its lines are ordered with the kernel's own reports on the console.
 *
 * Kernel command line:
 *   kit.workloads=a,b,c   run these (default or "all": those listed in
 *                         /etc/kit/workloads, in its order, or without it
 *                         every file in /bin, sorted; "none": no workload)
 *   kit.timeout=N         seconds per workload (default 180)
 *
 * /etc/kit/workloads has a line "NAME [TIMEOUT_S]" per workload; a timeout
 * there (for workloads that are lists of commands: stress-ng, kselftests)
 * replaces kit.timeout for that workload.
 *
 * Before the first workload it loads the modules of /lib/modules/boot
 * (guest/modules.conf: what a distribution's config builds as modules and
 * the workloads need), each named in a KTAP diagnostic line.
 *
 * At the end it powers the VM off through QEMU's isa-debug-exit device
 * (iobase 0xf4), falling back to reboot(2) for QEMU's -no-reboot.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <sys/io.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmdline.h"

#define DEFAULT_TIMEOUT_S 180
#define MAX_WORKLOADS 256
#define WORKLOAD_LIST "/etc/kit/workloads"
#define BOOT_MODULES "/lib/modules/boot"
#define KMSG_LINE_MAX 900 /* the kernel truncates records near 1 KiB */
#define DEBUG_EXIT_PORT 0xf4
#define DEBUG_EXIT_PASS 0x20 /* QEMU exits with (0x20 << 1) | 1 = 65 */
#define DEBUG_EXIT_FAIL 0x21 /* QEMU exits with 67 */
#define SKIP_STATUS 4 /* kselftest's KSFT_SKIP */

static int out_fd = 2;
static int is_kmsg;

/* Write one line; /dev/kmsg takes one record per write(). */
static void emit_line(const char *s, size_t len)
{
	char buf[KMSG_LINE_MAX + 8];
	int n;

	while (len) {
		size_t chunk = len > KMSG_LINE_MAX ? KMSG_LINE_MAX : len;

		n = snprintf(buf, sizeof(buf), "%s%.*s\n", is_kmsg ? "<5>" : "",
			     (int)chunk, s);
		if (write(out_fd, buf, n) < 0 && errno == EINVAL && is_kmsg)
			break;
		s += chunk;
		len -= chunk;
	}
}

static void __attribute__((format(printf, 1, 2))) out(const char *fmt, ...)
{
	char buf[2048];
	char *p, *nl;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (p = buf; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		emit_line(p, nl - p);
		if (!*nl)
			break;
	}
}

static long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

static long now_ms(void)
{
	return now_us() / 1000;
}

static void setup_fs(void)
{
	/* the last two for workloads that need them, where the kernel has them */
	static const struct {
		const char *src, *dir, *type;
		int optional;
	} mnt[] = {
		{ "proc", "/proc", "proc", 0 },
		{ "sysfs", "/sys", "sysfs", 0 },
		{ "devtmpfs", "/dev", "devtmpfs", 0 },
		{ "tmpfs", "/dev/shm", "tmpfs", 1 },
		{ "devpts", "/dev/pts", "devpts", 1 },
	};
	unsigned int i;
	int fd;

	for (i = 0; i < sizeof(mnt) / sizeof(mnt[0]); i++) {
		mkdir(mnt[i].dir, 0755);
		if (mount(mnt[i].src, mnt[i].dir, mnt[i].type, 0, NULL) &&
		    errno != EBUSY && !mnt[i].optional)
			fprintf(stderr, "init: mount %s: %m\n", mnt[i].dir);
	}
	/* what udev would make: tests open /dev/fd/N and /dev/stdin */
	symlink("/proc/self/fd", "/dev/fd");
	symlink("/proc/self/fd/0", "/dev/stdin");
	symlink("/proc/self/fd/1", "/dev/stdout");
	symlink("/proc/self/fd/2", "/dev/stderr");
	fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	/* no rate limit on our records, whatever the command line says */
	fd = open("/proc/sys/kernel/printk_devkmsg", O_WRONLY);
	if (fd >= 0) {
		/* EINVAL when printk.devkmsg= locked it: fine */
		if (write(fd, "on", 2) < 0 && errno != EINVAL)
			fprintf(stderr, "init: printk_devkmsg: %m\n");
		close(fd);
	}
	out_fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	is_kmsg = out_fd >= 0;
	if (!is_kmsg) {
		fprintf(stderr, "init: /dev/kmsg: %m, using the console\n");
		out_fd = 2;
	}
}

/* The loopback interface up, as any system brings it up: network tests use it. */
static void loopback_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return; /* no networking in this kernel */
	if (!ioctl(fd, SIOCGIFFLAGS, &ifr)) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr))
			fprintf(stderr, "init: lo up: %m\n");
	}
	close(fd);
}

static int filter_bin(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Load one module of BOOT_MODULES: 0, or the errno of finit_module(2). */
static int load_module(const char *name)
{
	char path[PATH_MAX];
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s", BOOT_MODULES, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (syscall(SYS_finit_module, fd, "", 0) && errno != EEXIST)
		err = errno;
	close(fd);
	return err;
}

/*
 * The modules of BOOT_MODULES, in rounds until a round loads none more: a
 * module that needs another one fails (ENOENT: unknown symbol) until that
 * one is in. One line each, loaded or not and why.
 */
static void load_boot_modules(void)
{
	struct dirent **ent;
	int i, n, loaded, *err;

	n = scandir(BOOT_MODULES, &ent, filter_bin, alphasort);
	if (n <= 0)
		return;
	err = calloc(n, sizeof(*err));
	if (!err)
		return;
	for (i = 0; i < n; i++)
		err[i] = -1; /* not tried */
	do {
		loaded = 0;
		for (i = 0; i < n; i++) {
			if (!err[i])
				continue;
			err[i] = load_module(ent[i]->d_name);
			loaded += !err[i];
		}
	} while (loaded);
	for (i = 0; i < n; i++) {
		if (err[i])
			out("# kit: module %s: %s", ent[i]->d_name,
			    strerror(err[i]));
		else
			out("# kit: module %s loaded", ent[i]->d_name);
		free(ent[i]);
	}
	free(ent);
	free(err);
}

struct workload {
	char name[128];
	int timeout_s; /* 0: kit.timeout */
};

/* /etc/kit/workloads, if the image has it; the number of lines read. */
static int read_list(struct workload *list)
{
	char line[256];
	int n = 0;
	FILE *f = fopen(WORKLOAD_LIST, "re");

	if (!f)
		return 0;
	while (n < MAX_WORKLOADS && fgets(line, sizeof(line), f)) {
		list[n].timeout_s = 0;
		if (sscanf(line, "%127s %d", list[n].name,
			   &list[n].timeout_s) >= 1 &&
		    list[n].name[0] != '#')
			n++;
	}
	fclose(f);
	return n;
}

static int list_workloads(char **names, int *timeouts)
{
	static struct workload list[MAX_WORKLOADS];
	static char spec[4096];
	int i, j, nlist = read_list(list), n = 0;
	struct dirent **ents;
	char *tok, *save;

	if (!cmdline_get("kit.workloads", spec, sizeof(spec)) ||
	    !strcmp(spec, "all")) {
		int nents;

		for (i = 0; i < nlist; i++) {
			names[n] = list[i].name;
			timeouts[n++] = list[i].timeout_s;
		}
		if (nlist)
			return n;
		nents = scandir("/bin", &ents, filter_bin, alphasort);

		for (i = 0; i < nents; i++) {
			if (n < MAX_WORKLOADS) {
				timeouts[n] = 0;
				names[n++] = ents[i]->d_name;
			}
		}
		return n;
	}
	if (!strcmp(spec, "none"))
		return 0;
	for (tok = strtok_r(spec, ",", &save); tok && n < MAX_WORKLOADS;
	     tok = strtok_r(NULL, ",", &save)) {
		timeouts[n] = 0;
		for (j = 0; j < nlist; j++) {
			if (!strcmp(list[j].name, tok))
				timeouts[n] = list[j].timeout_s;
		}
		names[n++] = tok;
	}
	return n;
}

static int is_ktap_line(const char *s)
{
	return !strncmp(s, "KTAP version ", 13) || !strncmp(s, "1..", 3) ||
	       !strncmp(s, "ok ", 3) || !strncmp(s, "not ok ", 7) ||
	       s[0] == '#' || s[0] == ' ';
}

/*
 * A workload's KTAP becomes a subtest of ours: indented by four spaces.
 * Anything else it prints becomes a diagnostic naming the workload.
 */
static void forward_line(const char *name, char *line)
{
	if (is_ktap_line(line))
		out("    %s", line);
	else
		out("    # %s: %s", name, line);
}

struct linebuf {
	char buf[4096];
	size_t len;
};

static void forward_output(const char *name, struct linebuf *lb, int fd)
{
	char *nl;
	ssize_t n;

	for (;;) {
		n = read(fd, lb->buf + lb->len, sizeof(lb->buf) - 1 - lb->len);
		if (n <= 0)
			return;
		lb->len += n;
		lb->buf[lb->len] = '\0';
		while ((nl = strchr(lb->buf, '\n'))) {
			*nl = '\0';
			forward_line(name, lb->buf);
			lb->len -= nl + 1 - lb->buf;
			memmove(lb->buf, nl + 1, lb->len + 1);
		}
		if (lb->len == sizeof(lb->buf) - 1) {
			forward_line(name, lb->buf);
			lb->len = 0;
		}
	}
}

static void reap_orphans(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

enum outcome { PASS, FAIL, SKIP, TIMEOUT };

/* Run /bin/NAME; its exit status (128 + signal if killed) goes to status. */
static enum outcome run_one(const char *name, int timeout_s, int *status)
{
	struct linebuf lb = { .len = 0 };
	long deadline = now_ms() + timeout_s * 1000L;
	int p[2], wst = 0, timed_out = 0;
	char path[256];
	pid_t pid, r = 0;

	snprintf(path, sizeof(path), "/bin/%s", name);
	if (pipe2(p, O_CLOEXEC)) {
		out("# %s: pipe: %s", name, strerror(errno));
		*status = 127;
		return FAIL;
	}
	pid = fork();
	if (pid == 0) {
		char *argv[] = { (char *)name, NULL };
		char *envp[] = { "PATH=/bin", "HOME=/", "TERM=dumb", NULL };

		setpgid(0, 0);
		dup2(p[1], 1);
		dup2(p[1], 2);
		execve(path, argv, envp);
		dprintf(2, "exec %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	close(p[1]);
	if (pid < 0) {
		out("# %s: fork: %s", name, strerror(errno));
		close(p[0]);
		*status = 127;
		return FAIL;
	}
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	while (r == 0) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };
		long left = deadline - now_ms();

		if (left <= 0) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			timed_out = 1;
			r = waitpid(pid, &wst, 0);
			break;
		}
		/* a short poll: a grandchild may hold the pipe open */
		poll(&pfd, 1, left < 50 ? left : 50);
		forward_output(name, &lb, p[0]);
		r = waitpid(pid, &wst, WNOHANG);
	}
	forward_output(name, &lb, p[0]);
	if (lb.len) {
		lb.buf[lb.len] = '\0';
		forward_line(name, lb.buf);
	}
	close(p[0]);
	kill(-pid, SIGKILL); /* leftovers of the workload's process group */
	reap_orphans();

	if (WIFSIGNALED(wst))
		*status = 128 + WTERMSIG(wst);
	else
		*status = WEXITSTATUS(wst);
	if (timed_out)
		return TIMEOUT;
	if (WIFEXITED(wst) && *status == 0)
		return PASS;
	if (WIFEXITED(wst) && *status == SKIP_STATUS)
		return SKIP;
	return FAIL;
}

static void power_off(int failed)
{
	sync();
	if (!ioperm(DEBUG_EXIT_PORT, 4, 1))
		outb(failed ? DEBUG_EXIT_FAIL : DEBUG_EXIT_PASS,
		     DEBUG_EXIT_PORT);
	else
		out("# init: ioperm: %s", strerror(errno));
	/* no isa-debug-exit device: QEMU's -no-reboot turns this into exit */
	reboot(RB_AUTOBOOT);
	out("# init: reboot: %s", strerror(errno));
	for (;;)
		pause();
}

int main(void)
{
	static const char *const label[] = { "", "", " SKIP", " TIMEOUT" };
	int i, n, timeout_s = DEFAULT_TIMEOUT_S, status;
	int npass = 0, nfail = 0, nskip = 0;
	char *names[MAX_WORKLOADS];
	int timeouts[MAX_WORKLOADS];
	char val[32];
	enum outcome res;
	long t0, us, ms;

	setup_fs();
	loopback_up();
	if (cmdline_get("kit.timeout", val, sizeof(val)) && atoi(val) > 0)
		timeout_s = atoi(val);
	n = list_workloads(names, timeouts);

	out("KTAP version 1");
	out("1..%d", n);
	out("# kit: %d workloads, timeout %d s each", n, timeout_s);
	load_boot_modules();
	for (i = 0; i < n; i++) {
		out("kit: workload begin %s", names[i]);
		t0 = now_us();
		res = run_one(names[i],
			      timeouts[i] > 0 ? timeouts[i] : timeout_s,
			      &status);
		us = now_us() - t0;
		ms = us / 1000;
		/* time_us for make bench: a 50 ms workload in ms moves in 2 % steps */
		out("kit: workload end %s status=%d time_ms=%ld time_us=%ld",
		    names[i], status, ms, us);
		out("%s %d %s #%s time=%ldms",
		    res == PASS || res == SKIP ? "ok" : "not ok", i + 1,
		    names[i], label[res], ms);
		if (res == PASS)
			npass++;
		else if (res == SKIP)
			nskip++;
		else
			nfail++;
	}
	out("# Totals: pass:%d fail:%d skip:%d", npass, nfail, nskip);
	out("kit: end pass=%d fail=%d skip=%d", npass, nfail, nskip);
	power_off(nfail != 0);
	return 0;
}
