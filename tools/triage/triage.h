/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ubsan-triage: parse kernel console logs, extract UBSAN and crash reports,
 * de-duplicate them by site and classify them against the kit's lists.
 */
#ifndef TRIAGE_H
#define TRIAGE_H

#include <stddef.h>
#include <stdio.h>

#define TRIAGE_VERSION "1.0"

#define FUNC_MAX 128
#define MOD_MAX 48
#define PATH_MAX_T 256
#define KIND_MAX 48
#define DETAIL_MAX 512
#define TITLE_MAX 320
#define MAX_FRAMES 64

/* ---- line.c: one console line, prefixes and frames ---- */

struct logline {
	const char *s; /* content: prefixes and leading blanks removed */
	size_t n;
	const char *body; /* content with its leading blanks */
	size_t bn;
	unsigned long caller; /* ('T' or 'C') | id << 8; 0 if none */
	unsigned long ctx; /* CTX_NONE, CTX_CONSOLE, or the caller */
	unsigned marks; /* FF_* marks found in the line (formats.c) */
};

/* Who printed a line: no timestamp, a timestamp only, or a caller id. */
#define CTX_NONE 0UL
#define CTX_CONSOLE 1UL

void tl_split(const char *raw, size_t n, struct logline *l);
void tl_resplit(struct logline *l, size_t *hpos);

struct frame {
	char func[FUNC_MAX]; /* as printed, suffixes kept */
	char module[MOD_MAX]; /* empty if built in */
	unsigned long off, size;
	int unreliable; /* printed with "? " */
	char *src; /* symbolized "func file:line:col" list, '\n' separated */
};

int tl_frame(const char *s, size_t n, struct frame *f);
int tl_rip(const char *s, size_t n, struct frame *f, int *kernel);
const char *tl_strip_path(const char *path);
void tl_norm_func(const char *in, char *out, size_t outsz);
int tl_starts(const char *s, size_t n, const char *prefix);
const char *tl_find(const char *s, size_t n, const char *needle);
void tl_copy(char *dst, size_t dsz, const char *s, size_t n);
int tl_binary(const char *s, size_t n);

/* ---- match.c: the tables' pattern language ---- */

#define PM_MAXCAP 8
#define PM_FRAMES 1 /* only %f captures */
#define PM_NOCASE 2 /* letters match either case */

struct pmatch {
	struct {
		const char *s;
		size_t n;
	} cap[PM_MAXCAP];
	int ncap;
	size_t start, end;
	long budget; /* matching steps left (see match.c) */
};

#define PM_BUDGET 100000

int pm_find(const char *pat, const char *s, size_t n, struct pmatch *m,
	    int flags);
size_t pm_pc(const char *s, size_t n, size_t i);

/* ---- formats.c: report families, formats, frames never guilty ---- */

enum fam {
	FAM_BUG,
	FAM_WARNING,
	FAM_INFO,
	FAM_UNABLE,
	FAM_GPF,
	FAM_STACKSEG,
	FAM_PANIC,
	FAM_DFAULT,
	FAM_KBUG,
	FAM_KBUG2,
	FAM_KMALLOC,
	FAM_DIVIDE,
	FAM_DIVIDE2,
	FAM_OPCODE,
	FAM_INT3,
	FAM_UBSAN,
	FAM_NETDEV,
	FAM_VFS_CLOSE,
	FAM_VFS_BUSY,
	FAM_INTERNAL,
	FAM_UNHANDLED,
	FAM_ALIGN,
	FAM_KMEMLEAK,
	FAM_COUNT, /* headers before, marks after */
	MARK_VMALLOC = FAM_COUNT,
	MARK_INJECT,
	MARK_RETRY,
	MARK_NMI,
	MARK_TAINT,
	FAM_ALL,
};

enum fam_flags {
	FF_UBSAN = 1,
	FF_OOPS = 2, /* an oops line that may continue a report (a trap) */
	FF_CONT = 4, /* does not start a new report inside one */
	FF_PANIC = 8,
	/* marks */
	FF_NOISE = 16, /* prints a stack but is no crash: ends the report */
	FF_NMI = 32, /* "Sending NMI": other CPUs' lines join the report */
	FF_QUIET = 64, /* left out of a report's text */
};

struct tline {
	const char *s;
	size_t n;
	signed char st; /* starts a stack trace: -1 not known yet */
};

