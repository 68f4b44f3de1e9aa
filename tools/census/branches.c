// SPDX-License-Identifier: GPL-2.0
/*
 * Where each check is decided, and what it adds (ubsan-census --branches).
 *
 * Clang 19 lays a recoverable check out as a conditional jump: one side
 * reaches, through straight-line code and unconditional jumps, a block that
 * loads the handler's arguments and calls it (out of line, marked
 * unlikely), the other side goes on with the function. The check runs
 * each time that jump runs, whichever way it goes: counting the jump's
 * executions counts the check's. Here, each side of every conditional jump
 * of a function is followed up to its first branch or call; if that is one
 * of our handlers, the jump decides that handler call's check. Where Clang
 * merged the calls of several checks into one (tail merging), each path
 * sets %rdi to its own static data before it jumps to the shared call: the
 * path's "mov $imm, %rdi" or "lea disp(%rip), %rdi" names its row; a path
 * that sets no constant there is every row's of that call. A call that no
 * conditional jump leads to (a conditional jump straight to the handler is
 * its own) is counted at the call itself, adding nothing.
 *
 * What a check adds where it passes, in instructions: the jump; the
 * instruction that set its flags, if it computes nothing else (a cmp or a
 * test, or an instruction whose register result is read by nothing after
 * the jump on the passing side, as in "mov %r14, %rcx; shr $32, %rcx;
 * jne"); and, going back through the same basic block, every instruction
 * whose result only those read (the movslq of "movslq %eax, %rcx; cmp
 * %rax, %rcx; jne"). "add; jo" adds one. Liveness past the jump is
 * followed for LIVE_BUDGET instructions along the passing side; what that
 * does not decide counts as read, so the figure errs low. It cannot see
 * what the check costs the optimizer (values kept for the handler, loops
 * that are not unrolled or vectorized): that needs a kernel without the
 * checks to compare with.
 */
#include <stdlib.h>
#include <string.h>

#include "census.h"

#define FLAGS (1u << NREGS)
#define ALL ((1u << NREGS) - 1)
#define REG(r) (1u << (r))
#define RAX 0
#define RDX 2
#define RSP 4
/* the arguments of a call, System V: rdi rsi rdx rcx r8 r9 */
#define ARGS 0x03c6
/* preserved by a call: rbx rsp rbp r12-r15 */
#define CALLEE_SAVED 0xf038
#define SIDE_STEPS 64
#define LIVE_BUDGET 48
#define RUN_MAX 32

/* registers and flags an instruction reads, writes whole, or may write */
struct use {
	unsigned int reads, writes, clobbers;
	int dst; /* the register it writes, -1 if none */
	int cmp; /* it only sets the flags: cmp, test, bt */
};

static int starts(const char *m, const char *p)
{
	return !strncmp(m, p, strlen(p));
}

/* Not modelled beyond insn_unmodelled()'s: system instructions, which read
 * registers or state they do not name. */
static const char *const system_insns[] = {
	"wrmsr", "out", "swapgs", "xsave", "xrstor", "fxsave", "fxrstor",
};

/* The registers of operand s (n bytes): its register, or the ones its
 * address uses; *reg: the operand's register, -1 if it is not one. */
static unsigned int op_regs(const char *s, size_t n, int *reg, int *width)
{
	unsigned int m = 0;
	size_t i, k;
	int r, w;

	*reg = reg_parse(s, n, width);
	if (*reg >= 0)
		return REG(*reg);
	for (i = 0; i < n; i++) {
		if (s[i] != '%')
			continue;
		for (k = i + 1; k < n && s[k] >= '0' && s[k] <= 'z'; k++)
			;
		r = reg_parse(s + i, k - i, &w);
		if (r >= 0)
			m |= REG(r);
	}
	return m;
}

