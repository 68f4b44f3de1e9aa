// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: console logs through the parser, de-duplication,
 * classification and all outputs; with a leading 0x01 byte the input is an
 * ignorelist/TSV list instead.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../triage/triage.h"

static FILE *sink;

/* every report as if read from a syz-manager crash directory (--syz) */
static void on_report(void *ctx, struct report *r)
{
	struct site *s = sites_add(ctx, r);

	if (s)
		site_add_crash(s, 0);
}

static void run_outputs(struct sitetab *t, const struct lists *l)
{
	static char name[] = "fuzz", desc[] = "WARNING in fuzz";
	static const struct crashdir crash = { name, name, desc };
	static const int crashof[] = { 0 };
	const char *names[] = { "fuzz" };
	unsigned long lines = 0, reports = 0;
	struct logs lg = { names, &lines, &reports, 1, crashof, &crash };
	size_t i;

	sites_sort(t);
	for (i = 0; i < t->n; i++)
		classify_site(l, t->v[i], NULL);
	out_json(sink, t, &lg);
	out_tsv(sink, t);
	out_table(sink, t, &lg);
	out_fprate(sink, t);
}

static void fuzz_lists(const char *text)
{
	static const char log[] =
		"UBSAN: implicit-conversion in kernel/events/core.c:1905:19\n"
		"signed truncation of value 65560 from type 'int' to type "
		"'u16'\nCall Trace:\n f+0x1/0x2\n"
		"==============================================================="
		"=================\n";
	struct lists l;
	struct sitetab t;
	struct parser p;
	char err[LIST_ERR_MAX];

	lists_check_scl(text, "fuzz.scl", err, sizeof(err));
	lists_check_tsv(text, "fuzz.tsv", TSV_SITES, err, sizeof(err));
	lists_check_tsv(text, "fuzz.tsv", TSV_RULES, err, sizeof(err));
	lists_check_tsv(text, "fuzz.tsv", TSV_KNOWN_BUGS, err, sizeof(err));
	tl_binary(text, strlen(text));
	lists_init(&l);
	sites_init(&t);
	lists_load_scl_text(&l, text, "fuzz.scl");
	lists_load_tsv_text(&l.ann, &l.nann, text, "fuzz.tsv", "site\t");
	lists_load_tsv_text(&l.bugs, &l.nbugs, text, "fuzz.tsv", "name\t");
	parser_init(&p, on_report, &t);
	parser_begin_log(&p, 0);
	parser_feed(&p, log, sizeof(log) - 1, 1);
	parser_end_log(&p);
	parser_free(&p);
	run_outputs(&t, &l);
	sites_free(&t);
	lists_free(&l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sitetab t;
	struct parser p;
	struct lists l;
	char *text;

	if (!sink)
		sink = fopen("/dev/null", "w");
	if (size && data[0] == 1) {
		text = malloc(size);
		if (!text)
			return 0;
		memcpy(text, data + 1, size - 1);
		text[size - 1] = 0;
		fuzz_lists(text);
		free(text);
		return 0;
	}
	sites_init(&t);
	lists_init(&l);
	parser_init(&p, on_report, &t);
	parser_begin_log(&p, 0);
	parser_feed(&p, (const char *)data, size, 1);
	parser_end_log(&p);
	parser_free(&p);
	run_outputs(&t, &l);
	sites_free(&t);
	return 0;
}
