// SPDX-License-Identifier: GPL-2.0
/*
 * The function and inline chain of every handler call: one llvm-symbolizer
 * run over all the call addresses (written to a temporary file, read as its
 * stdin). For each address it prints one "function\nfile:line:col" pair per
 * frame, innermost first, and a blank line; the last frame is the
 * outermost function, the ones before it were inlined into it.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "census.h"

/* Append name to a ';'-separated list. */
static int list_add(char **list, const char *name)
{
	size_t old = *list ? strlen(*list) : 0;
	char *s = realloc(*list, old + strlen(name) + 2);

	if (!s)
		return -1;
	if (old)
		s[old++] = ';';
	strcpy(s + old, name);
	*list = s;
	return 0;
}

/* Read one address's frames: names of the frames, innermost first. */
static int read_frames(FILE *out, struct frames *fr)
{
	char *line = NULL, *prev = NULL;
	size_t cap = 0;
	ssize_t n;
	int odd = 0, ret = 0;

	while ((n = getline(&line, &cap, out)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = 0;
		if (!n)
			break;
		if (!odd) {
			/* a new frame: the previous one was inlined */
			if (prev && list_add(&fr->inlined, prev))
				ret = -1;
			free(prev);
			prev = strdup(line);
		}
		odd = !odd;
	}
	free(line);
	fr->function = prev ? prev : strdup("??");
	if (!fr->inlined)
		fr->inlined = strdup("");
	return ret || !fr->function || !fr->inlined ? -1 : 0;
}

int symbolize_calls(const char *symbolizer, const char *obj,
		    const struct calls *calls, struct frames *fr)
{
	char objarg[4096];
	char *argv[] = { (char *)symbolizer, "--inlining",
			 "--functions=linkage", objarg, NULL };
	FILE *in, *out;
	size_t i;
	pid_t pid;
	int ret = 0;

	snprintf(objarg, sizeof(objarg), "--obj=%s", obj);
	in = tmpfile();
	if (!in)
		return -1;
	for (i = 0; i < calls->n; i++)
		fprintf(in, "0x%lx\n", calls->v[i].addr);
	if (fflush(in) || fseek(in, 0, SEEK_SET)) {
		fclose(in);
		return -1;
	}
	out = proc_open(argv, fileno(in), &pid);
	fclose(in);
	if (!out)
		return -1;
	for (i = 0; i < calls->n && !ret; i++)
		ret = read_frames(out, &fr[i]);
	if (proc_close(out, pid))
		ret = -1;
	return ret;
}
