// SPDX-License-Identifier: GPL-2.0
/*
 * Report parser: a line-driven state machine with one slot per reporting
 * task (caller prefix), so that interleaved reports stay apart.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "triage.h"

enum fsrc {
	FS_NONE, /* title has no function */
	FS_STACK, /* first frame that is not machinery */
	FS_RIP, /* RIP function, else stack */
	FS_HDR, /* function named in the header, else RIP, else stack */
	FS_HUNG, /* stack, also skipping scheduler functions */
};

enum pflags {
	P_UBSAN = 1, /* "UBSAN: kind in file:line:col" */
	P_OOPS = 2, /* continuation of a report that has no stack yet */
	P_INFN = 4, /* "<msg> in func": KASAN, KFENCE */
	P_SITE_AT = 8, /* "... at FILE:LINE func+0x" */
	P_SITE_BUG = 16, /* "kernel BUG at FILE:LINE!" */
	P_MSG = 32, /* msg = rest of the line */
	P_PANIC = 64,
};

struct pattern {
	const char *prefix; /* at the start of the line, after prefixes */
	const char *need; /* must also occur in the line, or NULL */
	const char *kind;
	const char *title; /* %K kind, %F function, %M message, %A access */
	int fsrc;
	int flags;
};

/* The one table of report headers. Order matters: first match wins. */
static const struct pattern patterns[] = {
	{ "UBSAN: ", NULL, "ubsan", "UBSAN: %K in %F", FS_STACK, P_UBSAN },
	{ "BUG: KASAN: ", NULL, "kasan", "KASAN: %M%A in %F", FS_HDR, P_INFN },
	{ "BUG: KFENCE: ", NULL, "kfence", "KFENCE: %M in %F", FS_HDR, P_INFN },
	{ "BUG: unable to handle page fault", NULL, "paging-request",
	  "BUG: unable to handle kernel paging request in %F", FS_RIP, 0 },
	{ "BUG: unable to handle kernel paging request", NULL, "paging-request",
	  "BUG: unable to handle kernel paging request in %F", FS_RIP, 0 },
	{ "BUG: unable to handle kernel NULL pointer dereference", NULL,
	  "null-ptr-deref",
	  "BUG: unable to handle kernel NULL pointer dereference in %F", FS_RIP,
	  0 },
	{ "BUG: kernel NULL pointer dereference", NULL, "null-ptr-deref",
	  "BUG: unable to handle kernel NULL pointer dereference in %F", FS_RIP,
	  0 },
	{ "BUG: soft lockup", NULL, "soft-lockup", "BUG: soft lockup in %F",
	  FS_RIP, 0 },
	{ "watchdog: BUG: soft lockup", NULL, "soft-lockup",
	  "BUG: soft lockup in %F", FS_RIP, 0 },
	{ "BUG: scheduling while atomic", NULL, "scheduling-while-atomic",
	  "BUG: scheduling while atomic in %F", FS_STACK, 0 },
	{ "BUG: sleeping function called from invalid context", NULL,
	  "sleep-in-atomic",
	  "BUG: sleeping function called from invalid context in %F", FS_STACK,
	  0 },
	{ "BUG: ", NULL, "bug", "BUG: %M", FS_NONE, P_MSG },
	{ "general protection fault", NULL, "general-protection-fault",
	  "general protection fault in %F", FS_RIP, P_OOPS },
	{ "kernel BUG at ", NULL, "kernel-bug", "kernel BUG in %F", FS_RIP,
	  P_SITE_BUG },
	{ "invalid opcode: ", NULL, "invalid-opcode", "invalid opcode in %F",
	  FS_RIP, P_OOPS },
	{ "divide error: ", NULL, "divide-error", "divide error in %F", FS_RIP,
	  P_OOPS },
	{ "Oops: ", NULL, "oops", "Oops in %F", FS_RIP, P_OOPS },
	{ "WARNING: CPU: ", " at ", "warning", "WARNING in %F", FS_HDR,
	  P_SITE_AT },
	{ "WARNING: ", NULL, "warning", "WARNING: %M", FS_NONE, P_MSG },
	{ "Kernel panic - not syncing: ", NULL, "panic", "kernel panic: %M",
	  FS_NONE, P_MSG | P_PANIC },
	{ "INFO: task ", "blocked for more than", "hung-task",
	  "INFO: task hung in %F", FS_HUNG, 0 },
	{ "INFO: rcu_", "stall", "rcu-stall", "INFO: rcu detected stall in %F",
	  FS_STACK, 0 },
	{ "rcu: INFO: rcu_", "stall", "rcu-stall",
	  "INFO: rcu detected stall in %F", FS_STACK, 0 },
};

#define NPATTERNS ((int)(sizeof(patterns) / sizeof(patterns[0])))

