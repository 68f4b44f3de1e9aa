// SPDX-License-Identifier: GPL-2.0
/*
 * The ELF image: a read-only mapping of an ELF64 x86_64 executable and the
 * map from a virtual address to the file bytes of the allocated section
 * that holds it. vmlinux is linked (not relocatable), so the pointers in
 * its data are absolute addresses that map back through the same table.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "census.h"

struct span {
	unsigned long addr, size, off;
	const char *name;
};

struct elf {
	const unsigned char *map;
	size_t len;
	struct span *spans; /* allocated sections with file contents */
	size_t nspans;
};

static int elf_fail(char *err, size_t errsz, const char *path, const char *why)
{
	snprintf(err, errsz, "%s: %s", path, why);
	return -1;
}

static int elf_check(const unsigned char *map, size_t len, const char *path,
		     char *err, size_t errsz)
{
	const Elf64_Ehdr *eh = (const void *)map;

	if (len < sizeof(*eh) || memcmp(map, ELFMAG, SELFMAG))
		return elf_fail(err, errsz, path, "not an ELF file");
	if (map[EI_CLASS] != ELFCLASS64 || map[EI_DATA] != ELFDATA2LSB ||
	    eh->e_machine != EM_X86_64)
		return elf_fail(err, errsz, path, "not ELF64 x86_64");
	if (eh->e_type != ET_EXEC)
		return elf_fail(
			err, errsz, path,
			"not a linked executable (a module: name it .ko)");
	if (eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_shoff + (unsigned long)eh->e_shnum * sizeof(Elf64_Shdr) > len)
		return elf_fail(err, errsz, path, "bad section headers");
	return 0;
}

static int elf_spans(struct elf *e)
{
	const Elf64_Ehdr *eh = (const void *)e->map;
	const Elf64_Shdr *sh = (const void *)(e->map + eh->e_shoff);
	const Elf64_Shdr *strs = NULL;
	size_t i;

	if (eh->e_shstrndx < eh->e_shnum &&
	    sh[eh->e_shstrndx].sh_offset + sh[eh->e_shstrndx].sh_size <= e->len)
		strs = &sh[eh->e_shstrndx];

	e->spans = calloc(eh->e_shnum ? eh->e_shnum : 1, sizeof(*e->spans));
	if (!e->spans)
		return -1;
	for (i = 0; i < eh->e_shnum; i++) {
		if (!(sh[i].sh_flags & SHF_ALLOC) ||
		    sh[i].sh_type == SHT_NOBITS)
			continue;
		if (sh[i].sh_offset + sh[i].sh_size > e->len)
			continue;
		e->spans[e->nspans].addr = sh[i].sh_addr;
		e->spans[e->nspans].size = sh[i].sh_size;
		e->spans[e->nspans].off = sh[i].sh_offset;
		e->spans[e->nspans].name = "";
		if (strs && sh[i].sh_name < strs->sh_size &&
		    memchr(e->map + strs->sh_offset + sh[i].sh_name, 0,
			   strs->sh_size - sh[i].sh_name))
			e->spans[e->nspans].name = (const char *)e->map +
						   strs->sh_offset +
						   sh[i].sh_name;
		e->nspans++;
	}
	return 0;
}

struct elf *elf_open(const char *path, char *err, size_t errsz)
{
	struct elf *e;
	struct stat st;
	void *map;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		elf_fail(err, errsz, path, "cannot open");
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		elf_fail(err, errsz, path, "cannot map");
		return NULL;
	}
	e = calloc(1, sizeof(*e));
	if (!e || elf_check(map, st.st_size, path, err, errsz)) {
		munmap(map, st.st_size);
		free(e);
		return NULL;
	}
	e->map = map;
	e->len = st.st_size;
	if (elf_spans(e)) {
		elf_close(e);
		elf_fail(err, errsz, path, "out of memory");
		return NULL;
	}
	return e;
}

void elf_close(struct elf *e)
{
	if (!e)
		return;
	munmap((void *)e->map, e->len);
	free(e->spans);
	free(e);
}

static const struct span *elf_span(const struct elf *e, unsigned long va)
{
	size_t i;

	for (i = 0; i < e->nspans; i++)
		if (va >= e->spans[i].addr &&
		    va - e->spans[i].addr < e->spans[i].size)
			return &e->spans[i];
	return NULL;
}

const void *elf_at(const struct elf *e, unsigned long va, size_t len)
{
	const struct span *s = elf_span(e, va);

	if (!s || len > s->size - (va - s->addr))
		return NULL;
	return e->map + s->off + (va - s->addr);
}

const char *elf_str(const struct elf *e, unsigned long va)
{
	const struct span *s = elf_span(e, va);
	const char *p;

	if (!s)
		return NULL;
	p = (const char *)e->map + s->off + (va - s->addr);
	if (!memchr(p, 0, s->size - (va - s->addr)))
		return NULL;
	return p;
}

void elf_where(const struct elf *e, unsigned long va, const char **section,
	       unsigned long *off)
{
	const struct span *s = elf_span(e, va);

	*section = s ? s->name : "";
	*off = s ? va - s->addr : va;
}
