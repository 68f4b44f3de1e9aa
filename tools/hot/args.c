// SPDX-License-Identifier: GPL-2.0
/*
 * The options of hot-checks' subcommands (args.h).
 */
#include "args.h"

/*
 * Read the leading "-X VALUE" pairs of argv into opts; the index of the
 * first operand, or -1 for a letter not in opts or one without its value.
 */
int args_parse(int argc, char **argv, const struct opt *opts, int nopts)
{
	int k, i;

	for (k = 0; k < argc && argv[k][0] == '-'; k += 2) {
		if (k + 1 >= argc || argv[k][1] == 0 || argv[k][2] != 0)
			return -1;
		for (i = 0; i < nopts && opts[i].flag != argv[k][1]; i++)
			;
		if (i == nopts)
			return -1;
		*opts[i].val = argv[k + 1];
	}
	return k;
}
