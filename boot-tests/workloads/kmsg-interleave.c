// SPDX-License-Identifier: GPL-2.0
/*
 * Make a console log where other tasks' lines fall inside sanitizer
 * reports, as they do on a busy machine: one writer per extra CPU (or one
 * writer beside it on a single CPU) floods /dev/kmsg while this task, on
 * CPU 0, loads test_ubsan.ko.
 *
 * The log is ubsan-triage's "interleaved" test case. Loading test_ubsan a
 * second time would spoil the test-ubsan workload's count of reports, so
 * this workload does nothing unless kit.workloads names it; for example
 * run-qemu.sh -w kmsg-interleave.  Then, on two CPUs or more, it loads
 * test_ubsan_smp.ko (patch 0033), whose threads on two CPUs raise UBSAN
 * reports at the same moment: two reports between each other.
 */
#define _GNU_SOURCE
#include "workload.h"
#include "cmdline.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MODULE_PATH "/lib/modules/test_ubsan.ko"
#define SMP_MODULE_PATH "/lib/modules/test_ubsan_smp.ko"
#define NAME "kmsg-interleave"

/* kit.workloads names this workload (by default init runs every one). */
static int named_on_cmdline(void)
{
	char spec[1024], *tok, *save;

	if (!cmdline_get("kit.workloads", spec, sizeof(spec)))
		return 0;
	for (tok = strtok_r(spec, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (!strcmp(tok, NAME))
			return 1;
	return 0;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Never returns: writes numbered lines until killed. */
static void flood(int cpu)
{
	char line[64];
	unsigned long seq;
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	if (cpu)
		pin(cpu);
	for (seq = 0; fd >= 0; seq++) {
		int len = snprintf(line, sizeof(line),
				   "kit-noise: cpu%d line %lu\n", cpu, seq);

		if (write(fd, line, len) < 0)
			break;
	}
	_exit(0);
}

/* Load a module; 0 if its init ran and returned 0. */
static int load_module(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	err = fd < 0 || syscall(SYS_finit_module, fd, "", 0);
	if (fd >= 0)
		close(fd);
	return err;
}

/*
 * Then two CPUs' reports between each other, without the writers:
 * test_ubsan_smp raises a pair of sites at once on two CPUs, eight times.
 */
static void smp_reports(long ncpu)
{
	int err;

	if (ncpu < 2) {
		kit_result(KIT_SKIP, "smp", "needs two CPUs");
		return;
	}
	err = load_module(SMP_MODULE_PATH);
	syscall(SYS_delete_module, "test_ubsan_smp", O_NONBLOCK);
	kit_result(err ? KIT_FAIL : KIT_PASS, "smp",
		   "test_ubsan_smp: two CPUs reported at once");
}

int main(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pid_t pids[8];
	int i, n = 0, err;

	kit_plan(2);
	if (!named_on_cmdline()) {
		kit_result(KIT_SKIP, "interleave", "runs only when named");
		kit_result(KIT_SKIP, "smp", "runs only when named");
		return kit_exit_status();
	}
	pin(0);
	/* With one CPU the writer shares it: printk yields between records. */
	for (i = ncpu > 1; i < (ncpu > 1 ? ncpu : 1) && n < 8; i++) {
		pid_t pid = fork();

		if (pid == 0)
			flood(i);
		if (pid > 0)
			pids[n++] = pid;
	}
	usleep(100000); /* let the writers start */
	err = load_module(MODULE_PATH);
	for (i = 0; i < n; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
	syscall(SYS_delete_module, "test_ubsan", O_NONBLOCK);
	kit_result(err ? KIT_FAIL : KIT_PASS, "interleave",
		   "test_ubsan loaded with %d writer(s) on other CPUs", n);
	smp_reports(ncpu);
	return kit_exit_status();
}
