// SPDX-License-Identifier: GPL-2.0
/*
 * Report families and formats, in tables:
 *
 * - families[]: the header of each family, a literal looked for anywhere
 *   in a console line (another writer's text may come first on the same
 *   serial line), with the lines that look like it but are not one;
 * - formats[]: per family, which header (and later lines) gives which
 *   title, and the program that finds the guilty frame;
 * - never_guilty[]: the one table of frames that are never the guilty
 *   one, each row tagged with the families (skip classes) it applies to;
 * - stall_anchors[] and the hang anchors: where a stall or a hang is
 *   attributed.
 *
 * The titles, frames and the corrupted flag follow syzkaller's report
 * parser (pkg/report), the reference of the field: the same report gets
 * the same title. The code below only interprets the tables.
 */
#include <string.h>

#include "triage.h"

/* ---- families ---- */

static const char *const veto_bug[] = {
	"ODEBUG:",
	"Boot_DEBUG:",
	"xlog_status:",
	"DEBUG:",
	"BUG: no syscalls can create resource",
	NULL,
};

static const char *const veto_warning[] = {
	/* user space and informational lines that say WARNING: */
	"WARNING: /etc/ssh/moduli does not exist, using fixed modulus",
	"WARNING: workqueue cpumask: online intersect > possible intersect",
	"WARNING: {?T|t}he mand mount option",
	"WARNING: Unsupported flag value(s) of 0x\\%x in DT_FLAGS_1",
	"WARNING: Unprivileged eBPF is enabled with eIBRS",
	"WARNING: fbcon: Driver '*' missed to adjust virtual screen size",
	"WARNING: See https* for mitigation options.",
	"WARNING: kernel not compiled with CPU_SRSO",
	"EXT4-{?F|f}{?S|s}",
	"~warning: * uses {?deprecated v2 capabilities|wireless extensions}",
	"WARNING: Reset corrupted AGFL on AG",
	NULL,
};

static const char *const veto_info[] = {
	"INFO: lockdep is turned off",
	"INFO: Stall ended before state dump start",
	"INFO: NMI handler",
	"INFO: recovery required on readonly filesystem",
	"{?handler|interrupt}*took too long",
	"INFO: sys_* is not present in /proc/kallsyms",
	"INFO: no syscalls can create resource",
	"rmt_storage:INFO:",
	"_INFO:",
	NULL,
};

static const char *const veto_gpf[] = {
	/* a user-space fault (traps: ... general protection fault ip:...) */
	"general protection fault * error:%d in ",
	NULL,
};

/*
 * In priority order: a line with several headers belongs to the first
 * family. anchor: offset of 5 header bytes made of rare character pairs,
 * which the line scan looks for (every 4th byte); -1 for a header of 4
 * bytes: any byte before it (a header at the start of a line is at a
 * scanned position anyway).
 */
static const struct family {
	const char *header; /* the literal, anywhere in a line */
	signed char anchor; /* where its 5 rare bytes are; -1: 4 bytes */
	unsigned char flags; /* FF_* */
	const char *const *veto; /* look-alikes that are no header */
} families[] = {
	[FAM_BUG] = { .header = "BUG:", .anchor = -1, .veto = veto_bug },
	[FAM_WARNING] = { .header = "WARNING:",
			  .anchor = 0,
			  .veto = veto_warning },
	[FAM_INFO] = { .header = "INFO:", .anchor = 0, .veto = veto_info },
	[FAM_UNABLE] = { .header = "Unable to handle kernel", .anchor = 0 },
	[FAM_GPF] = { .header = "general protection fault",
		      .anchor = 19,
		      .flags = FF_OOPS,
		      .veto = veto_gpf },
	[FAM_STACKSEG] = { .header = "stack segment: ",
			   .anchor = 5,
			   .flags = FF_OOPS },
	[FAM_PANIC] = { .header = "Kernel panic",
			.anchor = 4,
			.flags = FF_CONT | FF_PANIC },
	[FAM_DFAULT] = { .header = "PANIC: double fault",
			 .anchor = 1,
			 .flags = FF_CONT },
	[FAM_KBUG] = { .header = "kernel BUG", .anchor = 5 },
	[FAM_KBUG2] = { .header = "Kernel BUG", .anchor = 5 },
	[FAM_KMALLOC] = { .header = "BUG kmalloc-", .anchor = 0 },
	[FAM_DIVIDE] = { .header = "divide error:",
			 .anchor = 0,
			 .flags = FF_OOPS },
	[FAM_DIVIDE2] = { .header = "divide_error:",
			  .anchor = 0,
			  .flags = FF_OOPS },
	[FAM_OPCODE] = { .header = "invalid opcode:",
			 .anchor = 7,
			 .flags = FF_OOPS | FF_CONT },
	[FAM_INT3] = { .header = "int3:", .anchor = 0, .flags = FF_OOPS },
	[FAM_UBSAN] = { .header = "UBSAN:", .anchor = 0, .flags = FF_UBSAN },
	[FAM_NETDEV] = { .header = "unregister_netdevice: waiting for",
			 .anchor = 3,
			 .flags = FF_CONT },
	[FAM_VFS_CLOSE] = { .header = "VFS: Close: file count is 0",
			    .anchor = 4 },
	[FAM_VFS_BUSY] = { .header = "VFS: Busy inodes after unmount",
			   .anchor = 4 },
	[FAM_INTERNAL] = { .header = "Internal error:",
			   .anchor = 5,
			   .flags = FF_OOPS | FF_CONT },
	[FAM_UNHANDLED] = { .header = "Unhandled fault:", .anchor = 10 },
	[FAM_ALIGN] = { .header = "Alignment trap:", .anchor = 0 },
	/* kmemleak's own report (cat /sys/kernel/debug/kmemleak) */
	[FAM_KMEMLEAK] = { .header = "unreferenced object 0x",
			   .anchor = 12,
			   .flags = FF_CONT },
	/* not headers: marks of lines the parser treats apart (fam_marks) */
	[MARK_VMALLOC] = { .header = "vmalloc: allocation failure:",
			   .anchor = 20,
			   .flags = FF_NOISE },
	[MARK_INJECT] = { .header = "FAULT_INJECTION: forcing a failure",
			  .anchor = 7,
			  .flags = FF_NOISE },
	[MARK_RETRY] = { .header = "FAULT_FLAG_ALLOW_RETRY missing",
			 .anchor = 0,
			 .flags = FF_NOISE },
	[MARK_NMI] = { .header = "Sending NMI from CPU",
		       .anchor = 7,
		       .flags = FF_NMI },
	[MARK_TAINT] = { .header =
				 "Disabling lock debugging due to kernel taint",
			 .anchor = 16,
			 .flags = FF_QUIET },
};

/* The scan: bigram -> bucket of (family, offset of the bigram). */
#define SCAN_STRIDE 4
#define BUCKET_MAX 8

#define NBUCKETS (SCAN_STRIDE * FAM_COUNT + 2)

static unsigned char bigram[65536];
/*
 * Per bucket: n entries of (family, offset of the pair in its header),
 * with the header's first 4 bytes and its length, for a quick check.
 */
static unsigned char bucket_n[NBUCKETS];
static struct entry {
	unsigned word;
	unsigned char len, fam;
	signed char off;
} bucket_e[NBUCKETS][BUCKET_MAX];
static size_t hdr_len[FAM_ALL];
static unsigned hdr_word[FAM_COUNT]; /* its first 4 bytes, a quick check */

/* Two bytes as the table's index (host byte order: one load). */
static unsigned pair_at(const char *s)
{
	unsigned short q;

	memcpy(&q, s, sizeof(q));
	return q;
}

static unsigned word_at(const char *s)
{
	unsigned w;

	memcpy(&w, s, sizeof(w));
	return w;
}

static void never_guilty_init(void);

static void bucket_add(unsigned b, int f, int at)
{
	int k;

	if (bucket_n[b] >= BUCKET_MAX)
		return;
	k = bucket_n[b]++;
	bucket_e[b][k].fam = (unsigned char)f;
	bucket_e[b][k].off = (signed char)at;
	bucket_e[b][k].len = (unsigned char)hdr_len[f];
	bucket_e[b][k].word = hdr_word[f];
}

/*
 * The pair of header f at offset at; at -1: any byte, then the header's
 * first. Such pairs that have no bucket yet share one.
 */
static void add_pair(int f, int at, int *nb)
{
	unsigned c, q, shared = 0;
	char two[2];

	for (c = 0; c < 256; c++) {
		two[0] = at < 0 ? (char)c : families[f].header[at];
		two[1] = families[f].header[at + 1];
		q = pair_at(two);
		if (!bigram[q]) {
			if (at >= 0 || !shared)
				shared = (unsigned)++*nb;
			bigram[q] = (unsigned char)shared;
			if (at < 0 && bucket_n[shared])
				continue;
		}
		bucket_add(bigram[q], f, at);
		if (at >= 0)
			break;
	}
}

void fam_init(void)
{
	int f, j, nb = 0, pass;

	if (hdr_len[0])
		return;
	for (f = 0; f < FAM_ALL; f++)
		hdr_len[f] = strlen(families[f].header);
	for (f = 0; f < FAM_COUNT; f++)
		hdr_word[f] = word_at(families[f].header);
	/* exact pairs first, then those whose 1st byte may be any */
	for (pass = 0; pass < 2; pass++)
		for (f = 0; f < FAM_COUNT; f++)
			for (j = 0; j < SCAN_STRIDE; j++)
				if ((families[f].anchor + j < 0) == pass)
					add_pair(f, families[f].anchor + j,
						 &nb);
	never_guilty_init();
}

static int fam_vetoed(int f, const char *s, size_t n)
{
	const char *const *v = families[f].veto;
	struct pmatch m;

	/* a leading '~': letters in either case */
	for (; v && *v; v++)
		if (**v == '~' ? pm_find(*v + 1, s, n, &m, PM_NOCASE) :
				 pm_find(*v, s, n, &m, 0))
			return 1;
	return 0;
}

/* Header occurrences found in a line: which families, and where first. */
struct hits {
	unsigned long found;
	size_t first[FAM_COUNT];
};

/* The headers whose anchor has a pair at s[i]. */
static inline void check_at(const char *s, size_t n, size_t i, struct hits *h)
{
	unsigned b = bigram[pair_at(s + i)];
	const struct entry *e = bucket_e[b], *end = e + bucket_n[b];
	size_t st;

	for (; e < end; e++) {
		st = i - (size_t)(long)e->off;
		if (st > i + 1 || st + e->len > n ||
		    word_at(s + st) != e->word ||
		    memcmp(s + st, families[e->fam].header, e->len))
			continue;
		if (!(h->found & 1ul << e->fam) || st < h->first[e->fam])
			h->first[e->fam] = st;
		h->found |= 1ul << e->fam;
	}
}

