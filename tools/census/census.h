/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ubsan-census: list every integer sanitizer check compiled into a vmlinux,
 * read from the binary. Layers, each in its own file:
 *
 *   proc.c      the LLVM tools as child processes
 *   elf.c       the ELF image: map it, read bytes at a virtual address
 *   data.c      the tables (handlers, conversion kinds) and the decoding of
 *               a check's static data (source location, type descriptors)
 *   disasm.c    llvm-objdump's disassembly: each handler call and the
 *               static data address it passes in %rdi
 *   branches.c  each check's conditional jumps to its handler call, and
 *               the instructions it adds where it is not taken (--branches)
 *   symbolize.c llvm-symbolizer, one batch: function and inline chain
 *   module.c    a module linked alone, so that it reads like vmlinux
 *   report.c    the TSV and the summary per kind and per subsystem
 *   main.c      options and the order of the layers
 */
#ifndef CENSUS_H
#define CENSUS_H

#include <stddef.h>
#include <stdio.h>

#define LLVM_BIN "/usr/lib/llvm-19/bin/"

/* ---- proc.c: the LLVM tools ---- */

#include <sys/types.h>

/* override if set, else LLVM 19's name, else name-19 on PATH */
const char *tool_path(const char *name, const char *override, char *buf,
		      size_t sz);
/* Run argv, stdin from in_fd (-1: inherited); read its stdout. */
FILE *proc_open(char *const argv[], int in_fd, pid_t *pid);
/* Close and reap; 0 if it exited with status 0. */
int proc_close(FILE *out, pid_t pid);

/* ---- elf.c: the image ---- */

struct elf;

struct elf *elf_open(const char *path, char *err, size_t errsz);
void elf_close(struct elf *e);
/* len bytes at virtual address va, NULL if no allocated section holds them */
const void *elf_at(const struct elf *e, unsigned long va, size_t len);
/* the NUL-terminated string at va, NULL if it runs out of its section */
const char *elf_str(const struct elf *e, unsigned long va);

/* the section and offset of va ("" if none) */
void elf_where(const struct elf *e, unsigned long va, const char **section,
	       unsigned long *off);

/* ---- data.c: handlers and their static data ---- */

enum handler_class { HC_OVERFLOW, HC_NEGATE, HC_CONVERSION };

struct handler {
	const char *symbol; /* __ubsan_handle_... */
	const char *kind; /* the census kind: add-overflow, ... */
	enum handler_class cls;
};

/* the handler named sym (its _abort variant too), NULL if not ours */
const struct handler *handler_find(const char *sym, size_t n);
extern const struct handler handlers[];
extern const size_t nhandlers;

struct ctype {
	const char *name; /* as in the descriptor, quotes and aka kept */
	int bits; /* 0 if not an integer */
	int is_signed;
};

struct check {
	char site[320]; /* file:line:col */
	char kind[64]; /* kind, with the conversion kind */
	struct ctype src, dst;
};

/* Decode the static data at va for handler h; 0 on success. */
int check_decode(const struct elf *e, const struct handler *h, unsigned long va,
		 struct check *c);

/* ---- disasm.c: handler calls ---- */

#define MAX_BRANCHES 8

struct call {
	unsigned long addr; /* the call (or jump) instruction */
	unsigned long data; /* its static data argument, 0 if unresolved */
	const struct handler *h;
	char *symbol; /* the ELF symbol that holds the call */
	int branch; /* 0 call, 1 jmp (tail call), 2 conditional jump */
	int shared; /* the number of checks that share this call */
	const char *why; /* why data is 0 */
	/* --branches: the conditional jumps that lead to this check's call
	 * (the call itself if none does), and the instructions each adds on
	 * the path where the check passes */
	unsigned long br[MAX_BRANCHES];
	unsigned char added[MAX_BRANCHES];
	unsigned char nbr;
	unsigned char br_more; /* more jumps than MAX_BRANCHES */
};

