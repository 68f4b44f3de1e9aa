// SPDX-License-Identifier: GPL-2.0
#include "cmdline.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int cmdline_get(const char *key, char *val, size_t size)
{
	char buf[4096], *tok, *save;
	size_t klen = strlen(key);
	ssize_t n;
	int fd, found = 0;

	fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	for (tok = strtok_r(buf, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (!strncmp(tok, key, klen) && tok[klen] == '=') {
			snprintf(val, size, "%s", tok + klen + 1);
			found = 1; /* the last one wins, as for the kernel */
		}
	}
	return found;
}
