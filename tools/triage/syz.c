// SPDX-License-Identifier: GPL-2.0
/*
 * syz-manager's crash store (syzkaller's docs/internals.md, "Crash
 * reports", and pkg/manager/crash.go): WORKDIR/crashes/<sha1 of the
 * title>/ holds "description" (the title and a newline) and, for each crash
 * N, logN (the VM's output: kernel console and the programs executed),
 * reportN (the report syzkaller cut out of it), tagN and machineInfoN; a
 * crash whose output or report was empty lacks that file. repro.* files
 * come from reproduction, not from a crash, and are not read.
 *
 * Each crash is read once: its logN, or its reportN when it has no logN
 * (the report is a part of the log).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "triage.h"

#define SYZ_MAXINDEX 100000000L /* larger N: not a name syzkaller writes */

static const char not_syz[] =
	"neither a syz-manager workdir (crashes/ or corpus.db) nor a crash "
	"directory";

struct entry {
	long idx;
	int report; /* 0: logN, 1: reportN */
};

static int fail(const char *path, const char *why)
{
	fprintf(stderr, "ubsan-triage: %s: %s\n", path, why);
	return -1;
}

/* N of "<prefix>N" as syzkaller writes it (decimal, no leading 0), or -1 */
static long crash_index(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = name + n;
	long v = 0;

	if (strncmp(name, prefix, n) || !*p || (p[0] == '0' && p[1]))
		return -1;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || v >= SYZ_MAXINDEX)
			return -1;
		v = v * 10 + (*p - '0');
	}
	return v;
}

static int entry_kind(const char *name, long *idx)
{
	*idx = crash_index(name, "log");
	if (*idx >= 0)
		return 0;
	*idx = crash_index(name, "report");
	return *idx >= 0 ? 1 : -1;
}

static int by_index(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->idx != y->idx)
		return x->idx < y->idx ? -1 : 1;
	return x->report - y->report;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	char *p;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	p = malloc(n + strlen(name) + 2);
	if (p)
		sprintf(p, "%.*s%s%s", (int)n, dir,
			n && dir[n - 1] == '/' ? "" : "/", name);
	return p;
}

/* The first line of DIR/description, "" if there is none. */
static char *read_description(const char *dir)
{
	char buf[TITLE_MAX], *path = join(dir, "description");
	size_t n = 0;
	FILE *f;

	f = path ? fopen(path, "r") : NULL;
	free(path);
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = 0;
	buf[strcspn(buf, "\r\n")] = 0;
	return strdup(buf);
}

static int add_log(struct syzdirs *z, const char *dir, const struct entry *e)
{
	char name[32], **v;
	int *c;

	snprintf(name, sizeof(name), "%s%ld", e->report ? "report" : "log",
		 e->idx);
	v = realloc(z->logs, (z->nlogs + 1) * sizeof(*v));
	if (v)
		z->logs = v;
	c = realloc(z->crash, (z->nlogs + 1) * sizeof(*c));
	if (c)
		z->crash = c;
	if (!v || !c)
		return -1;
	z->logs[z->nlogs] = join(dir, name);
	if (!z->logs[z->nlogs])
		return -1;
	z->crash[z->nlogs++] = (int)z->n - 1;
	return 0;
}

/* One crash directory: its description, and a log for each crash. */
static int add_crash(struct syzdirs *z, const char *path, const char *name)
{
	DIR *d = opendir(path);
	struct dirent *de;
	struct entry *e = NULL, *ne;
	struct crashdir c, *v;
	size_t n = 0, i;
	long idx;
	int kind, oom = 0;

	if (!d)
		return fail(path, strerror(errno));
	while ((de = readdir(d))) {
		kind = entry_kind(de->d_name, &idx);
		if (kind < 0)
			continue;
		ne = realloc(e, (n + 1) * sizeof(*e));
		if (!ne) {
			oom = 1;
			break;
		}
		e = ne;
		e[n].idx = idx;
		e[n++].report = kind;
	}
	closedir(d);
	c.path = strdup(path);
	c.name = strdup(name);
	c.description = read_description(path);
	v = realloc(z->v, (z->n + 1) * sizeof(*v));
	if (v)
		z->v = v;
	if (oom || !v || !c.path || !c.name || !c.description) {
		free(c.path);
		free(c.name);
		free(c.description);
		free(e);
		return fail(path, "out of memory");
	}
	z->v[z->n++] = c;
	if (n)
		qsort(e, n, sizeof(*e), by_index);
	for (i = 0; i < n && !oom; i++)
		/* a reportN after its logN: the same crash */
		if (!i || e[i].idx != e[i - 1].idx)
			oom = add_log(z, path, &e[i]);
	free(e);
	return oom ? fail(path, "out of memory") : 0;
}

