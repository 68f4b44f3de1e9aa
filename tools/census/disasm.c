// SPDX-License-Identifier: GPL-2.0
/*
 * Handler calls and their static data, from llvm-objdump's disassembly.
 *
 * The output is read one function (ELF symbol) at a time. In a function,
 * a small data-flow analysis over the instructions in address order tracks
 * the constants each register may hold: "mov $imm, %reg", "lea
 * disp(%rip), %reg" (objdump prints the address in a comment) and register
 * copies. Values flow along fall-through and branches; where paths join,
 * a register keeps the union of what it may hold on each (up to MAXV
 * values, else it is unknown), passes repeat until the loops' joins are
 * stable. Calls forget the caller-saved registers, instructions not
 * understood forget what they may write. At each call, tail jump or
 * conditional jump to a handler, each value %rdi may hold is the static
 * data of one check: a call that Clang shared between checks (tail
 * merging: each path sets %rdi, then jumps to one call) gives a row per
 * check.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "census.h"

/* ---- registers ---- */

#define MAXV 32

/* the constants a register may hold; n == 0: not known */
struct vset {
	unsigned char n;
	unsigned long v[MAXV];
};

struct regs {
	struct vset r[NREGS];
};

/* names at 64, 32, 16 and 8 bits; index = the register's number here */
static const char *const reg_names[NREGS][4] = {
	{ "rax", "eax", "ax", "al" },	   { "rcx", "ecx", "cx", "cl" },
	{ "rdx", "edx", "dx", "dl" },	   { "rbx", "ebx", "bx", "bl" },
	{ "rsp", "esp", "sp", "spl" },	   { "rbp", "ebp", "bp", "bpl" },
	{ "rsi", "esi", "si", "sil" },	   { "rdi", "edi", "di", "dil" },
	{ "r8", "r8d", "r8w", "r8b" },	   { "r9", "r9d", "r9w", "r9b" },
	{ "r10", "r10d", "r10w", "r10b" }, { "r11", "r11d", "r11w", "r11b" },
	{ "r12", "r12d", "r12w", "r12b" }, { "r13", "r13d", "r13w", "r13b" },
	{ "r14", "r14d", "r14w", "r14b" }, { "r15", "r15d", "r15w", "r15b" },
};

/* the high bytes of the first four */
static const char *const reg_high[] = { "ah", "ch", "dh", "bh" };

#define ALL_REGS 0xffff

/* Mnemonics (with or without a b/w/l/q size suffix) that write registers
 * they do not name last, or that this reader does not model: they forget
 * every register. */
static const char *const forget_all[] = {
	"lock",	  "rep",     "repe",   "repne",	    "xchg",	  "cmpxchg",
	"xadd",	  "mul",     "div",    "idiv",	    "cqto",	  "cltd",
	"cltq",	  "cwtl",    "cpuid",  "rdtsc",	    "rdmsr",	  "rdpmc",
	"xgetbv", "syscall", "sysret", "movs",	    "stos",	  "lods",
	"cmps",	  "scas",    "ins",    "outs",	    "enter",	  "leave",
	"rdrand", "rdseed",  "in",     "cmpxchg8b", "cmpxchg16b", "rdtscp",
};

/* Mnemonics whose last register operand is read, not written. */
static const char *const reads_only[] = { "cmp", "test", "push", "bt" };

static int name_is(const char *name, const char *s, size_t n)
{
	return strlen(name) == n && !memcmp(name, s, n);
}

/* reg number and width (64, 32; 0 if narrower) of "%name", -1 if none */
int reg_parse(const char *s, size_t n, int *width)
{
	static const int widths[4] = { 64, 32, 0, 0 };
	int i, w;

	if (n < 2 || s[0] != '%')
		return -1;
	for (i = 0; i < NREGS; i++)
		for (w = 0; w < 4; w++)
			if (name_is(reg_names[i][w], s + 1, n - 1)) {
				*width = widths[w];
				return i;
			}
	for (i = 0; i < (int)ARRAY_SIZE(reg_high); i++)
		if (name_is(reg_high[i], s + 1, n - 1)) {
			*width = 0;
			return i;
		}
	return -1;
}