static void insn_use(const struct insn *in, struct use *u)
{
	const char *m = in->mnem;
	unsigned int src = 0, dregs = 0, fl;
	struct operands o;
	int k, reg, width, dreg = -1, dwidth = 0, move, keeps_flags;

	memset(u, 0, sizeof(*u));
	u->dst = -1;
	if (starts(m, "nop"))
		return;
	ops_split(in->ops, &o);
	if (insn_unmodelled(m, &o) ||
	    mnem_sized_in(m, system_insns, ARRAY_SIZE(system_insns))) {
		u->reads = ALL | FLAGS;
		u->clobbers = ALL | FLAGS;
		return;
	}
	for (k = 0; k + 1 < o.count; k++)
		src |= op_regs(o.s[k], o.n[k], &reg, &width);
	if (o.count)
		dregs = op_regs(o.s[o.count - 1], o.n[o.count - 1], &dreg,
				&dwidth);
	fl = starts(m, "cmov") || starts(m, "set") || starts(m, "adc") ||
			     starts(m, "sbb") || starts(m, "rcl") ||
			     starts(m, "rcr") ?
		     FLAGS :
		     0;
	if (mnem_sized(m, "cmp") || mnem_sized(m, "test") ||
	    mnem_sized(m, "bt")) {
		u->reads = src | dregs;
		u->writes = FLAGS;
		u->cmp = 1;
		return;
	}
	if (starts(m, "push")) {
		u->reads = src | dregs | REG(RSP);
		return;
	}
	move = starts(m, "mov") || starts(m, "lea") || starts(m, "pop");
	keeps_flags = move || starts(m, "cmov") || starts(m, "set") ||
		      starts(m, "bswap") || starts(m, "not") ||
		      starts(m, "push");
	if (dreg < 0) {
		/* a store, a read-modify-write of memory, or no operand */
		u->reads = src | dregs | fl;
		u->writes = keeps_flags ? 0 : FLAGS;
		return;
	}
	u->reads = src | fl;
	/* a read-modify-write, or a partial write */
	if (!move || !dwidth)
		u->reads |= REG(dreg);
	if (starts(m, "xor") && o.count == 2 && o.n[0] == o.n[1] &&
	    !memcmp(o.s[0], o.s[1], o.n[0]))
		u->reads &= ~REG(dreg); /* the zeroing idiom */
	if (starts(m, "pop"))
		u->reads |= REG(RSP);
	u->writes = REG(dreg) | (keeps_flags ? 0 : FLAGS);
	u->dst = dreg;
}

/* A call's registers: what the callee reads. An indirect call, or a thunk
 * named after the register it jumps through, reads everything. */
static unsigned int call_reads(const struct insn *in)
{
	if (in->ops[0] == '*' || strstr(in->ops, "thunk"))
		return ALL;
	return ARGS | REG(RAX);
}

/*
 * Of the registers (and flags) in want, those read on some path from
 * instruction i on before being written. *budget counts the instructions
 * looked at; what it does not decide is read.
 */
static unsigned int live_from(const struct insn *v, size_t n, long i,
			      unsigned int want, int *budget)
{
	unsigned int live = 0;
	struct use u;
	long t;

	while (want) {
		if (i < 0 || (size_t)i >= n || (*budget)-- <= 0)
			return live | want;
		switch (insn_flow(v[i].mnem)) {
		case FLOW_NEXT:
			insn_use(&v[i], &u);
			live |= want & u.reads;
			want &= ~(u.reads | u.writes);
			i++;
			break;
		case FLOW_CALL:
			live |= want & call_reads(&v[i]);
			want &= ~(call_reads(&v[i]) | CALLER_SAVED | FLAGS);
			i++;
			break;
		case FLOW_JCC:
			live |= want & FLAGS;
			want &= ~FLAGS;
			t = v[i].target ? insn_index(v, n, v[i].target) : -1;
			live |= live_from(v, n, t, want, budget);
			want &= ~live;
			i++;
			break;
		case FLOW_JMP:
			t = v[i].target ? insn_index(v, n, v[i].target) : -1;
			if (t < 0) /* a tail call, or indirect */
				return live | want;
			i = t;
			break;
		case FLOW_END:
			if (starts(v[i].mnem, "ret"))
				live |= want &
					(REG(RAX) | REG(RDX) | CALLEE_SAVED);
			return live;
		}
	}
	return live;
}

/* Does an instruction in v[from, to) read a register of m (ignoring those
 * marked in skip), before writing it? */
static int read_between(const struct insn *v, long from, long to,
			unsigned int m, const unsigned char *skip, long base)
{
	struct use u;
	long k;

	for (k = from; k < to && m; k++) {
		if (skip[k - base])
			continue;
		insn_use(&v[k], &u);
		if (u.reads & m)
			return 1;
		m &= ~u.writes;
	}
	return 0;
}

/*
 * The instructions the check decided by the conditional jump v[b] adds
 * where it passes (the side that starts at v[pass]).
 */
static int check_added(const struct insn *v, size_t n, long b, long pass,
		       const unsigned char *target)
{
	unsigned char charged[RUN_MAX] = { 0 };
	unsigned int need, after;
	int added = 1, budget = LIVE_BUDGET;
	long lo = b, f, k;
	struct use u;

	while (lo > 0 && b - lo < RUN_MAX && !target[lo] &&
	       insn_flow(v[lo - 1].mnem) == FLOW_NEXT)
		lo--;
	for (f = b - 1; f >= lo; f--) {
		insn_use(&v[f], &u);
		if ((u.writes | u.clobbers) & FLAGS)
			break;
	}
	if (f < lo || u.clobbers)
		return added;
	after = live_from(v, n, pass, ALL | FLAGS, &budget);
	if (after & FLAGS)
		return added; /* the flags serve the code too */
	if (read_between(v, f + 1, b, FLAGS, charged, lo))
		return added; /* the flags serve the code too */
	if (!u.cmp && (u.dst < 0 || (after & REG(u.dst)) ||
		       read_between(v, f + 1, b, REG(u.dst), charged, lo)))
		return added; /* it computes a value the code uses */
	charged[f - lo] = 1;
	added++;
	need = u.reads & ~FLAGS;
	for (k = f - 1; k >= lo && need; k--) {
		insn_use(&v[k], &u);
		if (!(u.writes & need))
			continue;
		need &= ~u.writes;
		if (u.dst < 0 || u.clobbers || (after & REG(u.dst)) ||
		    read_between(v, k + 1, b, REG(u.dst), charged, lo))
			continue; /* its value serves more than the check */
		charged[k - lo] = 1;
		added++;
		need |= u.reads & ~FLAGS;
	}
	return added;
}

