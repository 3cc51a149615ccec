#include "config.h"
#include "tools/record/etm_rec.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tools/record/classify_a64.h"
#include "tools/record/cs_frame.h"
#include "tools/record/etm_enc.h"
#include "tools/record/perfdata.h"

#define MAX_THREADS 4096

struct ethread {
	int32_t pid, tid;
	int stream;
	uint64_t ip;             /* next instruction */
	uint64_t icount;         /* instructions retired */
	int in_kernel;           /* resumes at ip when it runs next */
	int ended;
	uint64_t *itrace;        /* bit per stream: ITRACE_START written (per-CPU) */
};

struct estream {
	struct ptd_etmenc *enc;
	int queue, cpu;          /* cpu -1 in per-thread mode */
	struct ethread *cur;     /* the thread on it, NULL when idle */
	struct ethread *last;    /* the last thread that ran on it */
	uint64_t taken;          /* stream bytes already put in chunks */
	uint64_t aux_off;        /* AUX buffer bytes (frames) written */
};

struct ptd_etmrec {
	struct ptd_recorder_config cfg;
	struct ptd_pdw *pd;
	struct ptd_xsink sink;
	struct ptd_err err;
	uint64_t tsc;
	struct ethread *threads[MAX_THREADS];
	unsigned nthreads;
	struct estream *streams;
	unsigned nstreams;
};

static FILE *T(struct ptd_etmrec *r) { return r->cfg.truth; }
static int cpu_of(const struct estream *s) { return s->cpu < 0 ? 0 : s->cpu; }

static struct ethread *thread(struct ptd_etmrec *r, int32_t tid)
{
	unsigned i;

	for (i = 0; i < r->nthreads; i++)
		if (r->threads[i]->tid == tid)
			return r->threads[i];
	return NULL;
}

/* The stream's trace so far, in frames, as one AUX record and its data. */
static int chunk(struct ptd_etmrec *r, struct estream *s, struct ptd_err *err)
{
	struct ethread *t = s->cur ? s->cur : s->last;
	const uint8_t *p;
	uint8_t *frames;
	size_t len, flen;
	int rc;

	ptd_etmenc_flush(s->enc);
	p = ptd_etmenc_data(s->enc, &len);
	if (!len || !t)
		return 0;
	flen = ptd_cs_frames_size(len);
	frames = malloc(flen);
	if (!frames)
		return ptd_err_set(err, PTD_E_NOMEM, "AUX chunk of %zu bytes", flen);
	ptd_cs_frames(ptd_pdw_etm_trace_id(r->pd, cpu_of(s)), p, len, frames);
	rc = ptd_pdw_aux(r->pd, s->queue, cpu_of(s), r->tsc, t->pid, t->tid, s->aux_off, frames, flen,
			 0, 0, err);
	free(frames);
	if (rc)
		return rc;
	if (T(r))
		fprintf(T(r), "K %d %" PRIu64 " %" PRIu64 " 0 kept\n", s->queue, s->taken,
			s->taken + len);
	s->taken += len;
	s->aux_off += flen;
	ptd_etmenc_take(s->enc, len);
	/* the trace unit was stopped (the AUX record is written then): it
	 * synchronizes again when it starts */
	ptd_etmenc_need_sync(s->enc);
	r->tsc += 1;
	return 0;
}

/* a chunk is cut where trace is off and --aux-size bytes are waiting */
static int maybe_chunk(struct ptd_etmrec *r, struct estream *s, struct ptd_err *err)
{
	size_t len;

	if (ptd_etmenc_enabled(s->enc))
		return 0;
	ptd_etmenc_data(s->enc, &len);
	return len >= r->cfg.aux_size ? chunk(r, s, err) : 0;
}

/* Put thread t on its stream (preempting whatever runs there) and resume
 * its trace if it was out of user mode. */
static int run(struct ptd_etmrec *r, struct ethread *t, struct ptd_err *err)
{
	struct estream *s = &r->streams[t->stream];
	struct ethread *old = s->cur;
	uint64_t bit = 1ULL << (t->stream % 64);
	int rc;

	if (old != t) {
		if (old && !old->in_kernel && !old->ended) {
			if ((rc = ptd_etmenc_interrupt(s->enc, old->ip, err)))
				return rc;
			if (T(r))
				fprintf(T(r), "P %d %#" PRIx64 "\n", (int)old->tid, old->ip);
			old->in_kernel = 1;
			r->tsc += r->cfg.kernel_ticks;
		}
		s->cur = t;
		s->last = t;
		if (!(t->itrace[t->stream / 64] & bit)) {
			t->itrace[t->stream / 64] |= bit;
			if ((rc = ptd_pdw_itrace_start(r->pd, cpu_of(s), r->tsc, t->pid, t->tid, err)))
				return rc;
		}
	}
	if (t->in_kernel) {
		r->tsc += 1;
		if ((rc = ptd_etmenc_resume(s->enc, t->ip, (uint32_t)t->tid, ptd_pdw_time(r->pd, r->tsc),
					    err)))
			return rc;
		t->in_kernel = 0;
	}
	return 0;
}