/*
 * The family of the line's header: the first in priority order that
 * occurs and that no veto rejects; -1 if none.
 */
static int pick(const char *s, size_t n, struct hits *h, size_t *pos)
{
	int f;

	for (f = 0; h->found && f < FAM_COUNT; f++) {
		if (!(h->found & 1ul << f))
			continue;
		h->found &= ~(1ul << f);
		if (!(families[f].veto && fam_vetoed(f, s, n))) {
			*pos = h->first[f];
			return f;
		}
	}
	return -1;
}

/*
 * The header of line s and where it starts (*pos); -1 if none. One table
 * lookup every SCAN_STRIDE bytes: every occurrence of a header has a
 * table pair there, in its anchor, whatever the alignment.
 */
int fam_scan(const char *s, size_t n, size_t *pos)
{
	struct hits h;
	size_t i = 0;

	h.found = 0;
	/* four positions at a time */
	for (; i + 3 * SCAN_STRIDE + 1 < n; i += 4 * SCAN_STRIDE) {
		unsigned b0 = bigram[pair_at(s + i)];
		unsigned b1 = bigram[pair_at(s + i + SCAN_STRIDE)];
		unsigned b2 = bigram[pair_at(s + i + 2 * SCAN_STRIDE)];
		unsigned b3 = bigram[pair_at(s + i + 3 * SCAN_STRIDE)];

		if (!(b0 | b1 | b2 | b3))
			continue;
		if (b0)
			check_at(s, n, i, &h);
		if (b1)
			check_at(s, n, i + SCAN_STRIDE, &h);
		if (b2)
			check_at(s, n, i + 2 * SCAN_STRIDE, &h);
		if (b3)
			check_at(s, n, i + 3 * SCAN_STRIDE, &h);
	}
	for (; i + 1 < n; i += SCAN_STRIDE)
		if (bigram[pair_at(s + i)])
			check_at(s, n, i, &h);
	return h.found ? pick(s, n, &h, pos) : -1;
}

/* The FF_* flags of the marks in line s (needed only inside reports). */
unsigned fam_marks(const char *s, size_t n)
{
	unsigned m = 0;
	int f;

	for (f = FAM_COUNT; f < FAM_ALL; f++)
		if (tl_find(s, n, families[f].header))
			m |= families[f].flags;
	return m;
}

int fam_flags(int f)
{
	return f >= 0 && f < FAM_COUNT ? families[f].flags : 0;
}

const char *fam_header(int f)
{
	return families[f].header;
}

/* ---- frames that are never the guilty one ---- */

/*
 * Skip classes: SK_ALL applies to every crash family; the others are
 * named by the formats that need them. A pattern is a substring of the
 * function name, "^x" a prefix, "x$" a suffix, "^x$" the whole name.
 */
enum {
	SK_ALL = 1u << 0,
	SK_UBSAN = 1u << 1, /* the kit's UBSAN reports: runtime and printing */
	SK_KASAN_HW = 1u << 2,
	SK_FREE = 1u << 3,
	SK_KMSAN_USB = 1u << 4,
	SK_KMSAN = 1u << 5,
	SK_SPIN = 1u << 6,
	SK_SCHED = 1u << 7,
	SK_BADPAGE = 1u << 8,
	SK_PREEMPT = 1u << 9,
	SK_LEAK = 1u << 10,
	SK_LOCKSOCK = 1u << 11,
	SK_ODEBUG = 1u << 12,
	SK_USERCOPY = 1u << 13,
	SK_KOBJ = 1u << 14,
	SK_PROC = 1u << 15,
	SK_REFCOUNT = 1u << 16,
	SK_KMALLOC = 1u << 17,
	SK_USB = 1u << 18,
	SK_WQ = 1u << 19,
	SK_RCU = 1u << 20,
	SK_STALL = 1u << 21,
	SK_NONSTATIC = 1u << 22,
	SK_STACKCHK = 1u << 23,
	SK_STACKEND = 1u << 24,
	SK_BADSTACK = 1u << 25,
	SK_SKB = 1u << 26,
	SK_UBSAN_SYZ = 1u << 27,
	SK_KMSAN_NL = 1u << 28,
};