static void reg_forget(struct regs *r, int i)
{
	if (i >= 0)
		r->r[i].n = 0;
}

static void regs_forget(struct regs *r, unsigned int mask)
{
	int i;

	for (i = 0; i < NREGS; i++)
		if (mask & (1u << i))
			r->r[i].n = 0;
}

static void reg_set(struct regs *r, int i, int width, unsigned long v)
{
	if (width == 0) {
		reg_forget(r, i);
		return;
	}
	r->r[i].n = 1;
	r->r[i].v[0] = width == 32 ? (v & 0xffffffffUL) : v;
}

/* %d = %s, both of width (64 or 32) */
static void reg_copy(struct regs *r, int d, int s, int width)
{
	int k;

	if (width == 0) {
		reg_forget(r, d);
		return;
	}
	r->r[d] = r->r[s];
	if (width == 32)
		for (k = 0; k < r->r[d].n; k++)
			r->r[d].v[k] &= 0xffffffffUL;
}

static int vset_has(const struct vset *a, unsigned long v)
{
	int k;

	for (k = 0; k < a->n; k++)
		if (a->v[k] == v)
			return 1;
	return 0;
}

/* a = a | b; unknown if either is, or if it grows past MAXV */
static void vset_join(struct vset *a, const struct vset *b)
{
	int k;

	if (!a->n || !b->n) {
		a->n = 0;
		return;
	}
	for (k = 0; k < b->n && a->n; k++) {
		if (vset_has(a, b->v[k]))
			continue;
		if (a->n == MAXV)
			a->n = 0;
		else
			a->v[a->n++] = b->v[k];
	}
}

static void regs_join(struct regs *a, const struct regs *b)
{
	int i;

	for (i = 0; i < NREGS; i++)
		vset_join(&a->r[i], &b->r[i]);
}

static int regs_equal(const struct regs *a, const struct regs *b)
{
	int i, k;

	for (i = 0; i < NREGS; i++) {
		if (a->r[i].n != b->r[i].n)
			return 0;
		for (k = 0; k < a->r[i].n; k++)
			if (!vset_has(&b->r[i], a->r[i].v[k]))
				return 0;
	}
	return 1;
}

/* ---- operands ---- */

/* Split "a, b(%x,%y), c" at the commas outside parentheses. */
void ops_split(const char *s, struct operands *o)
{
	const char *start = s;
	int depth = 0;

	o->count = 0;
	if (!*s)
		return;
	for (;; s++) {
		if (*s == '(')
			depth++;
		else if (*s == ')')
			depth--;
		if ((*s == ',' && depth == 0) || !*s) {
			if (o->count < 3) {
				while (*start == ' ')
					start++;
				o->s[o->count] = start;
				o->n[o->count] = s - start;
				o->count++;
			}
			if (!*s)
				break;
			start = s + 1;
		}
	}
}

/* m is base, or base and a size suffix */
int mnem_sized(const char *m, const char *base)
{
	size_t n = strlen(base);

	return !strncmp(m, base, n) &&
	       (!m[n] || (strchr("bwlq", m[n]) && !m[n + 1]));
}

/* m is one of list, or one of list and a size suffix */
int mnem_sized_in(const char *m, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (mnem_sized(m, list[i]))
			return 1;
	return 0;
}

int insn_unmodelled(const char *m, const struct operands *o)
{
	return mnem_sized_in(m, forget_all, ARRAY_SIZE(forget_all)) ||
	       (!strncmp(m, "imul", 4) && o->count == 1);
}

static int prefix_in(const char *m, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strncmp(m, list[i], strlen(list[i])))
			return 1;
	return 0;
}

/* "$-0x7e000000" or "$0x1234": a sign-extended immediate */
int imm_parse(const char *s, size_t n, unsigned long *v)
{
	char buf[40];
	char *end;
	int neg = 0;

	if (n < 2 || n >= sizeof(buf) || s[0] != '$')
		return -1;
	memcpy(buf, s + 1, n - 1);
	buf[n - 1] = 0;
	end = buf;
	if (*end == '-') {
		neg = 1;
		end++;
	}
	*v = strtoul(end, &end, 0);
	if (*end)
		return -1;
	if (neg)
		*v = -*v;
	return 0;
}

