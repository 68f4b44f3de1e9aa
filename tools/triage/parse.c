// SPDX-License-Identifier: GPL-2.0
/*
 * Report parser: a line-driven state machine with one slot per reporting
 * context (caller prefix), so that interleaved reports stay apart. Each
 * slot keeps its report's lines; when the report closes, the tables of
 * formats.c give it its title, guilty function and corrupted flag.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "triage.h"

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

/*
 * The names a UBSAN_TRAP kernel since 6.7 prints for a trap's check
 * (report_ubsan_failure(), "UBSAN: NAME at FUNC+OFF/LEN"; negation and
 * implicit conversion from the kit's patch 0021 on 6.12), as the kinds
 * the handlers and 6.1's patch 0020 name them.
 */
static const struct {
	const char *name;
	const char *kind;
} trap_names[] = {
	{ "array index out of bounds", "array-index-out-of-bounds" },
	{ "shift out of bounds", "shift-out-of-bounds" },
	{ "divide/remainder overflow", "division-overflow" },
	{ "unreachable code", "unreachable" },
	{ "loading invalid value", "invalid-load" },
	{ "alignment assumption", "alignment-assumption" },
	{ "type mismatch", "type-mismatch" },
	{ "integer addition overflow", "add-overflow" },
	{ "integer subtraction overflow", "sub-overflow" },
	{ "integer multiplication overflow", "mul-overflow" },
	{ "integer negation overflow", "negation-overflow" },
	{ "implicit integer conversion", "implicit-conversion" },
	{ "unrecognized failure code", "undefined-behaviour" },
};

/*
 * ST_LINGER: a report displaced by another one (or by too many lines not
 * its own) is not finished at once: like syzkaller, which reads a report
 * to the end of the log, it keeps its context's lines, for its title in
 * a caller context (else up to the next header) and for the corrupted
 * check, until the log ends, its slot is needed or a panic comes.
 */
enum { ST_FREE, ST_PENDING, ST_DETAIL, ST_BODY, ST_LINGER };
/* How a report ends: whole, displaced (lingers), or now (finished). */
enum { END_WHOLE, END_DISPLACED, END_NOW };
enum { FR_NONE, FR_EQ, FR_CUT };

/* A report slot gives up after this many lines that are not its own. */
#define JUNK_LIMIT 400
/* A panic this close after a report is that report's consequence. */
#define PANIC_WINDOW 100

/* Report text kept per slot, for the tables (formats.c). */
#define TEXT_MAX (128u << 10)
#define TEXT_LINES 2048
#define TEXT_LINE_MAX 1024
/* A panic after this many lines ends the report it falls in. */
#define PANIC_MIN_LINES 22
#define PANIC_MIN_LINES_KMSAN 16

int report_is_ubsan(const struct report *r)
{
	return r->fam == FAM_UBSAN;
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
	return n >= 24 && s[0] == '-' &&
	       !memcmp(s, "------------[ cut here ]", 24);
}

static int slot_active(const struct slot *s)
{
	return s->state != ST_FREE && s->state != ST_LINGER;
}

/* A UBSAN report whose stack has not begun: the title and detail only. */
static int before_stack(const struct slot *s)
{
	return (s->state == ST_DETAIL || s->state == ST_BODY) &&
	       report_is_ubsan(&s->r) && !s->r.nframes;
}

static void finish_report(struct parser *p, struct slot *s);

static void slot_finish(struct parser *p, struct slot *s)
{
	if (s->state == ST_LINGER)
		p->nlinger--;
	else
		p->nactive--;
	if (s->state == ST_DETAIL || s->state == ST_BODY ||
	    s->state == ST_LINGER) {
		finish_report(p, s);
		if (p->cb)
			p->cb(p->ctx, &s->r);
	}
	s->state = ST_FREE;
}

static void slot_text(struct slot *s, const char *t, size_t n);