static const struct skip_row {
	const char *pat;
	unsigned cls;
} never_guilty[] = {
	/* sanitizer runtimes */
	{ "__sanitizer", SK_ALL },
	{ "__asan", SK_ALL },
	{ "kasan", SK_ALL },
	{ "hwasan", SK_ALL },
	{ "__msan", SK_ALL },
	{ "kmsan", SK_ALL },
	{ "kcsan_setup_watchpoint", SK_ALL },
	{ "check_memory_region", SK_ALL },
	{ "check_heap_object", SK_ALL },
	{ "check_object", SK_ALL },
	{ "read_word_at_a_time", SK_ALL },
	{ "read_once_", SK_ALL | SK_UBSAN },
	{ "write_once_", SK_ALL | SK_UBSAN },
	{ "print_address_description", SK_ALL },
	{ "^__ubsan_", SK_UBSAN },
	{ "^ubsan_", SK_UBSAN },
	{ "^handle_overflow$", SK_UBSAN },
	{ "^handle_null_ptr_deref$", SK_UBSAN },
	{ "^handle_misaligned_access$", SK_UBSAN },
	{ "^handle_object_size_mismatch$", SK_UBSAN },
	{ "^kasan_", SK_UBSAN },
	{ "^__kasan_", SK_UBSAN },
	{ "^__asan_", SK_UBSAN },
	{ "^asan_", SK_UBSAN },
	{ "^kfence_", SK_UBSAN },
	{ "^__kfence_", SK_UBSAN },
	{ "^lockdep_", SK_UBSAN },
	/* reporting, dumping stacks, oops and trap entry */
	{ "panic", SK_ALL | SK_UBSAN },
	{ "invalid_op", SK_ALL },
	{ "report_bug", SK_ALL },
	{ "fixup_bug", SK_ALL },
	{ "print_report", SK_ALL },
	{ "print_usage_bug", SK_ALL },
	{ "do_error", SK_ALL },
	{ "_trap$", SK_ALL },
	{ "do_trap", SK_ALL | SK_UBSAN },
	{ "show_stack", SK_ALL | SK_UBSAN },
	{ "dump_stack", SK_ALL | SK_UBSAN },
	{ "walk_stack", SK_ALL },
	{ "dump_backtrace", SK_ALL | SK_UBSAN },
	{ "^show_trace_log_lvl$", SK_UBSAN },
	{ "^show_regs$", SK_UBSAN },
	{ "^__show_regs$", SK_UBSAN },
	{ "warn_slowpath", SK_ALL },
	{ "warn_alloc", SK_ALL },
	{ "warn_bogus", SK_ALL },
	{ "__warn", SK_ALL | SK_UBSAN },
	{ "^warn_", SK_UBSAN },
	{ "^handle_bug$", SK_UBSAN },
	{ "^exc_invalid_op$", SK_UBSAN },
	{ "^asm_exc_", SK_UBSAN },
	{ "^exc_page_fault$", SK_UBSAN },
	{ "^do_error_trap$", SK_UBSAN },
	{ "^die$", SK_UBSAN },
	{ "^__die", SK_UBSAN },
	{ "^oops_", SK_UBSAN },
	{ "^page_fault_oops$", SK_UBSAN },
	{ "^kernelmode_fixup_or_oops$", SK_UBSAN },
	{ "^__bad_area_nosemaphore$", SK_UBSAN },
	{ "^bad_area", SK_UBSAN },
	{ "^do_user_addr_fault$", SK_UBSAN },
	{ "^do_kern_addr_fault$", SK_UBSAN },
	{ "^no_context$", SK_UBSAN },
	{ "^check_panic_on_warn$", SK_UBSAN },
	{ "^report_", SK_UBSAN },
	{ "^print_address_description", SK_UBSAN },
	{ "^print_report$", SK_UBSAN },
	{ "^describe_object", SK_UBSAN },
	{ "^check_memory_region", SK_UBSAN },
	{ "print_tainted", SK_ALL },
	{ "^get_taint$", SK_ALL },
	{ "__fortify_report", SK_ALL },
	{ "assertfail", SK_ALL },
	/* printing */
	{ "printk", SK_ALL | SK_UBSAN },
	{ "^console_", SK_UBSAN },
	{ "va_format", SK_ALL },
	{ "string", SK_ALL },
	{ "pointer", SK_ALL },
	{ "snprintf", SK_ALL },
	{ "scnprintf", SK_ALL },
	{ "kasprintf", SK_ALL },
	{ "kvasprintf", SK_ALL },
	{ "dev_info", SK_ALL },
	{ "dev_notice", SK_ALL },
	{ "dev_warn", SK_ALL },
	{ "dev_err", SK_ALL },
	{ "dev_alert", SK_ALL },
	{ "dev_crit", SK_ALL },
	{ "dev_emerg", SK_ALL },
	{ "hex_dump_to_buffer", SK_ALL },
	{ "print_hex_dump", SK_ALL },
	/* stack walking */
	{ "stack_trace_consume_entry", SK_ALL },
	{ "arch_stack_walk", SK_ALL },
	{ "stack_trace_save", SK_ALL },
	/* arch fault and exception paths */
	{ "program_check_exception", SK_ALL },
	{ "program_check_common", SK_ALL },
	{ "do_kernel_fault", SK_ALL },
	{ "do_translation_fault", SK_ALL },
	{ "do_mem_abort", SK_ALL },
	{ "el1_abort", SK_ALL },
	{ "el1h_64_sync", SK_ALL },
	{ "_indirect_thunk_", SK_ALL },
	{ "__phys_addr", SK_ALL },
	/* allocators and the page cache */
	{ "alloc_page", SK_ALL },
	{ "malloc", SK_ALL },
	{ "zalloc", SK_ALL },
	{ "calloc", SK_ALL },
	{ "krealloc", SK_ALL },
	{ "kmem_cache", SK_ALL },
	{ "allocate_slab", SK_ALL },
	{ "folio_alloc", SK_ALL },
	{ "filemap_alloc_folio", SK_ALL },
	{ "__filemap_get_folio", SK_ALL },
	{ "find_or_create_page", SK_ALL },
	{ "do_read_cache_folio", SK_ALL },
	{ "read_cache_page", SK_ALL },
	{ "pagecache_get_page", SK_ALL },
	{ "grab_cache_page_write_begin", SK_ALL },
	{ "slab_", SK_ALL },
	{ "^kfree$", SK_ALL },
	{ "^kvfree$", SK_ALL },
	{ "kfree_skb", SK_ALL },
	{ "xas_start", SK_ALL },
	{ "xas_load", SK_ALL },
	{ "xas_find", SK_ALL },
	{ "find_lock_entries", SK_ALL },
	{ "truncate_inode_pages_range", SK_ALL },
	{ "^lock_page", SK_ALL },
	{ "^unlock_page", SK_ALL },
	{ "^folio_lock", SK_ALL },
	{ "^folio_unlock", SK_ALL },
	{ "alloc_frozen_pages", SK_ALL },
	/* object debugging */
	{ "debug_object", SK_ALL },
	{ "timer_is_static_object", SK_ALL },
	{ "work_is_static_object", SK_ALL },
	/* locking and lockdep */
	{ "__might_fault", SK_ALL },
	{ "print_unlock", SK_ALL },
	{ "imbalance_bug", SK_ALL },
	{ "lockdep", SK_ALL },
	{ "bh_enable", SK_ALL },
	{ "bh_disable", SK_ALL },
	{ "perf_trace", SK_ALL },
	{ "lock_acquire", SK_ALL },
	{ "lock_release", SK_ALL },
	{ "lock_class", SK_ALL },
	{ "mark_lock", SK_ALL },
	{ "reacquire_held_locks", SK_ALL },
	{ "mark_held_locks", SK_ALL },
	{ "raw_spin_rq", SK_ALL },
	{ "spin_lock", SK_ALL },
	{ "spin_trylock", SK_ALL },
	{ "spin_unlock", SK_ALL },
	{ "read_lock", SK_ALL },
	{ "read_trylock", SK_ALL },
	{ "write_lock", SK_ALL },
	{ "write_trylock", SK_ALL },
	{ "read_unlock", SK_ALL },
	{ "write_unlock", SK_ALL },
	{ "^down$", SK_ALL },
	{ "down_read", SK_ALL },
	{ "down_write", SK_ALL },
	{ "down_trylock", SK_ALL },
	{ "up_read", SK_ALL },
	{ "up_write", SK_ALL },
	{ "^mutex_", SK_ALL },
	{ "^__mutex_", SK_ALL },
	{ "^rt_mutex_", SK_ALL },
	{ "owner_on_cpu", SK_ALL },
	{ "^lock_timer_base$", SK_ALL },
	{ "osq_lock", SK_ALL },
	{ "osq_unlock", SK_ALL },
	{ "__wake_up", SK_ALL },
	{ "^complete$", SK_ALL },
	{ "wait_for_completion", SK_ALL },
	{ "finish_wait", SK_ALL },
	{ "seqprop_assert", SK_ALL },
	{ "__might_resched", SK_ALL },
	{ "might_fault", SK_ALL },
	{ "might_sleep", SK_ALL },
	{ "trace_hardirq", SK_ALL },
	{ "trace_softirq", SK_ALL },
	{ "lockdep_hardirq", SK_ALL },
	{ "lockdep_softirq", SK_ALL },
	/* atomics, bit operations, refcounts */
	{ "atomic_dec", SK_ALL },
	{ "atomic_inc", SK_ALL },
	{ "atomic_read", SK_ALL },
	{ "atomic_set", SK_ALL },
	{ "atomic_or", SK_ALL },
	{ "atomic_xor", SK_ALL },
	{ "atomic_and", SK_ALL },
	{ "atomic_add", SK_ALL },
	{ "atomic_sub", SK_ALL },
	{ "atomic_fetch", SK_ALL },
	{ "atomic_xchg", SK_ALL },
	{ "atomic_cmpxchg", SK_ALL },
	{ "atomic_try", SK_ALL },
	{ "atomic64_dec", SK_ALL },
	{ "atomic64_inc", SK_ALL },
	{ "atomic64_read", SK_ALL },
	{ "atomic64_set", SK_ALL },
	{ "atomic64_or", SK_ALL },
	{ "atomic64_xor", SK_ALL },
	{ "atomic64_and", SK_ALL },
	{ "atomic64_add", SK_ALL },
	{ "atomic64_sub", SK_ALL },
	{ "atomic64_fetch", SK_ALL },
	{ "atomic64_xchg", SK_ALL },
	{ "atomic64_cmpxchg", SK_ALL },
	{ "atomic64_try", SK_ALL },
	{ "set_bit", SK_ALL },
	{ "clear_bit", SK_ALL },
	{ "change_bit", SK_ALL },
	{ "test_bit", SK_ALL },
	{ "^refcount_", SK_ALL },
	{ "^kref_", SK_ALL },
	{ "ref_tracker", SK_ALL },
	/* memory and string helpers */
	{ "memcpy", SK_ALL },
	{ "memcmp", SK_ALL },
	{ "memset", SK_ALL },
	{ "memchr", SK_ALL },
	{ "memmove", SK_ALL },
	{ "memdup", SK_ALL },
	{ "strcmp", SK_ALL },
	{ "strncmp", SK_ALL },
	{ "strcpy", SK_ALL },
	{ "strlcpy", SK_ALL },
	{ "strncpy", SK_ALL },
	{ "strscpy", SK_ALL },
	{ "strlen", SK_ALL },
	{ "strstr", SK_ALL },
	{ "strnstr", SK_ALL },
	{ "strnlen", SK_ALL },
	{ "strchr", SK_ALL },
	{ "strdup", SK_ALL },
	{ "strndup", SK_ALL },
	{ "copy_to_user", SK_ALL },
	{ "copy_from_user", SK_ALL },
	{ "copy_to_iter", SK_ALL },
	{ "copy_from_iter", SK_ALL },
	{ "copy_page_to_iter", SK_ALL },
	{ "copy_page_from_iter", SK_ALL },
	{ "copy_folio_to_iter", SK_ALL },
	{ "^copyin$", SK_ALL },
	{ "^copyout$", SK_ALL },
	{ "put_user", SK_ALL },
	{ "get_user", SK_ALL },
	{ "extract_user_to_sg", SK_ALL },
	{ "extract_iter_to_sg", SK_ALL },
	{ "^crc", SK_ALL },
	{ "crc_itu_t", SK_ALL },
	{ "readb$", SK_ALL },
	{ "readw$", SK_ALL },
	{ "readl$", SK_ALL },
	{ "readq$", SK_ALL },
	{ "writeb$", SK_ALL },
	{ "writew$", SK_ALL },
	{ "writel$", SK_ALL },
	{ "writeq$", SK_ALL },
	{ "logic_in", SK_ALL },
	{ "logic_out", SK_ALL },
	/* list debugging and tree helpers */
	{ "list_add", SK_ALL },
	{ "list_del", SK_ALL },
	{ "list_replace", SK_ALL },
	{ "list_move", SK_ALL },
	{ "list_splice", SK_ALL },
	{ "^rb_", SK_ALL },
	{ "^__rb_", SK_ALL },
	{ "^klist_", SK_ALL },
	{ "rhashtable_lookup", SK_ALL },
	{ "ida_free", SK_ALL },
	/* timers and workqueues */
	{ "del_timer", SK_ALL },
	{ "timer_delete", SK_ALL },
	{ "flush_work", SK_ALL },
	{ "__cancel_work_timer", SK_ALL },
	{ "cancel_work_sync", SK_ALL },
	{ "try_to_grab_pending", SK_ALL },
	{ "flush_workqueue", SK_ALL | SK_WQ },
	{ "drain_workqueue", SK_ALL | SK_WQ },
	{ "destroy_workqueue", SK_ALL | SK_WQ },
	{ "queue_work", SK_ALL },
	{ "insert_work", SK_ALL },
	{ "__queue_delayed_work", SK_ALL },
	{ "queue_delayed_work_on", SK_ALL },
	{ "kthread_stop", SK_ALL },
	{ "cleanup_srcu_struct", SK_ALL },
	/* the device model, teardown paths */
	{ "kobject_", SK_ALL | SK_KOBJ | SK_REFCOUNT | SK_ODEBUG },
	{ "add_uevent_var", SK_ALL },
	{ "get_device_parent", SK_ALL },
	{ "device_add", SK_ALL },
	{ "device_del", SK_ALL },
	{ "device_unregister", SK_ALL },
	{ "device_destroy", SK_ALL },
	{ "device_release", SK_ALL },
	{ "devres_release_all", SK_ALL },
	{ "hwrng_unregister", SK_ALL },
	{ "i2c_del_adapter", SK_ALL },
	{ "__unregister_client", SK_ALL },
	{ "device_for_each_child", SK_ALL },
	{ "rollback_registered", SK_ALL },
	{ "unregister_netdev", SK_ALL },
	{ "sysfs_remove", SK_ALL },
	{ "device_remove_file", SK_ALL },
	{ "tty_unregister_device", SK_ALL },
	{ "^put_device$", SK_ALL },
	{ "^iput$", SK_ALL },
	{ "^dput$", SK_ALL },
	{ "^fast_dput$", SK_ALL },
	{ "^iput_final$", SK_ALL },
	{ "^ihold$", SK_ALL },
	{ "drop_nlink", SK_ALL },
	/* USB transfers: the driver that asked is guilty */
	{ "dummy_urb_enqueue", SK_ALL },
	{ "usb_kill_urb", SK_ALL },
	{ "usb_kill_anchored_urbs", SK_ALL },
	{ "usb_control_msg", SK_ALL | SK_USB | SK_KMSAN_USB },
	{ "usb_hcd_submit_urb", SK_ALL },
	{ "usb_submit_urb", SK_ALL | SK_USB | SK_KMSAN_USB },
	{ "usb_start_wait_urb", SK_USB | SK_KMSAN_USB },
	{ "usb_bulk_msg", SK_USB | SK_KMSAN_USB },
	{ "usb_interrupt_msg", SK_USB | SK_KMSAN_USB },
	/* per-family classes */
	{ "kernel_fault", SK_KASAN_HW },
	{ "tag_check", SK_KASAN_HW },
	{ "mem_abort", SK_KASAN_HW },
	{ "^el1_", SK_KASAN_HW },
	{ "^el1h_", SK_KASAN_HW },
	{ "slab_", SK_FREE },
	{ "kfree", SK_FREE },
	{ "vunmap", SK_FREE | SK_ODEBUG },
	{ "vfree", SK_FREE | SK_ODEBUG },
	{ "alloc_skb", SK_KMSAN_USB | SK_KMSAN },
	{ "netlink_ack", SK_KMSAN_NL },
	{ "netlink_rcv_skb", SK_KMSAN_NL },
	{ "spin_", SK_SPIN },
	{ "_lock", SK_SPIN },
	{ "_unlock", SK_SPIN },
	{ "schedule", SK_SCHED | SK_STACKEND },
	{ "retint_kernel", SK_STACKEND },
	{ "free_page", SK_BADPAGE },
	{ "put_page", SK_BADPAGE },
	{ "get_page", SK_BADPAGE },
	{ "update_page", SK_BADPAGE },
	{ "release_page", SK_BADPAGE },
	{ "free_unref", SK_BADPAGE },
	{ "^_*folio", SK_BADPAGE },
	{ "truncate_inode_pages", SK_BADPAGE },
	{ "page_frag_free", SK_BADPAGE },
	{ "alloc", SK_BADPAGE | SK_LEAK },
	{ "vmap", SK_BADPAGE },
	{ "page_owner", SK_BADPAGE },
	{ "dump_stack", SK_PREEMPT },
	{ "preempt", SK_PREEMPT },
	{ "debug_", SK_PREEMPT | SK_ODEBUG },
	{ "processor_id", SK_PREEMPT },
	{ "this_cpu", SK_PREEMPT },
	{ "kmemleak", SK_LEAK },
	{ "mmap", SK_LEAK },
	{ "kmem", SK_LEAK | SK_KMALLOC | SK_RCU },
	{ "slab", SK_LEAK | SK_KMALLOC | SK_RCU },
	{ "create_object", SK_LEAK },
	{ "idr_get", SK_LEAK },
	{ "list_lru_init", SK_LEAK },
	{ "kasprintf", SK_LEAK },
	{ "kvasprintf", SK_LEAK },
	{ "pcpu_create", SK_LEAK },
	{ "strdup", SK_LEAK },
	{ "strndup", SK_LEAK },
	{ "memdup", SK_LEAK },
	{ "lock_sock", SK_LOCKSOCK },
	{ "release_sock", SK_LOCKSOCK },
	{ "rcu", SK_ODEBUG | SK_RCU | SK_STALL },
	{ "hrtimer_", SK_ODEBUG },
	{ "timer_", SK_ODEBUG },
	{ "work_", SK_ODEBUG },
	{ "percpu_", SK_ODEBUG },
	{ "__free_", SK_ODEBUG },
	{ "debug_check", SK_ODEBUG },
	{ "usercopy", SK_USERCOPY },
	{ "__check", SK_USERCOPY },
	{ "proc_", SK_PROC },
	{ "refcount", SK_REFCOUNT },
	{ "kmalloc", SK_KMALLOC },
	{ "krealloc", SK_KMALLOC },
	{ "process_one_work", SK_WQ },
	{ "apic_timer_interrupt", SK_STALL },
	{ "stack", SK_NONSTATIC },
	{ "lock", SK_NONSTATIC },
	{ "IRQ", SK_NONSTATIC },
	{ "stack_chk", SK_STACKCHK },
	{ "bad_stack", SK_BADSTACK },
	{ "^skb_", SK_SKB },
	{ "ubsan", SK_UBSAN_SYZ },
	{ "overflow", SK_UBSAN_SYZ },
};