/* ---- one instruction ---- */

static int is_mov(const char *m)
{
	return !strcmp(m, "movq") || !strcmp(m, "movl") ||
	       !strcmp(m, "movabsq") || !strcmp(m, "mov");
}

/* The effect of a non-branch instruction on r. */
static void insn_apply(const struct insn *in, struct regs *r)
{
	struct operands o;
	int d, s, dw, sw;
	unsigned long v;

	ops_split(in->ops, &o);
	if (insn_unmodelled(in->mnem, &o)) {
		regs_forget(r, ALL_REGS);
		return;
	}
	if (o.count == 0)
		return;
	d = reg_parse(o.s[o.count - 1], o.n[o.count - 1], &dw);
	if (d < 0)
		return; /* a memory destination, or none */
	if (o.count == 2 && is_mov(in->mnem)) {
		if (!imm_parse(o.s[0], o.n[0], &v)) {
			reg_set(r, d, dw, v);
			return;
		}
		s = reg_parse(o.s[0], o.n[0], &sw);
		if (s >= 0 && sw == dw) {
			reg_copy(r, d, s, dw);
			return;
		}
	}
	if (o.count == 2 && !strcmp(in->mnem, "leaq") && in->comment_addr &&
	    memmem(o.s[0], o.n[0], "(%rip)", 6)) {
		reg_set(r, d, dw, in->comment_addr);
		return;
	}
	if (!prefix_in(in->mnem, reads_only, ARRAY_SIZE(reads_only)) ||
	    !strncmp(in->mnem, "bts", 3) || !strncmp(in->mnem, "btr", 3) ||
	    !strncmp(in->mnem, "btc", 3))
		reg_forget(r, d);
}

enum flow insn_flow(const char *m)
{
	if (!strncmp(m, "call", 4))
		return FLOW_CALL;
	if (!strncmp(m, "jmp", 3))
		return FLOW_JMP;
	if (m[0] == 'j' || !strncmp(m, "loop", 4))
		return FLOW_JCC;
	if (!strncmp(m, "ret", 3) || !strcmp(m, "ud2") || !strcmp(m, "int3") ||
	    !strcmp(m, "hlt") || !strncmp(m, "iret", 4) ||
	    !strncmp(m, "sysret", 6))
		return FLOW_END;
	return FLOW_NEXT;
}

/* the handler a branch goes to: its operand is "0x... <symbol>" */
const struct handler *insn_handler(const struct insn *in)
{
	const char *lt = strchr(in->ops, '<'), *gt;

	if (!lt || in->ops[0] == '*')
		return NULL;
	gt = strchr(lt, '>');
	if (!gt)
		return NULL;
	return handler_find(lt + 1, gt - lt - 1);
}

/* ---- one function ---- */

static int calls_push(struct calls *c, const struct call *x)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 1024;
		struct call *v = realloc(c->v, cap * sizeof(*v));

		if (!v)
			return -1;
		c->v = v;
		c->cap = cap;
	}
	c->v[c->n++] = *x;
	return 0;
}

long insn_index(const struct insn *v, size_t n, unsigned long addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].addr == addr ? (long)lo : -1;
}

/* the state at the branch targets: the join of every edge into them */
struct joins {
	long *slot; /* per instruction: its index in in[], -1 if no target */
	struct regs *in;
	unsigned char *has; /* an edge into slot k was seen */
	int changed; /* a backward edge brought something new */
	int widen; /* give up on loops: backward targets are unknown */
};

