/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hot-checks diff: where two kernels run under one workload differ, function
 * by function, in guest instructions (diff.c).
 */
#ifndef HOT_DIFF_H
#define HOT_DIFF_H

/* hot-checks diff ...: argv without "hot-checks diff"; the exit status, or
 * -1 for a usage error */
int diff_main(int argc, char **argv);

#endif /* HOT_DIFF_H */