#define NROWS (sizeof(never_guilty) / sizeof(never_guilty[0]))

/* The rows, digested: the text to compare, its length, where it must be. */
enum { AT_ANY, AT_START, AT_END, AT_WHOLE };
static struct {
	const char *p;
	size_t k;
	int at;
} rows[NROWS];

static void never_guilty_init(void)
{
	size_t i, k;
	const char *pat;

	for (i = 0; i < NROWS; i++) {
		pat = never_guilty[i].pat;
		k = strlen(pat);
		rows[i].at = AT_ANY;
		if (pat[0] == '^') {
			rows[i].at = AT_START;
			pat++;
			k--;
		}
		if (k && pat[k - 1] == '$') {
			rows[i].at = rows[i].at == AT_START ? AT_WHOLE : AT_END;
			k--;
		}
		rows[i].p = pat;
		rows[i].k = k;
	}
}

/* Does pattern pat (substring, "^" prefix, "$" suffix) match name? */
static int skip_match(const char *pat, const char *name)
{
	size_t k = strlen(pat), n = strlen(name);
	int start = pat[0] == '^', end = k && pat[k - 1] == '$';
	const char *p = pat + start;

	k -= (size_t)start + (size_t)end;
	if (start && end)
		return n == k && !memcmp(name, p, k);
	if (start)
		return n >= k && !memcmp(name, p, k);
	if (end)
		return n >= k && !memcmp(name + n - k, p, k);
	return k && k <= n && tl_find(name, n, p) != NULL;
}

static int row_match(size_t i, const char *name, size_t n)
{
	size_t k = rows[i].k;

	if (k > n)
		return 0;
	switch (rows[i].at) {
	case AT_WHOLE:
		return n == k && !memcmp(name, rows[i].p, k);
	case AT_START:
		return !memcmp(name, rows[i].p, k);
	case AT_END:
		return !memcmp(name + n - k, rows[i].p, k);
	default:
		return tl_find(name, n, rows[i].p) != NULL;
	}
}

/* Results by (name, classes): stacks repeat the same frames. */
#define CACHE_SLOTS 1024
#define CACHE_NAME 48

static struct {
	unsigned cls;
	unsigned char res;
	char name[CACHE_NAME];
} cache[CACHE_SLOTS];

int never_guilty_in(const char *func, unsigned cls)
{
	size_t i, n = strlen(func), h = 2166136261u;
	int res = 0;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)func[i]) * 16777619u;
	h = (h ^ cls) % CACHE_SLOTS;
	if (cache[h].cls == cls && !strcmp(cache[h].name, func))
		return cache[h].res;
	for (i = 0; i < NROWS && !res; i++)
		res = (never_guilty[i].cls & cls) && row_match(i, func, n);
	if (n < CACHE_NAME) {
		cache[h].cls = cls;
		cache[h].res = (unsigned char)res;
		memcpy(cache[h].name, func, n + 1);
	}
	return res;
}

int never_guilty_ubsan(const char *func)
{
	char name[FUNC_MAX];

	tl_norm_func(func, name, sizeof(name));
	return never_guilty_in(name, SK_UBSAN);
}

/* Prefixes dropped from frame names (syscall wrappers of every arch). */
static const char *const frame_prefixes[] = {
	"SYSC_",     "SyS_",	     "sys_",	    "__x64_", "__ia32_",
	"__arm64_",  "____sys_",     "___sys_",	    "__sys_", "__se_",
	"__do_sys_", "compat_SYSC_", "compat_SyS_", "ksys_",
};

/* ---- where stalls and hangs are attributed ---- */

/*
 * A stall loops somewhere under one of these entry points: the frame
 * just above the first of them names the stall.
 */
static const char *const stall_anchors[] = {
	"process_one_work",
	"do_syscall_",
	"do_fast_syscall_",
	"sysenter_dispatch",
	"tracesys_phase2",
	"el0_svc_handler",
	"invoke_syscall",
	"ret_fast_syscall",
	"netif_receive_skb",
	"do_softirq",
	"call_timer_fn",
	"_run_timers",
	"run_timer_softirq",
	"hrtimer_run",
	"run_ksoftirqd",
	"smpboot_thread_fn",
	"^kthread$",
	"start_secondary",
	"cpu_startup_entry",
	"ret_from_fork",
	/* file operations and the like: the caller names the object */
	"vfs_write",
	"vfs_read",
	"vfs_iter_read",
	"vfs_iter_write",
	"do_iter_read",
	"do_iter_write",
	"call_read_iter",
	"call_write_iter",
	"new_sync_read",
	"new_sync_write",
	"vfs_ioctl",
	"ksys_ioctl",
	"compat_ioctl",
	"compat_sys_ioctl",
	"blkdev_driver_ioctl",
	"blkdev_ioctl",
	"do_iter_readv_writev",
	"^call_mmap",
	"mmap_region",
	"do_mmap",
	"do_dentry_open",
	"vfs_open",
	/* sockets */
	"^sock_sendmsg",
	"^sock_recvmsg",
	"^sock_release",
	"^__sock_release",
	"^setsockopt$",
	"kernel_setsockopt",
	"sock_common_setsockopt",
	"^listen$",
	"kernel_listen",
	"sk_common_release",
	"^sock_mmap",
	"^accept$",
	"kernel_accept",
	"^sock_do_ioctl",
	"^sock_ioctl",
	"^compat_sock_ioctl",
	"^nfnetlink_rcv_msg",
	"^rtnetlink_rcv_msg",
	"^netlink_dump",
	"^socketpair",
	"^connect",
	"^ioctl",
	"^sys_socketpair",
	"^sys_connect",
	"^sys_ioctl",
	/* page faults, return to user space, cross calls */
	"__do_fault",
	"do_page_fault",
	"^page_fault$",
	"__fput",
	"task_work_run",
	"exit_to_usermode",
	"smp_call_function",
	"tasklet_action",
	"tasklet_hi_action",
};

static const char *stall_frame(char (*frames)[FUNC_MAX], int n)
{
	const char *prev;
	size_t a;
	int i;

	if (!n)
		return "";
	prev = frames[0];
	for (i = 0; i < n; i++) {
		for (a = 0; a < sizeof(stall_anchors) / sizeof(*stall_anchors);
		     a++) {
			if (!skip_match(stall_anchors[a], frames[i]))
				continue;
			if (strstr(frames[i], "smp_call_function"))
				return "smp_call_function";
			return prev;
		}
		prev = frames[i];
	}
	return "";
}

/* A hang on these is a hang on the lock or on RCU, whoever waits. */
static const struct {
	const char *anchor, *as;
} hang_anchors[] = {
	{ "rtnl_lock", NULL },
	{ "synchronize_rcu", "synchronize_rcu" },
	{ "synchronize_srcu", "synchronize_rcu" },
	{ "synchronize_net", "synchronize_rcu" },
	{ "synchronize_sched", "synchronize_rcu" },
};

/* Waiting is not where a hang is: frames that only wait. */
static const char *const hang_waits[] = {
	"sched",       "_lock",		 "_slowlock",	"down",
	"rwsem",       "completion",	 "kthread",	"wait",
	"synchronize", "context_switch", "__switch_to", "cancel_delayed_work",
	"rcu_barrier",
};

static const char *hang_frame(char (*frames)[FUNC_MAX], int n)
{
	size_t a;
	int i;

	for (i = 0; i < n; i++)
		for (a = 0; a < sizeof(hang_anchors) / sizeof(*hang_anchors);
		     a++)
			if (strstr(frames[i], hang_anchors[a].anchor))
				return hang_anchors[a].as ? hang_anchors[a].as :
							    frames[i];
	for (i = 0; i < n; i++) {
		for (a = 0; a < sizeof(hang_waits) / sizeof(*hang_waits); a++)
			if (strstr(frames[i], hang_waits[a]))
				break;
		if (a == sizeof(hang_waits) / sizeof(*hang_waits))
			return frames[i];
	}
	return "";
}

/* ---- formats ---- */

/*
 * Stack programs: steps separated by '\n'. A step is a line pattern
 * (its %f, if any, is a frame), or one of:
 */
