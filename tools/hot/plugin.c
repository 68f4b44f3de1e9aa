// SPDX-License-Identifier: GPL-2.0
/*
 * hot-checks.so: a QEMU TCG plugin that counts how many times chosen guest
 * instructions run, and how many instructions the guest runs in all.
 *
 *   qemu-system-x86_64 ... -plugin PATH/hot-checks.so,addrs=FILE,out=FILE
 *
 * addrs: the guest virtual addresses to count, one a line, in hex ("0x"
 * optional; blank lines and lines that start with '#' are skipped). For
 * make hot-checks they are the conditional jumps that decide the kernel's
 * integer checks (ubsan-census --branches).
 *
 * When QEMU translates a block, each instruction at one of those addresses
 * gets an inline "counter += 1" that runs before it, each time it runs;
 * the block gets one that adds its instruction count to one of three
 * totals: the kernel's (a block in the upper half of the address space),
 * boot's (a block in the lower half translated before the first one in the
 * upper half: the firmware, the kernel's decompressor and its first steps
 * at physical addresses) and the user's (the lower half afterwards). The
 * totals count a block whole even when an exception or an interrupt
 * leaves it early, so they are close, not exact; the per-address counts
 * are exact. The counters are not atomic: one guest CPU (the kit's
 * -icount boots), or QEMU's single-threaded TCG.
 *
 * insns: optional; how many times each kernel instruction ran goes to this
 * file at exit (each block gets one more inline counter; an instruction
 * runs as many times as the blocks it is in), so that a caller can give
 * them to the functions they are written in and compare two kernels under
 * one workload (hot-checks diff): the instructions a check makes the
 * compiler spend around it are there, not only its own. addrs is optional
 * too: insns alone counts no check.
 *
 * out: written when QEMU exits (the guest powers off, or QEMU is killed
 * with SIGTERM or SIGINT):
 *
 *   # hot-checks: insns_kernel=N insns_user=N insns_boot=N addresses=N translated=N
 *   address<TAB>executions
 *   0xffffffff81000435<TAB>1234
 *
 * one row per address, in the order of the addresses, zeros included.
 *
 * and, with insns=, that file:
 *
 *   # hot-checks insns: insns_kernel=N blocks=N
 *   address<TAB>executions
 *
 * one row per kernel instruction that ran, by address.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu-api.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT int qemu_plugin_version = HOT_QEMU_API_VERSION;

static uint64_t *addrs, *counts;
static size_t naddrs;
static char *out_path;
enum { USER, KERNEL, BOOT };
static uint64_t insns[3];
/* a block of the upper half was translated: the kernel runs */
static int kernel_seen;
/* instructions that got a counter, over all translations */
static uint64_t translated;

/*
 * Each translation of a kernel block, with insns=: its counter is added to
 * inline, so it never moves (chunks, not one array that grows); its
 * instructions' addresses.
 */
struct block {
	uint64_t count, *ia;
	size_t n;
};

#define BLOCK_CHUNK 4096
static struct block **chunks;
static size_t nblocks, nchunks;
static char *insns_path;

/* a new block of n instructions, or NULL when memory is out (then it is
 * not counted) */
static struct block *block_new(size_t n)
{
	struct block **c, *b;

	if (nblocks == nchunks * BLOCK_CHUNK) {
		c = realloc(chunks, (nchunks + 1) * sizeof(*c));
		if (!c)
			return NULL;
		chunks = c;
		chunks[nchunks] = calloc(BLOCK_CHUNK, sizeof(**chunks));
		if (!chunks[nchunks])
			return NULL;
		nchunks++;
	}
	b = &chunks[nblocks / BLOCK_CHUNK][nblocks % BLOCK_CHUNK];
	b->ia = malloc((n ? n : 1) * sizeof(*b->ia));
	if (!b->ia)
		return NULL;
	nblocks++;
	b->n = n;
	return b;
}

/* On QEMU's stderr: qemu_plugin_outs() writes only under -d plugin. */
static void __attribute__((format(printf, 1, 2))) say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static long find(uint64_t va)
{
	size_t lo = 0, hi = naddrs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addrs[mid] < va)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < naddrs && addrs[lo] == va ? (long)lo : -1;
}

