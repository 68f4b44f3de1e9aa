// SPDX-License-Identifier: GPL-2.0
/*
 * Workloads that are lists of third-party commands: stress-ng's stressors,
 * the tree's kselftests, one workload per kselftest target.
 *
 * One program, /usr/libexec/kit/items, reached through /bin/NAME symlinks;
 * argv[0] names the workload, whose list is /usr/libexec/kit/items.d/NAME:
 *
 *   # a comment
 *   skip-status: 3 4          exit statuses that mean "skipped"
 *   ITEM TIMEOUT_S DIR CMD [ARG...]
 *   ITEM skip REASON...       listed but not run (an exclusion and why)
 *
 * and the failures that are expected in this guest, with their reasons,
 * /usr/libexec/kit/items.d/NAME.xfail: "ITEM REASON...". KIT_ITEMS_DIR in
 * the environment names another folder (for the runner's own tests).
 *
 * Each item is one KTAP subtest with its wall time. A command that runs out
 * of its time is killed with its process group and reported "TIMEOUT", one
 * that dies of a signal is reported with the signal, or as "OOM-killed"
 * when the kernel's OOM-kill count grew meanwhile; the next item runs
 * either way. Around each item the markers "kit: item begin NAME/ITEM" and
 * "kit: item end NAME/ITEM status=N time_ms=T" go straight to /dev/kmsg,
 * so that they bracket the kernel's reports exactly, as init's workload
 * markers do. Exit status: 0 if nothing failed, 1 if something did, 4 if
 * everything was skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"

#define ITEMS_DIR "/usr/libexec/kit/items.d"
#define MAX_ITEMS 512
#define MAX_ARGS 32
#define LINE_MAX_ITEMS 1024

struct item {
	char *line; /* the list's line, cut into the fields below */
	const char *name;
	int timeout_s;
	const char *dir;
	const char *argv[MAX_ARGS + 1];
	const char *skip; /* reason, for an item that is listed but not run */
	const char *xfail; /* reason, if a failure is expected */
};

static struct item items[MAX_ITEMS];
static int nr_items;
static int skip_status[8], nr_skip_status;
static int kmsg_fd = -1;
static int nr_pass, nr_fail, nr_skip, nr_xfail;

static void marker(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void marker(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + 3, sizeof(buf) - 4, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(buf) - 5)
		n = sizeof(buf) - 5;
	if (kmsg_fd >= 0) {
		memcpy(buf, "<5>", 3);
		if (write(kmsg_fd, buf, n + 3) == n + 3)
			return;
	}
	diag("%s", buf + 3);
}

static char *next_field(char **s)
{
	char *p = *s + strspn(*s, " \t"), *end;

	if (!*p)
		return NULL;
	end = p + strcspn(p, " \t");
	*s = *end ? end + 1 : end;
	*end = '\0';
	return p;
}

/* One line of the list; 0 if it was an item, a directive or a comment. */
static int parse_line(char *line, const char *list, int lineno)
{
	struct item *it = &items[nr_items];
	char *s, *f;
	int n = 0;

	line[strcspn(line, "\n")] = '\0';
	s = line + strspn(line, " \t");
	if (!*s || *s == '#')
		return 0;
	if (!strncmp(s, "skip-status:", 12)) {
		s += 12;
		while ((f = next_field(&s)) && nr_skip_status < 8)
			skip_status[nr_skip_status++] = atoi(f);
		return 0;
	}
	if (nr_items == MAX_ITEMS) {
		diag("%s:%d: more than %d items", list, lineno, MAX_ITEMS);
		return -1;
	}
	it->line = strdup(s);
	if (!it->line)
		return -1;
	s = it->line;
	it->name = next_field(&s);
	f = next_field(&s);
	if (f && !strcmp(f, "skip")) {
		it->skip = s + strspn(s, " \t");
		nr_items++;
		return 0;
	}
	it->timeout_s = f ? atoi(f) : 0;
	it->dir = next_field(&s);
	while (n < MAX_ARGS && (f = next_field(&s)))
		it->argv[n++] = f;
	if (it->timeout_s <= 0 || !it->dir || !n) {
		diag("%s:%d: expected ITEM TIMEOUT_S DIR CMD [ARG...]", list,
		     lineno);
		return -1;
	}
	nr_items++;
	return 0;
}