enum mflags {
	M_ALL = 1, /* never the guilty function */
	M_MEM = 2, /* memory helpers: skipped for KASAN/KFENCE */
	M_SCHED = 4, /* scheduler: skipped for hung tasks */
};

/* The one table of sanitizer and printing machinery ('*' = prefix). */
static const struct {
	const char *name;
	int flags;
} machinery[] = {
	{ "dump_stack*", M_ALL },
	{ "__dump_stack", M_ALL },
	{ "show_stack*", M_ALL },
	{ "show_trace_log_lvl", M_ALL },
	{ "show_regs", M_ALL },
	{ "__show_regs", M_ALL },
	{ "dump_backtrace*", M_ALL },
	{ "ubsan_*", M_ALL },
	{ "__ubsan_*", M_ALL },
	/* lib/ubsan.c's static helpers, when not inlined */
	{ "handle_overflow", M_ALL },
	{ "handle_null_ptr_deref", M_ALL },
	{ "handle_misaligned_access", M_ALL },
	{ "handle_object_size_mismatch", M_ALL },
	{ "printk*", M_ALL },
	{ "console_*", M_ALL },
	{ "_printk*", M_ALL },
	{ "vprintk*", M_ALL },
	{ "report_*", M_ALL },
	{ "panic", M_ALL },
	{ "check_panic_on_warn", M_ALL },
	{ "warn_*", M_ALL },
	{ "__warn*", M_ALL },
	{ "handle_bug", M_ALL },
	{ "exc_invalid_op", M_ALL },
	{ "asm_exc_*", M_ALL },
	{ "exc_page_fault", M_ALL },
	{ "do_error_trap", M_ALL },
	{ "do_trap", M_ALL },
	{ "die", M_ALL },
	{ "__die*", M_ALL },
	{ "oops_*", M_ALL },
	{ "page_fault_oops", M_ALL },
	{ "kernelmode_fixup_or_oops", M_ALL },
	{ "__bad_area_nosemaphore", M_ALL },
	{ "bad_area*", M_ALL },
	{ "do_user_addr_fault", M_ALL },
	{ "do_kern_addr_fault", M_ALL },
	{ "no_context", M_ALL },
	{ "kasan_*", M_ALL },
	{ "__kasan_*", M_ALL },
	{ "__asan_*", M_ALL },
	{ "asan_*", M_ALL },
	{ "check_memory_region*", M_ALL },
	{ "print_address_description*", M_ALL },
	{ "print_report", M_ALL },
	{ "describe_object*", M_ALL },
	{ "kfence_*", M_ALL },
	{ "__kfence_*", M_ALL },
	{ "lockdep_*", M_ALL },
	{ "memcpy*", M_MEM },
	{ "memmove*", M_MEM },
	{ "memset*", M_MEM },
	{ "memcmp", M_MEM },
	{ "strlen", M_MEM },
	{ "strcpy", M_MEM },
	{ "strncpy", M_MEM },
	{ "copy_user*", M_MEM },
	{ "_copy_to_user", M_MEM },
	{ "_copy_from_user", M_MEM },
	{ "__schedule", M_SCHED },
	{ "schedule*", M_SCHED },
	{ "io_schedule*", M_SCHED },
	{ "context_switch", M_SCHED },
	{ "__switch_to*", M_SCHED },
	{ "do_wait_for_common", M_SCHED },
	{ "__wait_for_common", M_SCHED },
	{ "wait_for_completion*", M_SCHED },
	{ "rwsem_down_*", M_SCHED },
	{ "__mutex_lock*", M_SCHED },
	{ "mutex_lock*", M_SCHED },
	{ "ret_from_fork*", M_SCHED },
};

/* Kind inference for "Undefined behaviour" reports: first match wins. */
static const struct {
	const char *needle;
	const char *kind;
} kind_rules[] = {
	{ "is out of range for type", "array-index-out-of-bounds" },
	{ "shift exponent", "shift-out-of-bounds" },
	{ "left shift of", "shift-out-of-bounds" },
	{ "negation of", "negation-overflow" },
	{ "division", "division-overflow" },
	{ "signed integer overflow:", "signed-integer-overflow" },
	{ "unsigned integer overflow:", "unsigned-integer-overflow" },
	{ "cannot be represented in type", "signed-integer-overflow" },
	{ "load of value", "invalid-load" },
	{ "null pointer", "null-ptr-deref" },
	{ "misaligned", "misaligned-access" },
	{ "implicit conversion", "implicit-conversion" },
	{ "truncation", "implicit-conversion" },
	{ "sign change", "implicit-conversion" },
	{ "insufficient space for an object", "object-size-mismatch" },
	{ "object-size", "object-size-mismatch" },
	{ "alignment assumption", "alignment-assumption" },
	{ "passing zero to", "invalid-builtin-use" },
	{ "pointer overflow", "pointer-overflow" },
	{ "pointer index expression", "pointer-overflow" },
	{ "unreachable program point", "unreachable" },
	{ "variable length array bound", "vla-bound" },
};

