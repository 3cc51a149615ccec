/* Test helper: run the execution sources and check what they report; see
 * xrecord.h. */
#include "tests/unit/xrecord.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/unit/pathcheck.h"
#include "tools/record/classify.h"
#include "tools/record/elfimage.h"
#include "tools/record/exec_ptrace.h"
#include "tools/record/exec_qemu.h"

static void bad(struct result *r, const char *msg)
{
	if (!r->bad++)
		snprintf(r->badmsg, sizeof(r->badmsg), "%s", msg);
}

static int has_started(struct result *r, int32_t tid)
{
	for (size_t i = 0; i < r->starts.len; i++)
		if (((struct tstart *)ptd_vec_at(&r->starts, i))->tid == tid)
			return 1;
	return 0;
}

static int has_ended(struct result *r, int32_t tid)
{
	for (size_t i = 0; i < r->ends.len; i++)
		if (((struct tend *)ptd_vec_at(&r->ends, i))->tid == tid)
			return 1;
	return 0;
}

static int cb_start(void *ctx, int32_t pid, int32_t tid, int32_t ppid, int32_t ptid, uint64_t ip)
{
	struct result *r = ctx;
	struct tstart *s = ptd_vec_push(&r->starts);

	if (!s)
		return -PTD_E_NOMEM;
	if (!r->ncomm || !r->maps.len)
		bad(r, "thread_start before comm/mmap");
	*s = (struct tstart){ pid, tid, ppid, ptid, ip };
	return 0;
}

static int cb_event(void *ctx, int32_t tid, const struct ptd_xev *ev)
{
	struct result *r = ctx;
	struct rec *e;

	if (!has_started(r, tid) || has_ended(r, tid))
		bad(r, "event outside its thread's life");
	if (!(e = ptd_vec_push(&r->evs)))
		return -PTD_E_NOMEM;
	e->tid = tid;
	e->ev = *ev;
	return 0;
}

static int cb_end(void *ctx, int32_t tid, uint64_t icount, uint64_t last_ip)
{
	struct result *r = ctx;
	struct tend *e;

	if (!has_started(r, tid) || has_ended(r, tid))
		bad(r, "thread_end without start, or twice");
	if (!(e = ptd_vec_push(&r->ends)))
		return -PTD_E_NOMEM;
	*e = (struct tend){ tid, icount, last_ip };
	return 0;
}

static int cb_mmap(void *ctx, int32_t pid, int32_t tid, const struct ptd_xmap *m)
{
	struct result *r = ctx;
	struct mapping *x = ptd_vec_push(&r->maps);

	if (!x)
		return -PTD_E_NOMEM;
	if (!r->ncomm)
		bad(r, "mmap before comm");
	x->start = m->start;
	x->len = m->len;
	x->prot = m->prot;
	snprintf(x->path, sizeof(x->path), "%s", m->path);
	return 0;
}

static int cb_comm(void *ctx, int32_t pid, int32_t tid, const char *comm)
{
	struct result *r = ctx;

	r->ncomm++;
	snprintf(r->comm, sizeof(r->comm), "%s", comm);
	return 0;
}

void result_init(struct result *r)
{
	memset(r, 0, sizeof(*r));
	r->evs = (struct ptd_vec)PTD_VEC_INIT(sizeof(struct rec));
	r->starts = (struct ptd_vec)PTD_VEC_INIT(sizeof(struct tstart));
	r->ends = (struct ptd_vec)PTD_VEC_INIT(sizeof(struct tend));
	r->maps = (struct ptd_vec)PTD_VEC_INIT(sizeof(struct mapping));
}

void result_fini(struct result *r)
{
	ptd_vec_fini(&r->evs);
	ptd_vec_fini(&r->starts);
	ptd_vec_fini(&r->ends);
	ptd_vec_fini(&r->maps);
}

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Run path under one source into r.  use_qemu: 1 qemu, 0 ptrace. */
void record(struct result *r, const char *path, int use_qemu)
{
	static const char *const envp[] = { NULL };
	const char *argv[] = { path, NULL };
	struct ptd_xsink sink = { r, cb_start, cb_event, cb_end, cb_mmap, cb_comm };
	double t0 = now();
	int saved = dup(1);

	/* the program's output would land in the TAP stream */
	fflush(stdout);
	if (saved >= 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null >= 0) {
			dup2(null, 1);
			close(null);
		}
	}
	result_init(r);
	if (use_qemu) {
		struct ptd_qemu_stats st;
		struct ptd_qemu_opts o = { .envp = envp, .no_aslr = 1, .stats = &st,
					   .arches = 1u << PTD_ARCH_X86_64 | 1u << PTD_ARCH_AARCH64 };

		memset(&st, 0, sizeof(st));
		r->rc = ptd_exec_qemu_opts(argv, &o, &sink, &r->err);
		r->insns = st.walk.insns;
		r->guessed = st.walk.guessed;
		r->deferred = st.walk.deferred;
		r->splits = st.walk.splits;
	} else {
		struct ptd_ptrace_stats st;
		struct ptd_ptrace_opts o = { .envp = envp, .no_aslr = 1, .stats = &st };

		memset(&st, 0, sizeof(st));
		r->rc = ptd_exec_ptrace(argv, &o, &sink, &r->err);
		r->insns = st.insns;
	}
	r->secs = now() - t0;
	if (saved >= 0) {
		dup2(saved, 1);
		close(saved);
	}
}

