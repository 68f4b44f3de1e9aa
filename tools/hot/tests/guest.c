// SPDX-License-Identifier: GPL-2.0
/*
 * The hot-checks test's guest (boot.S starts it): loops whose integer
 * checks run a known number of times, one function each, built with the
 * kernel's integer sanitizers and -O2. run.sh counts them with the plugin
 * and compares, function by function:
 *
 *   add_loop     one add-overflow check, ADD_RUNS times, never fires
 *   trunc_loop   one truncation check, TRUNC_RUNS times, never fires
 *   fire         one add-overflow check, FIRE_RUNS times, fires FIRE_HITS
 *   cold         one mul-overflow check, never called
 *
 * The same source without the sanitizers is the reference that the
 * census's instructions added are measured against. The guest prints
 * "reports=N" on the serial port: the handler calls (handlers.c, a file of
 * its own so that the calls stay calls), FIRE_HITS.
 */
#define ADD_RUNS 1000
#define TRUNC_RUNS 300
#define FIRE_RUNS 10
#define FIRE_HITS 6
#define INT_MAX 0x7fffffff
#define NOINLINE __attribute__((noinline))

extern unsigned int reports; /* handlers.c */
static int vals[ADD_RUNS];
static unsigned char bytes[TRUNC_RUNS];
volatile int sink;

NOINLINE int add_loop(const int *v, unsigned int n)
{
	unsigned int i;
	int s = 0;

	for (i = 0; i < n; i++)
		s += v[i];
	return s;
}

NOINLINE void trunc_loop(const int *v, unsigned int n, unsigned char *out)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		out[i] = v[i];
}

/* x + i overflows from i = INT_MAX - x + 1 on */
NOINLINE void fire(int x, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		sink = x + (int)i;
}

NOINLINE int cold(int a, int b)
{
	return a * b;
}

static void put(const char *s)
{
	for (; *s; s++)
		__asm__ volatile("outb %b0, %w1" : : "a"(*s), "Nd"(0x3f8));
}

static void put_uint(unsigned int v)
{
	char buf[12];
	int i = sizeof(buf) - 1;

	buf[i] = 0;
	do
		buf[--i] = '0' + v % 10;
	while (v /= 10);
	put(buf + i);
}

int guest_main(void)
{
	unsigned int i, seed = 12345;

	for (i = 0; i < ADD_RUNS; i++) {
		seed = seed * 1103515245u + 12345u;
		vals[i] = (seed >> 16) % 200;
	}
	sink = add_loop(vals, ADD_RUNS);
	trunc_loop(vals, TRUNC_RUNS, bytes);
	fire(INT_MAX - (FIRE_RUNS - FIRE_HITS) + 1, FIRE_RUNS);
	put("reports=");
	put_uint(reports);
	put("\n");
	return 0x20; /* QEMU exits with 65 */
}