/* l: the line that displaces the report (it is still the report's text). */
static void slot_close(struct parser *p, struct slot *s, int how,
		       const struct logline *l)
{
	struct report *r = &s->r;
	int needs_end = s->framing != FR_NONE || r->trapped ||
			report_is_ubsan(r);

	if (s->state == ST_DETAIL || s->state == ST_BODY) {
		r->truncated = needs_end && how != END_WHOLE;
		p->last_end = p->lineno;
		p->have_last_end = 1;
		if (how == END_DISPLACED) {
			if (s->tend < 0 && s->ctx <= CTX_CONSOLE)
				s->tend = s->tlines;
			if (l)
				slot_text(s, l->body, l->bn);
			s->state = ST_LINGER;
			p->nactive--;
			p->nlinger++;
			return;
		}
	}
	slot_finish(p, s);
}

static struct slot *slot_new(struct parser *p, unsigned long ctx)
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
		slot_close(p, old, END_NOW, NULL);
		s = old;
	}
	p->nactive++;
	s->ctx = ctx;
	s->junk = 0;
	s->ndetail = 0;
	s->detail_guess = 0;
	s->stack_done = 0;
	s->cpu_traceback = 0;
	s->guessed = 0;
	s->age = ++p->age;
	s->born = s->age;
	s->framing = FR_NONE;
	s->state = ST_PENDING;
	s->tlen = 0;
	s->tlines = 0;
	s->tend = -1;
	return s;
}

/*
 * Keep a line of the report for the tables; beyond the cap it is lost.
 * The kernel prints no line longer than 1024 bytes: longer is cut.
 */