/* ---- checks ---- */

size_t invariants(const struct result *r, char *msg, size_t msgsz)
{
	struct ptd_vec last = PTD_VEC_INIT(sizeof(struct tend));   /* per tid: last icount */
	size_t problems = 0;

	msg[0] = '\0';
	if (r->bad) {
		problems += (size_t)r->bad;
		snprintf(msg, msgsz, "%s", r->badmsg);
	}
	if (r->ncomm != 1 || r->starts.len != r->ends.len) {
		if (!problems++)
			snprintf(msg, msgsz, "comm calls %d, thread starts %zu, ends %zu", r->ncomm,
				 r->starts.len, r->ends.len);
	}
	for (size_t i = 0; i < r->evs.len; i++) {
		const struct rec *e = ptd_vec_at(&r->evs, i);
		const struct ptd_xev *ev = &e->ev;
		struct tend *l = NULL;
		const char *why = NULL;

		for (size_t k = 0; k < last.len; k++)
			if (((struct tend *)ptd_vec_at(&last, k))->tid == e->tid)
				l = ptd_vec_at(&last, k);
		if (!l && (l = ptd_vec_push(&last)))
			l->tid = e->tid;
		if (!l)
			break;
		if (ev->cls >= PTD_X_NCLASS)
			why = "bad class";
		else if (ev->cls == PTD_X_ASYNC ? (ev->insn_len != 0 || ev->icount < l->icount)
						: (ev->insn_len == 0 || ev->insn_len > 15 || ev->icount <= l->icount))
			why = "icount not increasing or bad length";
		else if (ev->cls == PTD_X_COND && !ev->taken && ev->to != ev->from + ev->insn_len)
			why = "not-taken branch does not fall through";
		else if (ev->cls != PTD_X_COND && ev->taken != 1)
			why = "taken flag";
		if (why && !problems++)
			snprintf(msg, msgsz, "event %zu tid %d %s %#" PRIx64 "->%#" PRIx64 ": %s", i,
				 (int)e->tid, ptd_xclass_name(ev->cls), ev->from, ev->to, why);
		l->icount = ev->icount;
	}
	for (size_t k = 0; k < r->ends.len; k++) {
		const struct tend *t = ptd_vec_at(&r->ends, k);
		for (size_t j = 0; j < last.len; j++) {
			const struct tend *l = ptd_vec_at(&last, j);
			if (l->tid == t->tid && t->icount < l->icount && !problems++)
				snprintf(msg, msgsz, "thread %d ends at icount %" PRIu64 " < %" PRIu64,
					 (int)t->tid, t->icount, l->icount);
		}
	}
	ptd_vec_fini(&last);
	return problems;
}

/* The code walk_path reads: the executable, and for AArch64 qemu's
 * sigreturn trampoline where a "[vdso]" mapping was reported. */
struct code {
	const struct ptd_elfimage *img;
	uint64_t tramp;          /* 0: none */
};

static long read_code(void *ctx, uint64_t addr, uint8_t *buf, size_t len)
{
	/* mov x8, #139 (rt_sigreturn); svc #0 */
	static const uint8_t tramp[8] = { 0x68, 0x11, 0x80, 0xd2, 0x01, 0x00, 0x00, 0xd4 };
	const struct code *c = ctx;
	size_t n = ptd_elfimage_read(c->img, addr, buf, len);

	if (n || !c->tramp || addr < c->tramp || addr - c->tramp >= sizeof(tramp))
		return (long)n;
	n = sizeof(tramp) - (size_t)(addr - c->tramp);
	n = n < len ? n : len;
	memcpy(buf, tramp + (addr - c->tramp), n);
	return (long)n;
}

