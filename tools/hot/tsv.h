/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tab-separated files of hot-checks: a line split into its fields, a
 * column found by its header's name.
 */
#ifndef HOT_TSV_H
#define HOT_TSV_H

#define MAX_COLS 32

int tsv_split(char *line, char **f);
int tsv_col(char **f, int n, const char *name);

#endif /* HOT_TSV_H */