enum { ST_FREE, ST_PENDING, ST_DETAIL, ST_BODY };
enum { FR_NONE, FR_EQ, FR_CUT };

/* A report slot gives up after this many lines that are not its own. */
#define JUNK_LIMIT 100
/* A panic this close after a report is that report's consequence. */
#define PANIC_WINDOW 100

/* Lines that may start a report: their first two characters. */
static unsigned char first_pair[256 * 256];
static size_t prefix_len[sizeof(patterns) / sizeof(patterns[0])];

static void init_tables(void)
{
	const unsigned char *pf;
	int i;

	if (first_pair['=' << 8 | '='])
		return;
	for (i = 0; i < NPATTERNS; i++) {
		pf = (const unsigned char *)patterns[i].prefix;
		prefix_len[i] = strlen(patterns[i].prefix);
		first_pair[pf[0] << 8 | pf[1]] = 1;
	}
	first_pair['=' << 8 | '='] = first_pair['-' << 8 | '-'] = 1;
}

static int may_start(const char *s, size_t n)
{
	return n >= 2 &&
	       first_pair[(unsigned char)s[0] << 8 | (unsigned char)s[1]];
}

int report_is_ubsan(const struct report *r)
{
	return (patterns[r->pattern].flags & P_UBSAN) != 0;
}

static int unsigned_type(const char *t)
{
	return !strncmp(t, "unsigned", 8) ||
	       (t[0] == 'u' && t[1] >= '1' && t[1] <= '9') ||
	       !strncmp(t, "size_t", 6) || !strncmp(t, "__u", 3);
}

const char *infer_kind(const char *detail)
{
	size_t i;
	const char *t;

	for (i = 0; i < sizeof(kind_rules) / sizeof(kind_rules[0]); i++) {
		if (!strstr(detail, kind_rules[i].needle))
			continue;
		if (strcmp(kind_rules[i].needle,
			   "cannot be represented in type"))
			return kind_rules[i].kind;
		t = strstr(detail, "in type '");
		if (t && unsigned_type(t + 9))
			return "unsigned-integer-overflow";
		return kind_rules[i].kind;
	}
	return "undefined-behaviour";
}

int is_machinery(const char *func, int pattern)
{
	char name[FUNC_MAX];
	size_t i, k;
	int mask = M_ALL;
	const char *pn;

	if (pattern >= 0 && pattern < NPATTERNS) {
		if (patterns[pattern].flags & P_INFN)
			mask |= M_MEM;
		if (patterns[pattern].fsrc == FS_HUNG)
			mask |= M_SCHED;
	}
	tl_norm_func(func, name, sizeof(name));
	for (i = 0; i < sizeof(machinery) / sizeof(machinery[0]); i++) {
		if (!(machinery[i].flags & mask))
			continue;
		pn = machinery[i].name;
		k = strlen(pn);
		if (pn[k - 1] == '*' ? !strncmp(name, pn, k - 1) :
				       !strcmp(name, pn))
			return 1;
	}
	return 0;
}

int ubsan_int_kind(const char *kind)
{
	return !strcmp(kind, "implicit-conversion") ||
	       !strcmp(kind, "signed-integer-overflow") ||
	       !strcmp(kind, "unsigned-integer-overflow") ||
	       !strcmp(kind, "negation-overflow") ||
	       /* trap mode (x86 ud1): the type's signedness is unknown */
	       !strcmp(kind, "add-overflow") || !strcmp(kind, "sub-overflow") ||
	       !strcmp(kind, "mul-overflow");
}

