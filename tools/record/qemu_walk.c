/* qemu exec log to control transfers; see qemu_walk.h. */
#include "tools/record/qemu_walk.h"

#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

#define MAX_VCPUS 65536
#define SIGSTK 32               /* nested signal handlers tracked per thread */
#define MAX_HELD (1u << 20)     /* sink calls held back at most */
#define MARK_TTL 64             /* block starts a signal marker waits for its thread */

/* system call numbers, per enum ptd_arch */
static const struct { int64_t rt_sigreturn, exit; } sysnrs[] = {
	[PTD_ARCH_X86_64] = { 15, 60 },
	[PTD_ARCH_AARCH64] = { 139, 93 },
};

enum { R_EVENT, R_START, R_END, R_PEND };
enum { STOP_NO, STOP_SURE, STOP_MAYBE };   /* qthr.stopped */
/* what a pending transfer leaves unknown: where a branch went (PK_CF),
 * whether a REP instruction was done (PK_REP), whether the block ran
 * before the signal or was stopped before it (PK_STOP) */
enum { PK_CF, PK_REP, PK_STOP };

/* A sink call held back while an earlier transfer is unresolved.  R_PEND:
 * the instruction at ev.from (class ev.cls) went to an unknown T, where
 * the thread was interrupted and continued at `to2`.  PK_STOP: the block
 * at `a` ran (its n instructions counted, its last one at ev.from, class
 * ev.cls or PTD_X_NONE) unless T is a: then it was stopped before. */
struct qrec {
	uint8_t type, pkind, resolved;
	int32_t tid;
	uint32_t n;             /* PK_STOP: instructions counted for the block */
	struct ptd_xev ev;
	uint64_t a, b;          /* R_START: ppid<<32|ptid, ip.  R_END: icount, last_ip.
	                           R_PEND: fall-through (cond) or REP ip, T once resolved */
	uint64_t to2;           /* R_PEND: the handler */
};

struct qthr {
	int32_t tid;
	uint8_t live, have_cur;
	uint8_t stopped;        /* cur was logged but did not run: STOP_* */
	uint32_t stop_group;    /* STOP_MAYBE: which "Stopped" line */
	uint8_t rep_cont;       /* cur is a REP instruction already counted */
	uint64_t cur, host;
	uint64_t icount;
	int nsig;
	int64_t sigstk[SIGSTK]; /* per handler level: serial of a held R_PEND, or -1 */
};

struct ptd_qwalk {
	struct ptd_qwalk_cfg cfg;
	int64_t nr_rt_sigreturn, nr_exit;
	struct ptd_vec vcpu;    /* struct qthr, indexed by vCPU */
	struct ptd_vec held;    /* struct qrec */
	size_t head;            /* first held record not yet sent */
	uint64_t seq0;          /* serial number of held[0] */
	int32_t next_tid;
	uint32_t stop_groups;   /* "Stopped" lines that named several threads */
	unsigned marks;         /* signal markers not yet matched to a thread */
	unsigned mark_age;
	unsigned live_threads;
	struct ptd_qwalk_stats st;
	struct ptd_err *err;
};

int ptd_qwalk_new(struct ptd_qwalk **out, const struct ptd_qwalk_cfg *cfg, struct ptd_err *err)
{
	struct ptd_qwalk *w = calloc(1, sizeof(*w));

	*out = NULL;
	if (cfg->arch >= sizeof(sysnrs) / sizeof(sysnrs[0])) {
		free(w);
		return ptd_err_set(err, PTD_E_INVAL, "qemu walker: unknown architecture %u", cfg->arch);
	}
	if (!w)
		return ptd_err_set(err, PTD_E_NOMEM, "qemu walker: out of memory");
	w->cfg = *cfg;
	w->nr_rt_sigreturn = sysnrs[cfg->arch].rt_sigreturn;
	w->nr_exit = sysnrs[cfg->arch].exit;
	w->vcpu = (struct ptd_vec)PTD_VEC_INIT(sizeof(struct qthr));
	w->vcpu.limit = MAX_VCPUS;
	w->held = (struct ptd_vec)PTD_VEC_INIT(sizeof(struct qrec));
	w->held.limit = 2 * (size_t)MAX_HELD + 16;   /* unsent < MAX_HELD, sent < unsent */
	w->next_tid = cfg->pid;
	*out = w;
	return 0;
}