#define RIP "@rip\n" /* the first RIP/IP/pc line: its function */
#define CALL "@call\n" /* the first "Call Trace:" line */
#define STACK "@stack\n" /* frames, to the next stack or the next step */
#define RIPW "@ripw\n" /* the same, or powerpc's "--- interrupt: N at f" */
#define WARN_STACK RIPW STACK
#define WARN_STACK2 CALL STACK

enum {
	F_NOSTACK = 1, /* no stack trace expected (corruption check off) */
	F_CORRUPT = 2, /* a title that means a damaged report */
	F_STALL = 4, /* frame: the caller of a dispatch point */
	F_HUNG = 8, /* frame: not a wait */
};

/*
 * A row: a field left out is NULL or 0. The first row of the report's
 * family whose .match matches first in the report (and whose .later lines
 * follow it) titles it.
 */
struct format {
	int fam; /* FAM_*: the report's family */
	const char *match; /* pattern: a line of the report (the title line) */
	const char *later; /* patterns of later lines, '\n' separated */
	const char *title; /* the title: %1..%9 captures, %F %G guilty frames */
	const char *stack; /* stack program: where the guilty frame is */
	const char *stack2; /* the fallback stack program */
	unsigned skip; /* SK_*: classes of frames never guilty here */
	int flags; /* F_* */
};

#define KFENCE_STACK "BUG: KFENCE: * in %f\n" STACK
/* kmemleak: "backtrace:", since 6.6 "backtrace (crc 1234abcd):" */
#define LEAK_STACK "{?backtrace:|backtrace (crc %x):}\n" STACK

