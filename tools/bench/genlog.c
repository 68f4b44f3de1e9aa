// SPDX-License-Identifier: GPL-2.0
/*
 * genlog: write a large synthetic console log for the throughput bench:
 * mostly noise lines, with UBSAN reports (kit framing), warnings and
 * interleaved caller prefixes mixed in. Usage: genlog MIB FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long seed = 88172645463325252ull;

static unsigned long rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned long)(seed >> 11);
}

static const char *const noise[] = {
	"random: crng init done",
	"EXT4-fs (vda): mounted filesystem with ordered data mode. Quota mode: "
	"none.",
	"perf: interrupt took too long (2503 > 2500), lowering "
	"kernel.perf_event_max_sample_rate to 79800",
	"audit: type=1400 audit(1700000000.123:42): apparmor=\"STATUS\" "
	"operation=\"profile_load\"",
	"virtio_net virtio0 eth0: renamed from eth1",
	"systemd[1]: Started Journal Service.",
	"input: AT Translated Set 2 keyboard as "
	"/devices/platform/i8042/serio0/input/input1",
	"Freeing unused kernel image (initmem) memory: 2648K",
	"workqueue: blk_mq_run_work_fn hogged CPU for >10000us 4 times",
	"Bluetooth: Core ver 2.22",
	"kworker/u4:1 (42) used greatest stack depth: 12345 bytes left",
	"IPv6: ADDRCONF(NETDEV_CHANGE): eth0: link becomes ready",
};

static const char *const details[] = {
	"signed truncation of value 65560 from type 'int' to type 'u16' (aka "
	"'unsigned short'): result 24",
	"unsigned truncation of value 300 from type 'unsigned int' to type "
	"'u8' (aka 'unsigned char'): result 44",
	"sign change of value -1 from type 'int' to type 'unsigned int': "
	"result 4294967295",
	"2147483647 + 1 cannot be represented in type 'int'",
	"negation of -2147483648 cannot be represented in type 'int'",
};

static const char *const kinds[] = {
	"implicit-conversion",	   "implicit-conversion", "implicit-conversion",
	"signed-integer-overflow", "negation-overflow",
};

static const char *const funcs[] = {
	"perf_event__header_size",
	"perf_event_validate_size",
	"tcp_ack",
	"ext4_fill_super",
	"sched_slice",
	"hrtimer_interrupt",
	"blk_mq_dispatch_rq_list",
	"do_sys_poll",
};

static double t;

static void line(FILE *f, unsigned long caller, const char *s)
{
	t += 0.000137;
	if (caller)
		fprintf(f, "[%5lu.%06lu][ T%lu] %s\n", (unsigned long)t,
			(unsigned long)((t - (unsigned long)t) * 1e6), caller,
			s);
	else
		fprintf(f, "[%5lu.%06lu] %s\n", (unsigned long)t,
			(unsigned long)((t - (unsigned long)t) * 1e6), s);
}

static void report(FILE *f, unsigned long caller)
{
	char buf[256];
	unsigned long k = rnd() % 5, fn = rnd() % 8;
	const char *eq = "=============================================="
			 "==================================";

	line(f, caller, eq);
	snprintf(buf, sizeof(buf),
		 "UBSAN: %s in kernel/sub%lu/file%lu.c:%lu:%lu", kinds[k], fn,
		 k, 100 + fn * 7, 5 + k);
	line(f, caller, buf);
	line(f, caller, details[k]);
	line(f, caller, "CPU: 1 PID: 77 Comm: perf Not tainted 6.1.192 #1");
	line(f, caller,
	     "Hardware name: QEMU Standard PC (i440FX + PIIX, 1996)");
	line(f, caller, "Call Trace:");
	line(f, caller, " <TASK>");
	line(f, caller, " dump_stack_lvl+0x48/0x60");
	line(f, caller, " __ubsan_handle_implicit_conversion+0x9a/0xc0");
	snprintf(buf, sizeof(buf), " %s+0x10d/0x120", funcs[fn]);
	line(f, caller, buf);
	if (!caller)
		line(f, 0, noise[rnd() % 12]);
	line(f, caller, " do_syscall_64+0x3b/0x90");
	line(f, caller, " entry_SYSCALL_64_after_hwframe+0x64/0xce");
	line(f, caller, " </TASK>");
	line(f, caller, eq);
}

static void warning(FILE *f)
{
	line(f, 0, "------------[ cut here ]------------");
	line(f, 0,
	     "WARNING: CPU: 0 PID: 1 at kernel/events/core.c:1200 "
	     "perf_event_exit_task+0x2d/0x40");
	line(f, 0, "Modules linked in:");
	line(f, 0, "RIP: 0010:perf_event_exit_task+0x2d/0x40");
	line(f, 0, "Call Trace:");
	line(f, 0, " do_exit+0x3a4/0xb00");
	line(f, 0, "---[ end trace 0000000000000000 ]---");
}

int main(int argc, char **argv)
{
	unsigned long long limit;
	unsigned long r;
	FILE *f;
	static char buf[1 << 20];

	if (argc != 3) {
		fprintf(stderr, "usage: genlog MIB FILE\n");
		return 2;
	}
	limit = strtoull(argv[1], NULL, 10) << 20;
	f = fopen(argv[2], "w");
	if (!f) {
		perror(argv[2]);
		return 2;
	}
	setvbuf(f, buf, _IOFBF, sizeof(buf));
	while ((unsigned long long)ftell(f) < limit) {
		r = rnd() % 4000;
		if (r < 3)
			report(f, r == 0 ? 1000 + rnd() % 50 : 0);
		else if (r == 3)
			warning(f);
		else
			line(f, (r & 1) ? r : 0, noise[r % 12]);
	}
	return fclose(f) ? 2 : 0;
}