void ptd_qwalk_free(struct ptd_qwalk *w)
{
	if (!w)
		return;
	ptd_vec_fini(&w->vcpu);
	ptd_vec_fini(&w->held);
	free(w);
}

void ptd_qwalk_get_stats(const struct ptd_qwalk *w, struct ptd_qwalk_stats *st)
{
	*st = w->st;
}

/* ---- output, in order, through the held-back queue ---- */

static int sinkfail(struct ptd_qwalk *w, int rc, const char *what)
{
	int code = -rc > 0 && -rc < PTD_E_MAX ? -rc : PTD_E_INVAL;

	return ptd_err_set(w->err, code, "%s callback failed", what);
}

static int send_event(struct ptd_qwalk *w, int32_t tid, const struct ptd_xev *ev)
{
	int rc = w->cfg.sink->event(w->cfg.sink->ctx, tid, ev);

	w->st.events++;
	return rc < 0 ? sinkfail(w, rc, "event") : 0;
}

/* Send one resolved record. */
static int send(struct ptd_qwalk *w, const struct qrec *r)
{
	const struct ptd_xsink *s = w->cfg.sink;
	int rc = 0;

	switch (r->type) {
	case R_EVENT:
		return send_event(w, r->tid, &r->ev);
	case R_START:
		rc = s->thread_start(s->ctx, w->cfg.pid, r->tid, (int32_t)(r->a >> 32), (int32_t)r->a, r->b);
		return rc < 0 ? sinkfail(w, rc, "thread_start") : 0;
	case R_END:
		rc = s->thread_end(s->ctx, r->tid, r->a, r->b);
		return rc < 0 ? sinkfail(w, rc, "thread_end") : 0;
	default: {
		/* R_PEND, resolved: T is in b */
		struct ptd_xev ev = r->ev, as = { .cls = PTD_X_ASYNC, .taken = 1, .insn_len = 0,
						  .from = r->b, .to = r->to2, .icount = r->ev.icount };
		if (r->pkind == PK_CF) {
			ev.to = r->b;
			if (ev.cls == PTD_X_COND)
				ev.taken = r->b != r->a;
			if ((rc = send_event(w, r->tid, &ev)) < 0)
				return rc;
			if (r->b == r->to2 && ev.cls != PTD_X_COND)
				return 0;   /* guessed: the branch itself went there */
		} else if (r->pkind == PK_STOP && r->b != r->a && ev.cls != PTD_X_NONE) {
			ev.to = r->b;   /* the block ran, then its branch */
			ev.taken = ev.cls != PTD_X_COND || r->b != ev.from + ev.insn_len;
			if ((rc = send_event(w, r->tid, &ev)) < 0)
				return rc;
		}
		w->st.async++;
		return send_event(w, r->tid, &as);
	}
	}
}

static int flush(struct ptd_qwalk *w)
{
	while (w->head < w->held.len) {
		struct qrec *r = ptd_vec_at(&w->held, w->head);
		int rc;

		if (r->type == R_PEND && !r->resolved)
			return 0;
		if ((rc = send(w, r)) < 0)
			return rc;
		w->head++;
	}
	w->seq0 += w->held.len;
	w->held.len = 0;
	w->head = 0;
	return 0;
}

/* The block of the PK_STOP record with serial seq did not run after all:
 * take its n instructions back from its thread's icounts. */
static void uncount(struct ptd_qwalk *w, uint64_t seq, uint32_t n)
{
	size_t i = (size_t)(seq - w->seq0);
	int32_t tid = ((struct qrec *)ptd_vec_at(&w->held, i))->tid;

	for (; i < w->held.len; i++) {
		struct qrec *r = ptd_vec_at(&w->held, i);

		if (r->tid != tid)
			continue;
		if (r->type == R_EVENT || r->type == R_PEND)
			r->ev.icount -= n;
		else if (r->type == R_END)
			r->a -= n;
	}
	for (i = 0; i < w->vcpu.len; i++) {
		struct qthr *t = ptd_vec_at(&w->vcpu, i);
		if (t->live && t->tid == tid)
			t->icount -= n;
	}
	w->st.insns -= n;
}

/* Resolve the held record with serial number seq with target t (guess:
 * make the best guess instead). */