struct verdict {
	char title[TITLE_MAX];
	char func[FUNC_MAX]; /* empty if none */
	int corrupted; /* syzkaller's meaning */
	const char *reason;
	int format; /* -1: the title is the header line itself */
};

void fam_init(void);
int fam_scan(const char *s, size_t n, size_t *pos);
unsigned fam_marks(const char *s, size_t n);

int fam_flags(int fam);
const char *fam_header(int fam);
void fam_extract(int fam, struct tline *t, int n, int nall, struct verdict *v);
int never_guilty_ubsan(const char *func);

/* ---- title.c ---- */

void title_stable(const char *in, char *out, size_t sz);

/* ---- parse.c: reports ---- */

struct report {
	int fam; /* FAM_* */
	char kind[KIND_MAX]; /* UBSAN kind, or crash kind */
	char hdr_kind[KIND_MAX]; /* kind as printed in the header */
	int old_style; /* "Undefined behaviour in" */
	char file[PATH_MAX_T]; /* tree-relative; empty if no site */
	unsigned int line, col;
	char detail[DETAIL_MAX];
	char hdr_func[FUNC_MAX]; /* function named by a trap's header */
	struct frame rip;
	int has_rip, rip_kernel;
	struct frame frames[MAX_FRAMES];
	int nframes;
	int corrupted; /* syzkaller's meaning (see README) */
	int truncated; /* its framing never closed (log ended, displaced) */
	int trapped; /* UBSAN line followed by an oops: one report */
	int log;
	unsigned long lineno;
	char workload[64]; /* the kit's workload running then, "" if none */
	/* filled in when the report closes */
	char func[FUNC_MAX];
	/* the function the check is written in, when the guilty frame's inline
	 * chain (--vmlinux) says it is not func: the one the lists name */
	char written_in[FUNC_MAX];
	/* --vmlinux: the guilty frame's inline chain never reaches file:line
	 * (most often a check that jumped to its handler: the frame is its
	 * caller's) */
	int off_chain;
	char title[TITLE_MAX];
	char syz_title[TITLE_MAX];
};

/* a site's function: the one its check is written in, when known */
static inline const char *site_func(const struct report *r)
{
	return r->written_in[0] ? r->written_in : r->func;
}

typedef void (*report_cb)(void *ctx, struct report *r);

#define NSLOTS 4

struct slot {
	int state; /* SLOT_* in parse.c */
	int framing; /* FR_* in parse.c */
	unsigned long ctx;
	int junk; /* consecutive implausible lines */
	int ndetail;
	int detail_guess; /* the detail so far may be another task's line */
	int stack_done;
	int cpu_traceback; /* "Sending NMI": other CPUs' lines belong here */
	int kmsan; /* a KMSAN report (a shorter one before its panic) */
	int guessed; /* its stack was told from another report's by order only */
	unsigned long age;
	unsigned long born; /* order of opening, among the slots */
	char *text; /* the report's lines, '\n' terminated */
	size_t tlen, tcap;
	int tlines;
	int tend; /* lines of the title text, -1: all of it */
	struct report r;
};

struct parser {
	struct slot slots[NSLOTS];
	int nactive, nlinger;
	unsigned long age;
	int log;
	unsigned long lineno;
	unsigned long last_end; /* line where the last report ended */
	char workload[64]; /* "kit: workload begin NAME" ... "end" */
	int have_last_end;
	report_cb cb;
	void *ctx;
	char *buf; /* read buffer */
	size_t bufsz;
	struct tline *lines; /* a closing report's lines */
	int nlines;
};

void parser_init(struct parser *p, report_cb cb, void *ctx);
void parser_free(struct parser *p);
void parser_begin_log(struct parser *p, int log);
void parser_line(struct parser *p, const char *raw, size_t n);
void parser_feed(struct parser *p, const char *data, size_t n, int final);
void parser_end_log(struct parser *p);
int parser_read_fd(struct parser *p, int fd);

const char *infer_kind(const char *detail);
int report_is_ubsan(const struct report *r);
int ubsan_int_kind(const char *kind);
int sanitizer_names(const struct report *r, const char **names, int max);

/* ---- follow.c: a log that is still being written ---- */

struct follow_opts {
	int pid; /* stop once this process has exited; 0: none */
	int idle_s; /* stop after this many quiet seconds; 0: never */
	const int *stop; /* stop as soon as *stop is set; NULL: never */
};

