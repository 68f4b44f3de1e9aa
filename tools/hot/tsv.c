// SPDX-License-Identifier: GPL-2.0
/*
 * The tab-separated files of hot-checks (tsv.h).
 */
#include "tsv.h"

#include <string.h>

/* Split line at tabs into at most MAX_COLS fields; the count. */
int tsv_split(char *line, char **f)
{
	int n = 0;
	char *s = line;

	line[strcspn(line, "\n")] = 0;
	for (;;) {
		char *t = strchr(s, '\t');

		if (n < MAX_COLS)
			f[n++] = s;
		if (!t)
			break;
		*t = 0;
		s = t + 1;
	}
	return n;
}

/* the index of the column called name in a header line's fields, or -1 */
int tsv_col(char **f, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(f[i], name))
			return i;
	return -1;
}