static void resolve(struct ptd_qwalk *w, uint64_t seq, uint64_t t, int guess)
{
	struct qrec *r;

	if (seq < w->seq0 + w->head || seq - w->seq0 >= w->held.len)
		return;   /* already sent (guessed when too much was held) */
	r = ptd_vec_at(&w->held, (size_t)(seq - w->seq0));
	if (r->type != R_PEND || r->resolved)
		return;
	if (guess) {
		w->st.guessed++;
		if (r->pkind == PK_REP || r->pkind == PK_STOP || r->ev.cls == PTD_X_COND)
			t = r->a;            /* REP: still at it; stopped; cond: not taken */
		else
			t = r->to2;          /* indirect: went to where it next ran */
	}
	r->b = t;
	r->resolved = 1;
	if (r->pkind == PK_STOP && t == r->a)
		uncount(w, seq, r->n);
	if (!guess)
		w->st.deferred++;
}

/* Drop the records already sent from the front of the queue (serial
 * numbers stay: seq0 moves). */
static void compact(struct ptd_qwalk *w)
{
	size_t keep = w->held.len - w->head;

	memmove(w->held.data, ptd_vec_at(&w->held, w->head), keep * w->held.elsize);
	w->seq0 += w->head;
	w->held.len = keep;
	w->head = 0;
}

static struct qrec *hold(struct ptd_qwalk *w, int type, int32_t tid)
{
	struct qrec *r;

	if (w->held.len - w->head >= MAX_HELD) {
		/* too much held back: guess the oldest unresolved transfer */
		resolve(w, w->seq0 + w->head, 0, 1);
		if (flush(w) < 0)
			return NULL;
	}
	/* a flush stops at the next unresolved transfer: what it sent stays
	 * at the front until half the queue is such */
	if (w->head > 0 && w->head >= w->held.len / 2)
		compact(w);
	r = ptd_vec_push(&w->held);
	if (!r) {
		ptd_err_set(w->err, PTD_E_NOMEM, "qemu walker: out of memory");
		return NULL;
	}
	r->type = (uint8_t)type;
	r->tid = tid;
	return r;
}

static int out_event(struct ptd_qwalk *w, struct qthr *t, unsigned cls, int taken, unsigned len,
		     uint64_t from, uint64_t to)
{
	struct ptd_xev ev = { .cls = (uint8_t)cls, .taken = (uint8_t)taken, .insn_len = (uint8_t)len,
			      .from = from, .to = to, .icount = t->icount };
	struct qrec *r;

	if (cls == PTD_X_ASYNC)
		w->st.async++;
	if (w->held.len == w->head)
		return send_event(w, t->tid, &ev);
	if (!(r = hold(w, R_EVENT, t->tid)))
		return -w->err->code;
	r->ev = ev;
	return 0;
}

static int out_rec(struct ptd_qwalk *w, int type, int32_t tid, uint64_t a, uint64_t b)
{
	struct qrec *r;

	if (!(r = hold(w, type, tid)))
		return -w->err->code;
	r->a = a;
	r->b = b;
	return flush(w);
}

/* ---- threads ---- */

static void push_sig(struct qthr *t, int64_t pend)
{
	if (t->nsig == SIGSTK) {
		memmove(t->sigstk, t->sigstk + 1, sizeof(t->sigstk[0]) * (SIGSTK - 1));
		t->nsig--;
	}
	t->sigstk[t->nsig++] = pend;
}

/* An asynchronous transfer whose origin is unknown: hold it back. */
static int pend(struct ptd_qwalk *w, struct qthr *t, int kind, unsigned cls, unsigned len,
		uint64_t from, uint64_t a, uint64_t handler)
{
	struct qrec *r = hold(w, R_PEND, t->tid);

	if (!r)
		return -w->err->code;
	r->pkind = (uint8_t)kind;
	r->ev = (struct ptd_xev){ .cls = (uint8_t)cls, .taken = 1, .insn_len = (uint8_t)len,
				  .from = from, .icount = t->icount };
	r->a = a;
	r->to2 = handler;
	push_sig(t, (int64_t)(w->seq0 + w->held.len - 1));
	return 0;
}