static const struct format formats[] = {
	/* BUG: */
	{ .fam = FAM_BUG,
	  .match = "BUG: KASAN: %w in %f",
	  .later = "{Read|Write} {?of size|at addr} %x",
	  .title = "KASAN: %1 %3 in %F",
	  .stack = "BUG: KASAN: %w in %f\n" CALL STACK,
	  .skip = SK_KASAN_HW },
	{ .fam = FAM_BUG,
	  .match = "BUG: KASAN: {?double-free or invalid-free|double-free|"
		   "invalid-free} in %f",
	  .title = "KASAN: invalid-free in %F",
	  .stack = "BUG: KASAN: * in %f\n" CALL STACK,
	  .skip = SK_FREE },
	{ .fam = FAM_BUG,
	  .match = "BUG: KASAN: %w on address",
	  .later = "{Read|Write} of size %d",
	  .title = "KASAN: %1 %2" },
	{ .fam = FAM_BUG,
	  .match = "BUG: KASAN: %r",
	  .title = "KASAN: %1",
	  .flags = F_CORRUPT },
	{ .fam = FAM_BUG,
	  .match = "BUG: KMSAN: kernel-usb-infoleak in %f",
	  .title = "KMSAN: kernel-usb-infoleak in %F",
	  .stack = STACK
	  "{?Local variable * created at:|Uninit was created at:}\n" STACK,
	  .skip = SK_KMSAN_USB,
	  .flags = F_NOSTACK },
	{ .fam = FAM_BUG,
	  .match = "BUG: KMSAN: %w in %f",
	  .title = "KMSAN: %1 in %F",
	  .stack = STACK
	  "{?Local variable * created at:|Uninit was created at:}\n" STACK,
	  .skip = SK_KMSAN | SK_KMSAN_NL,
	  .flags = F_NOSTACK },
	{ .fam = FAM_BUG,
	  .match = "BUG: KCSAN: %r",
	  .title = "KCSAN: %1",
	  .flags = F_NOSTACK },
	{ .fam = FAM_BUG,
	  .match = "BUG: KFENCE: {use-after-free|out-of-bounds} %w in %f",
	  .title = "KFENCE: %1 %2 in %F",
	  .stack = KFENCE_STACK },
	{ .fam = FAM_BUG,
	  .match = "BUG: KFENCE: invalid free in %f",
	  .title = "KFENCE: invalid free in %F",
	  .stack = KFENCE_STACK,
	  .flags = F_NOSTACK },
	{ .fam = FAM_BUG,
	  .match = "BUG: KFENCE: invalid {read|write} in %f",
	  .title = "KFENCE: invalid %1 in %F",
	  .stack = KFENCE_STACK },
	{ .fam = FAM_BUG,
	  .match = "BUG: KFENCE: memory corruption in %f",
	  .title = "KFENCE: memory corruption in %F",
	  .stack = KFENCE_STACK,
	  .flags = F_NOSTACK },
	{ .fam = FAM_BUG,
	  .match =
		  "BUG: {?unable to handle kernel paging request|unable to handle "
		  "page fault for address|Unable to handle kernel data access}",
	  .title = "BUG: unable to handle kernel paging request in %F",
	  .stack = RIP CALL STACK },
	{ .fam = FAM_BUG,
	  .match =
		  "BUG: {?unable to handle kernel NULL pointer dereference|kernel "
		  "NULL pointer dereference|Kernel NULL pointer dereference}",
	  .title =
		  "BUG: unable to handle kernel NULL pointer dereference in %F",
	  .stack = RIP CALL STACK },
	{ .fam = FAM_BUG,
	  .match = "BUG: {?unable to handle kernel|Unable to handle kernel}",
	  .title = "BUG: unable to handle kernel",
	  .flags = F_CORRUPT },
	{ .fam = FAM_BUG,
	  .match = "BUG: {spinlock|rwlock} {lockup suspected|already unlocked|"
		   "recursion|cpu recursion|bad magic|wrong owner|wrong CPU|"
		   "trylock failure on UP}",
	  .title = "BUG: %1 %2 in %F",
	  .stack = CALL STACK,
	  .skip = SK_SPIN },
	{ .fam = FAM_BUG,
	  .match = "BUG: soft lockup",
	  .title = "BUG: soft lockup in %F",
	  .stack = RIP CALL STACK,
	  .flags = F_STALL },
	{ .fam = FAM_BUG,
	  .match = "BUG: *still has locks held!",
	  .later = "%p %b%f",
	  .title = "BUG: still has locks held in %1" },
	{ .fam = FAM_BUG,
	  .match = "BUG: scheduling while atomic",
	  .title = "BUG: scheduling while atomic in %F",
	  .stack = CALL STACK,
	  .skip = SK_SCHED },
	{ .fam = FAM_BUG,
	  .match = "BUG: lock held when returning to user space",
	  .later = "leaving the kernel with locks still held\nat: {?%p %b|}%f",
	  .title = "BUG: lock held when returning to user space in %1",
	  .flags = F_NOSTACK },
	{ .fam = FAM_BUG,
	  .match = "BUG: bad unlock balance detected!",
	  .title = "BUG: bad unlock balance in %F",
	  .stack = "%p %b%f\n" CALL STACK },
	{ .fam = FAM_BUG,
	  .match = "BUG: held lock freed!",
	  .later = "%p %b%f",
	  .title = "BUG: held lock freed in %1" },
	{ .fam = FAM_BUG,
	  .match = "BUG: Bad rss-counter state",
	  .title = "BUG: Bad rss-counter state",
	  .flags = F_NOSTACK },
	{ .fam = FAM_BUG,
	  .match = "BUG: non-zero nr_ptes on freeing mm",
	  .title = "BUG: non-zero nr_ptes on freeing mm",
	  .flags = F_NOSTACK },
	{ .fam = FAM_BUG,
	  .match = "BUG: non-zero nr_pmds on freeing mm",
	  .title = "BUG: non-zero nr_pmds on freeing mm",
	  .flags = F_NOSTACK },
	{ .fam = FAM_BUG,
	  .match = "BUG: Dentry * still in use (%d) [{unmount} of *]",
	  .title = "BUG: Dentry still in use in %1" },
	{ .fam = FAM_BUG,
	  .match = "BUG: Bad page {state|cache}",
	  .title = "BUG: Bad page %1 in %F",
	  .stack = "page last allocated\n" STACK,
	  .skip = SK_BADPAGE },
	{ .fam = FAM_BUG,
	  .match = "BUG: Bad page map",
	  .title = "BUG: Bad page map" },
	{ .fam = FAM_BUG,
	  .match = "BUG: workqueue lockup",
	  .title = "BUG: workqueue lockup",
	  .flags = F_NOSTACK },
	{ .fam = FAM_BUG,
	  .match = "BUG: sleeping function called from invalid context at %r",
	  .title = "BUG: sleeping function called from invalid context in %F",
	  .stack = CALL STACK },
	{ .fam = FAM_BUG,
	  .match = "BUG: using %i() in preemptible",
	  .title = "BUG: using %1() in preemptible code in %F",
	  .stack = CALL STACK,
	  .skip = SK_PREEMPT },
	{ .fam = FAM_BUG,
	  .match = "BUG: workqueue leaked lock or atomic",
	  .later = "last function: %i%$",
	  .title = "BUG: workqueue leaked lock or atomic in %1",
	  .flags = F_NOSTACK },
	{ .fam = FAM_BUG,
	  .match = "BUG: memory leak",
	  .title = "memory leak in %F",
	  .stack = LEAK_STACK,
	  .skip = SK_LEAK },
	{ .fam = FAM_BUG,
	  .match = "BUG: *stack guard page was hit at",
	  .title = "BUG: stack guard page was hit in %F",
	  .stack = RIP CALL STACK,
	  .flags = F_STALL },
	{ .fam = FAM_BUG,
	  .match = "BUG: Invalid wait context",
	  .title = "WARNING: locking bug in %F",
	  .stack = CALL STACK,
	  .skip = SK_LOCKSOCK },
	{ .fam = FAM_BUG,
	  .match = "BUG:%b%$",
	  .title = "BUG: corrupted",
	  .flags = F_CORRUPT },

	/* WARNING: */
	{ .fam = FAM_WARNING,
	  .match =
		  "WARNING: *lib/debugobjects.c{?* debug_print|* debug_check|:%d at 0x}",
	  .title = "WARNING: ODEBUG bug in %F",
	  .stack = WARN_STACK,
	  .stack2 = WARN_STACK2,
	  .skip = SK_ODEBUG },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: *mm/usercopy.c{?* usercopy_warn|:%d at 0x}",
	  .title = "WARNING: bad usercopy in %F",
	  .stack = WARN_STACK,
	  .stack2 = WARN_STACK2,
	  .skip = SK_USERCOPY },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: *lib/kobject.c{?* kobject_|:%d at 0x}",
	  .title = "WARNING: kobject bug in %F",
	  .stack = WARN_STACK,
	  .stack2 = WARN_STACK2,
	  .skip = SK_KOBJ },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: *fs/proc/generic.c{?* proc_register|:%d at 0x}",
	  .title = "WARNING: proc registration bug in %F",
	  .stack = WARN_STACK,
	  .stack2 = WARN_STACK2,
	  .skip = SK_PROC },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: *lib/refcount.c{?* refcount_|:%d at 0x}",
	  .title = "WARNING: refcount bug in %F",
	  .stack = WARN_STACK,
	  .stack2 = WARN_STACK2,
	  .skip = SK_REFCOUNT },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: *kernel/locking/lockdep.c{?*lock_|:%d at 0x}",
	  .title = "WARNING: locking bug in %F",
	  .stack = WARN_STACK,
	  .stack2 = WARN_STACK2,
	  .skip = SK_LOCKSOCK },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: *still has locks held!",
	  .later = "at: %f",
	  .title = "WARNING: still has locks held in %1" },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: Nested lock was not taken",
	  .title = "WARNING: nested lock was not taken in %F",
	  .stack = WARN_STACK,
	  .stack2 = WARN_STACK2 },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: lock held when returning to user space",
	  .later = "leaving the kernel with locks still held\nat: {?%p %b|}%f",
	  .title = "WARNING: lock held when returning to user space in %1",
	  .flags = F_NOSTACK },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: *mm/*.c* {?k|}{?%.|}malloc",
	  .title = "WARNING: kmalloc bug in %F",
	  .stack = WARN_STACK,
	  .stack2 = WARN_STACK2,
	  .skip = SK_KMALLOC },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: *mm/vmalloc.c*__vmalloc_node",
	  .title = "WARNING: zero-size vmalloc in %F",
	  .stack = WARN_STACK,
	  .stack2 = WARN_STACK2 },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: * usb_submit_urb",
	  .title = "WARNING in %F/usb_submit_urb",
	  .stack = WARN_STACK,
	  .stack2 = WARN_STACK2,
	  .skip = SK_USB },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: * at %s %f",
	  .title = "WARNING in %F",
	  .stack = WARN_STACK,
	  .stack2 = WARN_STACK2 },
	/* 6.17+: "WARNING: fs/x.c:12 at f+0x1/0x2, CPU#0: comm/pid" */
	{ .fam = FAM_WARNING,
	  .match = "WARNING: *%s at {?%f|0x}",
	  .title = "WARNING in %F",
	  .stack = WARN_STACK,
	  .stack2 = WARN_STACK2 },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: possible circular locking dependency detected",
	  .later = "is trying to acquire lock",
	  .title = "possible deadlock in %F",
	  .stack = "at: {?%p %b|}%f\nat: {?%p %b|}%f\n" STACK,
	  .skip = SK_WQ },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: possible irq lock inversion dependency detected",
	  .later = "just changed the state of lock\nat: {?%p %b|}%f",
	  .title = "possible deadlock in %1" },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: *-safe -> *-unsafe lock order detected",
	  .title = "possible deadlock in %F",
	  .stack = "which became * at:\n" STACK },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: possible recursive locking detected",
	  .later = "is trying to acquire lock\nat: {?%p %b|}%f",
	  .title = "possible deadlock in %1" },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: inconsistent lock state",
	  .later = "takes\nat: {?%p %b|}%f",
	  .title = "inconsistent lock state in %F",
	  .stack = CALL STACK },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: suspicious RCU usage",
	  .later = "*%s",
	  .title = "WARNING: suspicious RCU usage in %F",
	  .stack = CALL STACK,
	  .skip = SK_RCU },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: kernel stack regs at %x in * has bad '{*}' value",
	  .title = "WARNING: kernel stack regs has bad '%1' value",
	  .flags = F_NOSTACK },
	{ .fam = FAM_WARNING,
	  .match =
		  "WARNING: kernel stack frame pointer at %x in * has bad value",
	  .title = "WARNING: kernel stack frame pointer has bad value",
	  .flags = F_NOSTACK },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: bad unlock balance detected!",
	  .title = "WARNING: bad unlock balance in %F",
	  .stack = "%p %b%f\n" CALL STACK },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: held lock freed!",
	  .later = "at:{? %p|} %b%f",
	  .title = "WARNING: held lock freed in %1" },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: kernel stack regs * has bad 'bp' value",
	  .title = "WARNING: kernel stack regs has bad value",
	  .flags = F_NOSTACK },
	{ .fam = FAM_WARNING,
	  .match = "WARNING: kernel stack frame pointer * has bad value",
	  .title = "WARNING: kernel stack regs has bad value",
	  .flags = F_NOSTACK },
	{ .fam = FAM_WARNING,
	  .match = "WARNING:%b%$",
	  .title = "WARNING: corrupted",
	  .flags = F_CORRUPT },

	/* INFO: (older lockdep, RCU, hung tasks) */
	{ .fam = FAM_INFO,
	  .match = "INFO: possible circular locking dependency detected ]",
	  .later = "is trying to acquire lock\nat: %p %b%f",
	  .title = "possible deadlock in %1" },
	{ .fam = FAM_INFO,
	  .match = "INFO: possible irq lock inversion dependency detected ]",
	  .later = "just changed the state of lock\nat: %p %b%f",
	  .title = "possible deadlock in %1" },
	{ .fam = FAM_INFO,
	  .match = "INFO: SOFTIRQ-safe -> SOFTIRQ-unsafe lock order detected ]",
	  .later = "is trying to acquire\nat: %p %b%f",
	  .title = "possible deadlock in %1" },
	{ .fam = FAM_INFO,
	  .match = "INFO: possible recursive locking detected ]",
	  .later = "is trying to acquire lock\nat: %p %b%f",
	  .title = "possible deadlock in %1" },
	{ .fam = FAM_INFO,
	  .match = "INFO: inconsistent lock state ]",
	  .later = "takes\nat: %p %b%f",
	  .title = "inconsistent lock state in %1" },
	{ .fam = FAM_INFO,
	  .match = "INFO: rcu_{?preempt|sched|bh|tasks_trace|tasks_rude|tasks} "
		   "{?self-|}detected{? expedited|} stall",
	  .title = "INFO: rcu detected stall in %F",
	  .stack = "apic_timer_interrupt\n" RIP STACK,
	  .stack2 =
		  "{?apic_timer_interrupt|Exception stack|el1h_64_irq}\n" STACK,
	  .skip = SK_STALL,
	  .flags = F_STALL },
	{ .fam = FAM_INFO,
	  .match = "INFO: trying to register non-static key",
	  .title = "INFO: trying to register non-static key in %F",
	  .stack = CALL STACK,
	  .skip = SK_NONSTATIC },
	{ .fam = FAM_INFO,
	  .match = "INFO: suspicious RCU usage",
	  .later = "*%s",
	  .title = "INFO: suspicious RCU usage in %F",
	  .stack = CALL STACK,
	  .skip = SK_RCU },
	{ .fam = FAM_INFO,
	  .match =
		  "INFO: task * blocked {?in I/O wait |}for more than %d seconds",
	  .title = "INFO: task hung in %F",
	  .stack = CALL STACK,
	  .flags = F_HUNG },
	{ .fam = FAM_INFO,
	  .match = "INFO: task * can't die for more than * seconds",
	  .title = "INFO: task can't die in %F",
	  .stack = CALL STACK,
	  .skip = SK_SCHED },
	{ .fam = FAM_INFO,
	  .match = "INFO: {Freed|Allocated} in %r",
	  .title = "INFO: %1 in %2",
	  .flags = F_CORRUPT },
	{ .fam = FAM_INFO,
	  .match = "INFO:%b%$",
	  .title = "INFO: corrupted",
	  .flags = F_CORRUPT },

	/* arm, arm64, riscv oopses */
	{ .fam = FAM_UNABLE,
	  .match =
		  "Unable to handle kernel {paging request|NULL pointer dereference|"
		  "access to user memory}",
	  .title = "BUG: unable to handle kernel %1 in %F",
	  .stack = RIP CALL STACK },
	{ .fam = FAM_INTERNAL,
	  .match = "Internal error:",
	  .title = "Internal error in %F",
	  .stack = RIP CALL STACK },
	{ .fam = FAM_UNHANDLED,
	  .match = "Unhandled fault:",
	  .title = "Unhandled fault in %F",
	  .stack = RIP CALL STACK },
	{ .fam = FAM_ALIGN,
	  .match = "Alignment trap:",
	  .title = "Alignment trap in %F",
	  .stack = RIP CALL STACK },

	/* x86 traps */
	{ .fam = FAM_GPF,
	  .match = "general protection fault*:",
	  .title = "general protection fault in %F",
	  .stack = RIP CALL STACK },
	{ .fam = FAM_STACKSEG,
	  .match = "stack segment: ",
	  .title = "stack segment fault in %F",
	  .stack = RIP CALL STACK },
	{ .fam = FAM_DFAULT,
	  .match = "PANIC: double fault",
	  .title = "PANIC: double fault in %F",
	  .stack = RIP },
	{ .fam = FAM_DIVIDE,
	  .match = "divide error: ",
	  .title = "divide error in %F",
	  .stack = RIP },
	{ .fam = FAM_DIVIDE2,
	  .match = "divide_error: ",
	  .title = "divide error in %F",
	  .stack = RIP },
	{ .fam = FAM_OPCODE,
	  .match = "invalid opcode: ",
	  .title = "invalid opcode in %F",
	  .stack = RIP },
	{ .fam = FAM_INT3,
	  .match = "int3: ",
	  .title = "int3 in %F",
	  .stack = RIP CALL STACK },

	/* panics */
	{ .fam = FAM_PANIC,
	  .match =
		  "Kernel panic - not syncing: stack-protector: Kernel stack is "
		  "corrupted in: %f",
	  .title = "kernel panic: stack is corrupted in %1",
	  .flags = F_NOSTACK },
	{ .fam = FAM_PANIC,
	  .match =
		  "Kernel panic - not syncing: stack-protector: Kernel stack is "
		  "corrupted in: %x",
	  .title = "kernel panic: stack is corrupted in %F",
	  .stack = CALL STACK,
	  .skip = SK_STACKCHK },
	{ .fam = FAM_PANIC,
	  .match =
		  "Kernel panic - not syncing: corrupted stack end detected inside "
		  "scheduler",
	  .title = "kernel panic: corrupted stack end in %F",
	  .stack = CALL STACK,
	  .skip = SK_STACKEND,
	  .flags = F_STALL },
	{ .fam = FAM_PANIC,
	  .match = "Kernel panic - not syncing: kernel stack overflow",
	  .title = "kernel stack overflow in %F",
	  .stack = CALL STACK,
	  .skip = SK_BADSTACK,
	  .flags = F_STALL },
	{ .fam = FAM_PANIC,
	  .match = "Kernel panic - not syncing: Attempted to kill init!",
	  .title = "kernel panic: Attempted to kill init!" },
	{ .fam = FAM_PANIC,
	  .match =
		  "Kernel panic - not syncing: Couldn't open N_TTY ldisc for * --- "
		  "error -%d",
	  .title = "kernel panic: Couldn't open N_TTY ldisc" },
	{ .fam = FAM_PANIC,
	  .match = "Kernel panic - not syncing: Fatal exception",
	  .title = "kernel panic: Fatal exception",
	  .flags = F_CORRUPT },
	{ .fam = FAM_PANIC,
	  .match = "Kernel panic - not syncing: panic_on_warn set",
	  .title = "kernel panic: panic_on_warn set",
	  .flags = F_CORRUPT },
	{ .fam = FAM_PANIC,
	  .match = "Kernel panic - not syncing: hung_task: blocked tasks",
	  .title = "kernel panic: hung_task: blocked tasks",
	  .flags = F_CORRUPT },
	{ .fam = FAM_PANIC,
	  .match = "Kernel panic - not syncing: %r",
	  .title = "kernel panic: %1" },

	/* BUG() */
	{ .fam = FAM_KBUG,
	  .match = "kernel BUG at mm/usercopy.c",
	  .title = "BUG: bad usercopy in %F",
	  .stack = CALL STACK,
	  .skip = SK_USERCOPY },
	{ .fam = FAM_KBUG,
	  .match = "kernel BUG at lib/list_debug.c",
	  .title = "BUG: corrupted list in %F",
	  .stack = CALL STACK },
	{ .fam = FAM_KBUG,
	  .match = "kernel BUG at %r",
	  .title = "kernel BUG in %F",
	  .stack = RIP CALL STACK,
	  .skip = SK_SKB },
	{ .fam = FAM_KBUG2, .match = "Kernel BUG %r", .title = "kernel BUG %1" },
	{ .fam = FAM_KMALLOC,
	  .match = "BUG kmalloc-*: Object already free",
	  .title = "BUG: Object already free" },

	/* UBSAN (the kit picks a UBSAN report's own function, see parse.c) */
	{ .fam = FAM_UBSAN,
	  .match = "UBSAN: Undefined behaviour in",
	  .title = "UBSAN: undefined-behaviour in %F",
	  .stack = CALL STACK,
	  .skip = SK_UBSAN_SYZ },
	{ .fam = FAM_UBSAN,
	  .match = "UBSAN: array-index-out-of-bounds in",
	  .title = "UBSAN: array-index-out-of-bounds in %F",
	  .stack = CALL STACK,
	  .skip = SK_UBSAN_SYZ },
	{ .fam = FAM_UBSAN,
	  .match = "UBSAN: {*} in",
	  .title = "UBSAN: %1 in %F",
	  .stack = CALL STACK,
	  .skip = SK_UBSAN_SYZ },

	/* printk()s of their own */
	{ .fam = FAM_NETDEV,
	  .match = "unregister_netdevice: waiting for * to become free",
	  .title = "unregister_netdevice: waiting for DEV to become free",
	  .flags = F_NOSTACK },
	{ .fam = FAM_VFS_CLOSE,
	  .match = "VFS: Close: file count is 0",
	  .title = "VFS: Close: file count is zero (use-after-free)",
	  .flags = F_NOSTACK },
	{ .fam = FAM_VFS_BUSY,
	  .match = "VFS: Busy inodes after unmount",
	  .title = "VFS: Busy inodes after unmount (use-after-free)",
	  .flags = F_NOSTACK },
	{ .fam = FAM_KMEMLEAK,
	  .match = "unreferenced object 0x",
	  .title = "memory leak in %F",
	  .stack = LEAK_STACK,
	  .skip = SK_LEAK },
};

