/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hot-checks budget: the functions to leave out of the integer checks so
 * that their run-time cost holds an overhead budget (budget.c).
 */
#ifndef HOT_BUDGET_H
#define HOT_BUDGET_H

/* hot-checks budget ...: argv without "hot-checks budget"; the exit
 * status, or -1 for a usage error */
int budget_main(int argc, char **argv);

#endif /* HOT_BUDGET_H */