static int start_thread(struct ptd_qwalk *w, struct qthr *t, uint64_t pc)
{
	int32_t creator = w->st.threads ? w->cfg.pid : 0;

	memset(t, 0, sizeof(*t));
	t->tid = w->next_tid++;
	t->live = 1;
	t->have_cur = 1;
	t->cur = pc;
	w->st.threads++;
	w->live_threads++;
	return out_rec(w, R_START, t->tid, ((uint64_t)(uint32_t)creator << 32) | (uint32_t)creator, pc);
}

static int end_thread(struct ptd_qwalk *w, struct qthr *t, uint64_t last_ip)
{
	t->live = 0;
	w->live_threads--;
	return out_rec(w, R_END, t->tid, t->icount, last_ip);
}

/* Count the first k instructions of the thread's current block. */
static void count(struct ptd_qwalk *w, struct qthr *t, unsigned k)
{
	if (t->rep_cont && k > 0) {
		k--;   /* the REP instruction it starts with was counted */
		t->rep_cont = 0;
	}
	t->icount += k;
	w->st.insns += k;
}

static int use_mark(struct ptd_qwalk *w)
{
	if (!w->marks)
		return 0;
	w->marks--;
	return 1;
}

/* Would running block b lead to s (or qemu have ended it early there)?
 * 1 yes, 0 no, -1 yes but s could as well be anything (the block ends in
 * an indirect branch or a system call, or loops to itself). */
static int follows(const struct ptd_qwalk *w, const struct ptd_qblock *b, uint64_t s)
{
	int yes;

	if (ptd_qblocks_find_end(w->cfg.blocks, b, s) >= 0)
		return 1;
	switch (b->kind) {
	case PTD_QEND_CF:
		if (b->cls == PTD_X_COND)
			yes = s == b->target || s == b->end;
		else if (b->cls == PTD_X_JUMP || b->cls == PTD_X_CALL)
			yes = s == b->target;
		else
			return -1;   /* indirect, system call: anywhere */
		break;
	case PTD_QEND_REP:
		yes = s == b->last || s == b->end;
		break;
	default:
		yes = s == b->end;
		break;
	}
	return yes && s == b->start ? -1 : yes;
}

/* Thread t, one of a "Stopped" line's candidates, was the stopped one
 * (how: STOP_SURE) or not (STOP_NO).  When that is sure (decisive), the
 * others follow: only one was, and when all but one were not, that one
 * was. */
static void settle(struct ptd_qwalk *w, struct qthr *t, int how, int decisive)
{
	struct qthr *left = NULL;
	unsigned n = 0;

	t->stopped = (uint8_t)how;
	for (size_t i = 0; decisive && i < w->vcpu.len; i++) {
		struct qthr *o = ptd_vec_at(&w->vcpu, i);

		if (o == t || !o->live || o->stopped != STOP_MAYBE || o->stop_group != t->stop_group)
			continue;
		if (how == STOP_SURE)
			o->stopped = STOP_NO;
		left = o;
		n++;
	}
	if (how == STOP_NO && n == 1)
		left->stopped = STOP_SURE;
}