/* Clang sanitizer names (ignorelist sections) that produce this report. */
int sanitizer_names(const struct report *r, const char **names, int max)
{
	int n = 0;
	const char *d = r->detail, *k = r->kind;

#define ADD(x)                          \
	do {                            \
		if (n < max)            \
			names[n++] = x; \
	} while (0)
	if (!report_is_ubsan(r))
		return 0;
	if (!strcmp(k, "implicit-conversion") && r->trapped && !d[0]) {
		/* a trap names the check, not which conversion failed */
		ADD("implicit-signed-integer-truncation");
		ADD("implicit-unsigned-integer-truncation");
		ADD("implicit-integer-truncation");
		ADD("implicit-integer-sign-change");
		ADD("implicit-bitfield-conversion");
		ADD("implicit-conversion");
	} else if (!strcmp(k, "implicit-conversion")) {
		if (strstr(d, "truncation and sign change") ||
		    strstr(d, "signed truncation")) {
			if (!strstr(d, "unsigned truncation"))
				ADD("implicit-signed-integer-truncation");
		}
		if (strstr(d, "unsigned truncation"))
			ADD("implicit-unsigned-integer-truncation");
		if (strstr(d, "truncation"))
			ADD("implicit-integer-truncation");
		if (strstr(d, "sign change"))
			ADD("implicit-integer-sign-change");
		if (strstr(d, "bit-field"))
			ADD("implicit-bitfield-conversion");
		ADD("implicit-conversion");
	} else if (!strcmp(k, "signed-integer-overflow") ||
		   !strcmp(k, "negation-overflow") ||
		   !strcmp(k, "division-overflow")) {
		ADD("signed-integer-overflow");
	} else if (!strcmp(k, "add-overflow") || !strcmp(k, "sub-overflow") ||
		   !strcmp(k, "mul-overflow")) {
		ADD("signed-integer-overflow");
		ADD("unsigned-integer-overflow");
	} else if (!strcmp(k, "unsigned-integer-overflow")) {
		ADD("unsigned-integer-overflow");
	} else if (!strcmp(k, "shift-out-of-bounds")) {
		ADD("shift");
		ADD("shift-exponent");
		ADD("shift-base");
	} else if (!strcmp(k, "array-index-out-of-bounds")) {
		ADD("bounds");
		ADD("array-bounds");
	}
	if (n)
		ADD("integer");
	ADD("undefined");
#undef ADD
	return n;
}

static int match_header(const char *s, size_t n)
{
	int i, j;

	if (!may_start(s, n))
		return -1;
	if (tl_starts(s, n, "Oops: ")) {
		j = match_header(s + 6, n - 6);
		if (j >= 0 && (patterns[j].flags & P_OOPS))
			return j;
	}
	for (i = 0; i < NPATTERNS; i++) {
		if (patterns[i].prefix[0] != s[0] || n < prefix_len[i] ||
		    memcmp(s, patterns[i].prefix, prefix_len[i]))
			continue;
		if (patterns[i].need && !tl_find(s, n, patterns[i].need))
			continue;
		return i;
	}
	return -1;
}

static int is_eq_line(const char *s, size_t n)
{
	size_t i;

	if (n < 60 || s[0] != '=')
		return 0;
	for (i = 0; i < n && s[i] == '='; i++)
		;
	return i >= 60;
}

static int is_cut_line(const char *s, size_t n)
{
	return tl_starts(s, n, "------------[ cut here ]");
}

static struct slot *slot_find(struct parser *p, unsigned long caller)
{
	int i;

	for (i = 0; i < NSLOTS; i++)
		if (p->slots[i].state != ST_FREE &&
		    p->slots[i].caller == caller)
			return &p->slots[i];
	return NULL;
}

static void slot_close(struct parser *p, struct slot *s, int ended)
{
	struct report *r = &s->r;
	int needs_end = s->framing != FR_NONE || r->trapped ||
			report_is_ubsan(r);

	if (s->state == ST_DETAIL || s->state == ST_BODY) {
		r->corrupted = (needs_end && !ended) || r->nframes == 0;
		report_finish(r);
		if (p->cb)
			p->cb(p->ctx, r);
		p->last_end = p->lineno;
		p->have_last_end = 1;
	}
	s->state = ST_FREE;
	p->nactive--;
}

static struct slot *slot_new(struct parser *p, unsigned long caller)
{
	struct slot *s, *old = NULL;
	int i;

	for (i = 0; i < NSLOTS; i++) {
		s = &p->slots[i];
		if (s->state == ST_FREE)
			break;
		if (!old || s->age < old->age)
			old = s;
	}
	if (i == NSLOTS) {
		slot_close(p, old, 0);
		s = old;
	}
	p->nactive++;
	s->caller = caller;
	s->junk = 0;
	s->ndetail = 0;
	s->detail_guess = 0;
	s->stack_done = 0;
	s->age = ++p->age;
	s->framing = FR_NONE;
	s->state = ST_PENDING;
	return s;
}

/* "file:line:col" or "file:line" into r->file, r->line, r->col. */
static void parse_site(struct report *r, const char *s, size_t n)
{
	const char *c1 = NULL, *c2 = NULL, *p, *end = s + n;
	char path[PATH_MAX_T];
	unsigned long v[2] = { 0, 0 };
	int k = 0;

	for (p = end; p > s && k < 2;) {
		const char *d = p;

		while (d > s && d[-1] >= '0' && d[-1] <= '9')
			d--;
		if (d == p || d == s || d[-1] != ':')
			break;
		if (k == 0)
			c2 = d - 1;
		else
			c1 = d - 1;
		k++;
		p = d - 1;
	}
	if (!k)
		return;
	if (k == 1) {
		c1 = c2;
		c2 = NULL;
	}
	v[0] = strtoul(c1 + 1, NULL, 10);
	if (c2)
		v[1] = strtoul(c2 + 1, NULL, 10);
	tl_copy(path, sizeof(path), s, (size_t)(c1 - s));
	tl_copy(r->file, sizeof(r->file), tl_strip_path(path),
		strlen(tl_strip_path(path)));
	r->line = (unsigned int)v[0];
	r->col = (unsigned int)v[1];
}