/* The static data an instruction puts in %rdi: 0 if not a constant. */
static unsigned long rdi_value(const struct insn *in)
{
	struct operands o;
	unsigned long v;
	int w;

	ops_split(in->ops, &o);
	if (o.count != 2 || reg_parse(o.s[1], o.n[1], &w) != RDI || !w)
		return 0;
	if (starts(in->mnem, "mov") && !imm_parse(o.s[0], o.n[0], &v))
		return w == 32 ? v & 0xffffffffUL : v;
	if (!strcmp(in->mnem, "leaq") && in->comment_addr &&
	    memmem(o.s[0], o.n[0], "(%rip)", 6))
		return in->comment_addr;
	return 0;
}

/*
 * Follow the side of a jump that starts at v[i] through straight-line code
 * and unconditional jumps. The index of the handler call (or jump) it
 * reaches before any other branch or call, -1 if none; *rdi: the constant
 * the path puts in %rdi, 0 if it sets none.
 */
static long side_handler(const struct insn *v, size_t n, long i,
			 unsigned long *rdi)
{
	enum flow fl;
	struct use u;
	int steps;

	*rdi = 0;
	for (steps = 0; steps < SIDE_STEPS; steps++, i++) {
		if (i < 0 || (size_t)i >= n)
			return -1;
		fl = insn_flow(v[i].mnem);
		if (fl == FLOW_NEXT) {
			insn_use(&v[i], &u);
			if ((u.writes | u.clobbers) & REG(RDI))
				*rdi = rdi_value(&v[i]);
			continue;
		}
		if ((fl == FLOW_CALL || fl == FLOW_JMP) && insn_handler(&v[i]))
			return i;
		if (fl != FLOW_JMP || !v[i].target)
			return -1;
		/* the next round starts at the target */
		i = insn_index(v, n, v[i].target) - 1;
	}
	return -1;
}

static void attach(struct calls *out, size_t first, unsigned long call,
		   unsigned long rdi, unsigned long jump, int added)
{
	struct call *c;
	int k;

	for (c = out->v + first; c < out->v + out->n; c++) {
		if (c->addr != call || (rdi && c->data && c->data != rdi))
			continue;
		for (k = 0; k < c->nbr && c->br[k] != jump; k++)
			;
		if (k < c->nbr)
			continue;
		if (c->nbr == MAX_BRANCHES) {
			c->br_more = 1;
			continue;
		}
		c->br[c->nbr] = jump;
		c->added[c->nbr++] = added > 255 ? 255 : added;
	}
}

void branches_function(const struct insn *v, size_t n, struct calls *out,
		       size_t first)
{
	unsigned char *target;
	unsigned long rdi;
	struct call *c;
	long i, t, h, side[2];
	int s;

	if (first == out->n)
		return;
	target = calloc(n ? n : 1, 1);
	if (!target)
		return;
	for (i = 0; i < (long)n; i++) {
		t = v[i].target ? insn_index(v, n, v[i].target) : -1;
		if (t >= 0)
			target[t] = 1;
	}
	for (i = 0; i < (long)n; i++) {
		if (insn_flow(v[i].mnem) != FLOW_JCC)
			continue;
		if (insn_handler(&v[i])) {
			/* a conditional jump straight to the handler */
			attach(out, first, v[i].addr, 0, v[i].addr,
			       check_added(v, n, i, i + 1, target));
			continue;
		}
		side[0] = v[i].target ? insn_index(v, n, v[i].target) : -1;
		side[1] = i + 1;
		for (s = 0; s < 2; s++) {
			h = side_handler(v, n, side[s], &rdi);
			if (h >= 0 && side[!s] >= 0)
				attach(out, first, v[h].addr, rdi, v[i].addr,
				       check_added(v, n, i, side[!s], target));
		}
	}
	for (c = out->v + first; c < out->v + out->n; c++)
		if (!c->nbr) {
			c->br[0] = c->addr;
			c->added[0] = 0;
			c->nbr = 1;
		}
	free(target);
}