static void joins_add(struct joins *j, const struct insn *v, size_t n,
		      size_t from, const struct regs *r)
{
	long t = insn_index(v, n, v[from].target), k;
	struct regs next;

	if (t < 0)
		return;
	k = j->slot[t];
	next = *r;
	if (j->has[k])
		regs_join(&next, &j->in[k]);
	if ((size_t)t <= from && j->widen)
		regs_forget(&next, ALL_REGS);
	if (!j->has[k] || !regs_equal(&next, &j->in[k])) {
		if ((size_t)t <= from)
			j->changed = 1;
		j->in[k] = next;
		j->has[k] = 1;
	}
}

/* A slot for each instruction that a branch of the function targets. */
static int joins_init(struct joins *j, const struct insn *v, size_t n)
{
	size_t i, nslots = 0;
	long t;

	j->slot = malloc(n * sizeof(*j->slot));
	if (!j->slot)
		return -1;
	for (i = 0; i < n; i++)
		j->slot[i] = -1;
	for (i = 0; i < n; i++) {
		t = v[i].target ? insn_index(v, n, v[i].target) : -1;
		if (t >= 0 && j->slot[t] < 0)
			j->slot[t] = nslots++;
	}
	j->in = malloc((nslots ? nslots : 1) * sizeof(*j->in));
	j->has = calloc(nslots ? nslots : 1, 1);
	return j->in && j->has ? 0 : -1;
}

/* The state at the entry of instruction i. */
static void state_enter(const struct joins *j, size_t i, int live,
			struct regs *r)
{
	long k = j->slot[i];

	if (!live)
		regs_forget(r, ALL_REGS);
	if (k < 0 || !j->has[k])
		return;
	if (live)
		regs_join(r, &j->in[k]);
	else
		*r = j->in[k];
}

static int record_calls(const char *symbol, const struct insn *in,
			const struct handler *h, enum flow fl,
			const struct regs *r, struct calls *out)
{
	const struct vset *rdi = &r->r[RDI];
	struct call c = { 0 };
	int k;

	c.addr = in->addr;
	c.h = h;
	c.branch = fl == FLOW_CALL ? 0 : fl == FLOW_JMP ? 1 : 2;
	c.shared = rdi->n > 1 ? rdi->n : 1;
	if (!rdi->n)
		c.why = "%rdi not a constant at the call";
	for (k = 0; k < (rdi->n ? rdi->n : 1); k++) {
		c.data = rdi->n ? rdi->v[k] : 0;
		c.symbol = strdup(symbol);
		if (!c.symbol || calls_push(out, &c))
			return -1;
	}
	return 0;
}

/* One pass over the function; with out, record the handler calls. */
static int walk(const char *symbol, const struct insn *v, size_t n,
		struct joins *j, struct calls *out)
{
	struct regs r;
	const struct handler *h;
	enum flow fl;
	int live;
	size_t i;

	regs_forget(&r, ALL_REGS);
	j->changed = 0;
	live = 1; /* the entry: nothing known */
	for (i = 0; i < n; i++) {
		state_enter(j, i, live, &r);
		live = 1;
		fl = insn_flow(v[i].mnem);
		h = fl == FLOW_NEXT || fl == FLOW_END ? NULL :
							insn_handler(&v[i]);
		if (h && out && record_calls(symbol, &v[i], h, fl, &r, out))
			return -1;
		switch (fl) {
		case FLOW_NEXT:
			insn_apply(&v[i], &r);
			break;
		case FLOW_CALL:
			regs_forget(&r, CALLER_SAVED);
			break;
		case FLOW_JCC:
			joins_add(j, v, n, i, &r);
			break;
		case FLOW_JMP:
			joins_add(j, v, n, i, &r);
			live = 0;
			break;
		case FLOW_END:
			live = 0;
			break;
		}
	}
	return 0;
}

#define MAX_PASSES 16

int disasm_function(const char *symbol, const struct insn *v, size_t n,
		    struct calls *out)
{
	struct joins j = { 0 };
	size_t first = out->n;
	int pass, ret = -1;

	if (joins_init(&j, v, n))
		goto out;
	for (pass = 0; pass < MAX_PASSES; pass++) {
		walk(symbol, v, n, &j, NULL);
		if (!j.changed)
			break;
	}
	if (j.changed) {
		j.widen = 1;
		walk(symbol, v, n, &j, NULL);
	}
	ret = walk(symbol, v, n, &j, out);
	if (!ret && out->branches)
		branches_function(v, n, out, first);
out:
	free(j.slot);
	free(j.in);
	free(j.has);
	return ret;
}