static void set_kind(char *dst, const char *s, size_t n)
{
	size_t i;

	tl_copy(dst, KIND_MAX, s, n);
	for (i = 0; dst[i]; i++) {
		if (dst[i] == ' ')
			dst[i] = '-';
		else if (dst[i] >= 'A' && dst[i] <= 'Z')
			dst[i] = (char)(dst[i] + 32);
	}
}

/* Function after s (a frame or a bare identifier) into dst. */
static void parse_func(char *dst, const char *s, size_t n)
{
	struct frame f;
	size_t i = 0;

	if (tl_frame(s, n, &f)) {
		tl_copy(dst, FUNC_MAX, f.func, strlen(f.func));
		return;
	}
	while (i < n && s[i] != ' ' && s[i] != '(' && s[i] != ',')
		i++;
	tl_copy(dst, FUNC_MAX, s, i);
}

static void parse_ubsan(struct report *r, const char *s, size_t n)
{
	const char *b = s + 7, *end = s + n, *in, *loc;
	struct frame f;

	in = tl_find(b, (size_t)(end - b), " in ");
	if (!in)
		in = tl_find(b, (size_t)(end - b), " at ");
	if (!in) {
		set_kind(r->hdr_kind, b, (size_t)(end - b));
		return;
	}
	set_kind(r->hdr_kind, b, (size_t)(in - b));
	if (!strcmp(r->hdr_kind, "undefined-behaviour"))
		r->old_style = 1;
	loc = in + 4;
	while (end > loc && end[-1] == ' ')
		end--;
	if (tl_frame(loc, (size_t)(end - loc), &f))
		tl_copy(r->hdr_func, FUNC_MAX, f.func, strlen(f.func));
	else
		parse_site(r, loc, (size_t)(end - loc));
}

static void parse_header(struct report *r, const struct pattern *pt,
			 const char *s, size_t n)
{
	const char *b = s + strlen(pt->prefix), *end = s + n, *a, *sp;

	if (pt->flags & P_UBSAN) {
		parse_ubsan(r, s, n);
		return;
	}
	tl_copy(r->detail, sizeof(r->detail), s, n);
	if (pt->flags & P_MSG)
		tl_copy(r->msg, sizeof(r->msg), b, (size_t)(end - b));
	if (pt->flags & P_INFN) {
		a = tl_find(b, (size_t)(end - b), " in ");
		if (a) {
			tl_copy(r->msg, sizeof(r->msg), b, (size_t)(a - b));
			parse_func(r->hdr_func, a + 4, (size_t)(end - a - 4));
		} else {
			tl_copy(r->msg, sizeof(r->msg), b, (size_t)(end - b));
		}
	}
	if (pt->flags & P_SITE_AT) {
		a = tl_find(b, (size_t)(end - b), " at ");
		if (a) {
			a += 4;
			sp = memchr(a, ' ', (size_t)(end - a));
			parse_site(r, a, (size_t)((sp ? sp : end) - a));
			if (sp)
				parse_func(r->hdr_func, sp + 1,
					   (size_t)(end - sp - 1));
		}
	}
	if (pt->flags & P_SITE_BUG) {
		a = memchr(b, '!', (size_t)(end - b));
		parse_site(r, b, (size_t)((a ? a : end) - b));
	}
}

static void start_report(struct parser *p, struct slot *s, int pat,
			 const struct logline *l)
{
	struct report *r = &s->r;
	const char *b;

	/* A panic right after a report (Fatal exception, panic_on_warn). */
	if ((patterns[pat].flags & P_PANIC) && p->have_last_end &&
	    p->lineno - p->last_end <= PANIC_WINDOW &&
	    (tl_find(l->s, l->n, "Fatal exception") ||
	     tl_find(l->s, l->n, "panic_on_warn"))) {
		s->state = ST_FREE;
		p->nactive--;
		return;
	}
	memset(r, 0, sizeof(*r));
	r->pattern = pat;
	r->log = p->log;
	r->lineno = p->lineno;
	b = l->s;
	if (tl_starts(b, l->n, "Oops: ") &&
	    strcmp(patterns[pat].prefix, "Oops: "))
		b += 6;
	parse_header(r, &patterns[pat], b, l->n - (size_t)(b - l->s));
	s->state = (patterns[pat].flags & P_UBSAN) ? ST_DETAIL : ST_BODY;
}

