/* SPDX-License-Identifier: GPL-2.0 */
/* The guest's kernel command line, for init and the workloads. */
#ifndef CMDLINE_H
#define CMDLINE_H

#include <stddef.h>

/* Value of the last "key=" on /proc/cmdline, copied into val; 0 if none. */
int cmdline_get(const char *key, char *val, size_t size);

#endif
