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
#define MSG_MAX 160
#define TITLE_MAX 320
#define MAX_FRAMES 64

/* ---- line.c: one console line, prefixes and frames ---- */

struct logline {
	const char *s; /* content: prefixes and leading blanks removed */
	size_t n;
	unsigned long caller; /* ('T' or 'C') | id << 8; 0 if none */
};

void tl_split(const char *raw, size_t n, struct logline *l);

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

/* ---- parse.c: reports ---- */

enum rtype {
	RT_UBSAN,
	RT_CRASH,
};

struct report {
	int pattern; /* index in the pattern table */
	char kind[KIND_MAX]; /* UBSAN kind, or crash kind */
	char hdr_kind[KIND_MAX]; /* kind as printed in the header */
	int old_style; /* "Undefined behaviour in" */
	char file[PATH_MAX_T]; /* tree-relative; empty if no site */
	unsigned int line, col;
	char detail[DETAIL_MAX];
	char msg[MSG_MAX]; /* header remainder (panic message, KASAN type) */
	char access[8]; /* KASAN: Read or Write */
	char hdr_func[FUNC_MAX]; /* function named by the header */
	struct frame rip;
	int has_rip, rip_kernel;
	struct frame frames[MAX_FRAMES];
	int nframes;
	int corrupted;
	int trapped; /* UBSAN line followed by an oops: one report */
	int log;
	unsigned long lineno;
	/* filled in by report_finish() */
	char func[FUNC_MAX];
	char title[TITLE_MAX];
	char syz_title[TITLE_MAX];
};

typedef void (*report_cb)(void *ctx, struct report *r);

#define NSLOTS 4

struct slot {
	int state; /* SLOT_* in parse.c */
	int framing; /* FR_* in parse.c */
	unsigned long caller;
	int junk; /* consecutive implausible lines */
	int ndetail;
	int detail_guess; /* the detail so far may be another task's line */
	int stack_done;
	unsigned long age;
	struct report r;
};

struct parser {
	struct slot slots[NSLOTS];
	int nactive;
	unsigned long age;
	int log;
	unsigned long lineno;
	unsigned long last_end; /* line where the last report ended */
	int have_last_end;
	report_cb cb;
	void *ctx;
	char *buf; /* read buffer */
	size_t bufsz;
};

void parser_init(struct parser *p, report_cb cb, void *ctx);
void parser_free(struct parser *p);
void parser_begin_log(struct parser *p, int log);
void parser_line(struct parser *p, const char *raw, size_t n);
void parser_feed(struct parser *p, const char *data, size_t n, int final);
void parser_end_log(struct parser *p);
int parser_read_fd(struct parser *p, int fd);

const char *infer_kind(const char *detail);
int is_machinery(const char *func, int pattern);
int report_is_ubsan(const struct report *r);
int ubsan_int_kind(const char *kind);
int sanitizer_names(const struct report *r, const char **names, int max);
void report_finish(struct report *r);

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
	char suggestion[512];
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

/* ---- classify.c ---- */

enum cls {
	CLS_NEW,
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

struct tsv_row {
	char *f[6];
	char *where;
};

struct lists {
	struct scl_entry *scl;
	size_t nscl;
	struct tsv_row *ann;
	size_t nann;
	struct tsv_row *bugs;
	size_t nbugs;
};

void lists_init(struct lists *l);
void lists_free(struct lists *l);
int lists_load_ignorelist(struct lists *l, const char *path, int must);
int lists_load_scl_text(struct lists *l, const char *text, const char *name);
int lists_load_annotations(struct lists *l, const char *path, int must);
int lists_load_known_bugs(struct lists *l, const char *path, int must);
int lists_load_tsv_text(struct tsv_row **rows, size_t *n, const char *text,
			const char *name, const char *hdr);
int scl_section_match(const char *section, const char *name);
void classify_site(const struct lists *l, struct site *s);

/* ---- output.c ---- */

struct logs {
	const char **names;
	unsigned long *lines;
	unsigned long *reports;
	int n;
};

void json_str(FILE *f, const char *s);
void out_table(FILE *f, const struct sitetab *t, const struct logs *lg);
void out_tsv(FILE *f, const struct sitetab *t);
void out_json(FILE *f, const struct sitetab *t, const struct logs *lg);
void out_fprate(FILE *f, const struct sitetab *t);
void class_counts(const struct sitetab *t, unsigned long *c, unsigned long *fp,
		  unsigned long *all);

/* ---- symbolize.c ---- */

int symbolize_sites(struct sitetab *t, const char *vmlinux);

#endif
