// SPDX-License-Identifier: GPL-2.0
/*
 * Modules: a .ko is relocatable (its code and data say 0 where a pointer
 * goes, the relocations say what). Rather than apply relocations here, the
 * census links the module alone with ld.lld into a temporary executable:
 * every pointer of its static data becomes absolute, its DWARF is
 * relocated for llvm-symbolizer, and a linker script defines the handlers
 * (one "ret" each, in a section of their own, so that llvm-objdump names
 * the calls to them). The kernel's other symbols stay undefined (0); the
 * census never follows them.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "census.h"

#define IMAGE_BASE "0xffffffffa0000000"

static int write_script(const char *path)
{
	FILE *f = fopen(path, "w");
	size_t i;

	if (!f)
		return -1;
	fputs("SECTIONS {\n  .census_handlers : {\n", f);
	for (i = 0; i < nhandlers; i++) {
		fprintf(f, "    %s = .; BYTE(0xc3); . = ALIGN(16);\n",
			handlers[i].symbol);
		fprintf(f, "    %s_abort = .; BYTE(0xc3); . = ALIGN(16);\n",
			handlers[i].symbol);
	}
	fputs("  }\n} INSERT AFTER .text;\n", f);
	return fclose(f);
}

int module_link(const char *linker, const char *ko, struct linked *out)
{
	char script[PATH_MAX_C];
	char *argv[] = { (char *)linker,
			 "-o",
			 out->elf,
			 "--unresolved-symbols=ignore-all",
			 "-e",
			 "0",
			 "--image-base=" IMAGE_BASE,
			 "-T",
			 script,
			 (char *)ko,
			 NULL };
	const char *tmp = getenv("TMPDIR");
	FILE *o;
	pid_t pid;
	int ret;

	snprintf(out->dir, sizeof(out->dir), "%s/ubsan-census.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(out->dir))
		return -1;
	snprintf(script, sizeof(script), "%s/handlers.ld", out->dir);
	snprintf(out->elf, sizeof(out->elf), "%s/module.elf", out->dir);
	if (write_script(script)) {
		module_unlink(out);
		return -1;
	}
	o = proc_open(argv, -1, &pid);
	ret = o ? proc_close(o, pid) : -1;
	unlink(script);
	if (ret)
		module_unlink(out);
	return ret;
}

void module_unlink(struct linked *l)
{
	if (!l->dir[0])
		return;
	unlink(l->elf);
	rmdir(l->dir);
	l->dir[0] = 0;
}