int follow_open(const char *path, const struct follow_opts *o);
int follow_fd(struct parser *p, int fd, const struct follow_opts *o);

/* ---- sites.c: de-duplication ---- */

struct occurrence {
	int log;
	unsigned long line;
};

struct site {
	struct report r; /* first occurrence */
	char key[TITLE_MAX + KIND_MAX];
	unsigned long count;
	struct occurrence first, last;
	int cls; /* CLS_* */
	char reason[512];
	char suggestion[1280];
	char idiom[32]; /* of the annotation row or idiom rule that matched */
	int *crashes; /* --syz: the crash directories it was seen in */
	size_t ncrashes;
};

struct sitetab {
	struct site **v;
	size_t n, cap;
	size_t *hash; /* open addressing: index + 1, 0 = empty */
	size_t hcap;
	unsigned long reports;
};

void sites_init(struct sitetab *t);
void sites_free(struct sitetab *t);
struct site *sites_add(struct sitetab *t, const struct report *r);
void sites_sort(struct sitetab *t);
int site_add_crash(struct site *s, int crash);

/* ---- classify.c ---- */

enum cls {
	CLS_NEW,
	CLS_FINDING, /* judged by rule: a likely bug, with its evidence */
	CLS_KNOWN_BUG,
	CLS_ANNOTATED,
	CLS_BENIGN,
	CLS_IGNORELISTED,
	CLS_DELIBERATE, /* a test that reports on purpose (test_ubsan) */
	CLS_COUNT,
};

extern const char *const cls_names[CLS_COUNT];

struct scl_entry {
	char *section; /* NULL: applies to all sanitizers */
	char *type; /* "src" or "fun" */
	char *glob;
	char *category; /* NULL if none */
	char *reason;
	char *where; /* file:line of the entry */
};

/* the columns kept of a TSV row; missing ones read as "" */
#define TSV_COLS 10

struct tsv_row {
	char *f[TSV_COLS];
	char *where;
};

struct lists {
	struct scl_entry *scl;
	size_t nscl;
	struct tsv_row *ann;
	size_t nann;
	struct tsv_row *bugs;
	size_t nbugs;
	struct tsv_row *rules; /* annotations/rules.tsv */
	size_t nrules;
};

void lists_init(struct lists *l);
void lists_free(struct lists *l);
int lists_load_ignorelist(struct lists *l, const char *path, int must);
int lists_load_scl_text(struct lists *l, const char *text, const char *name);
int lists_load_annotations(struct lists *l, const char *path, int must);
int lists_load_known_bugs(struct lists *l, const char *path, int must);
int lists_load_rules(struct lists *l, const char *path, int must);
int lists_load_tsv_text(struct tsv_row **rows, size_t *n, const char *text,
			const char *name, const char *hdr);
int lists_load_tsv(struct tsv_row **rows, size_t *n, const char *path,
		   const char *hdr, int must);

/*
 * The checks the loaders make before they read a list: the first bad line,
 * described in err as "FILE:LINE: what", and -1.
 */
#define LIST_ERR_MAX 600
enum tsv_kind { TSV_SITES, TSV_RULES, TSV_KNOWN_BUGS };
int lists_check_scl(const char *text, const char *name, char *err, size_t sz);
int lists_check_tsv(const char *text, const char *name, int kind, char *err,
		    size_t sz);
void tsv_rows_free(struct tsv_row *rows, size_t n);
int scl_section_match(const char *section, const char *name);
void classify_site(const struct lists *l, struct site *s, const char *src);
int rows_vs_rules(const struct lists *l, const struct sitetab *t,
		  const char *src, FILE *out);
int report_kind_matches(const char *want, const struct report *r);
int glob_or_any(const char *glob, const char *name);

/* ---- rules.c: the facts of a site, and the rules that judge it ---- */

#define TYPE_MAX 96

struct ctype {
	char name[TYPE_MAX]; /* as printed: the typedef name if any */
	char aka[TYPE_MAX]; /* the canonical type */
	int bits; /* 0: unknown */
	int is_signed; /* -1: unknown */
};

struct facts {
	const char *kind, *file, *func;
	const char *detail; /* NULL for a census row: no value */
	char conv[40]; /* "signed truncation", ...; "" for arithmetic */
	struct ctype src, dst; /* arithmetic: src is the operation's type */
	char value[96], result[32];
	unsigned int lineno,
		stmt_end; /* the site's line, the statement's last */
	char line[512]; /* the statement at the site; "" without the source */
	char site_text[256]; /* the site's own line of it */
	char entry[FUNC_MAX + 48]; /* "sys_NAME[ (ioctl handler)]" or "" */
	int census; /* static facts only */
};