/* Crash directories in name order (readdir's order is the disk's). */
static int scan_workdir(struct syzdirs *z, const char *crashes)
{
	DIR *d = opendir(crashes);
	struct dirent *de;
	struct stat st;
	char **names = NULL, **nn, *path;
	size_t n = 0, i;
	int ret = 0;

	if (!d)
		return fail(crashes, strerror(errno));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		nn = realloc(names, (n + 1) * sizeof(*nn));
		if (nn)
			names = nn;
		if (nn)
			names[n] = strdup(de->d_name);
		if (!nn || !names[n]) {
			ret = fail(crashes, "out of memory");
			break;
		}
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		path = join(crashes, names[i]);
		if (!path)
			ret = fail(crashes, "out of memory");
		else if (stat(path, &st))
			ret = fail(path, strerror(errno));
		else if (S_ISDIR(st.st_mode) && add_crash(z, path, names[i]))
			ret = -1;
		free(path);
		free(names[i]);
	}
	free(names);
	return ret;
}

/* Does DIR hold a description, a logN or a reportN? -1: unreadable */
static int is_crash_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	long idx;
	int found = 0;

	if (!d)
		return fail(dir, strerror(errno));
	while (!found && (de = readdir(d)))
		found = !strcmp(de->d_name, "description") ||
			entry_kind(de->d_name, &idx) >= 0;
	closedir(d);
	return found;
}

/* Is dir/name a regular file? */
static int has_file(const char *dir, const char *name)
{
	char *path = join(dir, name);
	struct stat st;
	int ret;

	ret = path && !stat(path, &st) && S_ISREG(st.st_mode);
	free(path);
	return ret;
}

/*
 * Add DIR, a syz-manager workdir (it has crashes/) or one crash directory,
 * to z. Returns 0, or -1 after a message on stderr (z keeps what was read).
 */
int syz_scan(struct syzdirs *z, const char *dir)
{
	char *crashes, *real, *name;
	struct stat st;
	int ret;

	if (stat(dir, &st))
		return fail(dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return fail(dir, strerror(ENOTDIR));
	crashes = join(dir, "crashes");
	if (!crashes)
		return fail(dir, "out of memory");
	if (!stat(crashes, &st) && S_ISDIR(st.st_mode)) {
		ret = scan_workdir(z, crashes);
		free(crashes);
		return ret;
	}
	free(crashes);
	/* a workdir whose run saved no crash: its corpus, no crashes/ */
	if (has_file(dir, "corpus.db"))
		return 0;
	ret = is_crash_dir(dir);
	if (ret < 0)
		return -1;
	if (!ret)
		return fail(dir, not_syz);
	/* its name is syzkaller's hash of the title: the last component */
	real = realpath(dir, NULL);
	name = real ? strrchr(real, '/') : NULL;
	ret = add_crash(z, dir, name && name[1] ? name + 1 : dir);
	free(real);
	return ret;
}

void syz_free(struct syzdirs *z)
{
	size_t i;

	for (i = 0; i < z->n; i++) {
		free(z->v[i].path);
		free(z->v[i].name);
		free(z->v[i].description);
	}
	for (i = 0; i < z->nlogs; i++)
		free(z->logs[i]);
	free(z->v);
	free(z->logs);
	free(z->crash);
	memset(z, 0, sizeof(*z));
}