static void slot_text(struct slot *s, const char *t, size_t n)
{
	size_t cap;
	char *nt;

	if (n > TEXT_LINE_MAX)
		n = TEXT_LINE_MAX;
	if (s->tlines >= TEXT_LINES || s->tlen + n + 1 > TEXT_MAX)
		return;
	if (s->tlen + n + 1 > s->tcap) {
		for (cap = s->tcap ? s->tcap : 4096; cap < s->tlen + n + 1;)
			cap *= 2;
		if (cap > TEXT_MAX)
			cap = TEXT_MAX;
		nt = realloc(s->text, cap);
		if (!nt)
			return;
		s->text = nt;
		s->tcap = cap;
	}
	memcpy(s->text + s->tlen, t, n);
	s->tlen += n;
	s->text[s->tlen++] = '\n';
	s->tlines++;
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

/* s: "UBSAN:" and the rest of the line. */
static void parse_ubsan(struct report *r, const char *s, size_t n)
{
	const char *b = s + 6, *end = s + n, *in, *loc;
	struct frame f;
	size_t i;

	if (b < end && *b == ' ')
		b++;
	in = tl_find(b, (size_t)(end - b), " in ");
	if (!in)
		in = tl_find(b, (size_t)(end - b), " at ");
	if (!in) {
		set_kind(r->hdr_kind, b, (size_t)(end - b));
		return;
	}
	set_kind(r->hdr_kind, b, (size_t)(in - b));
	for (i = 0; i < sizeof(trap_names) / sizeof(trap_names[0]); i++)
		if (tl_starts(b, (size_t)(in - b), trap_names[i].name) &&
		    (size_t)(in - b) == strlen(trap_names[i].name))
			tl_copy(r->hdr_kind, KIND_MAX, trap_names[i].kind,
				strlen(trap_names[i].kind));
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

/* The header's own facts: a UBSAN site, a WARNING's or a BUG's file:line. */
static void parse_header(struct report *r, const char *s, size_t n)
{
	const char *end = s + n, *a, *sp;

	if (r->fam == FAM_UBSAN) {
		parse_ubsan(r, s, n);
		return;
	}
	tl_copy(r->detail, sizeof(r->detail), s, n);
	if (r->fam == FAM_WARNING && tl_starts(s, n, "WARNING: CPU: ")) {
		a = tl_find(s, n, " at ");
		if (a) {
			a += 4;
			sp = memchr(a, ' ', (size_t)(end - a));
			parse_site(r, a, (size_t)((sp ? sp : end) - a));
		}
	}
	if (r->fam == FAM_KBUG && tl_starts(s, n, "kernel BUG at ")) {
		s += 14;
		a = memchr(s, '!', (size_t)(end - s));
		parse_site(r, s, (size_t)((a ? a : end) - s));
	}
}

/* A panic right after a report (Fatal exception, panic_on_warn). */
static int consequence(struct parser *p, int fam, const struct logline *l)
{
	return (fam_flags(fam) & FF_PANIC) && p->have_last_end &&
	       p->lineno - p->last_end <= PANIC_WINDOW &&
	       (tl_find(l->s, l->n, "Fatal exception") ||
		tl_find(l->s, l->n, "panic_on_warn"));
}

static void start_report(struct parser *p, struct slot *s, int fam, size_t hpos,
			 const struct logline *l)
{
	struct report *r = &s->r;
	const char *h = l->s + hpos;
	size_t hn = l->n - hpos;

	if (consequence(p, fam, l)) {
		s->state = ST_FREE;
		p->nactive--;
		return;
	}
	memset(r, 0, sizeof(*r));
	r->fam = fam;
	r->log = p->log;
	r->lineno = p->lineno;
	strcpy(r->workload, p->workload);
	parse_header(r, h, hn);
	s->kmsan = fam == FAM_BUG && tl_find(h, hn, "BUG: KMSAN:");
	s->tlen = 0;
	s->tlines = 0;
	slot_text(s, h, hn);
	s->state = fam == FAM_UBSAN ? ST_DETAIL : ST_BODY;
}

static void idle_line(struct parser *p, const struct logline *l, int fam,
		      size_t hpos)
{
	struct slot *s;

	if (is_eq_line(l->s, l->n) || is_cut_line(l->s, l->n)) {
		s = slot_new(p, l->ctx);
		s->framing = l->s[0] == '=' ? FR_EQ : FR_CUT;
		return;
	}
	if (fam < 0)
		return;
	s = slot_new(p, l->ctx);
	start_report(p, s, fam, hpos, l);
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
	static unsigned char first[256];
	size_t i;

	if (!first['H']) /* the prefixes' first characters */
		for (i = 0;
		     i < sizeof(context_prefixes) / sizeof(context_prefixes[0]);
		     i++)
			first[(unsigned char)context_prefixes[i][0]] = 1;
	if (!n || !first[(unsigned char)s[0]])
		return 0;

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
	if (is_context(l->s, l->n))
		goto context;
	if (s->state == ST_DETAIL && s->ndetail < 4) {
		take_detail(s, l->s, l->n);
		goto plausible;
	}
	if (++s->junk > JUNK_LIMIT)
		slot_close(p, s, END_DISPLACED, l);
	return;
context:
	if (r->nframes && !tl_starts(l->s, l->n, "Call Trace"))
		s->stack_done = 1;
	s->state = ST_BODY;
plausible:
	s->junk = 0;
}

/* A frame printed with "? ": syzkaller leaves it out of a report. */
static int questionable(const struct logline *l)
{
	if (l->ctx == CTX_NONE)
		return 0;
	if (!(memchr(l->body, '?', l->bn) && tl_find(l->body, l->bn, " ? ")) &&
	    !(l->n > 13 && !memcmp(l->s + l->n - 13, " (unreliable)", 13)))
		return 0;
	return !tl_find(l->s, l->n, "<EOI>");
}

/* Lines kept out of a report's text. */
static int not_text(const struct logline *l)
{
	return (l->marks & FF_QUIET) || questionable(l);
}

/* After enough of a report, a panic (or lockdep) is only its echo. */
static int echo_after(const struct slot *s, const struct logline *l)
{
	int min = s->kmsan ? PANIC_MIN_LINES_KMSAN : PANIC_MIN_LINES;

	return s->tlines > min &&
	       (tl_find(l->s, l->n, "Kernel panic - not syncing") ||
		tl_find(l->s, l->n,
			"WARNING: possible circular locking dependency "
			"detected"));
}

/* A header inside a report: does it end the report? */
static int header_in_report(struct parser *p, struct slot *s, int fam,
			    const struct logline *l)
{
	struct report *r = &s->r;
	int flags = fam_flags(fam);

	if ((flags & FF_OOPS) && report_is_ubsan(r) && !r->nframes &&
	    !r->has_rip) {
		/* the oops of a trap: the same report */
		r->trapped = 1;
		s->state = ST_BODY;
		s->junk = 0;
		slot_text(s, l->body, l->bn);
		return 0;
	}
	if ((flags & FF_PANIC) && echo_after(s, l)) {
		/* its consequence: the report is whole */
		slot_close(p, s, END_WHOLE, NULL);
		return 0;
	}
	if (flags & FF_CONT) {
		slot_text(s, l->body, l->bn);
		return 0;
	}
	return 1;
}

/* A displaced report's own context goes on: keep it for the tables. */
static void linger_line(struct parser *p, const struct logline *l)
{
	struct slot *s;
	int i;

	for (i = 0; i < NSLOTS; i++) {
		s = &p->slots[i];
		if (s->state != ST_LINGER ||
		    (s->ctx != l->ctx &&
		     !(s->cpu_traceback && (l->ctx & 0xff) == 'C')))
			continue;
		if (not_text(l))
			continue;
		if (echo_after(s, l)) {
			slot_finish(p, s);
			continue;
		}
		if (l->marks & FF_NMI)
			s->cpu_traceback = 1;
		slot_text(s, l->body, l->bn);
		if (s->tlines >= TEXT_LINES)
			slot_finish(p, s);
	}
}

/*
 * Without a caller id syzkaller's title text ends at the next header,
 * whoever prints it: freeze the title part of such reports.
 */
static void end_title_text(struct parser *p)
{
	int i;

	for (i = 0; i < NSLOTS; i++)
		if (p->slots[i].state != ST_FREE &&
		    p->slots[i].state != ST_PENDING &&
		    p->slots[i].ctx <= CTX_CONSOLE && p->slots[i].tend < 0)
			p->slots[i].tend = p->slots[i].tlines;
}

static void slot_line(struct parser *p, struct slot *s, const struct logline *l,
		      int fam, size_t hpos)
{
	if (is_eq_line(l->s, l->n)) {
		/* another task's report opens before this one's stack */
		if ((s->state == ST_PENDING && s->framing == FR_EQ) ||
		    (before_stack(s) && !s->r.trapped)) {
			idle_line(p, l, fam, hpos);
			return;
		}
		if (s->state == ST_PENDING) {
			s->framing = FR_EQ;
			return;
		}
		if (s->framing == FR_EQ ||
		    (s->framing == FR_NONE && report_is_ubsan(&s->r) &&
		     !s->r.trapped)) {
			slot_text(s, l->body, l->bn);
			slot_close(p, s, END_WHOLE, NULL);
			return;
		}
		slot_close(p, s, END_DISPLACED, l);
		idle_line(p, l, fam, hpos);
		return;
	}
	if (is_cut_line(l->s, l->n)) {
		if (s->state == ST_PENDING) {
			s->framing = FR_CUT;
			return;
		}
		slot_close(p, s, END_DISPLACED, l);
		idle_line(p, l, fam, hpos);
		return;
	}
	if (s->state == ST_PENDING) {
		if (fam >= 0) {
			start_report(p, s, fam, hpos, l);
		} else if (++s->junk > 3) {
			s->state = ST_FREE;
			p->nactive--;
		}
		return;
	}
	if (fam >= 0) {
		if (header_in_report(p, s, fam, l)) {
			slot_close(p, s, END_DISPLACED, l);
			idle_line(p, l, fam, hpos);
		}
		return;
	}
	if (l->n >= 9 && l->s[0] == '-' && !memcmp(l->s, "---[ end ", 9)) {
		slot_text(s, l->body, l->bn);
		slot_close(p, s, END_WHOLE, NULL);
		return;
	}
	if (l->marks & FF_NOISE) {
		slot_close(p, s, END_DISPLACED, l);
		return;
	}
	if (l->marks & FF_NMI)
		s->cpu_traceback = 1;
	if (!not_text(l))
		slot_text(s, l->body, l->bn);
	body_line(p, s, l);
}

/* Another CPU's backtrace lines, asked for by a report ("Sending NMI"). */
static struct slot *traceback_slot(struct parser *p, const struct logline *l)
{
	int i;

	if ((l->ctx & 0xff) != 'C')
		return NULL;
	for (i = 0; i < NSLOTS; i++)
		if (p->slots[i].state == ST_BODY && p->slots[i].cpu_traceback)
			return &p->slots[i];
	return NULL;
}

/*
 * The kit's init brackets each workload with "kit: workload begin NAME" and
 * "kit: workload end NAME ...": a report is attributed to the workload that
 * ran when it began.
 */
static void workload_marker(struct parser *p, const struct logline *l)
{
	static const char begin[] = "kit: workload begin ",
			  end[] = "kit: workload end ";
	const char *w = l->s + sizeof(begin) - 1;
	size_t n = 0;

	if (tl_starts(l->s, l->n, begin)) {
		while (n < l->n - (sizeof(begin) - 1) && w[n] != ' ' &&
		       w[n] != '\r')
			n++;
		tl_copy(p->workload, sizeof(p->workload), w, n);
	} else if (tl_starts(l->s, l->n, end)) {
		p->workload[0] = 0;
	}
}

/*
 * A stack begins while more than one report of the context waits for its
 * own: which CPU took the printk lock first is not in the text, so the
 * stack goes to the oldest report, and every waiting report is marked
 * corrupted (its function may be the other one's).
 */
static void guess_stack(struct parser *p, unsigned long ctx)
{
	struct slot *s;
	int i;

	for (i = 0; i < NSLOTS; i++) {
		s = &p->slots[i];
		if (slot_active(s) && s->ctx == ctx && before_stack(s))
			s->guessed = 1;
	}
}

/*
 * The open report a line belongs to. Two tasks' reports in one context
 * (no caller ids) interleave the way the kernel prints them: UBSAN's
 * framing, title and detail come unlocked, the stack dumps one CPU at a
 * time. So a header goes to the oldest report still waiting for one, a
 * UBSAN detail to the oldest report still without one, and every other
 * line (stack, closing line) to the oldest report of the context, until
 * it closes and the next one's stack follows.
 */
static struct slot *slot_route(struct parser *p, const struct logline *l,
			       int fam)
{
	struct slot *s, *first = NULL, *pending = NULL, *nodetail = NULL;
	struct frame f;
	int i, n = 0, waiting = 0;

	for (i = 0; i < NSLOTS; i++) {
		s = &p->slots[i];
		if (!slot_active(s) || s->ctx != l->ctx)
			continue;
		n++;
		if (!first || s->born < first->born)
			first = s;
		if (s->state == ST_PENDING &&
		    (!pending || s->born < pending->born))
			pending = s;
		waiting += before_stack(s);
		if (before_stack(s) && !s->ndetail &&
		    (!nodetail || s->born < nodetail->born))
			nodetail = s;
	}
	if (n < 2)
		return first;
	if (fam >= 0 && pending)
		return pending;
	if (fam < 0 && nodetail && ubsan_detail_shape(l->s, l->n))
		return nodetail;
	if (waiting > 1 && before_stack(first) && tl_frame(l->s, l->n, &f))
		guess_stack(p, l->ctx);
	return first;
}

void parser_line(struct parser *p, const char *raw, size_t n)
{
	struct logline l;
	struct slot *s;
	size_t hpos = 0;
	int fam;

	p->lineno++;
	tl_split(raw, n, &l);
	workload_marker(p, &l);
	fam = fam_scan(l.s, l.n, &hpos);
	/*
	 * A KTAP diagnostic ("# ..."): a test's own words, such as a
	 * stressor's "WARNING: finished prematurely", never a kernel header.
	 */
	if (l.n >= 2 && l.s[0] == '#' && l.s[1] == ' ')
		fam = -1;
	if (fam >= 0 && hpos && l.ctx == CTX_NONE)
		tl_resplit(&l, &hpos);
	l.marks = 0;
	if (!p->nactive && !p->nlinger) {
		if (fam >= 0 || (l.n && (l.s[0] == '=' || l.s[0] == '-')))
			idle_line(p, &l, fam, hpos);
		return;
	}
	l.marks = fam_marks(l.s, l.n);
	if ((fam >= 0 && !(fam_flags(fam) & FF_CONT)) || (l.marks & FF_NOISE))
		end_title_text(p);
	if (p->nlinger)
		linger_line(p, &l);
	s = slot_route(p, &l, fam);
	if (!s && fam < 0)
		s = traceback_slot(p, &l);
	if (s) {
		s->age = ++p->age;
		slot_line(p, s, &l, fam, hpos);
	} else {
		idle_line(p, &l, fam, hpos);
	}
}

void parser_init(struct parser *p, report_cb cb, void *ctx)
{
	memset(p, 0, sizeof(*p));
	fam_init();
	p->cb = cb;
	p->ctx = ctx;
}

void parser_free(struct parser *p)
{
	int i;

	for (i = 0; i < NSLOTS; i++) {
		free(p->slots[i].text);
		p->slots[i].text = NULL;
		p->slots[i].tcap = 0;
	}
	free(p->buf);
	p->buf = NULL;
	free(p->lines);
	p->lines = NULL;
	p->nlines = 0;
}

void parser_begin_log(struct parser *p, int log)
{
	p->workload[0] = 0;
	p->log = log;
	p->lineno = 0;
	p->have_last_end = 0;
}

void parser_end_log(struct parser *p)
{
	int i;

	for (i = 0; i < NSLOTS; i++)
		if (p->slots[i].state != ST_FREE)
			slot_close(p, &p->slots[i], END_NOW, NULL);
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

/*
 * A UBSAN report's function is the frame the site is in: the first
 * reliable frame past the sanitizer runtime and the stack printing. A
 * trap's is the RIP's.
 */
static const char *ubsan_func(const struct report *r)
{
	int i;

	if (r->hdr_func[0] && !never_guilty_ubsan(r->hdr_func))
		return r->hdr_func;
	if (r->trapped && r->has_rip && r->rip_kernel &&
	    !never_guilty_ubsan(r->rip.func))
		return r->rip.func;
	for (i = 0; i < r->nframes; i++)
		if (!r->frames[i].unreliable &&
		    !never_guilty_ubsan(r->frames[i].func))
			return r->frames[i].func;
	/*
	 * Early in boot the unwinder marks every frame unreliable ("? "); with
	 * no reliable frame at all, the first unreliable one is the best guess.
	 */
	for (i = 0; i < r->nframes; i++)
		if (!r->frames[i].unreliable)
			return "";
	for (i = 0; i < r->nframes; i++)
		if (!never_guilty_ubsan(r->frames[i].func))
			return r->frames[i].func;
	return "";
}

/* The kind of a crash report, from its title. */
static const struct {
	const char *title, *kind;
} crash_kinds[] = {
	{ "KASAN:", "kasan" },
	{ "KMSAN:", "kmsan" },
	{ "KCSAN:", "kcsan" },
	{ "KFENCE:", "kfence" },
	{ "BUG: unable to handle kernel NULL", "null-ptr-deref" },
	{ "BUG: unable to handle kernel", "paging-request" },
	{ "BUG: soft lockup", "soft-lockup" },
	{ "BUG: scheduling while atomic", "scheduling-while-atomic" },
	{ "BUG: sleeping function", "sleep-in-atomic" },
	{ "BUG: corrupted list", "list-corruption" },
	{ "BUG: Bad page", "bad-page" },
	{ "BUG: spinlock", "lockdep" },
	{ "BUG: rwlock", "lockdep" },
	{ "BUG: bad unlock balance", "lockdep" },
	{ "BUG: held lock freed", "lockdep" },
	{ "BUG: still has locks held", "lockdep" },
	{ "BUG: lock held", "lockdep" },
	{ "WARNING: refcount bug", "refcount" },
	{ "WARNING: locking bug", "lockdep" },
	{ "WARNING: bad unlock balance", "lockdep" },
	{ "WARNING: held lock freed", "lockdep" },
	{ "WARNING: nested lock", "lockdep" },
	{ "WARNING: still has locks held", "lockdep" },
	{ "WARNING: lock held", "lockdep" },
	{ "WARNING: suspicious RCU usage", "lockdep" },
	{ "INFO: suspicious RCU usage", "lockdep" },
	{ "INFO: trying to register non-static key", "lockdep" },
	{ "possible deadlock", "lockdep" },
	{ "inconsistent lock state", "lockdep" },
	{ "memory leak", "memory-leak" },
	{ "WARNING", "warning" },
	{ "INFO: task", "hung-task" },
	{ "INFO: rcu", "rcu-stall" },
	{ "general protection fault", "general-protection-fault" },
	{ "stack segment", "stack-segment-fault" },
	{ "kernel BUG", "kernel-bug" },
	{ "invalid opcode", "invalid-opcode" },
	{ "divide error", "divide-error" },
	{ "kernel panic", "panic" },
	{ "kernel stack overflow", "panic" },
	{ "PANIC: double fault", "double-fault" },
	{ "Internal error", "oops" },
	{ "Unhandled fault", "oops" },
	{ "Alignment trap", "oops" },
};

static void crash_kind(struct report *r)
{
	const char *k = "bug";
	size_t i;

	for (i = 0; i < sizeof(crash_kinds) / sizeof(crash_kinds[0]); i++)
		if (!strncmp(r->title, crash_kinds[i].title,
			     strlen(crash_kinds[i].title))) {
			k = crash_kinds[i].kind;
			break;
		}
	tl_copy(r->kind, sizeof(r->kind), k, strlen(k));
}

/* Split the slot's text into lines for the tables. */
static int text_lines(struct parser *p, struct slot *s)
{
	size_t i = 0, st;
	int n = 0;

	if (p->nlines < s->tlines) {
		struct tline *nl =
			realloc(p->lines, (size_t)s->tlines * sizeof(*nl));

		if (!nl)
			return 0;
		p->lines = nl;
		p->nlines = s->tlines;
	}
	while (i < s->tlen && n < s->tlines) {
		st = i;
		while (i < s->tlen && s->text[i] != '\n')
			i++;
		p->lines[n].s = s->text + st;
		p->lines[n].st = -1;
		p->lines[n++].n = i - st;
		i++;
	}
	return n;
}

/*
 * The function a title names: the identifier after its last " in " (as
 * syzkaller reads a title's frame); none for "in corrupted".
 */
static void title_frame(const char *t, char *out, size_t sz)
{
	const char *p, *e, *in = NULL, *ine = NULL;

	for (p = strstr(t, " in "); p; p = strstr(p + 1, " in ")) {
		for (e = p + 4;
		     (*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z') ||
		     (*e >= '0' && *e <= '9') || *e == '_';
		     e++)
			;
		if (e > p + 4) {
			in = p + 4;
			ine = e;
		}
	}
	out[0] = 0;
	if (in && !(ine - in == 9 && !strncmp(in, "corrupted", 9)))
		tl_copy(out, sz, in, (size_t)(ine - in));
}

static void finish_report(struct parser *p, struct slot *s)
{
	struct report *r = &s->r;
	struct verdict v;
	const char *kind;
	int n = text_lines(p, s);

	fam_extract(r->fam, p->lines, s->tend >= 0 && s->tend < n ? s->tend : n,
		    n, &v);
	r->corrupted = v.corrupted || s->guessed;
	if (!report_is_ubsan(r)) {
		tl_copy(r->title, sizeof(r->title), v.title, strlen(v.title));
		tl_copy(r->syz_title, sizeof(r->syz_title), v.title,
			strlen(v.title));
		title_frame(r->title, r->func, sizeof(r->func));
		if (!r->func[0])
			tl_copy(r->func, sizeof(r->func), v.func,
				strlen(v.func));
		crash_kind(r);
		return;
	}
	kind = r->old_style || !r->hdr_kind[0] ? infer_kind(r->detail) :
						 r->hdr_kind;
	tl_copy(r->kind, sizeof(r->kind), kind, strlen(kind));
	tl_norm_func(ubsan_func(r), r->func, sizeof(r->func));
	snprintf(r->title, sizeof(r->title), "UBSAN: %s in %s", r->kind,
		 r->func[0] ? r->func : "?");
	snprintf(r->syz_title, sizeof(r->syz_title), "UBSAN: %s in %s",
		 r->old_style ? "undefined-behaviour" : r->kind,
		 r->func[0] ? r->func : "?");
}
