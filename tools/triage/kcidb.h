/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ubsan-triage --kcidb: one KCIDB v5 document for runs of boot jobs.
 */
#ifndef KCIDB_H
#define KCIDB_H

#include <stdio.h>

#include "triage.h"

/*
 * checkout: key=value file (origin, tree_name, version, patchset_hash,
 * compiler, comment, ...); boots: the runner's boots.tsv files. Returns 0,
 * or 2 on an unreadable input or a write error.
 */
int kcidb_main(const struct lists *l, const char *checkout, char **boots, int n,
	       FILE *out);

#endif
