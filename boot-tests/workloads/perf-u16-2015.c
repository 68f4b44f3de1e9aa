// SPDX-License-Identifier: GPL-2.0
/*
 * a723968c0ed3 ("perf: Fix u16 overflows", 2015).
 *
 * Every member reads the whole group, so every member's u16 read_size
 * grows with the group; without a limit it wraps at ~2730 siblings.  A
 * kernel with the 2015 fix refuses the group past 16 KiB with E2BIG.
 */
#include "workload.h"

int main(void)
{
	return kit_group_limit_test(KIT_FORMAT_ALL, KIT_FORMAT_ALL);
}