static void idle_line(struct parser *p, const struct logline *l)
{
	struct slot *s;
	int pat;

	if (is_eq_line(l->s, l->n) || is_cut_line(l->s, l->n)) {
		s = slot_new(p, l->caller);
		s->framing = l->s[0] == '=' ? FR_EQ : FR_CUT;
		return;
	}
	pat = match_header(l->s, l->n);
	if (pat < 0)
		return;
	s = slot_new(p, l->caller);
	start_report(p, s, pat, l);
}

/* Prefixes of lines that belong to a report but carry nothing we keep. */
static const char *const context_prefixes[] = {
	"Hardware name:",
	"Workqueue:",
	"Code:",
	"Modules linked in:",
	"Kernel Offset:",
	"#PF:",
	"PGD ",
	"P4D ",
	"PUD ",
	"PMD ",
	"PTE ",
	"Tainted:",
	"irq event stamp:",
	"hardirqs last",
	"softirqs last",
	"The buggy address",
	"Allocated by task",
	"Freed by task",
	"Last potentially related",
	"Second to last",
	"Memory state around",
	"page:",
	"flags:",
	"raw:",
	"page dumped because",
	"kasan:",
	"Stack:",
	"Sending NMI",
	"NMI backtrace",
	"Disabling lock debugging",
	"Dumping ftrace",
	"Read of size",
	"Write of size",
	"---[ ",
	"Showing busy workqueues",
	"Call Trace",
	"Preemption disabled at:",
	"Object ",
	"Redzone ",
	"Padding ",
	"CPU: ",
	"task:",
	"\"echo 0 >",
	"Mem abort info:",
	"Internal error:",
	"pc : ",
	"lr : ",
	"sp : ",
};