void facts_of_report(struct facts *f, const struct report *r, const char *src);
void facts_entry(const struct report *r, char *out, size_t sz);
void facts_source(struct facts *f, const char *src);
void written_in_source(struct report *r, const char *src);
int rule_matches(const struct tsv_row *i, const struct facts *f,
		 const struct report *r);
int rule_is_static(const struct tsv_row *i);
const char *rule_name(const struct tsv_row *i);
const char *rule_class(const struct tsv_row *i);
const char *rule_reason(const struct tsv_row *i);
void finding_text(const struct facts *f, const char *src, const char *why,
		  char *out, size_t sz);

/* ---- json.c: the JSON writer of --json and --kcidb ---- */

enum json_layout {
	JSON_INLINE, /* {"a": 1, "b": [2, 3]} */
	JSON_LINES, /* a member a line; the closing bracket on its own line */
	JSON_ROWS, /* an element a line; the bracket right after the last */
};

#define JSON_DEPTH 8 /* deeper containers are left out */

struct json_level {
	char close; /* '}' or ']' */
	unsigned char layout; /* enum json_layout */
	unsigned long n; /* values written so far */
};

struct json {
	FILE *f;
	int depth;
	struct json_level level[JSON_DEPTH];
	int overflow; /* containers opened past JSON_DEPTH, left out */
};

void json_str(FILE *f, const char *s);
void json_init(struct json *j, FILE *f);
/* key: the member's name inside an object; NULL in an array */
void json_object(struct json *j, const char *key, enum json_layout layout);
void json_array(struct json *j, const char *key, enum json_layout layout);
void json_end(struct json *j);
void json_string(struct json *j, const char *key, const char *v);
void json_uint(struct json *j, const char *key, unsigned long v);
void json_bool(struct json *j, const char *key, int v);
void json_fixed(struct json *j, const char *key, double v, int decimals);
void json_null(struct json *j, const char *key);

/* ---- output.c ---- */

struct crashdir;

struct logs {
	const char **names;
	unsigned long *lines;
	unsigned long *reports;
	int n;
	/* --syz: each log's crash directory, -1 for none; NULL without --syz */
	const int *crash;
	const struct crashdir *crashes;
};

void out_table(FILE *f, const struct sitetab *t, const struct logs *lg);
void out_tsv(FILE *f, const struct sitetab *t);
void out_json(FILE *f, const struct sitetab *t, const struct logs *lg);
void out_fprate(FILE *f, const struct sitetab *t);
struct counts {
	unsigned long cls[CLS_COUNT];
	unsigned long int_sites; /* integer-check sites, deliberate ones out */
	unsigned long unexplained; /* of them: class new */
	unsigned long findings; /* class finding: judged, not confirmed */
	unsigned long explained; /* the others */
	unsigned long intentional; /* annotated, benign, ignorelisted */
};

void class_counts(const struct sitetab *t, struct counts *k);

/* ---- coverage.c: the rules over a kernel's census of checks ---- */

int coverage_main(const struct lists *l, const char *census, const char *src,
		  FILE *out);

/* ---- findings.c: the findings of a set of runs, one report ---- */

#define TREES_MAX 8

struct trees {
	int n;
	const char *name[TREES_MAX]; /* "6.12.118" */
	const char *dir[TREES_MAX];
};

int findings_report(FILE *out, const struct sitetab *st, const struct logs *lg,
		    const struct trees *t, const char *src, int json);

/* ---- syz.c: syz-manager's crash directories ---- */

#define SYZ_WORKLOAD "fuzzing" /* the workload of every report read there */

struct crashdir {
	char *path; /* as read */
	char *name; /* its last component: syzkaller's hash of the title */
	char *description; /* the title syzkaller gave it, "" if none */
};

struct syzdirs {
	struct crashdir *v;
	size_t n;
	char **logs; /* one per crash: logN, or reportN if it has no logN */
	int *crash; /* each log's crash directory (index in v) */
	size_t nlogs;
};

int syz_scan(struct syzdirs *z, const char *dir);
void syz_free(struct syzdirs *z);

/* ---- symbolize.c ---- */

int symbolize_sites(struct sitetab *t, const char *vmlinux);

#endif