/* The addresses of path, sorted, each once; 0 on success. */
static int read_addrs(const char *path)
{
	char *line = NULL, *end, *s;
	size_t cap = 0, n = 0, size = 0, i, k;
	uint64_t *v;
	FILE *f = fopen(path, "r");

	if (!f) {
		say("hot-checks: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		for (s = line; *s == ' ' || *s == '\t'; s++)
			;
		if (*s == '#' || *s == '\n' || !*s)
			continue;
		if (n == size) {
			size = size ? 2 * size : 4096;
			v = realloc(addrs, size * sizeof(*v));
			if (!v)
				goto fail;
			addrs = v;
		}
		errno = 0;
		addrs[n] = strtoull(s, &end, 16);
		if (errno || end == s || (*end && *end != '\n')) {
			say("hot-checks: %s: not an address: %s", path, line);
			goto fail;
		}
		n++;
	}
	fclose(f);
	free(line);
	if (n)
		qsort(addrs, n, sizeof(*addrs), cmp_u64);
	for (i = 0, k = 0; i < n; i++)
		if (!k || addrs[k - 1] != addrs[i])
			addrs[k++] = addrs[i];
	naddrs = k;
	counts = calloc(k ? k : 1, sizeof(*counts));
	return counts ? 0 : -1;
fail:
	fclose(f);
	free(line);
	return -1;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	struct qemu_plugin_insn *insn;
	uint64_t va, *total;
	long k;

	(void)id;
	va = qemu_plugin_tb_vaddr(tb);
	if (va >> 63) {
		kernel_seen = 1;
		total = &insns[KERNEL];
	} else {
		total = &insns[kernel_seen ? USER : BOOT];
	}
	qemu_plugin_register_vcpu_tb_exec_inline(tb, HOT_QEMU_INLINE_ADD_U64,
						 total, n);
	if (insns_path && total == &insns[KERNEL]) {
		struct block *b = block_new(n);

		for (i = 0; b && i < n; i++)
			b->ia[i] = qemu_plugin_insn_vaddr(
				qemu_plugin_tb_get_insn(tb, i));
		if (b)
			qemu_plugin_register_vcpu_tb_exec_inline(
				tb, HOT_QEMU_INLINE_ADD_U64, &b->count, 1);
	}
	if (!naddrs)
		return;
	for (i = 0; i < n; i++) {
		insn = qemu_plugin_tb_get_insn(tb, i);
		va = qemu_plugin_insn_vaddr(insn);
		if (va < addrs[0] || va > addrs[naddrs - 1])
			continue;
		k = find(va);
		if (k < 0)
			continue;
		qemu_plugin_register_vcpu_insn_exec_inline(
			insn, HOT_QEMU_INLINE_ADD_U64, &counts[k], 1);
		translated++;
	}
}

/* an instruction that ran, and how many times */
struct insn_count {
	uint64_t va, count;
};

static int cmp_insn(const void *a, const void *b)
{
	const struct insn_count *x = a, *y = b;

	return x->va < y->va ? -1 : x->va > y->va;
}

/* The instructions that ran, by address, the blocks they are in summed. */
static void write_insns(void)
{
	struct insn_count *v;
	struct block *b;
	size_t i, j, k = 0, total = 0;
	FILE *f;

	for (i = 0; i < nblocks; i++)
		total += chunks[i / BLOCK_CHUNK][i % BLOCK_CHUNK].n;
	v = malloc((total ? total : 1) * sizeof(*v));
	if (!v) {
		say("hot-checks: out of memory for %zu instructions\n", total);
		return;
	}
	for (i = 0; i < nblocks; i++) {
		b = &chunks[i / BLOCK_CHUNK][i % BLOCK_CHUNK];
		for (j = 0; b->count && j < b->n; j++) {
			v[k].va = b->ia[j];
			v[k++].count = b->count;
		}
	}
	qsort(v, k, sizeof(*v), cmp_insn);
	f = fopen(insns_path, "w");
	if (!f) {
		say("hot-checks: cannot write %s: %s\n", insns_path,
		    strerror(errno));
		free(v);
		return;
	}
	fprintf(f, "# hot-checks insns: insns_kernel=%" PRIu64 " blocks=%zu\n",
		insns[KERNEL], nblocks);
	fputs("address\texecutions\n", f);
	for (i = 0; i < k; i++) {
		if (i + 1 < k && v[i + 1].va == v[i].va) {
			v[i + 1].count += v[i].count;
			continue;
		}
		fprintf(f, "0x%" PRIx64 "\t%" PRIu64 "\n", v[i].va, v[i].count);
	}
	if (fclose(f))
		say("hot-checks: cannot write %s: %s\n", insns_path,
		    strerror(errno));
	free(v);
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	FILE *f;
	size_t i;

	(void)id;
	(void)udata;
	if (insns_path)
		write_insns();
	f = fopen(out_path, "w");
	if (!f) {
		say("hot-checks: cannot write %s: %s\n", out_path,
		    strerror(errno));
		return;
	}
	fprintf(f,
		"# hot-checks: insns_kernel=%" PRIu64 " insns_user=%" PRIu64
		" insns_boot=%" PRIu64 " addresses=%zu translated=%" PRIu64
		"\n",
		insns[KERNEL], insns[USER], insns[BOOT], naddrs, translated);
	fputs("address\texecutions\n", f);
	for (i = 0; i < naddrs; i++)
		fprintf(f, "0x%" PRIx64 "\t%" PRIu64 "\n", addrs[i], counts[i]);
	if (fclose(f))
		say("hot-checks: cannot write %s: %s\n", out_path,
		    strerror(errno));
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
			       const struct hot_qemu_info *info, int argc,
			       char **argv)
{
	const char *in = NULL;
	int i;

	if (info->version.cur < HOT_QEMU_API_VERSION) {
		say("hot-checks: QEMU's plugin API is version %d, older than %d\n",
		    info->version.cur, HOT_QEMU_API_VERSION);
		return -1;
	}
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "addrs=", 6)) {
			in = argv[i] + 6;
		} else if (!strncmp(argv[i], "out=", 4)) {
			out_path = strdup(argv[i] + 4);
		} else if (!strncmp(argv[i], "insns=", 6)) {
			insns_path = strdup(argv[i] + 6);
		} else {
			say("hot-checks: unknown argument %s (addrs=FILE,insns=FILE,out=FILE)\n",
			    argv[i]);
			return -1;
		}
	}
	if ((!in && !insns_path) || !out_path) {
		say("hot-checks: usage: -plugin hot-checks.so,[addrs=FILE,][insns=FILE,]out=FILE\n");
		return -1;
	}
	if (in ? read_addrs(in) : !(counts = calloc(1, sizeof(*counts))))
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
