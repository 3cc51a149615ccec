#include "tools/record/recorder.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"
#include "formats/perf/abi.h"
#include "tools/record/kwalk.h"
#include "tools/record/snapshot.h"
#include "tools/record/tsx.h"

#define MAX_THREADS 4096

struct rthread {
	int32_t pid, tid;
	int stream;              /* index into streams */
	uint64_t ip;             /* next instruction */
	uint64_t icount;         /* instructions retired */
	int in_kernel;           /* after a syscall/async transfer: resumes at ip */
	int ended;
	uint64_t nxfer, nsys;    /* control transfers and syscalls so far (ASYNC not counted) */
	uint64_t nptw, npwr;     /* ptwrites and power-saving waits so far */
	struct ptd_tsx tsx;      /* its emulated transactions (--tsx) */
};

/* How trace resumes after lost control transfers. */
enum lose_how {
	LOSE_OVF,                /* an internal overflow: OVF + FUP */
	LOSE_RESYNC,             /* a truncated AUX buffer: PSB+ */
	LOSE_PAUSE,              /* tracing paused (--pause): TIP.PGE */
};

struct stream {
	struct ptd_ptenc *enc;
	int queue;               /* AUX queue (cpu, or thread queue) */
	int cpu;                 /* -1 in per-thread mode */
	struct rthread *cur;     /* thread on it, NULL when idle */
	int started;
	uint64_t taken;          /* stream bytes already put in chunks */
	uint64_t nchunks;
	uint64_t nevents;        /* control transfers encoded */
	unsigned lose;           /* control transfers still to lose */
	int lose_how;            /* enum lose_how: how trace resumes after the loss */
	/* truth lines of the events whose packets go into the current chunk:
	 * written when the chunk is cut, marked lost if it is dropped */
	struct ptd_vec pending;  /* struct pline */
	struct ptd_snapring *ring;   /* snapshot mode */
	uint64_t snap_end;       /* stream offset where the last snapshot ended */
	uint64_t snap_psb;       /* ... and its last complete PSB+ (UINT64_MAX: none) */
	struct ptd_recorder *rec;
};

struct pline {
	char text[192];
	int is_x;                /* an X line (may become lost) */
	uint64_t end;            /* X: the stream's byte count after its packets */
};

struct ptd_recorder {
	struct ptd_recorder_config cfg;
	struct ptd_pdw *pd;
	struct ptd_xsink sink;
	struct ptd_err err;
	uint64_t tsc;
	struct rthread *threads[MAX_THREADS];
	unsigned nthreads;
	struct stream *streams;
	unsigned nstreams;
	struct ptd_kwalk *kwalk;    /* --kernel */
};

static FILE *T(struct ptd_recorder *r) { return r->cfg.truth; }

static struct rthread *thread(struct ptd_recorder *r, int32_t tid)
{
	unsigned i;

	for (i = 0; i < r->nthreads; i++)
		if (r->threads[i]->tid == tid)
			return r->threads[i];
	return NULL;
}

static int cpu_of(const struct stream *s) { return s->cpu < 0 ? 0 : s->cpu; }

