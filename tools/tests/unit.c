// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the triage library. The log snippets here are synthetic,
 * written for these tests; they are not output of the kit's kernel.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../triage/triage.h"

/*
 * KTAP: one test per check, named after its function and its message (a
 * CHECK_STR after its function and line); the results are kept until the
 * end so that the plan comes first.
 */
static int passed, failed;
static FILE *results;
static char *results_buf;
static size_t results_len;

/* A name or reason on one line, with no '#' (it would start a directive) */
static void one_line(char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '#')
			*s = ' ';
}

static void result(int good, const char *name, const char *reason)
{
	if (!results)
		results = open_memstream(&results_buf, &results_len);
	if (good)
		passed++;
	else
		failed++;
	fprintf(results, "%s %d - %s%s%s\n", good ? "ok" : "not ok",
		passed + failed, name, good ? "" : " # ", good ? "" : reason);
}

static void check(int good, const char *func, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void check(int good, const char *func, int line, const char *fmt, ...)
{
	char msg[512], name[640], where[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(name, sizeof(name), "%s: %s", func, msg);
	one_line(name);
	snprintf(where, sizeof(where), "unit.c:%d", line);
	result(good, name, where);
}

static void check_str(const char *got, const char *want, const char *func,
		      int line)
{
	char name[128], reason[1024];

	snprintf(name, sizeof(name), "%s: line %d", func, line);
	snprintf(reason, sizeof(reason), "got '%s', want '%s'", got, want);
	one_line(reason);
	result(!strcmp(got, want), name, reason);
}

#define CHECK(cond, ...) check(!!(cond), __func__, __LINE__, __VA_ARGS__)
#define CHECK_STR(got, want) check_str((got), (want), __func__, __LINE__)

/* "TAP version 13", the plan, the results, "N passed, M failed" */
static int ktap_end(void)
{
	if (results)
		fclose(results);
	printf("TAP version 13\n1..%d\n", passed + failed);
	fwrite(results_buf ? results_buf : "", 1, results_len, stdout);
	free(results_buf);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

#define MAXR 8
static struct report got[MAXR];
static int ngot;

static void collect(void *ctx, struct report *r)
{
	(void)ctx;
	if (ngot < MAXR)
		got[ngot] = *r;
	ngot++;
}

static int by_line(const void *a, const void *b)
{
	const struct report *x = a, *y = b;

	return x->lineno < y->lineno ? -1 : x->lineno > y->lineno;
}

/* Reports in the order they start (a displaced one ends later). */
static void parse(const char *text)
{
	struct parser p;

	ngot = 0;
	parser_init(&p, collect, NULL);
	parser_begin_log(&p, 0);
	parser_feed(&p, text, strlen(text), 1);
	parser_end_log(&p);
	parser_free(&p);
	qsort(got, (size_t)(ngot < MAXR ? ngot : MAXR), sizeof(got[0]),
	      by_line);
}

static void test_split(void)
{
	struct logline l;
	const char *a = "[  180.184126][ T6213] UBSAN: x";
	const char *b = "<4>[    4.5] [C1] foo";
	const char *c = "[T42]  dump_stack+0x1/0x2\r";
	const char *d = "plain line";

	tl_split(a, strlen(a), &l);
	CHECK(l.n == 8 && !memcmp(l.s, "UBSAN: x", 8), "stamp+caller");
	CHECK(l.caller == ('T' | (6213ul << 8)), "caller T6213");
	tl_split(b, strlen(b), &l);
	CHECK(l.n == 8 && !memcmp(l.s, "[C1] foo", 8),
	      "syslog+stamp, caller after space is content");
	tl_split(c, strlen(c), &l);
	CHECK(l.caller == ('T' | (42ul << 8)) && l.n == 18, "caller only");
	tl_split(d, strlen(d), &l);
	CHECK(l.caller == 0 && l.n == strlen(d), "no prefix");
}

static void test_frames(void)
{
	struct frame f;
	int kern = 0;
	const char *a = "? proc_do_submiturb+0x9af/0x2c30";
	const char *b = "[<ffffffff81b2e7d9>] dump_stack+0x45/0x6c";
	const char *c = "lkdtm_ARRAY_BOUNDS.cold.2+0x3c1/0x52e [lkdtm]";
	const char *d = "RIP: 0010:perf_event__header_size+0x1a/0x90";
	const char *e = "RIP: 0033:0x7fdd4d945370";
	char n[FUNC_MAX];

	CHECK(tl_frame(a, strlen(a), &f) && f.unreliable &&
		      !strcmp(f.func, "proc_do_submiturb") && f.off == 0x9af &&
		      f.size == 0x2c30,
	      "unreliable frame");
	CHECK(tl_frame(b, strlen(b), &f) && !f.unreliable &&
		      !strcmp(f.func, "dump_stack"),
	      "old [<addr>] frame");
	CHECK(tl_frame(c, strlen(c), &f) && !strcmp(f.module, "lkdtm"),
	      "module frame");
	CHECK(!tl_frame("Call Trace:", 11, &f), "not a frame");
	CHECK(!tl_frame("<TASK>", 6, &f), "marker is not a frame");
	CHECK(tl_rip(d, strlen(d), &f, &kern) && kern &&
		      !strcmp(f.func, "perf_event__header_size"),
	      "kernel RIP");
	CHECK(!tl_rip(e, strlen(e), &f, &kern) && !kern, "user RIP");
	tl_norm_func("install_breakpoint.isra.0", n, sizeof(n));
	CHECK_STR(n, "install_breakpoint");
	tl_norm_func("foo.constprop.3.cold", n, sizeof(n));
	CHECK_STR(n, "foo");
	tl_norm_func("bar.part.1", n, sizeof(n));
	CHECK_STR(n, "bar");
}

static void test_paths(void)
{
	CHECK_STR(tl_strip_path("/home/x/linux/kernel/events/core.c"),
		  "kernel/events/core.c");
	CHECK_STR(tl_strip_path("/usr/local/google/home/d/src/linux2/arch/x86/"
				"kernel/uprobes.c"),
		  "arch/x86/kernel/uprobes.c");
	CHECK_STR(tl_strip_path("kernel/events/core.c"),
		  "kernel/events/core.c");
	CHECK_STR(tl_strip_path("../include/linux/perf_event.h"),
		  "include/linux/perf_event.h");
	CHECK_STR(tl_strip_path("/usr/src/linux-6.1/io_uring/rw.c"),
		  "io_uring/rw.c");
	CHECK_STR(tl_strip_path("weird.c"), "weird.c");
}

static void test_kinds(void)
{
	CHECK_STR(infer_kind("index 8 is out of range for type 'char [8]'"),
		  "array-index-out-of-bounds");
	CHECK_STR(infer_kind("shift exponent -1 is negative"),
		  "shift-out-of-bounds");
	CHECK_STR(infer_kind("left shift of 1 by 31 places cannot be "
			     "represented in type 'int'"),
		  "shift-out-of-bounds");
	CHECK_STR(infer_kind("signed integer overflow:\n2147483647 + 1 cannot "
			     "be represented in type 'int'"),
		  "signed-integer-overflow");
	CHECK_STR(infer_kind("4294967295 + 1 cannot be represented in type "
			     "'unsigned int'"),
		  "unsigned-integer-overflow");
	CHECK_STR(infer_kind("negation of -2147483648 cannot be represented in "
			     "type 'int'"),
		  "negation-overflow");
	CHECK_STR(infer_kind("division of -2147483648 by -1 cannot be "
			     "represented in type 'int'"),
		  "division-overflow");
	CHECK_STR(infer_kind("load of value 2 is not a valid value for type "
			     "'_Bool'"),
		  "invalid-load");
	CHECK_STR(infer_kind("member access within null pointer of type "
			     "'struct x'"),
		  "null-ptr-deref");
	CHECK_STR(infer_kind("member access within misaligned address"),
		  "misaligned-access");
	CHECK_STR(infer_kind("signed truncation of value 65560 from type 'int' "
			     "to type 'u16' (aka 'unsigned short'): result 24"),
		  "implicit-conversion");
	CHECK_STR(infer_kind("something else"), "undefined-behaviour");
}

static void test_globs(void)
{
	CHECK(scl_section_match("implicit-signed-integer-truncation",
				"implicit-signed-integer-truncation"),
	      "exact section");
	CHECK(scl_section_match("{implicit-signed-integer-truncation,"
				"signed-integer-overflow}",
				"signed-integer-overflow"),
	      "brace section");
	CHECK(scl_section_match("implicit-integer-sign-change|"
				"implicit-unsigned-integer-truncation",
				"implicit-unsigned-integer-truncation"),
	      "alternation section");
	CHECK(scl_section_match("implicit-*-truncation",
				"implicit-signed-integer-truncation"),
	      "glob section");
	CHECK(!scl_section_match("signed-integer-overflow",
				 "implicit-integer-sign-change"),
	      "section mismatch");
}

static void test_json(void)
{
	char buf[256] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	json_str(f, "a\"b\\c\nd\te\x01");
	fclose(f);
	CHECK_STR(buf, "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
	f = fmemopen(buf, sizeof(buf), "w");
	json_str(f, "\xc3\xa9 \xff \xe2\x82");
	fclose(f);
	CHECK_STR(buf, "\"\xc3\xa9 \\ufffd \\ufffd\\ufffd\"");
}

/* The writer's three layouts, nested, and empty containers. */
static void test_json_writer(void)
{
	char buf[512] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	struct json j;
	int i;

	json_init(&j, f);
	json_object(&j, NULL, JSON_LINES);
	json_string(&j, "a", "x");
	json_array(&j, "rows", JSON_ROWS);
	json_object(&j, NULL, JSON_INLINE);
	json_uint(&j, "n", 1);
	json_bool(&j, "b", 0);
	json_end(&j);
	json_array(&j, NULL, JSON_INLINE);
	json_end(&j);
	json_end(&j);
	json_array(&j, "lines", JSON_LINES);
	json_null(&j, NULL);
	json_fixed(&j, NULL, 0.5, 3);
	json_end(&j);
	json_array(&j, "none", JSON_LINES);
	json_end(&j);
	json_end(&j);
	fclose(f);
	CHECK_STR(buf, "{\n  \"a\": \"x\",\n  \"rows\": [\n"
		       "    {\"n\": 1, \"b\": false},\n    []],\n"
		       "  \"lines\": [\n    null,\n    0.500\n  ],\n"
		       "  \"none\": [\n  ]\n}\n");
	/* past JSON_DEPTH: left out, and the document stays whole */
	f = fmemopen(buf, sizeof(buf), "w");
	json_init(&j, f);
	for (i = 0; i < JSON_DEPTH + 2; i++)
		json_array(&j, NULL, JSON_INLINE);
	json_uint(&j, NULL, 7);
	for (i = 0; i < JSON_DEPTH + 2; i++)
		json_end(&j);
	fclose(f);
	CHECK_STR(buf, "[[[[[[[[]]]]]]]]\n");
}

#define EQ                                                           \
	"[    1.000000] "                                            \
	"==========================================================" \
	"======================\n"

static const char kit_report[] = EQ
	"[    1.000001] UBSAN: implicit-conversion in "
	"/build/linux/kernel/events/core.c:1905:19\n"
	"[    1.000002] signed truncation of value 65560 from type 'int' to "
	"type 'u16' (aka 'unsigned short'): result 24\n"
	"[    1.000003] CPU: 0 PID: 1 Comm: perf Not tainted 6.1.192 #1\n"
	"[    1.000004] Hardware name: QEMU Standard PC\n"
	"[    1.000005] Call Trace:\n"
	"[    1.000006]  <TASK>\n"
	"[    1.000007]  dump_stack_lvl+0x48/0x60\n"
	"[    1.000008]  __ubsan_handle_implicit_conversion+0x9a/0xc0\n"
	"[    1.000009]  perf_event__header_size.isra.0+0x10d/0x120\n"
	"[    1.000010]  perf_event_alloc+0x5c1/0xf20\n"
	"[    1.000011]  </TASK>\n" EQ;

static void test_kit_report(void)
{
	parse(kit_report);
	CHECK(ngot == 1, "one report, got %d", ngot);
	CHECK_STR(got[0].kind, "implicit-conversion");
	CHECK_STR(got[0].file, "kernel/events/core.c");
	CHECK(got[0].line == 1905 && got[0].col == 19, "line:col");
	CHECK_STR(got[0].func, "perf_event__header_size");
	CHECK_STR(got[0].title,
		  "UBSAN: implicit-conversion in perf_event__header_size");
	CHECK_STR(got[0].syz_title, got[0].title);
	CHECK(!got[0].corrupted, "complete");
	CHECK(got[0].nframes == 4, "4 frames, got %d", got[0].nframes);
	CHECK(!strncmp(got[0].detail, "signed truncation", 17), "detail");
}

static void test_truncated(void)
{
	char buf[sizeof(kit_report)];
	char *cut;

	memcpy(buf, kit_report, sizeof(buf));
	cut = strstr(buf, "[    1.000005]");
	*cut = 0;
	parse(buf);
	CHECK(ngot == 1 && got[0].truncated, "cut-off report is truncated");
	CHECK_STR(got[0].kind, "implicit-conversion");
}

static void test_cut_here(void)
{
	parse("------------[ cut here ]------------\n"
	      "UBSAN: signed-integer-overflow in net/core/dev.c:10:5\n"
	      "2147483647 + 1 cannot be represented in type 'int'\n"
	      "CPU: 1 PID: 7 Comm: x Not tainted\n"
	      "Call Trace:\n"
	      " ? ubsan_epilogue+0x1/0x2\n"
	      " ? guess2+0x1/0x2\n"
	      " ? guess+0x1/0x2\n"
	      " dev_foo+0x1/0x2\n"
	      "---[ end trace 0000000000000000 ]---\n");
	CHECK(ngot == 1 && !got[0].corrupted, "cut here report");
	CHECK_STR(got[0].func, "dev_foo");
	CHECK_STR(got[0].kind, "signed-integer-overflow");
}

static void test_interleaved_callers(void)
{
	parse("[  1.0][ T10] "
	      "==============================================================="
	      "=================\n"
	      "[  1.0][ T10] UBSAN: negation-overflow in mm/a.c:1:2\n"
	      "[  1.0][ T11] unrelated line\n"
	      "[  1.0][ T10] negation of -2147483648 cannot be represented in "
	      "type 'int'\n"
	      "[  1.0][ T11] UBSAN: Undefined behaviour in fs/b.c:3:4\n"
	      "[  1.0][ T10] Call Trace:\n"
	      "[  1.0][ T11] shift exponent 40 is too large\n"
	      "[  1.0][ T10]  ubsan_epilogue+0x1/0x2\n"
	      "[  1.0][ T11] Call Trace:\n"
	      "[  1.0][ T10]  mm_one+0x1/0x2\n"
	      "[  1.0][ T11]  fs_two+0x1/0x2\n"
	      "[  1.0][ T10] "
	      "==============================================================="
	      "=================\n");
	CHECK(ngot == 2, "two reports, got %d", ngot);
	CHECK_STR(got[0].title, "UBSAN: negation-overflow in mm_one");
	CHECK(!got[0].corrupted, "T10 complete");
	CHECK_STR(got[0].detail,
		  "negation of -2147483648 cannot be represented in type "
		  "'int'");
	CHECK_STR(got[1].title, "UBSAN: shift-out-of-bounds in fs_two");
	CHECK_STR(got[1].syz_title, "UBSAN: undefined-behaviour in fs_two");
	CHECK(got[1].truncated, "T11 has no closing line");
}

/*
 * Two tasks' reports without caller ids, in the order the kernel prints
 * them: framing, title and detail unlocked, then one stack dump after the
 * other (dump_stack() holds the printk CPU lock). Each report keeps its
 * own stack; the second one's title and detail come before the first
 * one's stack. Which stack came first is a guess (the order of the
 * titles), so both are marked corrupted.
 */
static void test_interleaved_no_callers(void)
{
	parse(EQ "[    2.0] UBSAN: implicit-conversion in drivers/a.c:1:2\n"
		 "[    2.0] signed truncation of value -1 from type 'int' to "
		 "type 'unsigned char': result 255\n" EQ
		 "[    2.1] UBSAN: implicit-conversion in drivers/b.c:3:4\n"
		 "[    2.1] signed truncation of value 113797 from type 'int' "
		 "to type 'u16' (aka 'unsigned short'): result 48261\n"
		 "[    2.2] CPU: 1 PID: 34 Comm: kworker/u4:2\n"
		 "[    2.2] Call Trace:\n"
		 "[    2.2]  dump_stack_lvl+0x66/0x95\n"
		 "[    2.2]  __ubsan_handle_implicit_conversion+0x1/0x2\n"
		 "[    2.2]  drv_a+0x1/0x2\n" EQ
		 "[    2.3] CPU: 0 PID: 1 Comm: swapper/0\n"
		 "[    2.3] Call Trace:\n"
		 "[    2.3]  dump_stack_lvl+0x66/0x95\n"
		 "[    2.3]  __ubsan_handle_implicit_conversion+0x1/0x2\n"
		 "[    2.3]  drv_b+0x1/0x2\n" EQ);
	CHECK(ngot == 2, "two reports, got %d", ngot);
	CHECK_STR(got[0].func, "drv_a");
	CHECK_STR(got[0].file, "drivers/a.c");
	CHECK(!got[0].truncated, "a is whole");
	CHECK_STR(got[1].func, "drv_b");
	CHECK_STR(got[1].file, "drivers/b.c");
	CHECK(!got[1].truncated, "b is whole");
	CHECK(strstr(got[1].detail, "113797") != NULL, "b's detail: %s",
	      got[1].detail);
	CHECK(got[0].corrupted && got[1].corrupted,
	      "both stacks told apart by order only: corrupted");
}

static void test_noise_without_callers(void)
{
	parse(EQ "UBSAN: unsigned-integer-overflow in lib/x.c:5:6\n"
		 "4294967295 + 1 cannot be represented in type 'unsigned int'\n"
		 "CPU: 0 PID: 1 Comm: a\n"
		 "Call Trace:\n"
		 " dump_stack+0x1/0x2\n"
		 "random: crng init done\n"
		 " lib_x+0x1/0x2 [xmod]\n" EQ);
	CHECK(ngot == 1 && !got[0].corrupted, "noise skipped");
	CHECK(got[0].nframes == 2, "2 frames, got %d", got[0].nframes);
	CHECK_STR(got[0].func, "lib_x");
}

static void test_trap_merge(void)
{
	parse("UBSAN: implicit-conversion in kernel/events/core.c:1905:19\n"
	      "invalid opcode: 0000 [#1] PREEMPT SMP NOPTI\n"
	      "CPU: 0 PID: 1 Comm: perf Not tainted 6.1.192 #1\n"
	      "RIP: 0010:perf_event__header_size+0x3c/0x90\n"
	      "Code: 00 00 0f 0b\n"
	      "RSP: 0018:ffffc90000013d48 EFLAGS: 00010246\n"
	      "Call Trace:\n"
	      " <TASK>\n"
	      " ? die+0x1/0x2\n"
	      " perf_event_alloc+0x5c1/0xf20\n"
	      " </TASK>\n"
	      "Modules linked in:\n"
	      "---[ end trace 0000000000000000 ]---\n"
	      "RIP: 0010:perf_event__header_size+0x3c/0x90\n"
	      "Kernel panic - not syncing: Fatal exception\n");
	CHECK(ngot == 1, "one trap report, got %d", ngot);
	CHECK_STR(got[0].kind, "implicit-conversion");
	CHECK_STR(got[0].func, "perf_event__header_size");
	CHECK(!got[0].corrupted, "complete trap report");
}

static int has_name(const char **names, int n, const char *want)
{
	while (n--)
		if (!strcmp(names[n], want))
			return 1;
	return 0;
}

/* The line arch/x86/kernel/traps.c prints for a ud1 trap (patch 0020). */
static void test_ud1_trap(void)
{
	const char *names[16];
	struct sitetab t;
	struct site *a, *b;
	int n;

	parse("UBSAN: implicit-conversion in __perf_event_read_size+0x6d/0x90\n"
	      "invalid opcode: 0000 [#1] PREEMPT SMP NOPTI\n"
	      "CPU: 0 PID: 57 Comm: perf-cve Not tainted 6.1.192 #1\n"
	      "RIP: 0010:__perf_event_read_size+0x6d/0x90\n"
	      "Code: 48 89 d8 5b c3 67 0f b9 40 07\n"
	      "Call Trace:\n"
	      " <TASK>\n"
	      " perf_event__header_size+0x1c/0x90\n"
	      " </TASK>\n"
	      "---[ end trace 0000000000000000 ]---\n");
	CHECK(ngot == 1, "one ud1 trap report, got %d", ngot);
	CHECK_STR(got[0].kind, "implicit-conversion");
	CHECK_STR(got[0].func, "__perf_event_read_size");
	CHECK(got[0].trapped && !got[0].corrupted, "complete, trapped");
	CHECK(got[0].has_rip && got[0].rip.off == 0x6d, "RIP offset 0x%lx",
	      got[0].rip.off);
	CHECK(!got[0].file[0], "no site before symbolization");
	n = sanitizer_names(&got[0], names, 16);
	CHECK(has_name(names, n, "implicit-unsigned-integer-truncation") &&
		      has_name(names, n, "implicit-signed-integer-truncation"),
	      "a trap may be either truncation check");

	sites_init(&t);
	a = sites_add(&t, &got[0]);
	got[0].rip.off = 0x80;
	b = sites_add(&t, &got[0]);
	CHECK(a && b && a != b && t.n == 2,
	      "two traps in one function are two sites");
	sites_free(&t);

	parse("UBSAN: add-overflow in test_ubsan_add_overflow+0x1c/0x40 "
	      "[test_ubsan]\n"
	      "invalid opcode: 0000 [#1] PREEMPT SMP NOPTI\n"
	      "RIP: 0010:test_ubsan_add_overflow+0x1c/0x40 [test_ubsan]\n"
	      "Call Trace:\n"
	      " <TASK>\n"
	      " do_one_initcall+0x1/0x2\n"
	      " </TASK>\n"
	      "---[ end trace 0000000000000000 ]---\n");
	CHECK(ngot == 1, "one module trap report, got %d", ngot);
	CHECK_STR(got[0].kind, "add-overflow");
	CHECK_STR(got[0].func, "test_ubsan_add_overflow");
	CHECK(ubsan_int_kind(got[0].kind), "add-overflow is an integer kind");
	n = sanitizer_names(&got[0], names, 16);
	CHECK(has_name(names, n, "signed-integer-overflow") &&
		      has_name(names, n, "unsigned-integer-overflow"),
	      "add-overflow may be signed or unsigned");
}

static void test_crashes(void)
{
	parse("BUG: kernel NULL pointer dereference, address: 0000000000000000\n"
	      "#PF: supervisor read access in kernel mode\n"
	      "Oops: 0000 [#1] PREEMPT SMP NOPTI\n"
	      "CPU: 0 PID: 1 Comm: a\n"
	      "RIP: 0010:foo_read+0x5/0x10\n"
	      "Call Trace:\n"
	      " <TASK>\n"
	      " vfs_read+0x1/0x2\n"
	      " </TASK>\n"
	      "---[ end trace 0000000000000000 ]---\n"
	      "------------[ cut here ]------------\n"
	      "WARNING: CPU: 1 PID: 2 at kernel/sched/core.c:123 "
	      "sched_warn_me.cold+0x1/0x2\n"
	      "Modules linked in:\n"
	      "RIP: 0010:sched_warn_me.cold+0x1/0x2\n"
	      "Call Trace:\n"
	      " caller+0x1/0x2\n"
	      "---[ end trace 0000000000000000 ]---\n" EQ
	      "BUG: KASAN: slab-out-of-bounds in victim_func+0x1/0x2\n"
	      "Write of size 4 at addr ffff888000000000 by task a/1\n"
	      "Call Trace:\n"
	      " kasan_report+0x1/0x2\n"
	      " victim_func+0x1/0x2\n"
	      "Allocated by task 1:\n"
	      " kmalloc+0x1/0x2\n" EQ "kernel BUG at mm/slub.c:42!\n"
	      "invalid opcode: 0000 [#1] SMP\n"
	      "RIP: 0010:kfree+0x1/0x2\n"
	      "Call Trace:\n"
	      " free_it+0x1/0x2\n"
	      "---[ end trace 0000000000000000 ]---\n"
	      "Kernel panic - not syncing: VFS: Unable to mount root fs\n");
	CHECK(ngot == 5, "5 crash reports, got %d", ngot);
	CHECK_STR(got[0].title, "BUG: unable to handle kernel NULL pointer "
				"dereference in foo_read");
	CHECK_STR(got[1].title, "WARNING in sched_warn_me");
	CHECK_STR(got[1].file, "kernel/sched/core.c");
	CHECK_STR(got[2].title,
		  "KASAN: slab-out-of-bounds Write in victim_func");
	CHECK(got[2].nframes == 2, "KASAN alloc stack not appended");
	/* kfree (the RIP), an allocator, is never the guilty frame */
	CHECK_STR(got[3].title, "kernel BUG in free_it");
	CHECK(got[3].line == 42, "kernel BUG line");
	CHECK_STR(got[4].title, "kernel panic: VFS: Unable to mount root fs");
	CHECK(got[4].corrupted, "panic without stack is corrupted");
}

/* Every family's header is found wherever it is in a line. */
static void test_headers_anywhere(void)
{
	static const char *const hdr[] = {
		"BUG: x",
		"WARNING: x",
		"INFO: x",
		"Unable to handle kernel NULL pointer dereference",
		"general protection fault: 0000",
		"stack segment: 0000",
		"Kernel panic - not syncing: x",
		"PANIC: double fault",
		"kernel BUG at a.c:1!",
		"Kernel BUG [#1]",
		"BUG kmalloc-96 (Not tainted): Object already free",
		"divide error: 0000",
		"divide_error: 0000",
		"invalid opcode: 0000",
		"int3: 0000",
		"UBSAN: x",
		"unregister_netdevice: waiting for lo to become free",
		"VFS: Close: file count is 0",
		"VFS: Busy inodes after unmount",
		"Internal error: Oops: 96000005",
		"Unhandled fault: page domain fault",
		"Alignment trap: not handling instruction",
		"unreferenced object 0xffff888000000000 (size 32):",
	};
	char line[160], miss[240] = "";
	size_t i, k, pos;
	int f, bad = 0;

	fam_init();
	for (i = 0; i < sizeof(hdr) / sizeof(hdr[0]); i++) {
		/* every alignment against the scan's stride, after text */
		for (k = 0; k < 9; k++) {
			snprintf(line, sizeof(line), "%.*s%s", (int)k,
				 "login: xx", hdr[i]);
			pos = 99;
			f = fam_scan(line, strlen(line), &pos);
			if (f < 0 || pos != k ||
			    strncmp(line + pos, fam_header(f),
				    strlen(fam_header(f)))) {
				if (!bad++)
					snprintf(miss, sizeof(miss),
						 " (the first: '%s' at %zu: "
						 "family %d at %zu)",
						 hdr[i], k, f, pos);
			}
		}
	}
	CHECK(!bad, "%d header positions missed%s", bad, miss);
	f = fam_scan("ODEBUG: free active", 19, &pos);
	CHECK(f < 0, "a vetoed look-alike is no header");
	f = fam_scan("WARNING: /etc/ssh/moduli does not exist, using fixed "
		     "modulus",
		     61, &pos);
	CHECK(f < 0, "user space's WARNING is no header");
	f = fam_scan("random: crng init done", 22, &pos);
	CHECK(f < 0, "an ordinary line");
}

/* PIDs, addresses, numbers and offsets leave titles. */
static void test_stable_titles(void)
{
	char t[TITLE_MAX];

	title_stable("BUG: using __this_cpu_read() in preemptible [00000000] "
		     "code: syz-executor.3/1234",
		     t, sizeof(t));
	CHECK_STR(t, "BUG: using __this_cpu_read() in preemptible [ADDR] "
		     "code: syz-executor");
	title_stable("KASAN: use-after-free in do_con_write.part.23 at addr "
		     "ffff8801d4310630",
		     t, sizeof(t));
	CHECK_STR(t, "KASAN: use-after-free in do_con_write.part.NUM at addr "
		     "ADDR");
	title_stable("WARNING: fs/x.c:12 at fn+0x1a/0x40, CPU#1: a/7", t,
		     sizeof(t));
	CHECK_STR(t, "WARNING: fs/x.c:LINE at fn, CPU: a/NUM");
	title_stable("kernel panic: VFS: Unable to mount root fs on "
		     "unknown-block(0,0)",
		     t, sizeof(t));
	CHECK_STR(t, "kernel panic: VFS: Unable to mount root fs on "
		     "unknown-block(NUM,NUM)");
	title_stable("possible deadlock in nl802154_add_llsec_key", t,
		     sizeof(t));
	CHECK_STR(t, "possible deadlock in nl802154_add_llsec_key");
}

/* The pattern language of the tables. */
static void test_patterns(void)
{
	struct pmatch m;
	const char *a = "BUG: KASAN: use-after-free in foo_bar+0x12/0x34";
	const char *b =
		"WARNING: CPU: 0 PID: 1 at kernel/x.c:12 f.cold+0x1/0x2";

	CHECK(pm_find("BUG: KASAN: %w in %f", a, strlen(a), &m, 0) &&
		      m.ncap == 2 && m.cap[0].n == 14 && m.cap[1].n == 7 &&
		      !memcmp(m.cap[1].s, "foo_bar", 7),
	      "word and function");
	CHECK(pm_find("WARNING: * at %s %f", b, strlen(b), &m, 0) &&
		      m.ncap == 2 && !memcmp(m.cap[1].s, "f", 1) &&
		      m.cap[0].n == 13,
	      "source and function after '*'");
	CHECK(pm_find("WARNING: * at %s %f", b, strlen(b), &m, PM_FRAMES) &&
		      m.ncap == 1,
	      "PM_FRAMES: only the frame");
	CHECK(pm_find("{?x|PID: %d }at", b, strlen(b), &m, 0) && m.ncap == 0,
	      "non-capturing group");
	CHECK(!pm_find("BUG: %w on", a, strlen(a), &m, 0), "no match");
	CHECK(pm_find("~warning: *uses", "WARNING: x uses", 15, &m,
		      PM_NOCASE) ||
		      pm_find("warning: *uses", "WARNING: x uses", 15, &m,
			      PM_NOCASE),
	      "either case");
}

/* The families the kit's users meet next to UBSAN: log, title, kind. */
static const struct family_case {
	const char *log, *title, *kind;
} family_cases[] = {
	{ "WARNING: possible circular locking dependency detected\n"
	  "6.1.0 #1 Not tainted\n"
	  "------------------------------------------------------\n"
	  "a/1 is trying to acquire lock:\n"
	  "ffff88800abc (&m->lock){+.+.}-{3:3}, at: take_it+0x1/0x2\n"
	  "\n"
	  "but task is already holding lock:\n"
	  "ffff88800abd (&n->lock){+.+.}-{3:3}, at: hold_it+0x1/0x2\n"
	  "stack backtrace:\n"
	  "Call Trace:\n"
	  " dump_stack_lvl+0x1/0x2\n"
	  " __lock_acquire+0x1/0x2\n"
	  " take_it+0x1/0x2\n",
	  "possible deadlock in take_it", "lockdep" },
	/* KMSAN has no "Call Trace:" line; it is not corrupted for that */
	{ "BUG: KMSAN: uninit-value in use_it+0x1/0x2\n"
	  " use_it+0x1/0x2\n"
	  " caller+0x1/0x2\n"
	  "\n"
	  "Uninit was created at:\n"
	  " kmalloc_trace+0x1/0x2\n"
	  " make_it+0x1/0x2\n",
	  "KMSAN: uninit-value in use_it", "kmsan" },
	{ "BUG: KCSAN: data-race in reader+0x1/0x2 / writer+0x3/0x4\n"
	  "\n"
	  "write to 0xffff888000000000 of 4 bytes by task 1 on cpu 0:\n"
	  " writer+0x3/0x4\n",
	  "KCSAN: data-race in reader / writer", "kcsan" },
	{ "unreferenced object 0xffff888000000000 (size 32):\n"
	  "  comm \"a\", pid 1, jiffies 4294937296\n"
	  "  backtrace (crc 9c2e1a2b):\n"
	  "    kmalloc_trace+0x1/0x2\n"
	  "    leaky_init+0x1/0x2\n",
	  "memory leak in leaky_init", "memory-leak" },
	{ "BUG: Bad page state in process a  pfn:7deea\n"
	  "page last allocated via order 0, migratetype Unmovable\n"
	  " post_alloc_hook+0x1/0x2\n"
	  " get_page_from_freelist+0x1/0x2\n"
	  " owner_fn+0x1/0x2\n"
	  "Call Trace:\n"
	  " dump_stack+0x1/0x2\n"
	  " bad_page+0x1/0x2\n",
	  "BUG: Bad page state in owner_fn", "bad-page" },
	{ "list_add corruption. next->prev should be prev\n"
	  "------------[ cut here ]------------\n"
	  "kernel BUG at lib/list_debug.c:29!\n"
	  "invalid opcode: 0000 [#1] SMP\n"
	  "RIP: 0010:__list_add_valid+0x1/0x2\n"
	  "Call Trace:\n"
	  " list_user+0x1/0x2\n"
	  "---[ end trace 0000000000000000 ]---\n",
	  "BUG: corrupted list in list_user", "list-corruption" },
	{ "refcount_t: underflow; use-after-free.\n"
	  "------------[ cut here ]------------\n"
	  "WARNING: CPU: 0 PID: 1 at lib/refcount.c:28 "
	  "refcount_warn_saturate+0x1/0x2\n"
	  "RIP: 0010:refcount_warn_saturate+0x1/0x2\n"
	  "Call Trace:\n"
	  " put_thing+0x1/0x2\n"
	  "---[ end trace 0000000000000000 ]---\n",
	  "WARNING: refcount bug in put_thing", "refcount" },
	/* arm64: no RIP, "pc : " and "Call trace:" */
	{ "Unable to handle kernel NULL pointer dereference at virtual "
	  "address 0000000000000008\n"
	  "Internal error: Oops: 96000005 [#1] PREEMPT SMP\n"
	  "pc : arm_victim+0x1c/0x40\n"
	  "lr : arm_caller+0x10/0x20\n"
	  "Call trace:\n"
	  " arm_victim+0x1c/0x40\n"
	  " arm_caller+0x10/0x20\n",
	  "BUG: unable to handle kernel NULL pointer dereference in "
	  "arm_victim",
	  "null-ptr-deref" },
	/* riscv: "epc : " */
	{ "Unable to handle kernel paging request at virtual address "
	  "ffffffff00000000\n"
	  "Oops [#1]\n"
	  "epc : rv_victim+0x1c/0x40\n"
	  " ra : rv_caller+0x10/0x20\n"
	  "Call Trace:\n"
	  "[<ffffffff80014264>] rv_victim+0x1c/0x40\n"
	  "[<ffffffff80014300>] rv_caller+0x10/0x20\n",
	  "BUG: unable to handle kernel paging request in rv_victim",
	  "paging-request" },
	/* a stable title: the task and its PID are left out */
	{ "BUG: using smp_processor_id() in preemptible [00000000] code: "
	  "a.out/1234\n"
	  "caller is debug_smp_processor_id+0x1/0x2\n"
	  "Call Trace:\n"
	  " dump_stack+0x1/0x2\n"
	  " check_preemption_disabled+0x1/0x2\n"
	  " per_cpu_user+0x1/0x2\n",
	  "BUG: using smp_processor_id() in preemptible code in per_cpu_user",
	  "bug" },
};

static void test_families(void)
{
	size_t i;

	for (i = 0; i < sizeof(family_cases) / sizeof(family_cases[0]); i++) {
		parse(family_cases[i].log);
		CHECK(ngot == 1, "'%s': one report, got %d",
		      family_cases[i].title, ngot);
		CHECK_STR(got[0].title, family_cases[i].title);
		CHECK_STR(got[0].kind, family_cases[i].kind);
		CHECK(!got[0].corrupted, "'%s' is not corrupted",
		      family_cases[i].title);
	}
}

/* A WARNING then panic_on_warn: the panic's stack is the WARNING's. */
static void test_panic_on_warn(void)
{
	parse("------------[ cut here ]------------\n"
	      "WARNING: CPU: 1 PID: 2 at mm/x.c:10 warner+0x1/0x2\n"
	      "Kernel panic - not syncing: panic_on_warn set ...\n"
	      "CPU: 1 PID: 2 Comm: a Not tainted\n"
	      "Call Trace:\n"
	      " dump_stack+0x1/0x2\n"
	      " panic+0x1/0x2\n"
	      " __warn+0x1/0x2\n"
	      " report_bug+0x1/0x2\n"
	      " do_invalid_op+0x1/0x2\n"
	      " invalid_op+0x1/0x2\n"
	      "RIP: 0010:warner+0x1/0x2\n"
	      " caller+0x1/0x2\n"
	      "Kernel Offset: disabled\n");
	CHECK(ngot == 1, "one report, got %d", ngot);
	CHECK_STR(got[0].title, "WARNING in warner");
	CHECK(!got[0].corrupted, "the panic's stack is the report's");
}

/* The end of the log cuts a report: truncated, in syzkaller's terms not
 * corrupted (it has its stack). */
static void test_truncated_flag(void)
{
	parse(EQ "UBSAN: shift-out-of-bounds in lib/x.c:5:6\n"
		 "shift exponent 40 is too large for 32-bit type 'int'\n"
		 "CPU: 0 PID: 1 Comm: a\n"
		 "Call Trace:\n"
		 " <TASK>\n"
		 " dump_stack+0x1/0x2\n"
		 " shifter+0x1/0x2\n"
		 " caller+0x1/0x2\n");
	CHECK(ngot == 1 && got[0].truncated && !got[0].corrupted,
	      "cut off: truncated %d corrupted %d", got[0].truncated,
	      got[0].corrupted);
}

static void test_dedup_classify(void)
{
	struct sitetab t;
	struct lists l;
	struct report r;
	struct site *s;

	parse(kit_report);
	r = got[0];
	sites_init(&t);
	sites_add(&t, &r);
	r.log = 1;
	r.lineno = 99;
	s = sites_add(&t, &r);
	CHECK(t.n == 1 && s->count == 2 && s->first.log == 0 &&
		      s->last.log == 1 && s->last.line == 99,
	      "dedup by site");
	lists_init(&l);
	classify_site(&l, s, NULL);
	CHECK(s->cls == CLS_NEW &&
		      strstr(s->suggestion, "[implicit-signed-integer-"
					    "truncation]") &&
		      strstr(s->suggestion, "fun:perf_event__header_size"),
	      "suggestion: %s", s->suggestion);
	lists_load_tsv_text(&l.ann, &l.nann,
			    "site\tfunction\tkind\tclass\treason\n"
			    "kernel/events/core.c:1900\tperf_event__header_"
			    "size\timplicit-conversion\tbenign\tfits\n",
			    "ann", "site\t");
	classify_site(&l, s, NULL);
	CHECK(s->cls == CLS_BENIGN, "annotation matches despite line drift");
	lists_load_tsv_text(&l.bugs, &l.nbugs,
			    "name\tfile\tfunction\tkind\tfix\tcve\n"
			    "perf-u16\tkernel/events/core.c\tperf_event__"
			    "header_size\timplicit-conversion\t382c27f4ed28\t"
			    "CVE-2023-6931\n",
			    "bugs", "name\t");
	classify_site(&l, s, NULL);
	CHECK(s->cls == CLS_KNOWN_BUG && strstr(s->reason, "perf-u16"),
	      "known bug");
	lists_load_scl_text(&l,
			    "# comment\n[implicit-unsigned-integer-truncation]"
			    "\nfun:perf_event__header_size\n"
			    "[implicit-signed-integer-truncation]\n"
			    "# the reason\nsrc:*/events/core.c\n",
			    "scl");
	classify_site(&l, s, NULL);
	CHECK(s->cls == CLS_IGNORELISTED && strstr(s->reason, "the reason"),
	      "ignorelisted: %s", s->reason);
	lists_free(&l);
	sites_free(&t);
}

/*
 * --redundant-rows: a row the rules already make is redundant; a row they
 * judge otherwise, a bug row and a rejected finding are kept, whatever the
 * rules say; a row of no site is unseen.
 */
static void test_redundant_rows(void)
{
	struct sitetab t;
	struct lists l;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	parse(kit_report);
	sites_init(&t);
	sites_add(&t, &got[0]);
	lists_init(&l);
	lists_load_tsv_text(&l.rules, &l.nrules,
			    "rule\tclass\tkind\ttypes\tfunction\n"
			    "narrow\tbenign\timplicit-conversion\ts32>u16\t"
			    "perf_event__*\n",
			    "rules", "rule\t");
	lists_load_tsv_text(
		&l.ann, &l.nann,
		"site\tfunction\tkind\tclass\treason\tidiom\n"
		"kernel/events/core.c:1900\tperf_event__header_size\t"
		"implicit-conversion\tbenign\tsame class\tother\n"
		"kernel/events/core.c\t*\t*\tannotated\tsame idiom\tnarrow\n"
		"kernel/events/core.c\t*\t*\tannotated\tanother idiom\tx\n"
		"kernel/events/core.c\t*\t*\tbug\ta bug\tbug\n"
		"kernel/events/core.c\t*\t*\tbenign\tno\trejected-finding:y\n"
		"kernel/events/core.c\t*\t*\tbenign\tconfirmed\tfinding:z\n"
		"lib/a.c\t*\t*\tbenign\tnot in the log\tx\n",
		"sites.tsv", "site\t");
	classify_site(&l, t.v[0], NULL);
	f = open_memstream(&buf, &len);
	ret = rows_vs_rules(&l, &t, NULL, f);
	fclose(f);
	CHECK(ret == 1, "a redundant row: status %d", ret);
	CHECK(buf && strstr(buf, "redundant\tsites.tsv:2\t") &&
		      strstr(buf, "redundant\tsites.tsv:3\t") &&
		      strstr(buf, "differs\tsites.tsv:4\t") &&
		      strstr(buf, "bug\tsites.tsv:5\t") &&
		      strstr(buf, "rejected\tsites.tsv:6\t") &&
		      strstr(buf, "finding\tsites.tsv:7\t") &&
		      strstr(buf, "unseen\tsites.tsv:8\t") &&
		      strstr(buf, "\tnarrow\tkernel/events/core.c:1905:19="
				  "benign/narrow\n") &&
		      strstr(buf, "# redundant by narrow: 2\n"),
	      "each row's verdict");
	free(buf);
	buf = NULL;
	/* the rows that make the same judgement gone: none is redundant */
	free(l.ann[0].f[3]);
	l.ann[0].f[3] = strdup("annotated");
	free(l.ann[1].f[5]);
	l.ann[1].f[5] = strdup("other");
	f = open_memstream(&buf, &len);
	ret = rows_vs_rules(&l, &t, NULL, f);
	fclose(f);
	CHECK(ret == 0 && strstr(buf, "differs\tsites.tsv:2\t"),
	      "no redundant row: status %d", ret);
	free(buf);
	lists_free(&l);
	sites_free(&t);
}

int main(void)
{
	test_split();
	test_frames();
	test_paths();
	test_kinds();
	test_globs();
	test_json();
	test_json_writer();
	test_kit_report();
	test_truncated();
	test_cut_here();
	test_interleaved_callers();
	test_interleaved_no_callers();
	test_noise_without_callers();
	test_trap_merge();
	test_ud1_trap();
	test_crashes();
	test_dedup_classify();
	test_redundant_rows();
	test_headers_anywhere();
	test_stable_titles();
	test_patterns();
	test_families();
	test_panic_on_warn();
	test_truncated_flag();
	return ktap_end();
}
