// SPDX-License-Identifier: GPL-2.0
/*
 * The census test's checks, one kind and type of each, at known lines
 * (tests/expected.tsv). Built with Clang 19, -O2, the kit's sanitizers.
 */
#include "include/sample.h"

typedef long ptr_err_t;
typedef unsigned int wrap_u32;
typedef unsigned char u8;

#define NOINLINE __attribute__((noinline))

volatile int sink_i;
volatile long sink_l;
volatile u8 sink_u8;
volatile signed char sink_s8;
volatile short sink_s16;
volatile wrap_u32 sink_w;
volatile __sum16 sink_sum;

NOINLINE void add_int(int a, int b)
{
	sink_i = a + b;
}

NOINLINE void sub_long(long a, long b)
{
	sink_l = a - b;
}

NOINLINE void mul_int(int a, int b)
{
	sink_i = a * b;
}

NOINLINE void negate_long(long a)
{
	sink_l = -a;
}

NOINLINE void trunc_u8(int v)
{
	sink_u8 = v;
}

NOINLINE void trunc_s8(long v)
{
	sink_s8 = v;
}

NOINLINE void trunc_err(ptr_err_t err)
{
	sink_s16 = err;
}

NOINLINE void trunc_wrap(unsigned long v)
{
	sink_w = v;
}

NOINLINE void csum_a(unsigned int s)
{
	sink_sum = fold(s);
}

NOINLINE void csum_b(unsigned int s)
{
	sink_sum = fold(s + 1);
}
