// SPDX-License-Identifier: GPL-2.0
/*
 * Frame symbolization with one long-lived llvm-symbolizer process, fed in
 * batches over pipes, with an address cache. Function addresses come from
 * one pass over "llvm-nm -n" output.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "triage.h"

#define LLVM_BIN "/usr/lib/llvm-19/bin/"
#define BATCH 128

struct sym {
	char *name;
	unsigned long addr; /* 0: not found */
};

struct cache_ent {
	unsigned long addr;
	char *res; /* "func file:line:col" lines; "" if unknown */
};

struct symz {
	struct sym *syms;
	size_t nsyms;
	struct cache_ent *cache;
	size_t ncache;
	pid_t pid;
	FILE *in, *out;
};

static const char *tool_path(const char *name, char *buf, size_t sz)
{
	snprintf(buf, sz, LLVM_BIN "%s", name);
	if (access(buf, X_OK) == 0)
		return buf;
	snprintf(buf, sz, "%s", name);
	return buf;
}

/* Start argv with stdin/stdout pipes; *in writes to it, *out reads. */
static pid_t spawn(char *const argv[], FILE **in, FILE **out)
{
	int a[2], b[2];
	pid_t pid;

	if (pipe(a))
		return -1;
	if (pipe(b)) {
		close(a[0]);
		close(a[1]);
		return -1;
	}
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(a[0], 0);
		dup2(b[1], 1);
		close(a[0]);
		close(a[1]);
		close(b[0]);
		close(b[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(a[0]);
	close(b[1]);
	if (in)
		*in = fdopen(a[1], "w");
	else
		close(a[1]);
	*out = fdopen(b[0], "r");
	return pid;
}

static struct sym *sym_find(struct symz *z, const char *name)
{
	size_t i;

	for (i = 0; i < z->nsyms; i++)
		if (!strcmp(z->syms[i].name, name))
			return &z->syms[i];
	return NULL;
}

static int sym_want(struct symz *z, const char *name)
{
	struct sym *ns;

	if (sym_find(z, name))
		return 0;
	ns = realloc(z->syms, (z->nsyms + 1) * sizeof(*ns));
	if (!ns)
		return -1;
	z->syms = ns;
	ns[z->nsyms].name = strdup(name);
	ns[z->nsyms].addr = 0;
	if (!ns[z->nsyms].name)
		return -1;
	z->nsyms++;
	return 0;
}

/* One pass over the symbol table for the functions we need. */
static int read_nm(struct symz *z, const char *vmlinux)
{
	char nm[256], line[1024], name[512], type;
	char *argv[] = { NULL, "-n", "--defined-only", (char *)vmlinux, NULL };
	unsigned long addr;
	struct sym *s;
	FILE *out;
	pid_t pid;
	int st;

	argv[0] = (char *)tool_path("llvm-nm", nm, sizeof(nm));
	pid = spawn(argv, NULL, &out);
	if (pid < 0 || !out)
		return -1;
	while (fgets(line, sizeof(line), out)) {
		if (sscanf(line, "%lx %c %511s", &addr, &type, name) != 3)
			continue;
		if (type != 'T' && type != 't' && type != 'W' && type != 'w')
			continue;
		s = sym_find(z, name);
		if (s && !s->addr)
			s->addr = addr;
	}
	fclose(out);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static char *cache_get(struct symz *z, unsigned long addr)
{
	size_t i;

	for (i = 0; i < z->ncache; i++)
		if (z->cache[i].addr == addr)
			return z->cache[i].res;
	return NULL;
}

static void cache_put(struct symz *z, unsigned long addr, char *res)
{
	struct cache_ent *nc = realloc(z->cache, (z->ncache + 1) * sizeof(*nc));

	if (!nc) {
		free(res);
		return;
	}
	z->cache = nc;
	nc[z->ncache].addr = addr;
	nc[z->ncache].res = res;
	z->ncache++;
}

static void append(char **res, size_t *len, const char *s)
{
	size_t k = strlen(s);
	char *n = realloc(*res, *len + k + 1);

	if (!n)
		return;
	memcpy(n + *len, s, k + 1);
	*res = n;
	*len += k;
}

/* Read one answer: pairs of "function" / "file:line:col", blank line. */
static char *read_answer(FILE *out)
{
	char fn[512], loc[1024], buf[1600];
	char *res = NULL;
	size_t len = 0, k;

	append(&res, &len, "");
	for (;;) {
		if (!fgets(fn, sizeof(fn), out))
			break;
		if (fn[0] == '\n')
			break;
		if (!fgets(loc, sizeof(loc), out))
			break;
		fn[strcspn(fn, "\n")] = 0;
		loc[strcspn(loc, "\n")] = 0;
		if (!strcmp(fn, "??") || !strncmp(loc, "??", 2))
			continue;
		k = strlen(res);
		snprintf(buf, sizeof(buf), "%s%s %s", k ? "\n" : "", fn,
			 tl_strip_path(loc));
		append(&res, &len, buf);
	}
	return res;
}

static void run_batch(struct symz *z, const unsigned long *addrs, int n)
{
	int i;

	for (i = 0; i < n; i++)
		fprintf(z->in, "0x%lx\n", addrs[i]);
	fflush(z->in);
	for (i = 0; i < n; i++)
		cache_put(z, addrs[i], read_answer(z->out));
}

static unsigned long frame_addr(struct symz *z, const struct frame *f,
				int ret_addr)
{
	struct sym *s;

	if (f->module[0])
		return 0;
	s = sym_find(z, f->func);
	if (!s || !s->addr)
		return 0;
	return s->addr + f->off - (ret_addr && f->off ? 1 : 0);
}

static void for_frames(struct sitetab *t, struct symz *z, int pass)
{
	unsigned long batch[BATCH], a;
	int nb = 0, i, j;
	size_t k;
	struct report *r;
	struct frame *f;
	char *res;

	for (k = 0; k < t->n; k++) {
		r = &t->v[k]->r;
		for (i = -1; i < r->nframes; i++) {
			if (i < 0 && !r->has_rip)
				continue;
			f = i < 0 ? &r->rip : &r->frames[i];
			if (pass == 0) {
				sym_want(z, f->func);
				continue;
			}
			a = frame_addr(z, f, i >= 0);
			if (!a)
				continue;
			res = cache_get(z, a);
			if (pass == 2) {
				if (res && res[0])
					f->src = strdup(res);
				continue;
			}
			for (j = 0; j < nb && batch[j] != a; j++)
				;
			if (res || j < nb)
				continue;
			batch[nb++] = a;
			if (nb == BATCH) {
				run_batch(z, batch, nb);
				nb = 0;
			}
		}
	}
	if (nb)
		run_batch(z, batch, nb);
}

/*
 * A trap (x86 "ud1", CONFIG_UBSAN_TRAP) names its check and the trapping
 * address, not the site: the RIP's symbolized frames, innermost first, say
 * where the check is. Clang merges the traps of one kind in a function into
 * one instruction, which then has line 0: the site is the innermost frame
 * with a line.
 */
static void trap_site(struct report *r)
{
	const char *p, *loc, *end, *c1, *c2;
	unsigned long line;

	if (!r->trapped || r->file[0] || !r->rip.src)
		return;
	for (p = r->rip.src; *p; p = *end ? end + 1 : end) {
		end = strchr(p, '\n');
		if (!end)
			end = p + strlen(p);
		loc = memchr(p, ' ', (size_t)(end - p));
		if (!loc)
			continue;
		loc++;
		c2 = memrchr(loc, ':', (size_t)(end - loc));
		if (!c2)
			continue;
		c1 = memrchr(loc, ':', (size_t)(c2 - loc));
		if (!c1) {
			c1 = c2;
			c2 = NULL;
		}
		line = strtoul(c1 + 1, NULL, 10);
		if (!line)
			continue;
		tl_copy(r->file, sizeof(r->file), loc, (size_t)(c1 - loc));
		r->line = (unsigned int)line;
		r->col = c2 ? (unsigned int)strtoul(c2 + 1, NULL, 10) : 0;
		return;
	}
}

/* Does a symbolized chain ("func file:line:col" lines) pass through file:line? */
static int src_has(const char *src, const char *file, unsigned int line)
{
	char want[PATH_MAX_T + 16];
	size_t n = (size_t)snprintf(want, sizeof(want), " %s:%u", file, line);
	const char *p;

	for (p = src; (p = strstr(p, want)); p += n) {
		if (!p[n] || p[n] == ':' || p[n] == '\n')
			return 1;
	}
	return 0;
}

/*
 * An early-boot report may have no reliable frame at all ("? up", "? func"
 * for each stale return address on the stack), and the first unreliable one
 * that is not machinery is then a guess. The frame whose symbolized source
 * passes through the report's own file:line is the one that called the
 * handler: name the report after it. A reliable guilty frame is kept.
 */
static void site_frame(struct report *r)
{
	char func[FUNC_MAX];
	int i;

	if (!report_is_ubsan(r) || r->trapped || !r->file[0] || !r->line)
		return;
	for (i = 0; i < r->nframes; i++) {
		tl_norm_func(r->frames[i].func, func, sizeof(func));
		if (!r->frames[i].unreliable && !strcmp(func, r->func))
			return;
	}
	for (i = 0; i < r->nframes; i++) {
		if (!r->frames[i].src ||
		    !src_has(r->frames[i].src, r->file, r->line))
			continue;
		tl_norm_func(r->frames[i].func, r->func, sizeof(r->func));
		snprintf(r->title, sizeof(r->title), "UBSAN: %s in %s", r->kind,
			 r->func);
		snprintf(r->syz_title, sizeof(r->syz_title), "UBSAN: %s in %s",
			 r->old_style ? "undefined-behaviour" : r->kind,
			 r->func);
		return;
	}
}

/*
 * The function the check is written in: in the guilty frame's inline chain
 * (innermost first), the first entry at the report's own file:line. A check
 * inlined into its caller is reported under the caller's name; the lists
 * (ignorelist fun:, corpus, annotations) name the function it is written
 * in, which inlining does not change.
 */
static void site_written_in(struct report *r)
{
	char func[FUNC_MAX], want[PATH_MAX_T + 16];
	const char *p, *sp, *eol;
	size_t n;
	int i;

	r->written_in[0] = 0;
	r->off_chain = 0;
	if (!report_is_ubsan(r) || !r->file[0] || !r->line || !r->func[0])
		return;
	n = (size_t)snprintf(want, sizeof(want), " %s:%u", r->file, r->line);
	for (i = 0; i < r->nframes; i++) {
		tl_norm_func(r->frames[i].func, func, sizeof(func));
		if (r->frames[i].src && !strcmp(func, r->func))
			break;
	}
	if (i == r->nframes)
		return;
	for (p = r->frames[i].src; *p; p = *eol ? eol + 1 : eol) {
		eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		sp = memchr(p, ' ', (size_t)(eol - p));
		if (!sp || (size_t)(eol - sp) < n || strncmp(sp, want, n) ||
		    (sp[n] != ':' && sp + n != eol))
			continue;
		if ((size_t)(sp - p) < sizeof(func) &&
		    strncmp(p, r->func, (size_t)(sp - p)))
			tl_copy(r->written_in, sizeof(r->written_in), p,
				(size_t)(sp - p));
		return;
	}
	/* no entry at file:line: most often the handler was jumped to (a
	 * sibling call), also a stale frame (written_in_source); a trap's
	 * site is its own frame's */
	r->off_chain = !r->trapped;
}

/*
 * Fill frame.src for every stored frame, the site of traps, and the guilty
 * frame of UBSAN reports without a reliable one. Returns 0,
 * or -1 with a warning.
 */
int symbolize_sites(struct sitetab *t, const char *vmlinux)
{
	struct symz z;
	char sym[256], obj[1100];
	char *argv[] = { NULL, obj, "--inlines", NULL };
	void (*old)(int);
	size_t i;
	int st, ret = 0;

	memset(&z, 0, sizeof(z));
	if (access(vmlinux, R_OK)) {
		fprintf(stderr, "ubsan-triage: warning: cannot read %s: %s\n",
			vmlinux, strerror(errno));
		return -1;
	}
	for_frames(t, &z, 0);
	if (read_nm(&z, vmlinux)) {
		fprintf(stderr,
			"ubsan-triage: warning: llvm-nm failed on %s; frames "
			"keep names and offsets\n",
			vmlinux);
		ret = -1;
		goto out;
	}
	snprintf(obj, sizeof(obj), "--obj=%s", vmlinux);
	argv[0] = (char *)tool_path("llvm-symbolizer", sym, sizeof(sym));
	old = signal(SIGPIPE, SIG_IGN);
	z.pid = spawn(argv, &z.in, &z.out);
	if (z.pid < 0 || !z.in || !z.out) {
		fprintf(stderr, "ubsan-triage: warning: cannot run %s\n", sym);
		ret = -1;
	} else {
		for_frames(t, &z, 1);
		for_frames(t, &z, 2);
		for (i = 0; i < t->n; i++) {
			trap_site(&t->v[i]->r);
			site_frame(&t->v[i]->r);
			site_written_in(&t->v[i]->r);
		}
		fclose(z.in);
		fclose(z.out);
		waitpid(z.pid, &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr,
				"ubsan-triage: warning: %s failed; some frames "
				"are not symbolized\n",
				sym);
			ret = -1;
		}
	}
	signal(SIGPIPE, old);
out:
	for (i = 0; i < z.nsyms; i++)
		free(z.syms[i].name);
	for (i = 0; i < z.ncache; i++)
		free(z.cache[i].res);
	free(z.syms);
	free(z.cache);
	return ret;
}