static int on_thread_start(void *ctx, int32_t pid, int32_t tid, int32_t ppid, int32_t ptid,
			   uint64_t ip)
{
	struct ptd_etmrec *r = ctx;
	struct ethread *t;
	struct estream *s;

	if (r->nthreads == MAX_THREADS || thread(r, tid))
		return ptd_err_set(&r->err, PTD_E_LIMIT, "thread %d: too many threads or seen twice", (int)tid);
	t = calloc(1, sizeof(*t));
	if (!t)
		return ptd_err_set(&r->err, PTD_E_NOMEM, "thread");
	r->threads[r->nthreads++] = t;
	t->itrace = calloc(MAX_THREADS / 64, sizeof(*t->itrace));
	if (!t->itrace)
		return ptd_err_set(&r->err, PTD_E_NOMEM, "thread");
	t->pid = pid;
	t->tid = tid;
	t->ip = ip;
	t->in_kernel = 1;
	if (r->cfg.pd.per_thread) {
		struct ptd_etmenc_config ec = { 0 };
		struct estream *ns = realloc(r->streams, (r->nstreams + 1) * sizeof(*ns));
		int q;

		if (!ns)
			return ptd_err_set(&r->err, PTD_E_NOMEM, "stream");
		r->streams = ns;
		s = &ns[r->nstreams];
		memset(s, 0, sizeof(*s));
		q = ptd_pdw_thread_queue(r->pd, tid, &r->err);
		if (q < 0)
			return q;
		s->queue = q;
		s->cpu = -1;
		if (ptd_etmenc_new(&s->enc, &ec, &r->err))
			return -r->err.code;
		t->stream = (int)r->nstreams++;
	} else {
		t->stream = (int)((r->nthreads - 1) % r->nstreams);
	}
	s = &r->streams[t->stream];
	if (ppid && ptd_pdw_fork(r->pd, cpu_of(s), r->tsc, pid, ppid, tid, ptid, 0, &r->err))
		return -r->err.code;
	r->tsc += 1;
	if (T(r))
		fprintf(T(r), "S %d %d %d %d %#" PRIx64 "\n", s->queue, s->cpu, (int)pid, (int)tid, ip);
	return 0;
}

static int on_event(void *ctx, int32_t tid, const struct ptd_xev *ev)
{
	struct ptd_etmrec *r = ctx;
	struct ethread *t = thread(r, tid);
	struct estream *s;
	int rc;

	if (!t)
		return ptd_err_set(&r->err, PTD_E_INVAL, "event of unknown thread %d", (int)tid);
	s = &r->streams[t->stream];
	r->tsc += (ev->icount - t->icount) * r->cfg.ticks_per_insn;
	if ((rc = run(r, t, &r->err)) || (rc = ptd_etmenc_branch(s->enc, ev, &r->err)))
		return rc;
	if (T(r))
		fprintf(T(r), "X %d %d %#" PRIx64 " %#" PRIx64 " %u %" PRIu64 " %d %" PRIu64 "\n",
			(int)tid, ev->cls, ev->from, ev->to, ev->taken, ev->icount, s->queue,
			ptd_etmenc_total(s->enc));
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
	struct ptd_etmrec *r = ctx;
	struct ethread *t = thread(r, tid);
	struct estream *s;
	int rc;

	if (!t)
		return ptd_err_set(&r->err, PTD_E_INVAL, "end of unknown thread %d", (int)tid);
	s = &r->streams[t->stream];
	if (icount > t->icount) {
		/* the thread's last instruction, its exit system call (SVC) */
		struct ptd_xev ev = {
			.cls = PTD_X_SYSCALL, .taken = 1, .insn_len = PTD_A64_INSN_LEN,
			.from = last_ip - PTD_A64_INSN_LEN, .to = last_ip, .icount = icount,
		};

		if ((rc = on_event(r, tid, &ev)))
			return rc;
	}
	t->icount = icount;
	t->ended = 1;
	/* the event stops with the thread: its trace so far is an AUX record */
	if (s->cur == t && (rc = chunk(r, s, &r->err)))
		return rc;
	if (s->cur == t)
		s->cur = NULL;
	r->tsc += r->cfg.kernel_ticks;
	if ((rc = ptd_pdw_fork(r->pd, cpu_of(s), r->tsc, t->pid, t->pid, t->tid, t->tid, 1, &r->err)))
		return rc;
	if (T(r))
		fprintf(T(r), "E %d %" PRIu64 " %#" PRIx64 "\n", (int)tid, icount, last_ip);
	return 0;
}

