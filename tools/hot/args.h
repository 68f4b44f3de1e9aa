/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options of hot-checks' subcommands: leading "-X VALUE" pairs, each
 * into the string its letter names.
 */
#ifndef HOT_ARGS_H
#define HOT_ARGS_H

struct opt {
	char flag; /* the letter after '-' */
	const char **val; /* where its value goes */
};

int args_parse(int argc, char **argv, const struct opt *opts, int nopts);

#endif /* HOT_ARGS_H */