int walk_path(const struct result *r, const char *path, char *msg, size_t msgsz, size_t *checked,
	      size_t *skipped)
{
	struct ptd_elfimage *img = NULL;
	struct ptd_classifier *cls = NULL;
	struct ptd_err err = {0};
	struct pathcheck pc;
	struct code code = { NULL, 0 };
	unsigned arch = PTD_ARCH_X86_64;
	int fails = 0;

	*checked = *skipped = 0;
	msg[0] = '\0';
	if (ptd_elfimage_open(&img, path, &err) < 0 ||
	    ptd_arch_of_elf_machine(ptd_elfimage_machine(img), &arch) < 0 ||
	    ptd_classifier_new_arch(&cls, arch, 16, &err) < 0) {
		snprintf(msg, msgsz, "%s", img && !err.msg[0] ? "unknown ELF machine" : err.msg);
		ptd_elfimage_free(img);
		return -1;
	}
	code.img = img;
	for (size_t i = 0; arch == PTD_ARCH_AARCH64 && i < r->maps.len; i++) {
		const struct mapping *m = ptd_vec_at(&r->maps, i);
		if (!strcmp(m->path, "[vdso]"))
			code.tramp = m->start;
	}
	memset(&pc, 0, sizeof(pc));
	pc.cls = cls;
	pc.read = read_code;
	pc.rctx = &code;
	for (size_t t = 0; t < r->starts.len && !fails; t++) {
		const struct tstart *ts = ptd_vec_at(&r->starts, t);

		pathcheck_start(&pc, ts->ip);
		for (size_t i = 0; i < r->evs.len && !fails; i++) {
			const struct rec *e = ptd_vec_at(&r->evs, i);
			if (e->tid == ts->tid)
				fails = pathcheck_event(&pc, &e->ev) < 0;
		}
		for (size_t i = 0; i < r->ends.len && !fails; i++) {
			const struct tend *te = ptd_vec_at(&r->ends, i);
			if (te->tid == ts->tid)
				fails = pathcheck_end(&pc, te->icount, te->last_ip) < 0;
		}
		if (fails)
			snprintf(msg, msgsz, "thread %d: %s", (int)ts->tid, pc.msg);
	}
	*checked = pc.checked;
	*skipped = pc.skipped;
	ptd_classifier_free(cls);
	ptd_elfimage_free(img);
	return fails ? -1 : 0;
}

/* ---- symbols and windows ---- */

int load_syms(struct syms *s, const char *path, const char *const names[])
{
	struct ptd_elfimage *img;
	struct ptd_err err = {0};

	memset(s, 0, sizeof(*s));
	if (ptd_elfimage_open(&img, path, &err) < 0) {
		printf("# %s\n", err.msg);
		return -1;
	}
	for (; names[s->n] && s->n < 16; s->n++) {
		s->name[s->n] = names[s->n];
		if (ptd_elfimage_symbol(img, names[s->n], &s->addr[s->n], &s->size[s->n], &err) < 0) {
			printf("# %s\n", err.msg);
			ptd_elfimage_free(img);
			return -1;
		}
	}
	ptd_elfimage_free(img);
	return 0;
}

uint64_t sym(const struct syms *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name))
			return s->addr[i];
	return 0;
}

int in_sym(const struct syms *s, const char *name, uint64_t a)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name))
			return a >= s->addr[i] && a < s->addr[i] + s->size[i];
	return 0;
}

/* An address as "symbol index, offset" when it is in one of the symbols
 * (so that programs linked differently compare), else as it is. */
static uint64_t norm(const struct syms *s, uint64_t a)
{
	for (int i = 0; i < s->n; i++)
		if (a >= s->addr[i] && a < s->addr[i] + s->size[i])
			return (1ull << 63) | ((uint64_t)i << 32) | (a - s->addr[i]);
	return a;
}

size_t window(const struct result *r, int32_t tid, uint64_t f, const struct syms *s,
		     struct ptd_vec *out)
{
	size_t i;
	uint64_t base = 0, ret = 0;

	out->len = 0;
	for (i = 0; i < r->evs.len; i++) {
		const struct rec *e = ptd_vec_at(&r->evs, i);
		if (e->tid == tid && e->ev.to == f && e->ev.cls != PTD_X_ASYNC) {
			base = e->ev.icount;
			ret = e->ev.from + e->ev.insn_len;
			break;
		}
	}
	for (i++; i < r->evs.len; i++) {
		const struct rec *e = ptd_vec_at(&r->evs, i);
		struct ptd_xev *w;

		if (e->tid != tid)
			continue;
		if (!(w = ptd_vec_push(out)))
			break;
		*w = e->ev;
		w->icount -= base;
		w->from = norm(s, w->from);
		w->to = norm(s, w->to);
		if (e->ev.cls == PTD_X_RET && e->ev.to == ret)
			break;
	}
	return out->len;
}