/* The thread's block cur ran (or began to) and the thread now starts s. */
static int advance(struct ptd_qwalk *w, struct qthr *t, uint64_t s)
{
	const struct ptd_qblock *b;
	int rc, split;

	if (t->stopped == STOP_MAYBE) {
		/* one of several threads at this block did not run it: this
		 * one if it starts the block again, not if it goes where the
		 * block leads; a handler's return tells for one going elsewhere */
		int f;

		if ((rc = ptd_qblocks_get(w->cfg.blocks, t->cur, &b, w->err)) < 0)
			return rc;
		f = follows(w, b, s);
		if (s == t->cur) {
			settle(w, t, STOP_SURE, f == 0);
		} else if (f == 0 && (b->kind == PTD_QEND_SEQ ||
				      (b->kind == PTD_QEND_CF && b->cls <= PTD_X_CALL))) {
			/* a signal handler: the signal came before the block
			 * or after it; where the handler returns to tells */
			uint64_t before = t->icount;

			settle(w, t, STOP_NO, 0);
			use_mark(w);
			count(w, t, b->n);
			rc = pend(w, t, PK_STOP, b->kind == PTD_QEND_CF ? b->cls : PTD_X_NONE, b->last_len,
				  b->last, t->cur, s);
			if (rc == 0)
				((struct qrec *)ptd_vec_at(&w->held, w->held.len - 1))->n =
					(uint32_t)(t->icount - before);
			t->cur = s;
			return rc;
		} else {
			settle(w, t, f ? STOP_NO : STOP_SURE, f == 1);
		}
	}
	if (t->stopped) {
		t->stopped = STOP_NO;
		if (s == t->cur)
			return 0;
		use_mark(w);
		push_sig(t, -1);
		t->rep_cont = 0;
		rc = out_event(w, t, PTD_X_ASYNC, 1, 0, t->cur, s);
		t->cur = s;
		return rc;
	}
	if ((rc = ptd_qblocks_get(w->cfg.blocks, t->cur, &b, w->err)) < 0)
		return rc;
	/* qemu ended the block after an earlier instruction (not a restarted
	 * system call, which resumes at the syscall instruction itself) */
	split = ptd_qblocks_find_end(w->cfg.blocks, b, s);
	if (split >= 0 && (unsigned)split + 1 < b->n &&
	    !(s == b->last && (b->kind == PTD_QEND_REP || (b->kind == PTD_QEND_CF && b->cls == PTD_X_SYSCALL))) &&
	    !(b->kind == PTD_QEND_CF && b->cls <= PTD_X_CALL && s == b->target)) {
		w->st.splits++;
		count(w, t, (unsigned)split + 1);
		t->cur = s;
		return 0;
	}
	switch (b->kind) {
	case PTD_QEND_CF:
		switch (b->cls) {
		case PTD_X_COND:
			if (s != b->target && s != b->end)
				goto async;
			count(w, t, b->n);
			rc = out_event(w, t, PTD_X_COND, s != b->end, b->last_len, b->last, s);
			break;
		case PTD_X_JUMP: case PTD_X_CALL:
			if (s != b->target)
				goto async;
			count(w, t, b->n);
			rc = out_event(w, t, b->cls, 1, b->last_len, b->last, s);
			break;
		case PTD_X_SYSCALL: {
			int64_t nr = -1;
			int known = b->syscall && ptd_qblocks_sysnr(w->cfg.blocks, b->start, &nr);
			uint64_t sys = b->last;

			count(w, t, b->n);
			if ((known && nr == w->nr_exit) ||
			    (b->syscall && !known && s != b->end && s != sys && !w->marks)) {
				/* the thread is gone; its vCPU index runs a new one */
				if ((rc = end_thread(w, t, b->end)) < 0)
					return rc;
				return start_thread(w, t, s);
			}
			rc = out_event(w, t, PTD_X_SYSCALL, 1, b->last_len, sys, s);
			if (known && nr == w->nr_rt_sigreturn) {
				if (t->nsig > 0) {
					int64_t p = t->sigstk[--t->nsig];
					if (p >= 0) {
						resolve(w, (uint64_t)p, s, 0);
						if (rc == 0)
							rc = flush(w);
					}
				}
			} else if (s != b->end && s != sys && use_mark(w)) {
				push_sig(t, -1);   /* a handler, entered on the way back */
			}
			break;
		}
		default:   /* indirect */
			count(w, t, b->n);
			if (use_mark(w))
				rc = pend(w, t, PK_CF, b->cls, b->last_len, b->last, 0, s);
			else
				rc = out_event(w, t, b->cls, 1, b->last_len, b->last, s);
			break;
		}
		break;
	case PTD_QEND_REP:
		if (s == b->last) {
			count(w, t, b->n);
			t->rep_cont = 1;
			t->cur = s;
			return 0;
		}
		if (s != b->end)
			goto async;
		count(w, t, b->n);
		break;
	case PTD_QEND_SEQ:
		if (s != b->end)
			goto async;
		count(w, t, b->n);
		break;
	case PTD_QEND_FAULT:
		if (s == b->end) {   /* it ran after all */
			count(w, t, b->n);
			break;
		}
		count(w, t, b->n - 1u);
		use_mark(w);
		push_sig(t, -1);
		rc = out_event(w, t, PTD_X_ASYNC, 1, 0, b->last, s);
		break;
	}
	t->cur = s;
	return rc;

async:
	/* the block ran to its end, then a signal handler started at s */
	use_mark(w);
	count(w, t, b->n);
	if (b->kind == PTD_QEND_CF && b->cls == PTD_X_COND) {
		rc = pend(w, t, PK_CF, PTD_X_COND, b->last_len, b->last, b->end, s);
	} else if (b->kind == PTD_QEND_REP) {
		rc = pend(w, t, PK_REP, PTD_X_NONE, 0, b->last, b->last, s);
	} else {
		uint64_t at = b->end;
		rc = 0;
		if (b->kind == PTD_QEND_CF) {   /* direct jump or call */
			at = b->target;
			rc = out_event(w, t, b->cls, 1, b->last_len, b->last, at);
		}
		push_sig(t, -1);
		if (rc == 0)
			rc = out_event(w, t, PTD_X_ASYNC, 1, 0, at, s);
	}
	t->cur = s;
	return rc;
}