/* a truth line about stream s, kept until its chunk is cut */
static void note(struct ptd_recorder *r, struct stream *s, int is_x, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void note(struct ptd_recorder *r, struct stream *s, int is_x, const char *fmt, ...)
{
	uint64_t end = ptd_ptenc_total(s->enc);
	struct pline *l;
	va_list ap;

	if (!T(r))
		return;
	l = ptd_vec_push(&s->pending);
	if (!l) {
		r->err.code = PTD_E_NOMEM;
		return;
	}
	l->is_x = is_x;
	l->end = end;
	va_start(ap, fmt);
	vsnprintf(l->text, sizeof(l->text), fmt, ap);
	va_end(ap);
}

/* write the held lines; X lines whose packets end at or before lost_upto
 * (all of them when lost_upto is UINT64_MAX) are marked lost, and `resume`
 * (if not NULL) is written where the lines that are not lost begin */
static void write_pending_upto(struct ptd_recorder *r, struct stream *s, uint64_t lost_upto,
			       const char *resume)
{
	size_t i;

	for (i = 0; T(r) && i < s->pending.len; i++) {
		const struct pline *l = ptd_vec_at(&s->pending, i);
		int lost = l->is_x && (lost_upto == UINT64_MAX || l->end <= lost_upto);

		if (resume && l->is_x && !lost) {
			fprintf(T(r), "%s\n", resume);
			resume = NULL;
		}
		fprintf(T(r), "%s%s\n", l->text, lost && !strstr(l->text, " lost") ? " lost" : "");
	}
	if (T(r) && resume)
		fprintf(T(r), "%s\n", resume);
	s->pending.len = 0;
}

static void write_pending(struct ptd_recorder *r, struct stream *s, int lost)
{
	write_pending_upto(r, s, lost ? UINT64_MAX : 0, NULL);
}

static void on_psb(void *ctx, uint64_t offset, int enabled, uint64_t ip)
{
	struct stream *s = ctx;
	struct ptd_snappsb p = { offset, enabled, ip, s->cur ? s->cur->tid : 0 };

	if (s->ring && ptd_snapring_psb(s->ring, &p, &s->rec->err))
		s->rec->err.code = PTD_E_NOMEM;
}

/* Snapshot mode: the new bytes go into the ring, and a snapshot saves what
 * it holds.  perf joins a snapshot to the one before when it holds that
 * one's last PSB+ (found by its TSC); otherwise decoding starts again at
 * the snapshot's first PSB, and what came before that is lost. */
#define PSB_TSC 24      /* PSB and TSC: enough of a PSB+ to match it by time */
static int snapshot(struct ptd_recorder *r, struct stream *s, const uint8_t *p, size_t len,
		    struct ptd_err *err)
{
	int32_t pid = s->cur ? s->cur->pid : 0, tid = s->cur ? s->cur->tid : 0;
	const uint8_t *data;
	uint64_t start;
	size_t n;
	int rc;

	const struct ptd_snappsb *last;

	ptd_snapring_append(s->ring, p, len);
	data = ptd_snapring_contents(s->ring, &n, &start);
	if (start == 0 || (s->snap_psb != UINT64_MAX && s->snap_psb >= start)) {
		write_pending(r, s, 0);
	} else {
		const struct ptd_snappsb *psb = ptd_snapring_psb_at(s->ring, start);
		char resume[64];

		/* ip 0: tracing is disabled at that PSB (the thread is in a
		 * syscall), and its trace starts at the next TIP.PGE */
		snprintf(resume, sizeof(resume), "Y %d %d %#" PRIx64, s->queue,
			 psb ? (int)psb->tid : 0, psb && psb->enabled ? psb->ip : 0);
		write_pending_upto(r, s, psb ? psb->offset : UINT64_MAX, psb ? resume : NULL);
	}
	rc = ptd_pdw_aux(r->pd, s->queue, cpu_of(s), r->tsc, pid, tid, start, data, n, 0, 0, err);
	if (!rc && T(r))
		fprintf(T(r), "K %d %" PRIu64 " %" PRIu64 " %#x kept\n", s->queue, start,
			start + n, PTD_AUX_FLAG_OVERWRITE);
	s->snap_end = start + n;
	last = ptd_snapring_psb_before(s->ring, s->snap_end >= PSB_TSC ? s->snap_end - PSB_TSC : 0);
	s->snap_psb = last && last->offset >= start ? last->offset : UINT64_MAX;
	return rc;
}

/* Hand out the stream's bytes as one AUX chunk (with the chunk's faults). */
static int chunk(struct ptd_recorder *r, struct stream *s, struct ptd_err *err)
{
	const uint8_t *p;
	size_t len;
	uint64_t flags = 0;
	int drop, rc;
	int32_t pid = s->cur ? s->cur->pid : 0, tid = s->cur ? s->cur->tid : 0;

	/* the branches so far go into this chunk */
	if ((rc = ptd_ptenc_flush(s->enc, err)))
		return rc;
	p = ptd_ptenc_data(s->enc, &len);
	if (!len) {
		write_pending(r, s, 0);
		return 0;
	}
	if (s->ring) {
		rc = snapshot(r, s, p, len, err);
		s->taken += len;
		ptd_ptenc_take(s->enc, len);
		return rc ? rc : ptd_pdw_finished_round(r->pd, err);
	}
	s->nchunks++;
	drop = r->cfg.drop_every && s->nchunks % r->cfg.drop_every == 0;
	write_pending(r, s, drop);
	if (r->cfg.truncate_every && s->nchunks % r->cfg.truncate_every == 0)
		flags |= PTD_AUX_FLAG_TRUNCATED;
	rc = ptd_pdw_aux(r->pd, s->queue, cpu_of(s), r->tsc, pid, tid, s->taken, p, len, flags, drop,
			 err);
	if (rc)
		return rc;
	if (T(r))
		fprintf(T(r), "K %d %" PRIu64 " %" PRIu64 " %#" PRIx64 " %s\n", s->queue, s->taken,
			s->taken + len, flags, drop ? "dropped" : "kept");
	s->taken += len;
	ptd_ptenc_take(s->enc, len);
	if ((rc = ptd_pdw_finished_round(r->pd, err)))
		return rc;
	if (r->cfg.lost_every && s->nchunks % r->cfg.lost_every == 0 &&
	    (rc = ptd_pdw_lost(r->pd, cpu_of(s), r->tsc, pid, tid, 1, err)))
		return rc;
	if (flags & PTD_AUX_FLAG_TRUNCATED) {
		/* the buffer filled up: trace stops until the driver restarts it */
		s->lose = r->cfg.truncate_lose ? r->cfg.truncate_lose : 1;
		s->lose_how = LOSE_RESYNC;
	} else if (drop) {
		/* the next chunk must start where decoders can synchronize */
		if (T(r) && s->cur)
			fprintf(T(r), "R %d %d %#" PRIx64 "\n", s->queue, (int)s->cur->tid, s->cur->ip);
		return ptd_ptenc_resync(s->enc, r->tsc, s->cur ? s->cur->ip : 0, err);
	}
	return 0;
}

static int paused(const struct stream *s)
{
	return s->lose && s->lose_how == LOSE_PAUSE;
}

/* Cut a chunk when the stream has enough.  --pause: after every Nth clean
 * chunk (not truncated or dropped) the event is disabled, as perf record's
 * --control disable or an AUX pause does: the thread on the stream is
 * interrupted (FUP + TIP.PGD, in this chunk), and its next control
 * transfers are not traced; tracing resumes with TIP.PGE (resume_trace). */
static int maybe_chunk(struct ptd_recorder *r, struct stream *s, struct ptd_err *err)
{
	uint64_t n = s->nchunks + 1;
	size_t len;
	int pause, rc;

	ptd_ptenc_data(s->enc, &len);
	if (len < r->cfg.aux_size)
		return 0;
	pause = r->cfg.pause_every && n % r->cfg.pause_every == 0 && !s->ring && !s->lose &&
		!(r->cfg.truncate_every && n % r->cfg.truncate_every == 0) &&
		!(r->cfg.drop_every && n % r->cfg.drop_every == 0) &&
		s->cur && !s->cur->in_kernel && !s->cur->ended && ptd_ptenc_enabled(s->enc);
	if (pause) {
		if ((rc = ptd_ptenc_interrupt(s->enc, r->tsc, s->cur->ip, err)))
			return rc;
		note(r, s, 0, "Z %d %d %#" PRIx64, s->queue, (int)s->cur->tid, s->cur->ip);
	}
	if ((rc = chunk(r, s, err)))
		return rc;
	if (pause) {
		s->lose = r->cfg.pause_lose ? r->cfg.pause_lose : 1;
		s->lose_how = LOSE_PAUSE;
		r->tsc += r->cfg.kernel_ticks;   /* the kernel disables the event */
	}
	return 0;
}

/* --tsx: transaction event w of thread t at ip (tsx.h): MODE.TSX + FUP,
 * and for an abort TIP(to), which takes the place of the transfer's own
 * packets; when the transfer is lost only the encoder's transaction state
 * changes (the next PSB+ tells it) */
static int tsx_event(struct ptd_recorder *r, struct stream *s, struct rthread *t,
		     enum ptd_tsx_what w, uint64_t ip, uint64_t to, int lost, struct ptd_err *err)
{
	int rc = 0;

	if (w == PTD_TSX_NONE)
		return 0;
	if (lost)
		ptd_ptenc_set_in_tx(s->enc, w == PTD_TSX_BEGIN);
	else if (w == PTD_TSX_ABORT)
		rc = ptd_ptenc_tsx_abort(s->enc, r->tsc, ip, to, err);
	else
		rc = ptd_ptenc_tsx(s->enc, r->tsc, ip, w == PTD_TSX_BEGIN, err);
	if (!rc)
		note(r, s, 1, "T %d %#" PRIx64 " %s%s", (int)t->tid, ip, ptd_tsx_name(w),
		     lost ? " lost" : "");
	return rc;
}

/* Put thread t on its stream, switching out whatever runs there. */
static int run(struct ptd_recorder *r, struct rthread *t, struct ptd_err *err)
{
	struct stream *s = &r->streams[t->stream];
	struct rthread *old = s->cur;
	int rc;

	if (!s->started) {
		s->started = 1;
		if ((rc = ptd_ptenc_start(s->enc, r->tsc, err)) ||
		    (rc = ptd_pdw_itrace_start(r->pd, cpu_of(s), r->tsc, t->pid, t->tid, err)))
			return rc;
		s->cur = t;
	} else if (old != t) {
		int preempt = old && !old->in_kernel && !old->ended;

		if (preempt) {
			/* while paused: not in the trace */
			int p = paused(s);

			if ((rc = tsx_event(r, s, old, ptd_tsx_leave(&old->tsx), old->ip, 0, p, err)) ||
			    (!p && (rc = ptd_ptenc_interrupt(s->enc, r->tsc, old->ip, err))))
				return rc;
			note(r, s, 0, "P %d %#" PRIx64, (int)old->tid, old->ip);
			old->in_kernel = 1;
			r->tsc += r->cfg.kernel_ticks;
		}
		if (s->cpu >= 0) {
			int32_t opid = old ? old->pid : 0, otid = old ? old->tid : 0;

			if ((rc = ptd_pdw_switch(r->pd, s->cpu, r->tsc, opid, otid, 1, preempt,
						 t->pid, t->tid, err)))
				return rc;
			r->tsc += 1;
			if ((rc = ptd_pdw_switch(r->pd, s->cpu, r->tsc, t->pid, t->tid, 0, 0,
						 opid, otid, err)))
				return rc;
		}
		s->cur = t;
	}
	if (t->in_kernel) {
		r->tsc += 1;
		if (!paused(s) && (rc = ptd_ptenc_enable(s->enc, r->tsc, t->ip, err)))
			return rc;
		t->in_kernel = 0;
	}
	return 0;
}

static int stream_init(struct ptd_recorder *r, struct stream *s, struct ptd_err *err)
{
	int rc;

	s->rec = r;
	s->pending.elsize = sizeof(struct pline);
	if ((rc = ptd_ptenc_new(&s->enc, &r->cfg.pt, err)))
		return rc;
	ptd_ptenc_on_psb(s->enc, on_psb, s);
	if (r->cfg.snapshot_size)
		return ptd_snapring_new(&s->ring, r->cfg.snapshot_size, err);
	return 0;
}

static int on_thread_start(void *ctx, int32_t pid, int32_t tid, int32_t ppid, int32_t ptid,
			   uint64_t ip)
{
	struct ptd_recorder *r = ctx;
	struct rthread *t;
	int q;

	if (r->nthreads == MAX_THREADS || thread(r, tid))
		return ptd_err_set(&r->err, PTD_E_LIMIT, "thread %d: too many threads or seen twice", (int)tid);
	t = calloc(1, sizeof(*t));
	if (!t)
		return ptd_err_set(&r->err, PTD_E_NOMEM, "thread");
	t->pid = pid;
	t->tid = tid;
	t->ip = ip;
	t->in_kernel = 1;      /* it first runs when it first reports something */
	t->tsx.every = r->cfg.tsx_every;
	t->tsx.capacity = r->cfg.tsx_capacity;
	r->threads[r->nthreads++] = t;
	if (r->cfg.pd.per_thread) {
		struct stream *ns = realloc(r->streams, (r->nstreams + 1) * sizeof(*ns));

		if (!ns)
			return ptd_err_set(&r->err, PTD_E_NOMEM, "stream");
		r->streams = ns;
		memset(&ns[r->nstreams], 0, sizeof(*ns));
		q = ptd_pdw_thread_queue(r->pd, tid, &r->err);
		if (q < 0)
			return q;
		ns[r->nstreams].queue = q;
		ns[r->nstreams].cpu = -1;
		if (stream_init(r, &ns[r->nstreams], &r->err))
			return -r->err.code;
		t->stream = (int)r->nstreams++;
		for (q = 0; q < (int)r->nstreams; q++)   /* the array moved */
			ptd_ptenc_on_psb(ns[q].enc, on_psb, &ns[q]);
	} else {
		t->stream = (int)((r->nthreads - 1) % r->nstreams);
	}
	if (ppid && ptd_pdw_fork(r->pd, cpu_of(&r->streams[t->stream]), r->tsc, pid, ppid, tid, ptid, 0,
				 &r->err))
		return -r->err.code;
	r->tsc += 1;
	if (T(r))
		fprintf(T(r), "S %d %d %d %d %#" PRIx64 "\n", r->streams[t->stream].queue,
			r->streams[t->stream].cpu, (int)pid, (int)tid, ip);
	return 0;
}

/* after lost transfers: trace resumes at ip with OVF (or PSB+ after a
 * truncation) */
static int resume_trace(struct ptd_recorder *r, struct stream *s, int32_t tid, uint64_t ip)
{
	int rc = s->lose_how == LOSE_RESYNC ? ptd_ptenc_resync(s->enc, r->tsc, ip, &r->err)
		 : s->lose_how == LOSE_PAUSE ? ptd_ptenc_enable(s->enc, r->tsc, ip, &r->err)
		 : ptd_ptenc_overflow(s->enc, r->tsc, ip, &r->err);

	if (rc)
		return rc;
	note(r, s, 0, "O %d %d %#" PRIx64, s->queue, (int)tid, ip);
	s->lose = 0;
	return 0;
}

static int kernel_branch(void *ctx, const struct ptd_xev *ev)
{
	struct stream *s = ctx;

	return ptd_ptenc_branch(s->enc, s->rec->tsc, ev, &s->rec->err);
}

/* Transfer ev in the trace; with --kernel a syscall's path through the
 * kernel (kwalk.h) in place of TIP.PGD. */
static int encode(struct ptd_recorder *r, struct stream *s, const struct ptd_xev *ev)
{
	uint64_t exit_ip;
	int rc;

	if (!r->kwalk || ev->cls != PTD_X_SYSCALL)
		return ptd_ptenc_branch(s->enc, r->tsc, ev, &r->err);
	if ((rc = ptd_ptenc_kernel_entry(s->enc, r->tsc, ptd_kwalk_entry(r->kwalk), &r->err)) ||
	    (rc = ptd_kwalk_run(r->kwalk, kernel_branch, s, &exit_ip, &r->err)))
		return rc;
	return ptd_ptenc_kernel_exit(s->enc, exit_ip, &r->err);
}

/* --ptwrite, --pwr-evt: the events before transfer ev of thread t, at its
 * instruction (not in the trace when the transfer is lost; no ptwrite at
 * a transfer a transaction aborts at: the transfer does not complete, and
 * the abort's FUP at the same ip would follow the ptwrite's, which libipt
 * cannot decode).  The kth ptwrite writes k, in 4 bytes when k is odd,
 * else k in both halves of 8 bytes.  The kth wait asks for C-state (k % 3) + 1, sub-state k & 1
 * (MWAIT hints (k % 3) << 4 | (k & 1), extensions 1: interrupts wake), gets
 * it (PWRE, and PWRX's deepest C-state: the hint's encoding, C-state minus
 * 1), was one C-state shallower when it woke (PWRX's last C-state, C1 at
 * least), and is woken by an interrupt, a store to the monitored line or
 * the hardware in turn (PWRX wake reason 1, 4, 8). */
static int trace_events(struct ptd_recorder *r, struct stream *s, struct rthread *t,
			const struct ptd_xev *ev, int lost, int aborted)
{
	static const unsigned wake[3] = { 1, 4, 8 };
	int rc;

	if (ev->cls > PTD_X_SYSCALL)
		return 0;
	if (r->cfg.ptwrite_every && ++t->nxfer % r->cfg.ptwrite_every == 0 && !lost && !aborted) {
		uint64_t k = ++t->nptw;
		unsigned bytes = k & 1 ? 4 : 8;
		uint64_t payload = bytes == 4 ? k : k << 32 | k;

		if ((rc = ptd_ptenc_ptwrite(s->enc, r->tsc, ev->from, payload, bytes, &r->err)))
			return rc;
		note(r, s, 1, "W %d %#" PRIx64 " %#" PRIx64 " %u", (int)t->tid, ev->from, payload,
		     bytes);
	}
	if (r->cfg.pwr_every && ev->cls == PTD_X_SYSCALL &&
	    ++t->nsys % r->cfg.pwr_every == 0 && !lost) {
		uint64_t k = ++t->npwr;
		struct ptd_ptenc_pwr p = {
			.hints = (uint32_t)((k % 3) << 4 | (k & 1)), .ext = 1,
			.state = (uint8_t)(k % 3), .sub_state = (uint8_t)(k & 1),
			.deepest = (uint8_t)(k % 3), .last = (uint8_t)(k % 3 ? k % 3 - 1 : 0),
			.wake = wake[(k - 1) % 3],
		};

		if ((rc = ptd_ptenc_power(s->enc, r->tsc, ev->from, &p, &r->err)))
			return rc;
		note(r, s, 1, "C %d %#" PRIx64 " %u %u %d %u %u %u %u %u", (int)t->tid, ev->from,
		     p.hints, p.ext, p.hw, p.state, p.sub_state, p.deepest, p.last, p.wake);
	}
	return 0;
}

static int on_event(void *ctx, int32_t tid, const struct ptd_xev *ev)
{
	struct ptd_recorder *r = ctx;
	struct rthread *t = thread(r, tid);
	struct stream *s;
	enum ptd_tsx_what tx;
	int lost = 0, resume = 0, rc;

	if (!t)
		return ptd_err_set(&r->err, PTD_E_INVAL, "event of unknown thread %d", (int)tid);
	s = &r->streams[t->stream];
	r->tsc += (ev->icount - t->icount) * r->cfg.ticks_per_insn;
	if ((rc = run(r, t, &r->err)))
		return rc;

	/* faults: lose control transfers, then resume with OVF or PSB+ */
	if (!s->lose && r->cfg.ovf_every && ev->cls <= PTD_X_RET &&
	    ++s->nevents % r->cfg.ovf_every == 0) {
		s->lose = r->cfg.ovf_lose ? r->cfg.ovf_lose : 1;
		s->lose_how = LOSE_OVF;
	}
	if (s->lose && ev->cls > PTD_X_RET)
		s->lose = 1;   /* end the loss before a transfer out of user mode */
	if (s->lose) {
		lost = ev->cls <= PTD_X_RET;
		if (lost)
			s->lose--;
		if (!s->lose || !lost)
			resume = 1;
	}
	/* the loss ends before a transfer out of user mode, or after the last
	 * lost transfer; the truth lists it where it happens */
	if (resume && !lost && (rc = resume_trace(r, s, tid, ev->from)))
		return rc;
	/* a transaction event before a ptwrite or wait at the same
	 * instruction: libipt takes a ptwrite after a begin or commit, not
	 * before; there is none at an abort (trace_events) */
	tx = ptd_tsx_at(&t->tsx, ev);
	if ((rc = tsx_event(r, s, t, tx, ev->from, ev->to, lost, &r->err)) ||
	    (rc = trace_events(r, s, t, ev, lost, tx == PTD_TSX_ABORT)))
		return rc;
	if (!lost && tx != PTD_TSX_ABORT && (rc = encode(r, s, ev)))
		return rc;
	note(r, s, 1, "X %d %d %#" PRIx64 " %#" PRIx64 " %u %" PRIu64 " %d %" PRIu64 "%s",
	     (int)tid, ev->cls, ev->from, ev->to, ev->taken, ev->icount, s->queue,
	     ptd_ptenc_total(s->enc), lost ? " lost" : "");
	if (resume && lost && (rc = resume_trace(r, s, tid, ev->to)))
		return rc;
	t->ip = ev->to;
	t->icount = ev->icount;
	if (ev->cls == PTD_X_SYSCALL || ev->cls == PTD_X_ASYNC) {
		t->in_kernel = 1;
		r->tsc += r->cfg.kernel_ticks;
	}
	return maybe_chunk(r, s, &r->err);
}

static int on_thread_end(void *ctx, int32_t tid, uint64_t icount, uint64_t last_ip)
{
	struct ptd_recorder *r = ctx;
	struct rthread *t = thread(r, tid);
	struct stream *s;
	int rc;

	if (!t)
		return ptd_err_set(&r->err, PTD_E_INVAL, "end of unknown thread %d", (int)tid);
	s = &r->streams[t->stream];
	if (icount > t->icount) {
		/* the sources report a thread's last instruction, its exit
		 * system call, only here: it is a syscall into the kernel */
		struct ptd_xev ev = {
			.cls = PTD_X_SYSCALL, .taken = 1, .insn_len = 2,
			.from = last_ip - 2, .to = last_ip, .icount = icount,
		};

		if ((rc = on_event(r, tid, &ev)))
			return rc;
	}
	t->icount = icount;
	t->ended = 1;
	r->tsc += r->cfg.kernel_ticks;
	if ((rc = ptd_pdw_fork(r->pd, cpu_of(s), r->tsc, t->pid, t->pid, t->tid, t->tid, 1, &r->err)))
		return rc;
	if (s->cur == t && s->cpu >= 0) {
		r->tsc += 1;
		if ((rc = ptd_pdw_switch(r->pd, s->cpu, r->tsc, t->pid, t->tid, 1, 0, 0, 0, &r->err)))
			return rc;
		s->cur = NULL;
	}
	if (T(r))
		fprintf(T(r), "E %d %" PRIu64 " %#" PRIx64 "\n", (int)tid, icount, last_ip);
	return 0;
}

int ptd_record_mmap(struct ptd_pdw *pd, const struct ptd_recorder_config *cfg, int cpu, uint64_t tsc,
		    int32_t pid, int32_t tid, const struct ptd_xmap *m, struct ptd_err *err)
{
	struct ptd_xmap rm = *m;
	size_t n = cfg->root ? strlen(cfg->root) : 0;

	if (n && !strncmp(m->path, cfg->root, n) && m->path[n] == '/')
		rm.path = m->path + n;
	if (ptd_pdw_mmap(pd, cpu, tsc, pid, tid, &rm, m->path, err))
		return -err->code;
	if (cfg->truth)
		fprintf(cfg->truth, "M %d %#" PRIx64 " %#" PRIx64 " %#" PRIx64 " %s\n", (int)pid, m->start,
			m->len, m->pgoff, m->path);
	return 0;
}

static int on_mmap(void *ctx, int32_t pid, int32_t tid, const struct ptd_xmap *m)
{
	struct ptd_recorder *r = ctx;
	struct rthread *t = thread(r, tid);

	r->tsc += 1;
	if (r->cfg.filter)
		ptd_rfilter_map(r->cfg.filter, m);
	return ptd_record_mmap(r->pd, &r->cfg, t ? cpu_of(&r->streams[t->stream]) : 0, r->tsc, pid, tid, m,
			       &r->err);
}

static int on_comm(void *ctx, int32_t pid, int32_t tid, const char *comm)
{
	struct ptd_recorder *r = ctx;
	struct rthread *t = thread(r, tid);
	int cpu = t ? cpu_of(&r->streams[t->stream]) : 0;

	r->tsc += 1;
	if (ptd_pdw_comm(r->pd, cpu, r->tsc, pid, tid, comm, 1, &r->err))
		return -r->err.code;
	return 0;
}

int ptd_recorder_new(struct ptd_recorder **out, const char *path,
		     const struct ptd_recorder_config *cfg, struct ptd_err *err)
{
	struct ptd_recorder *r = calloc(1, sizeof(*r));
	unsigned i;
	int rc;

	if (!r)
		return ptd_err_set(err, PTD_E_NOMEM, "recorder");
	r->cfg = *cfg;
	r->tsc = cfg->tsc_start;
	if (!r->cfg.ticks_per_insn)
		r->cfg.ticks_per_insn = 1;
	if (!r->cfg.aux_size)
		r->cfg.aux_size = 64 * 1024;
	if ((rc = ptd_pdw_open(&r->pd, path, &cfg->pd, err)))
		goto fail;
	if (cfg->kernel && ((rc = ptd_kwalk_open(&r->kwalk, cfg->kernel, err)) ||
			    (rc = ptd_pdw_kernel_mmap(r->pd, r->tsc, ptd_kwalk_text(r->kwalk),
						      ptd_kwalk_etext(r->kwalk) - ptd_kwalk_text(r->kwalk),
						      ptd_kwalk_path(r->kwalk), err))))
		goto fail;
	if (!cfg->pd.per_thread) {
		if (!cfg->pd.ncpus || cfg->pd.ncpus > 256) {
			rc = ptd_err_set(err, PTD_E_INVAL, "%u CPUs: 1 to 256", cfg->pd.ncpus);
			goto fail;
		}
		r->streams = calloc(cfg->pd.ncpus, sizeof(*r->streams));
		if (!r->streams) {
			rc = ptd_err_set(err, PTD_E_NOMEM, "streams");
			goto fail;
		}
		r->nstreams = cfg->pd.ncpus;
		for (i = 0; i < r->nstreams; i++) {
			r->streams[i].queue = (int)i;
			r->streams[i].cpu = (int)i;
			if ((rc = stream_init(r, &r->streams[i], err)))
				goto fail;
		}
	}
	r->sink.ctx = r;
	r->sink.thread_start = on_thread_start;
	r->sink.event = on_event;
	r->sink.thread_end = on_thread_end;
	r->sink.mmap = on_mmap;
	r->sink.comm = on_comm;
	if (T(r))
		fprintf(T(r), "ptdecode-record truth 1\n");
	*out = r;
	return 0;
fail:
	ptd_recorder_finish(r, NULL);
	return rc;
}

const struct ptd_xsink *ptd_recorder_sink(struct ptd_recorder *r) { return &r->sink; }
const struct ptd_err *ptd_recorder_error(const struct ptd_recorder *r) { return &r->err; }

int ptd_recorder_finish(struct ptd_recorder *r, struct ptd_err *err)
{
	unsigned i;
	int rc = 0;

	if (!r)
		return 0;
	for (i = 0; i < r->nstreams && err; i++) {
		struct stream *s = &r->streams[i];

		if (!s->started)
			continue;
		if (ptd_ptenc_enabled(s->enc) && s->cur &&
		    !(rc = tsx_event(r, s, s->cur, ptd_tsx_leave(&s->cur->tsx), s->cur->ip, 0, 0, err)))
			rc = ptd_ptenc_interrupt(s->enc, r->tsc, s->cur->ip, err);
		if (!rc)
			rc = ptd_ptenc_flush(s->enc, err);
		if (!rc)
			rc = chunk(r, s, err);
		if (rc)
			break;
	}
	if (r->pd) {
		if (!rc && err)
			rc = ptd_pdw_close(r->pd, err);
		else
			ptd_pdw_close(r->pd, NULL);
	}
	for (i = 0; i < r->nstreams; i++) {
		write_pending(r, &r->streams[i], 0);
		ptd_vec_fini(&r->streams[i].pending);
		ptd_ptenc_free(r->streams[i].enc);
		ptd_snapring_free(r->streams[i].ring);
	}
	for (i = 0; i < r->nthreads; i++)
		free(r->threads[i]);
	free(r->streams);
	ptd_kwalk_free(r->kwalk);
	free(r);
	return rc;
}
