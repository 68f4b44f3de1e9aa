// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for a kernel, for selftest.sh: a 32-bit multiboot image that
 * QEMU's -kernel boots in milliseconds.  It prints on COM1 what a real boot
 * would print in the case named by "selftest=MODE" on its command line and
 * leaves QEMU the way the real one would:
 *
 *   pass (default)  KTAP with everything ok, isa-debug-exit 0x20
 *   fail            a not ok, isa-debug-exit 0x21
 *   noend           KTAP cut short, isa-debug-exit 0x20
 *   oops            a BUG: line, then like pass
 *   panic           "Kernel panic - not syncing", reset (like panic=-1)
 *   hang            a banner, then halts forever
 *
 * Built with -m32 -ffreestanding; no libc.
 */
#define MB_MAGIC 0x1badb002
#define MB_FLAGS 0
#define COM1 0x3f8
#define DEBUG_EXIT 0xf4

struct mb_header {
	unsigned int magic, flags, checksum;
};

/* anywhere in the first 8 KiB of the file: this whole file is smaller */
__attribute__((used, aligned(4), section(".multiboot")))
const struct mb_header mb_header = { MB_MAGIC, MB_FLAGS,
				     -(MB_MAGIC + MB_FLAGS) };

unsigned char stack[4096] __attribute__((used, aligned(16)));

static inline void outb(unsigned char v, unsigned short port)
{
	asm volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline unsigned char inb(unsigned short port)
{
	unsigned char v;

	asm volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static void puts_serial(const char *s)
{
	for (; *s; s++) {
		while (!(inb(COM1 + 5) & 0x20))
			;
		outb(*s, COM1);
	}
}

static int has(const char *s, const char *word)
{
	const char *a, *b;

	for (; *s; s++) {
		for (a = s, b = word; *b && *a == *b; a++, b++)
			;
		if (!*b && (*a == ' ' || !*a))
			return 1;
	}
	return 0;
}

static void __attribute__((noreturn)) halt(void)
{
	for (;;)
		asm volatile("cli; hlt");
}

static void ktap(int ok, int end)
{
	puts_serial("[    0.100000] KTAP version 1\n[    0.100000] 1..1\n");
	puts_serial(ok ? "[    0.200000] ok 1 fake # time=1ms\n" :
			 "[    0.200000] not ok 1 fake # time=1ms\n");
	if (end)
		puts_serial("[    0.300000] kit: end pass=1 fail=0 skip=0\n");
}

void __attribute__((used, noreturn)) fake_main(unsigned int *mbi)
{
	const char *cmdline = (mbi[0] & 4) ? (const char *)mbi[4] : "";

	puts_serial("fake kernel: ");
	puts_serial(cmdline);
	puts_serial("\n");
	if (has(cmdline, "selftest=hang")) {
		puts_serial("fake kernel: hanging\n");
		halt();
	}
	if (has(cmdline, "selftest=panic")) {
		puts_serial(
			"[    0.100000] Kernel panic - not syncing: fake\n");
		outb(0xfe, 0x64); /* reset: QEMU's -no-reboot exits */
		halt();
	}
	if (has(cmdline, "selftest=oops"))
		puts_serial(
			"[    0.050000] BUG: kernel NULL pointer dereference, address: 0000000000000000\n");
	ktap(!has(cmdline, "selftest=fail"), !has(cmdline, "selftest=noend"));
	outb(has(cmdline, "selftest=fail") ? 0x21 : 0x20, DEBUG_EXIT);
	halt();
}

void __attribute__((naked, noreturn)) _start(void)
{
	asm volatile("lea stack + 4096, %esp\n\t"
		     "push %ebx\n\t"
		     "call fake_main\n");
}
