// SPDX-License-Identifier: GPL-2.0
/*
 * Child processes of the census: the LLVM tools, found in LLVM 19's
 * directory first and then on PATH, run without a shell, with stdin from a
 * file descriptor and stdout read through a pipe.
 */
#include <sys/wait.h>
#include <unistd.h>

#include "census.h"

const char *tool_path(const char *name, const char *override, char *buf,
		      size_t sz)
{
	if (override)
		return override;
	snprintf(buf, sz, LLVM_BIN "%s", name);
	if (access(buf, X_OK) == 0)
		return buf;
	snprintf(buf, sz, "%s-19", name);
	return buf;
}

FILE *proc_open(char *const argv[], int in_fd, pid_t *pid)
{
	int p[2];

	if (pipe(p))
		return NULL;
	*pid = fork();
	if (*pid < 0) {
		close(p[0]);
		close(p[1]);
		return NULL;
	}
	if (*pid == 0) {
		if (in_fd >= 0)
			dup2(in_fd, 0);
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	return fdopen(p[0], "r");
}

int proc_close(FILE *out, pid_t pid)
{
	int st;

	fclose(out);
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}