static int load_list(const char *path)
{
	char line[LINE_MAX_ITEMS];
	int lineno = 0, ret = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		diag("%s: %s", path, strerror(errno));
		return -1;
	}
	while (!ret && fgets(line, sizeof(line), f))
		ret = parse_line(line, path, ++lineno);
	fclose(f);
	return ret;
}

/* NAME.xfail: "ITEM REASON...", for items of the list */
static void load_xfail(const char *path)
{
	char line[LINE_MAX_ITEMS], *s, *name;
	FILE *f = fopen(path, "r");
	int i;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		s = line;
		name = next_field(&s);
		if (!name || *name == '#')
			continue;
		for (i = 0; i < nr_items; i++) {
			if (!strcmp(items[i].name, name))
				items[i].xfail = strdup(s + strspn(s, " \t"));
		}
	}
	fclose(f);
}

/* The kernel's count of OOM kills so far (/proc/vmstat oom_kill), or -1. */
static long oom_kills(void)
{
	char line[128];
	long n = -1;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "oom_kill ", 9)) {
			n = atol(line + 9);
			break;
		}
	}
	fclose(f);
	return n;
}

static int is_skip_status(int status)
{
	int i;

	for (i = 0; i < nr_skip_status; i++) {
		if (skip_status[i] == status)
			return 1;
	}
	return 0;
}

static void run_item(const char *workload, int nr, struct item *it)
{
	static char *const envp[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin",
				      "HOME=/tmp", "TERM=dumb", "TMPDIR=/tmp",
				      NULL };
	struct capture c = { .timeout_s = it->timeout_s,
			     .cwd = it->dir,
			     .envp = envp,
			     .tail = 40 };
	char why[160] = "", cmd[512];
	size_t len = 0;
	const char *const *a;
	long oom;

	if (it->skip) {
		nr_skip++;
		printf("ok %d %s # SKIP %s time=0ms\n", nr, it->name, it->skip);
		return;
	}
	for (a = it->argv; *a && len < sizeof(cmd) - 1; a++)
		len += snprintf(cmd + len, sizeof(cmd) - len, " %s", *a);
	diag("$ cd %s &&%s", it->dir, cmd);
	marker("kit: item begin %s/%s", workload, it->name);
	oom = oom_kills();
	capture_run(it->argv, &c);
	marker("kit: item end %s/%s status=%d time_ms=%ld", workload, it->name,
	       c.status, c.ms);
	if (c.timed_out)
		snprintf(why, sizeof(why), "TIMEOUT after %d s", it->timeout_s);
	else if (c.signal && oom >= 0 && oom_kills() > oom)
		snprintf(why, sizeof(why), "OOM-killed (signal %d)", c.signal);
	else if (c.signal)
		snprintf(why, sizeof(why), "killed by signal %d (%s)", c.signal,
			 strsignal(c.signal));
	else if (c.status && !is_skip_status(c.status))
		snprintf(why, sizeof(why), "exit status %d", c.status);
	capture_free(&c);

	if (!why[0] && c.status) {
		nr_skip++;
		printf("ok %d %s # SKIP exit status %d time=%ldms\n", nr,
		       it->name, c.status, c.ms);
	} else if (!why[0]) {
		nr_pass++;
		printf("ok %d %s # time=%ldms\n", nr, it->name, c.ms);
	} else if (it->xfail) {
		nr_xfail++;
		printf("ok %d %s # XFAIL %s: %s time=%ldms\n", nr, it->name,
		       why, it->xfail, c.ms);
	} else {
		nr_fail++;
		printf("not ok %d %s # %s time=%ldms\n", nr, it->name, why,
		       c.ms);
	}
}

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/');
	const char *dir = getenv("KIT_ITEMS_DIR") ?: ITEMS_DIR;
	char path[256];
	int i;

	(void)argc;
	name = name ? name + 1 : argv[0];
	setvbuf(stdout, NULL, _IOLBF, 0);
	kmsg_fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	printf("KTAP version 1\n");
	if (load_list(path)) {
		printf("1..0\n");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/%s.xfail", dir, name);
	load_xfail(path);
	printf("1..%d\n", nr_items);
	for (i = 0; i < nr_items; i++)
		run_item(name, i + 1, &items[i]);
	printf("# Totals: pass:%d fail:%d xfail:%d skip:%d\n", nr_pass, nr_fail,
	       nr_xfail, nr_skip);
	if (nr_fail)
		return 1;
	return nr_items && nr_skip == nr_items ? 4 : 0;
}