#define NFORMATS ((int)(sizeof(formats) / sizeof(formats[0])))
/* Lines of a report with its family's header that a title may match. */
#define HDR_LINES 64

/* ---- the interpreter ---- */

/* syzkaller's frame lines: "[<pc>] [<pc>] func+", and arm's "(f) from" */
static int frame_line(const char *s, size_t n, struct pmatch *m)
{
	size_t i = 0, j;
	int k;

	m->ncap = 0;
	while (i < n && s[i] == ' ')
		i++;
	/* arm: "[<pc>] (func) from [<pc>] (caller+0x..)" */
	j = pm_pc(s, n, i);
	if (j && j + 2 < n && s[j] == ' ' && s[j + 1] == '(') {
		size_t a = j + 2, b = a;

		while (b < n && s[b] != ')' && s[b] != ' ')
			b++;
		if (b > a && b < n && s[b] == ')' &&
		    pm_find(") from %p (%f", s + b, n - b, m, PM_FRAMES) &&
		    m->start == 0) {
			m->cap[1] = m->cap[0];
			m->cap[0].s = s + a;
			m->cap[0].n = b - a;
			m->ncap = 2;
			return 1;
		}
	}
	for (k = 0; k < 2; k++) {
		j = pm_pc(s, n, i);
		if (!j || j >= n || s[j] != ' ')
			break;
		i = j + 1;
	}
	j = i;
	while (j < n &&
	       ((s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' && s[j] <= 'Z') ||
		(s[j] >= '0' && s[j] <= '9') || s[j] == '_'))
		j++;
	if (j == i || j >= n || (s[j] != '.' && s[j] != '+'))
		return 0;
	m->cap[0].s = s + i;
	m->cap[0].n = j - i;
	m->ncap = 1;
	return 1;
}

/*
 * The faulting function on a RIP/IP/pc line: "IP", "pc " or "PC is at",
 * an optional ':', a blank, then "[0-9]+:" (a segment), up to two printed
 * addresses and the function; or a raw address or "(null)", which match
 * without a function.
 */
static int rip_line(const char *s, size_t n, struct pmatch *m)
{
	static const char *const keys[] = { "IP", "pc ", "PC is at" };
	size_t i, j, k, c;
	int t;

	m->ncap = 0;
	for (i = 0; i < n; i++) {
		for (t = 0; t < 3; t++) {
			k = strlen(keys[t]);
			if (i + k > n || memcmp(s + i, keys[t], k))
				continue;
			j = i + k;
			if (j < n && s[j] == ':')
				j++;
			if (j >= n || s[j] != ' ')
				continue;
			j++;
			/* optional "0010:"; "0010:   (null)" */
			for (c = j; c < n && s[c] >= '0' && s[c] <= '9'; c++)
				;
			if (c > j && c < n && s[c] == ':') {
				size_t b = ++c;

				while (b < n && s[b] == ' ')
					b++;
				if (b > c && b + 6 <= n &&
				    !memcmp(s + b, "(null)", 6))
					return 1;
			} else {
				c = j;
			}
			if (c + 2 < n && s[c] == '0' && s[c + 1] == 'x')
				return 1; /* a raw address */
			if (c + 6 <= n && !memcmp(s + c, "(null)", 6))
				return 1;
			for (j = c; pm_pc(s, n, j);) {
				j = pm_pc(s, n, j);
				if (j >= n || s[j] != ' ')
					break;
				while (j < n && s[j] == ' ')
					j++;
				/* "[<ffff>]  [<  (null)>] (null)" */
				if (j + 2 <= n && !memcmp(s + j, "[<", 2) &&
				    tl_find(s + j, n - j, "(null)"))
					return 1;
			}
			for (c = j; c < n && (s[c] == '_' ||
					      (s[c] >= 'a' && s[c] <= 'z') ||
					      (s[c] >= 'A' && s[c] <= 'Z') ||
					      (s[c] >= '0' && s[c] <= '9'));
			     c++)
				;
			if (c > j && c < n && (s[c] == '.' || s[c] == '+')) {
				m->cap[0].s = s + j;
				m->cap[0].n = c - j;
				m->ncap = 1;
				return 1;
			}
		}
	}
	return 0;
}

/*
 * " backtrace:" not preceded by 'k' ("stack backtrace:" is not one), or
 * kmemleak's " backtrace (crc 1234abcd):" (6.6+).
 */
static int backtrace_key(const char *s, size_t n)
{
	const char *p = s, *q;

	if (tl_find(s, n, " backtrace (crc "))
		return 1;
	while ((q = tl_find(p, n - (size_t)(p - s), " backtrace:"))) {
		if (q == s || q[-1] != 'k')
			return 1;
		p = q + 1;
	}
	return 0;
}

/* Lines that start a stack trace (and end the one before). */
static int stack_start_text(const char *s, size_t n)
{
	struct pmatch m;

	return tl_find(s, n, "Call Trace") || tl_find(s, n, "Call trace") ||
	       tl_find(s, n, "Allocated:") || tl_find(s, n, "Freed:") ||
	       pm_find("Allocated by task %d:", s, n, &m, 0) ||
	       pm_find("Freed by task %d:", s, n, &m, 0) ||
	       backtrace_key(s, n) || tl_find(s, n, "Backtrace:") ||
	       tl_find(s, n, "Uninit was stored to memory at");
}

/* The same, worked out once per line (t->st: -1 not yet). */
static int stack_start(struct tline *t)
{
	if (t->st < 0)
		t->st = (signed char)stack_start_text(t->s, t->n);
	return t->st;
}

/* A fault-injection frame: " [<pc>] should_fail[slab][.sfx]+0x". */
static int injected_line(const char *s, size_t n)
{
	size_t i = 0, j;

	if (n && s[0] == ' ' && (j = pm_pc(s, n, 1)))
		i = j;
	if (i + 12 > n || memcmp(s + i, " should_fail", 12))
		return 0;
	i += 12;
	if (i + 4 <= n && !memcmp(s + i, "slab", 4))
		i += 4;
	if (i < n && s[i] == '.')
		while (++i < n && ((s[i] >= 'a' && s[i] <= 'z') ||
				   (s[i] >= '0' && s[i] <= '9') || s[i] == '.'))
			;
	return i + 3 <= n && !memcmp(s + i, "+0x", 3);
}

#define STACK_MAX 512

struct frames {
	char v[STACK_MAX][FUNC_MAX];
	int n;
};

static void add_frames(struct frames *fr, const struct pmatch *m, unsigned skip)
{
	char name[FUNC_MAX];
	const char *p;
	size_t i;
	int c;

	for (c = 0; c < m->ncap && fr->n < STACK_MAX; c++) {
		tl_copy(name, sizeof(name), m->cap[c].s, m->cap[c].n);
		if (!name[0] || never_guilty_in(name, SK_ALL | skip))
			continue;
		p = name;
		for (i = 0;
		     i < sizeof(frame_prefixes) / sizeof(*frame_prefixes); i++)
			if (!strncmp(p, frame_prefixes[i],
				     strlen(frame_prefixes[i])))
				p += strlen(frame_prefixes[i]);
		tl_copy(fr->v[fr->n++], FUNC_MAX, p, strlen(p));
	}
}

static int step_match(const char *step, size_t k, const char *s, size_t n,
		      struct pmatch *m)
{
	char pat[256];

	if (k == 4 && !memcmp(step, "@rip", 4))
		return rip_line(s, n, m);
	if (k == 5 && !memcmp(step, "@ripw", 5))
		return rip_line(s, n, m) ||
		       pm_find("--- interrupt: %d at %f", s, n, m, PM_FRAMES);
	if (k == 5 && !memcmp(step, "@call", 5)) {
		m->ncap = 0;
		return tl_find(s, n, "Call Trace:") ||
		       tl_find(s, n, "Call trace:") ||
		       tl_find(s, n, "Backtrace:");
	}
	if (k >= sizeof(pat))
		return 0;
	memcpy(pat, step, k);
	pat[k] = 0;
	return pm_find(pat, s, n, m, PM_FRAMES);
}

/*
 * Run a stack program over lines t[from..n). Fills res with one guilty
 * frame per stack; returns 0 if a stack gave none (or was damaged).
 */
static int run_stack(const char *prog, struct tline *t, int from, int n,
		     unsigned skip, int flags, char (*res)[FUNC_MAX], int *nres)
{
	const char *steps[16], *p;
	size_t len[16];
	int nsteps = 0, st, li = from, ok = 1, nstacks = 0;
	struct frames fr;
	struct pmatch m;
	const char *key;

	for (p = prog; *p && nsteps < 16;) {
		const char *nl = strchr(p, '\n');

		if (!nl)
			nl = p + strlen(p);
		steps[nsteps] = p;
		len[nsteps++] = (size_t)(nl - p);
		p = *nl ? nl + 1 : nl;
	}
	fr.n = 0;
	*nres = 0;
	for (st = 0;; st++) {
		int is_stack = st < nsteps && len[st] == 6 &&
			       !memcmp(steps[st], "@stack", 6);

		if (st == nsteps || (is_stack && nstacks > 0)) {
			key = flags & F_STALL ? stall_frame(fr.v, fr.n) :
			      flags & F_HUNG  ? hang_frame(fr.v, fr.n) :
			      fr.n	      ? fr.v[0] :
						"";
			if (!key[0]) {
				key = "corrupted";
				ok = 0;
			}
			if (*nres < 2)
				tl_copy(res[(*nres)++], FUNC_MAX, key,
					strlen(key));
			fr.n = 0;
		}
		if (st == nsteps)
			break;
		if (is_stack) {
			nstacks++;
			for (; li < n; li++) {
				if (injected_line(t[li].s, t[li].n)) {
					ok = 0;
					li++;
					goto next;
				}
				if (stack_start(&t[li])) {
					li++;
					goto next;
				}
				if (st + 1 < nsteps &&
				    step_match(steps[st + 1], len[st + 1],
					       t[li].s, t[li].n, &m)) {
					add_frames(&fr, &m, skip);
					li++;
					st++;
					goto next;
				}
				if (frame_line(t[li].s, t[li].n, &m))
					add_frames(&fr, &m, skip);
			}
		} else {
			for (; li < n; li++) {
				if (injected_line(t[li].s, t[li].n)) {
					ok = 0;
					li++;
					goto next;
				}
				if (step_match(steps[st], len[st], t[li].s,
					       t[li].n, &m)) {
					add_frames(&fr, &m, skip);
					li++;
					break;
				}
			}
		}
next:;
	}
	return ok;
}

/* Later lines of the report in order; captures appended to m. */
static int match_report(const char *pats, const struct tline *t, int from,
			int n, struct pmatch *caps)
{
	char pat[256];
	const char *p = pats, *nl;
	struct pmatch m;
	int li = from + 1, c;
	size_t k;

	while (*p) {
		nl = strchr(p, '\n');
		k = nl ? (size_t)(nl - p) : strlen(p);
		if (k >= sizeof(pat))
			return 0;
		memcpy(pat, p, k);
		pat[k] = 0;
		for (; li < n; li++)
			if (pm_find(pat, t[li].s, t[li].n, &m, 0))
				break;
		if (li >= n)
			return 0;
		for (c = 0; c < m.ncap && caps->ncap < PM_MAXCAP; c++)
			caps->cap[caps->ncap++] = m.cap[c];
		li++;
		p += k;
		if (*p == '\n')
			p++;
	}
	return 1;
}

static void format_title(char *out, size_t sz, const char *fmt,
			 const struct pmatch *caps, char (*res)[FUNC_MAX],
			 int nres)
{
	size_t k = 0, len;
	const char *add;
	int c;

	for (; *fmt && k + 1 < sz; fmt++) {
		add = NULL;
		len = 0;
		if (fmt[0] == '%' && fmt[1] >= '1' && fmt[1] <= '9') {
			c = fmt[1] - '1';
			if (c < caps->ncap) {
				add = caps->cap[c].s;
				len = caps->cap[c].n;
			}
			fmt++;
		} else if (fmt[0] == '%' && (fmt[1] == 'F' || fmt[1] == 'G')) {
			c = fmt[1] - 'F';
			add = c < nres ? res[c] : "";
			len = strlen(add);
			fmt++;
		} else {
			add = fmt;
			len = 1;
		}
		while (len-- && k + 1 < sz)
			out[k++] = *add++;
	}
	out[k] = 0;
}

/* Does the title carry a console timestamp ("[  12.345]")? */
static int title_has_stamp(const char *t)
{
	const char *p;

	for (p = strchr(t, '['); p; p = strchr(p + 1, '[')) {
		const char *q = p + 1;

		while (*q == ' ')
			q++;
		if (*q < '0' || *q > '9')
			continue;
		while (*q >= '0' && *q <= '9')
			q++;
		if (*q++ != '.' || *q < '0' || *q > '9')
			continue;
		while (*q >= '0' && *q <= '9')
			q++;
		if (*q == ']')
			return 1;
	}
	return 0;
}

/* One kind of stack keyword (stack_start() has them all) in line s. */
static int stack_key(int k, const char *s, size_t n)
{
	struct pmatch m;

	switch (k) {
	case 0:
		return tl_find(s, n, "Call Trace") ||
		       tl_find(s, n, "Call trace");
	case 1:
		return tl_find(s, n, "Allocated:") != NULL;
	case 2:
		return pm_find("Allocated by task %d:", s, n, &m, 0);
	case 3:
		return tl_find(s, n, "Freed:") != NULL;
	case 4:
		return pm_find("Freed by task %d:", s, n, &m, 0);
	case 5:
		return backtrace_key(s, n);
	case 6:
		return tl_find(s, n, "Backtrace:") != NULL;
	default:
		return tl_find(s, n, "Uninit was stored to memory at") != NULL;
	}
}

/*
 * Every stack keyword's first line must have a frame within the next 15
 * lines (before another stack starts), and one stack at least must have
 * one: else the report is damaged. NULL if it is not.
 */
static const char *stack_damage(struct tline *t, int n)
{
	int have = 0, li, j, k, key, found;
	struct pmatch m;

	for (key = 0; key < 8; key++) {
		for (li = 0; li < n && !(stack_start(&t[li]) &&
					 stack_key(key, t[li].s, t[li].n));
		     li++)
			;
		if (li == n)
			continue;
		/* the keyword's line, two more lines and the final newline */
		if (n - li < 3)
			return "call trace is missed";
		found = 0;
		for (j = li + 1, k = 0; k < 15 && j < n; j++, k++) {
			if (stack_start(&t[j]))
				break;
			if (tl_find(t[j].s, t[j].n,
				    "(stack is not available)") ||
			    frame_line(t[j].s, t[j].n, &m)) {
				found = 1;
				break;
			}
		}
		if (!found)
			return "no frames in a stack trace";
		have = 1;
	}
	return have ? NULL : "no stack trace in report";
}

/*
 * Title, guilty frame and corrupted flag of the report in lines t[0..n)
 * (t[0] starts with the header of family fam); lines up to nall count
 * for the corrupted check.
 */
void fam_extract(int fam, struct tline *t, int n, int nall, struct verdict *v)
{
	int best = -1, bline = n, bcol = 0, i, li, ok = 1, matched = 0;
	int hl[HDR_LINES], nh = 0, k;
	int fline[NFORMATS], fcol[NFORMATS];
	char res[2][FUNC_MAX];
	struct pmatch m, caps;
	int nres = 0;
	const struct format *f = NULL;
	const char *why = NULL;

	memset(v, 0, sizeof(*v));
	v->format = -1;
	/*
	 * The format whose title matches first (then in table order). Every
	 * title starts with its family's header: only the lines that have
	 * it can match.
	 */
	for (li = 0; li < n && nh < HDR_LINES; li++)
		if (tl_find(t[li].s, t[li].n, families[fam].header))
			hl[nh++] = li;
	for (i = 0; i < NFORMATS; i++) {
		fline[i] = -1;
		if (formats[i].fam != fam)
			continue;
		for (k = 0; k < nh && hl[k] <= bline; k++) {
			li = hl[k];
			if (pm_find(formats[i].match, t[li].s, t[li].n, &m,
				    0)) {
				fline[i] = li;
				fcol[i] = (int)m.start;
				if (li < bline ||
				    (li == bline && (int)m.start < bcol)) {
					bline = li;
					bcol = (int)m.start;
				}
				break;
			}
		}
	}
	for (i = 0; i < NFORMATS; i++) {
		if (fline[i] != bline || fcol[i] != bcol)
			continue;
		matched = 1;
		pm_find(formats[i].match, t[bline].s, t[bline].n, &caps, 0);
		if (formats[i].later &&
		    !match_report(formats[i].later, t, bline, n, &caps))
			continue;
		best = i;
		break;
	}
	if (best < 0) {
		/* the header line itself */
		if (n)
			tl_copy(v->title, sizeof(v->title), t[0].s, t[0].n);
		title_stable(v->title, v->title, sizeof(v->title));
		v->corrupted = matched;
		v->reason = matched ? "matched title but not report" : NULL;
		return;
	}
	f = &formats[best];
	v->format = best;
	if (f->stack) {
		ok = run_stack(f->stack, t, bline, n, f->skip, f->flags, res,
			       &nres);
		if (!ok && f->stack2)
			ok = run_stack(f->stack2, t, bline, n, f->skip,
				       f->flags, res, &nres);
		if (!ok)
			why = "extracted no frames";
	}
	format_title(v->title, sizeof(v->title), f->title, &caps, res, nres);
	/* a UBSAN report's title is the kit's own (parse.c) */
	if (fam != FAM_UBSAN)
		title_stable(v->title, v->title, sizeof(v->title));
	if (nres && strcmp(res[0], "corrupted"))
		tl_copy(v->func, sizeof(v->func), res[0], strlen(res[0]));
	if (!why && (f->flags & F_CORRUPT))
		why = "format marks a damaged report";
	if (!why && title_has_stamp(v->title))
		why = "title has a timestamp";
	if (!why && !(f->flags & F_NOSTACK))
		why = stack_damage(t, nall);
	v->corrupted = why != NULL;
	v->reason = why;
}