int ptd_qwalk_block(struct ptd_qwalk *w, unsigned vcpu, uint64_t pc, uint64_t host, struct ptd_err *err)
{
	struct qthr *t;
	int rc;

	w->err = err;
	if (w->st.limited)
		return 1;
	while (w->vcpu.len <= vcpu) {
		if (!ptd_vec_push(&w->vcpu))
			return ptd_err_set(err, PTD_E_LIMIT, "qemu log: vCPU index %u too large", vcpu);
	}
	t = ptd_vec_at(&w->vcpu, vcpu);
	w->st.blocks++;
	if (w->marks && ++w->mark_age > MARK_TTL) {
		w->marks = 0;   /* nobody took it: an ignored signal */
		w->mark_age = 0;
	}
	if (!t->live)
		rc = start_thread(w, t, pc);
	else
		rc = advance(w, t, pc);
	t->host = host;
	if (w->live_threads <= 1)
		w->marks = 0;   /* a marker is for the very next block of its thread */
	if (rc < 0)
		return rc;
	if (w->cfg.max_insns && w->st.insns >= w->cfg.max_insns) {
		w->st.limited = 1;
		return 1;
	}
	return 0;
}

int ptd_qwalk_stopped(struct ptd_qwalk *w, uint64_t pc, uint64_t host, struct ptd_err *err)
{
	struct qthr *one = NULL;
	unsigned n = 0;

	w->err = err;
	/* the line names no vCPU: when several threads are at this block,
	 * their next blocks tell which one it was (advance) */
	for (size_t i = 0; i < w->vcpu.len; i++) {
		struct qthr *t = ptd_vec_at(&w->vcpu, i);

		if (t->live && t->cur == pc && t->host == host && t->stopped != STOP_SURE) {
			one = t;
			n++;
		}
	}
	if (n > 1)
		w->stop_groups++;
	for (size_t i = 0; n > 1 && i < w->vcpu.len; i++) {
		struct qthr *t = ptd_vec_at(&w->vcpu, i);

		if (t->live && t->cur == pc && t->host == host && t->stopped != STOP_SURE) {
			t->stopped = STOP_MAYBE;
			t->stop_group = w->stop_groups;
		}
	}
	if (n == 1)
		one->stopped = STOP_SURE;
	return 0;   /* none: a block we did not see start, nothing to undo */
}

void ptd_qwalk_signal(struct ptd_qwalk *w)
{
	if (w->marks < 1024)
		w->marks++;
	w->mark_age = 0;
}

/* The thread's last block, with no successor: count what surely ran. */
static int finish_thread(struct ptd_qwalk *w, struct qthr *t)
{
	const struct ptd_qblock *b;
	uint64_t last = t->cur;
	int rc;

	if (t->stopped != STOP_SURE && ptd_qblocks_get(w->cfg.blocks, t->cur, &b, w->err) == 0) {
		if (b->kind == PTD_QEND_SEQ || (b->kind == PTD_QEND_CF && b->cls == PTD_X_SYSCALL)) {
			count(w, t, b->n);   /* exit_group, or killed in a system call */
			last = b->end;
		} else {
			count(w, t, b->n - 1u);
			last = b->last;
		}
	}
	rc = end_thread(w, t, last);
	return rc;
}

int ptd_qwalk_finish(struct ptd_qwalk *w, struct ptd_err *err)
{
	int rc = 0;

	w->err = err;
	for (size_t i = 0; i < w->vcpu.len && rc == 0; i++) {
		struct qthr *t = ptd_vec_at(&w->vcpu, i);
		if (t->live)
			rc = finish_thread(w, t);
	}
	for (size_t i = w->head; i < w->held.len; i++)
		resolve(w, w->seq0 + i, 0, 1);
	if (rc == 0)
		rc = flush(w);
	return rc;
}