static int on_mmap(void *ctx, int32_t pid, int32_t tid, const struct ptd_xmap *m)
{
	struct ptd_etmrec *r = ctx;
	struct ethread *t = thread(r, tid);

	r->tsc += 1;
	return ptd_record_mmap(r->pd, &r->cfg, t ? cpu_of(&r->streams[t->stream]) : 0, r->tsc, pid, tid, m,
			       &r->err);
}

static int on_comm(void *ctx, int32_t pid, int32_t tid, const char *comm)
{
	struct ptd_etmrec *r = ctx;
	struct ethread *t = thread(r, tid);
	int cpu = t ? cpu_of(&r->streams[t->stream]) : 0;

	r->tsc += 1;
	if (ptd_pdw_comm(r->pd, cpu, r->tsc, pid, tid, comm, 1, &r->err))
		return -r->err.code;
	return 0;
}

int ptd_etmrec_new(struct ptd_etmrec **out, const char *path, const struct ptd_recorder_config *cfg,
		   struct ptd_err *err)
{
	struct ptd_etmrec *r = calloc(1, sizeof(*r));
	unsigned i;
	int rc;

	if (!r)
		return ptd_err_set(err, PTD_E_NOMEM, "recorder");
	r->cfg = *cfg;
	r->cfg.pd.etm = 1;
	/* perf record's config: per-CPU, context IDs and timestamps */
	r->cfg.pd.etm_ctxtid = r->cfg.pd.etm_ts = !cfg->pd.per_thread;
	r->tsc = cfg->tsc_start;
	if (!r->cfg.ticks_per_insn)
		r->cfg.ticks_per_insn = 1;
	if (!r->cfg.aux_size)
		r->cfg.aux_size = 64 * 1024;
	if (!cfg->pd.ncpus || cfg->pd.ncpus > 64) {
		rc = ptd_err_set(err, PTD_E_INVAL, "%u CPUs: 1 to 64 with --etm", cfg->pd.ncpus);
		goto fail;
	}
	if ((rc = ptd_pdw_open(&r->pd, path, &r->cfg.pd, err)))
		goto fail;
	if (!cfg->pd.per_thread) {
		struct ptd_etmenc_config ec = { .ctxtid = 1, .ts = 1 };

		r->streams = calloc(cfg->pd.ncpus, sizeof(*r->streams));
		if (!r->streams) {
			rc = ptd_err_set(err, PTD_E_NOMEM, "streams");
			goto fail;
		}
		r->nstreams = cfg->pd.ncpus;
		for (i = 0; i < r->nstreams; i++) {
			r->streams[i].queue = r->streams[i].cpu = (int)i;
			if ((rc = ptd_etmenc_new(&r->streams[i].enc, &ec, err)))
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
	ptd_etmrec_finish(r, NULL);
	return rc;
}

const struct ptd_xsink *ptd_etmrec_sink(struct ptd_etmrec *r) { return &r->sink; }
const struct ptd_err *ptd_etmrec_error(const struct ptd_etmrec *r) { return &r->err; }

int ptd_etmrec_finish(struct ptd_etmrec *r, struct ptd_err *err)
{
	unsigned i;
	int rc = 0;

	if (!r)
		return 0;
	for (i = 0; i < r->nstreams && err && !rc; i++) {
		struct estream *s = &r->streams[i];

		if (s->cur && ptd_etmenc_enabled(s->enc)) {
			rc = ptd_etmenc_interrupt(s->enc, s->cur->ip, err);
			if (!rc && T(r))
				fprintf(T(r), "P %d %#" PRIx64 "\n", (int)s->cur->tid, s->cur->ip);
		}
		if (!rc)
			rc = chunk(r, s, err);
	}
	if (r->pd) {
		if (!rc && err)
			rc = ptd_pdw_close(r->pd, err);
		else
			ptd_pdw_close(r->pd, NULL);
	}
	for (i = 0; i < r->nstreams; i++)
		ptd_etmenc_free(r->streams[i].enc);
	for (i = 0; i < r->nthreads; i++) {
		free(r->threads[i]->itrace);
		free(r->threads[i]);
	}
	free(r->streams);
	free(r);
	return rc;
}