static int is_register_line(const char *s, size_t n)
{
	size_t i = 0, h = 0;

	while (i < n && i < 8 &&
	       ((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		s[i] == '_'))
		i++;
	if (i < 2 || i >= n || s[i] != ':')
		return 0;
	i++;
	while (i < n && s[i] == ' ')
		i++;
	while (i + h < n && ((s[i + h] >= '0' && s[i + h] <= '9') ||
			     (s[i + h] >= 'a' && s[i + h] <= 'f')))
		h++;
	return h >= 4 && (i + h == n || s[i + h] == ' ' || s[i + h] == ':');
}

/* Memory and raw stack dumps: a first word of 8+ hex digits. */
static int is_hexdump_line(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n &&
	       ((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
		i++;
	return i >= 8 && (i == n || s[i] == ' ' || s[i] == ':');
}

static int is_named_context(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(context_prefixes) / sizeof(context_prefixes[0]);
	     i++)
		if (tl_starts(s, n, context_prefixes[i]))
			return 1;
	return 0;
}

static int is_context(const char *s, size_t n)
{
	return is_named_context(s, n) || is_register_line(s, n) ||
	       is_hexdump_line(s, n);
}

static int is_marker(const char *s, size_t n)
{
	return tl_starts(s, n, "<TASK>") || tl_starts(s, n, "</TASK>") ||
	       tl_starts(s, n, "<IRQ>") || tl_starts(s, n, "</IRQ>") ||
	       tl_starts(s, n, "<NMI>") || tl_starts(s, n, "</NMI>") ||
	       tl_starts(s, n, "<EOI>") || tl_starts(s, n, "<SOFTIRQ>") ||
	       tl_starts(s, n, "</SOFTIRQ>");
}

static void add_detail(struct report *r, const char *s, size_t n)
{
	size_t k = strlen(r->detail);

	if (k && k + 1 < sizeof(r->detail))
		r->detail[k++] = '\n';
	tl_copy(r->detail + k, sizeof(r->detail) - k, s, n);
}

/* A line of the shape of a UBSAN detail: one of kind_rules' needles. */
static int ubsan_detail_shape(const char *s, size_t n)
{
	char buf[DETAIL_MAX];

	tl_copy(buf, sizeof(buf), s, n);
	return strcmp(infer_kind(buf), "undefined-behaviour") != 0;
}

/*
 * Take a detail line. Lines of other tasks can fall between a UBSAN title
 * and its detail: a UBSAN detail has a known shape, so a line without it
 * is kept only while no detail has come, and replaced by the first line
 * that has it. Other reports keep every line.
 */
static void take_detail(struct slot *s, const char *l, size_t n)
{
	struct report *r = &s->r;

	if (report_is_ubsan(r) && !ubsan_detail_shape(l, n)) {
		if (r->detail[0])
			return;
		s->detail_guess = 1;
	} else if (s->detail_guess) {
		r->detail[0] = 0;
		s->detail_guess = 0;
		s->ndetail = 0;
	}
	s->ndetail++;
	add_detail(r, l, n);
}

static void body_line(struct parser *p, struct slot *s, const struct logline *l)
{
	struct report *r = &s->r;
	struct frame *f, extra;
	int kern;

	if (r->nframes < MAX_FRAMES) {
		f = &r->frames[r->nframes];
		if (tl_frame(l->s, l->n, f)) {
			s->state = ST_BODY;
			if (!s->stack_done)
				r->nframes++;
			goto plausible;
		}
	} else if (tl_frame(l->s, l->n, &extra)) {
		goto plausible; /* frames beyond MAX_FRAMES are dropped */
	}
	if (is_marker(l->s, l->n))
		goto plausible;
	/*
	 * A detail line may look like a hex dump ("2147483647 + 2 cannot be
	 * represented..."): right after the title, only the named context
	 * lines end the detail.
	 */
	if (s->state == ST_DETAIL && s->ndetail < 4 && !r->nframes &&
	    !is_named_context(l->s, l->n)) {
		take_detail(s, l->s, l->n);
		goto plausible;
	}
	if (tl_starts(l->s, l->n, "RIP: ")) {
		struct frame tmp;

		if (!r->has_rip && tl_rip(l->s, l->n, &tmp, &kern)) {
			r->rip = tmp;
			r->has_rip = 1;
			r->rip_kernel = kern;
		}
		goto context;
	}
	if (is_context(l->s, l->n)) {
		if (!r->access[0] && (patterns[r->pattern].flags & P_INFN)) {
			if (tl_starts(l->s, l->n, "Read of size"))
				strcpy(r->access, " Read");
			else if (tl_starts(l->s, l->n, "Write of size"))
				strcpy(r->access, " Write");
		}
		goto context;
	}
	if (s->state == ST_DETAIL && s->ndetail < 4) {
		take_detail(s, l->s, l->n);
		goto plausible;
	}
	if (++s->junk > JUNK_LIMIT)
		slot_close(p, s, 0);
	return;
context:
	if (r->nframes && !tl_starts(l->s, l->n, "Call Trace"))
		s->stack_done = 1;
	s->state = ST_BODY;
plausible:
	s->junk = 0;
}

static void slot_line(struct parser *p, struct slot *s, const struct logline *l)
{
	struct report *r = &s->r;
	int pat;

	if (is_eq_line(l->s, l->n)) {
		if (s->state == ST_PENDING) {
			s->framing = FR_EQ;
			return;
		}
		if (s->framing == FR_EQ ||
		    (s->framing == FR_NONE && report_is_ubsan(r) &&
		     !r->trapped)) {
			slot_close(p, s, 1);
			return;
		}
		slot_close(p, s, 0);
		idle_line(p, l);
		return;
	}
	if (is_cut_line(l->s, l->n)) {
		if (s->state == ST_PENDING) {
			s->framing = FR_CUT;
			return;
		}
		slot_close(p, s, 0);
		idle_line(p, l);
		return;
	}
	pat = match_header(l->s, l->n);
	if (s->state == ST_PENDING) {
		if (pat >= 0) {
			start_report(p, s, pat, l);
		} else if (++s->junk > 3) {
			s->state = ST_FREE;
			p->nactive--;
		}
		return;
	}
	if (pat >= 0) {
		if ((patterns[pat].flags & P_OOPS) && !r->nframes &&
		    !r->has_rip) {
			if (report_is_ubsan(r))
				r->trapped = 1;
			s->state = ST_BODY;
			s->junk = 0;
			return;
		}
		slot_close(p, s, 0);
		idle_line(p, l);
		return;
	}
	if (tl_starts(l->s, l->n, "---[ end ")) {
		slot_close(p, s, 1);
		return;
	}
	body_line(p, s, l);
}

void parser_line(struct parser *p, const char *raw, size_t n)
{
	struct logline l;
	struct slot *s;

	p->lineno++;
	tl_split(raw, n, &l);
	if (!p->nactive) {
		if (may_start(l.s, l.n))
			idle_line(p, &l);
		return;
	}
	s = slot_find(p, l.caller);
	if (s) {
		s->age = ++p->age;
		slot_line(p, s, &l);
	} else if (may_start(l.s, l.n)) {
		idle_line(p, &l);
	}
}

void parser_init(struct parser *p, report_cb cb, void *ctx)
{
	memset(p, 0, sizeof(*p));
	init_tables();
	p->cb = cb;
	p->ctx = ctx;
}

void parser_free(struct parser *p)
{
	free(p->buf);
	p->buf = NULL;
}

void parser_begin_log(struct parser *p, int log)
{
	p->log = log;
	p->lineno = 0;
	p->have_last_end = 0;
}

void parser_end_log(struct parser *p)
{
	int i;

	for (i = 0; i < NSLOTS; i++)
		if (p->slots[i].state != ST_FREE)
			slot_close(p, &p->slots[i], 0);
}

/* Feed whole lines of data; a final partial line only if final. */
void parser_feed(struct parser *p, const char *data, size_t n, int final)
{
	const char *s = data, *end = data + n, *nl;

	while (s < end) {
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl) {
			if (final)
				parser_line(p, s, (size_t)(end - s));
			return;
		}
		parser_line(p, s, (size_t)(nl - s));
		s = nl + 1;
	}
}

#define READ_CHUNK (4u << 20)

/* Read a whole log from fd in large chunks. Returns 0 or -errno. */
int parser_read_fd(struct parser *p, int fd)
{
	size_t have = 0;
	ssize_t got;
	char *nl, *s;

	if (!p->buf) {
		p->bufsz = READ_CHUNK;
		p->buf = malloc(p->bufsz);
		if (!p->buf)
			return -ENOMEM;
	}
	for (;;) {
		got = read(fd, p->buf + have, p->bufsz - have);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (got == 0)
			break;
		have += (size_t)got;
		s = p->buf;
		nl = memrchr(s, '\n', have);
		if (!nl) {
			if (have < p->bufsz)
				continue;
			/* an over-long line: cut it */
			parser_line(p, s, have);
			have = 0;
			continue;
		}
		parser_feed(p, s, (size_t)(nl + 1 - s), 0);
		have -= (size_t)(nl + 1 - s);
		memmove(p->buf, nl + 1, have);
	}
	if (have)
		parser_line(p, p->buf, have);
	return 0;
}

static const char *choose_func(const struct report *r)
{
	int src = patterns[r->pattern].fsrc;
	int i;

	if (src == FS_NONE)
		return "";
	if (r->hdr_func[0] && !is_machinery(r->hdr_func, r->pattern))
		return r->hdr_func;
	if ((src == FS_RIP || src == FS_HDR || r->trapped) && r->has_rip &&
	    r->rip_kernel && !is_machinery(r->rip.func, r->pattern))
		return r->rip.func;
	for (i = 0; i < r->nframes; i++)
		if (!r->frames[i].unreliable &&
		    !is_machinery(r->frames[i].func, r->pattern))
			return r->frames[i].func;
	/*
	 * Early in boot the unwinder marks every frame unreliable ("? "); with
	 * no reliable frame at all, the first unreliable one is the best guess.
	 */
	for (i = 0; i < r->nframes; i++)
		if (!r->frames[i].unreliable)
			return "";
	for (i = 0; i < r->nframes; i++)
		if (!is_machinery(r->frames[i].func, r->pattern))
			return r->frames[i].func;
	return "";
}

static void format_title(char *out, size_t sz, const char *fmt,
			 const struct report *r, const char *kind)
{
	size_t k = 0;
	const char *add;
	char one[2] = { 0, 0 };

	for (; *fmt && k + 1 < sz; fmt++) {
		if (fmt[0] == '%' && fmt[1]) {
			fmt++;
			add = *fmt == 'K' ? kind :
			      *fmt == 'F' ? (r->func[0] ? r->func : "?") :
			      *fmt == 'M' ? r->msg :
			      *fmt == 'A' ? r->access :
					    "";
		} else {
			one[0] = *fmt;
			add = one;
		}
		while (*add && k + 1 < sz)
			out[k++] = *add++;
	}
	out[k] = 0;
}

void report_finish(struct report *r)
{
	const struct pattern *pt = &patterns[r->pattern];
	size_t k;

	if (pt->flags & P_UBSAN) {
		if (r->old_style || !r->hdr_kind[0])
			tl_copy(r->kind, sizeof(r->kind), infer_kind(r->detail),
				strlen(infer_kind(r->detail)));
		else
			tl_copy(r->kind, sizeof(r->kind), r->hdr_kind,
				strlen(r->hdr_kind));
	} else {
		tl_copy(r->kind, sizeof(r->kind), pt->kind, strlen(pt->kind));
	}
	tl_norm_func(choose_func(r), r->func, sizeof(r->func));
	if (pt->fsrc != FS_NONE && !r->func[0])
		r->corrupted = 1;
	/* drop trailing blanks and "---" decorations of messages */
	k = strlen(r->msg);
	while (k && (r->msg[k - 1] == ' ' || r->msg[k - 1] == '-'))
		r->msg[--k] = 0;
	format_title(r->title, sizeof(r->title), pt->title, r, r->kind);
	format_title(r->syz_title, sizeof(r->syz_title), pt->title, r,
		     r->old_style ? "undefined-behaviour" : r->kind);
}
