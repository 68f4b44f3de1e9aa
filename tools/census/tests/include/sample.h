/* SPDX-License-Identifier: GPL-2.0 */
/* The census test: a header's check, inlined into two callers. */
#ifndef SAMPLE_H
#define SAMPLE_H

typedef unsigned short __sum16;

static inline __attribute__((always_inline)) __sum16 fold(unsigned int sum)
{
	return sum + (sum >> 16);
}

#endif