struct calls {
	struct call *v;
	size_t n, cap;
	int branches; /* find each check's jumps (--branches) */
};

/* Run llvm-objdump on path; 0 on success. */
int disasm_calls(const char *objdump, const char *path, struct calls *out);

/* the static data argument at a call, from the instructions before it */
struct insn {
	unsigned long addr;
	char mnem[16];
	char ops[96];
	unsigned long comment_addr; /* "# 0x..." resolved address, or 0 */
	unsigned long target; /* branch target, or 0 */
};

/* Walk one function's instructions; calls to our handlers go to out. */
int disasm_function(const char *symbol, const struct insn *v, size_t n,
		    struct calls *out);

/* disasm.c's reading of an instruction, shared with branches.c */
enum flow { FLOW_NEXT, FLOW_CALL, FLOW_JCC, FLOW_JMP, FLOW_END };

enum flow insn_flow(const char *mnem);
/* the handler a call or jump goes to, NULL if not one of ours */
const struct handler *insn_handler(const struct insn *in);
/* the index of the instruction at addr in v, -1 if none */
long insn_index(const struct insn *v, size_t n, unsigned long addr);

#define NREGS 16
#define RDI 7
/* clobbered by a call (System V and the kernel): rax rcx rdx rsi rdi r8-r11 */
#define CALLER_SAVED 0x0fc7

/* the register "%name" (0-15: rax rcx rdx rbx rsp rbp rsi rdi r8-r15) and
 * its width (64, 32; 0 if narrower); -1 if not a register */
int reg_parse(const char *s, size_t n, int *width);

struct operands {
	const char *s[3];
	size_t n[3];
	int count;
};

/* Split "a, b(%x,%y), c" at the commas outside parentheses. */
void ops_split(const char *s, struct operands *o);
/* "$-0x7e000000" or "$0x1234": a sign-extended immediate; 0 on success */
int imm_parse(const char *s, size_t n, unsigned long *v);

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* mnemonic m is base, or base and a b/w/l/q size suffix */
int mnem_sized(const char *m, const char *base);
/* m is one of list[0..n), each with or without a size suffix */
int mnem_sized_in(const char *m, const char *const *list, size_t n);
/* An instruction (mnemonic m, operands o) that writes registers it does
 * not name last, or that these readers do not model: they forget every
 * register at it. */
int insn_unmodelled(const char *m, const struct operands *o);

/* ---- branches.c ---- */

/* Fill br, added and nbr of the calls out->v[first...], the handler calls
 * of the function v (--branches). */
void branches_function(const struct insn *v, size_t n, struct calls *out,
		       size_t first);

/* ---- symbolize.c ---- */

struct frames {
	char *function; /* the outermost function */
	char *inlined; /* inlined functions, innermost first, ';'-separated */
};

/* Symbolize every call address in one llvm-symbolizer run; fr[i] for
 * calls->v[i]. 0 on success. */
int symbolize_calls(const char *symbolizer, const char *obj,
		    const struct calls *calls, struct frames *fr);

/* ---- module.c ---- */

#define PATH_MAX_C 4096

struct linked {
	char dir[PATH_MAX_C / 2]; /* the temporary directory; "" if none */
	char elf[PATH_MAX_C]; /* the linked module */
};

/* Link the module ko alone into out->elf; 0 on success. */
int module_link(const char *linker, const char *ko, struct linked *out);
void module_unlink(struct linked *l);

/* ---- report.c ---- */

struct row {
	const struct call *call;
	const struct frames *fr;
	struct check chk; /* site "?" if unresolved */
	int resolved;
	char address[160]; /* 0x... in vmlinux; MODULE:SECTION+0x... */
};

/* branches: the columns of --branches after address */
void report_tsv(FILE *f, const struct row *rows, size_t n, int branches);
void report_summary(FILE *f, const struct row *rows, size_t n);
/* the subsystem of a source path: one or two leading directories */
void subsystem_of(const char *path, char *out, size_t outsz);

#endif