/* ---- llvm-objdump's output ---- */

/* "ffffffff81000000 <name>:": the name, NULL if not such a line */
static char *parse_symbol(const char *l)
{
	const char *lt = strchr(l, '<'), *gt;

	if (!isxdigit((unsigned char)l[0]) || !lt)
		return NULL;
	gt = strrchr(lt, '>');
	if (!gt || gt[1] != ':')
		return NULL;
	return strndup(lt + 1, gt - lt - 1);
}

static unsigned long hex_after(const char *s)
{
	while (*s == ' ')
		s++;
	return strtoul(s, NULL, 16);
}

/* "  addr:\tmnem\toperands  # comment" */
static int parse_insn(const char *l, struct insn *in)
{
	const char *p, *m, *ops, *hash;
	char *end;
	size_t n;

	in->addr = strtoul(l, &end, 16);
	if (end == l || *end != ':')
		return 0;
	for (p = end + 1; *p == ' ' || *p == '\t'; p++)
		;
	for (m = p; *p && *p != '\t' && *p != ' ' && *p != '\n'; p++)
		;
	n = p - m;
	if (!n || n >= sizeof(in->mnem))
		return 0;
	memcpy(in->mnem, m, n);
	in->mnem[n] = 0;
	while (*p == '\t' || *p == ' ')
		p++;
	ops = p;
	hash = strstr(ops, "# ");
	n = hash ? (size_t)(hash - ops) : strcspn(ops, "\n");
	while (n && (ops[n - 1] == ' ' || ops[n - 1] == '\t'))
		n--;
	if (n >= sizeof(in->ops))
		n = sizeof(in->ops) - 1;
	memcpy(in->ops, ops, n);
	in->ops[n] = 0;
	in->comment_addr = hash && !strncmp(hash + 2, "0x", 2) ?
				   strtoul(hash + 2, NULL, 16) :
				   0;
	in->target = 0;
	if (insn_flow(in->mnem) != FLOW_NEXT && in->ops[0] != '*')
		in->target = hex_after(in->ops);
	return 1;
}

struct fn_buf {
	struct insn *v;
	size_t n, cap;
	char *symbol;
};

static int fn_flush(struct fn_buf *f, struct calls *out)
{
	int ret = 0;

	if (f->n && f->symbol)
		ret = disasm_function(f->symbol, f->v, f->n, out);
	f->n = 0;
	return ret;
}

static int fn_push(struct fn_buf *f, const struct insn *in)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 4096;
		struct insn *v = realloc(f->v, cap * sizeof(*v));

		if (!v)
			return -1;
		f->v = v;
		f->cap = cap;
	}
	f->v[f->n++] = *in;
	return 0;
}

int disasm_calls(const char *objdump, const char *path, struct calls *out)
{
	char *argv[] = { (char *)objdump, "-d", "--no-show-raw-insn",
			 (char *)path, NULL };
	struct fn_buf f = { 0 };
	struct insn in;
	char *line = NULL, *sym;
	size_t cap = 0;
	int ret = 0;
	FILE *o;
	pid_t pid;

	o = proc_open(argv, -1, &pid);
	if (!o)
		return -1;
	while (!ret && getline(&line, &cap, o) > 0) {
		if (line[0] == '\n' || !strncmp(line, "Disassembly of", 14)) {
			ret = fn_flush(&f, out);
		} else if ((sym = parse_symbol(line))) {
			ret = fn_flush(&f, out);
			free(f.symbol);
			f.symbol = sym;
		} else if (parse_insn(line, &in)) {
			ret = fn_push(&f, &in);
		}
	}
	if (!ret)
		ret = fn_flush(&f, out);
	free(line);
	free(f.v);
	free(f.symbol);
	if (proc_close(o, pid))
		ret = -1;
	return ret;
}
