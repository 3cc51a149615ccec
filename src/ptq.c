/* Intel PT queues replayed as perf script replays them: see ptq.h. */
#include "ptq_priv.h"
#include "ptq_ahead.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"
#include "decoders/intel-pt/pdec.h"
#include "decoders/intel-pt/pinsn.h"
#include "formats/perf/abi.h"
#include "formats/perf/records.h"
#include "tsc.h"
#include "tstack.h"

struct ptd_ptq *ptd_ptq_new(void)
{
	return calloc(1, sizeof(struct ptd_ptq));
}

static void free_queues(struct ptd_ptq *q)
{
	size_t i;

	ptd_ahead_stop(q);   /* the threads use the decoders */
	for (i = 0; i < q->nr_queues; i++) {
		ptd_pdec_free(q->queues[i].dec);
		free(q->queues[i].buf);
		free(q->queues[i].spare);
	}
	free(q->queues);
	q->queues = NULL;
	q->nr_queues = 0;
}

void ptd_ptq_free(struct ptd_ptq *q)
{
	if (!q)
		return;
	free_queues(q);
	ptd_auxheap_fini(&q->heap);
	ptd_u64map_fini(&q->cur_tid);
	ptd_pinsn_free(q->pinsn);
	ptd_insncache_fini(&q->insns);
	ptd_jccruns_fini(&q->jcc);
	ptd_notelog_fini(&q->noted);
	ptd_tstacks_fini(&q->stacks);
	free(q->chain);
	free(q->br);
	free(q->tsc_ranges);
	ptd_ptq_conf_fini(&q->conf);
	free(q);
}

int ptd_ptq_note(struct ptd_ptq *q, const struct ptd_event *ev, struct ptd_err *err)
{
	struct ptd_noted rec = { 0 }, *n = &rec;
	struct ptd_rec_switch sw;
	struct ptd_rec_aux aux;
	struct ptd_rec_itrace_start its;
	struct ptd_rec_fork fk;

	if (ev->type >= PTD_REC_HEADER_ATTR || !(ev->sid.have & PTD_SAMPLE_TIME) ||
	    !ev->sid.time || ev->sid.time == UINT64_MAX)
		return 0;
	n->time = ev->sid.time;
	n->type = (uint8_t)ev->type;
	if (ev->misc & PTD_MISC_SWITCH_OUT)
		n->flags |= PTD_NOTED_SWITCH_OUT;
	n->cpu = ev->sid.have & PTD_SAMPLE_CPU ? (int32_t)ev->sid.cpu : -1;
	n->pid = ev->sid.have & PTD_SAMPLE_TID ? (int32_t)ev->sid.pid : -1;
	n->tid = ev->sid.have & PTD_SAMPLE_TID ? (int32_t)ev->sid.tid : -1;
	if ((ev->type == PTD_REC_SWITCH || ev->type == PTD_REC_SWITCH_CPU_WIDE) &&
	    !ptd_rec_switch(ev, &sw, NULL)) {
		n->np_tid = sw.next_prev_tid;
	} else if (ev->type == PTD_REC_AUX && !ptd_rec_aux(ev, &aux, NULL)) {
		if (aux.flags & PTD_AUX_FLAG_TRUNCATED)
			n->flags |= PTD_NOTED_AUX_TRUNCATED;
	} else if (ev->type == PTD_REC_ITRACE_START && !ptd_rec_itrace_start(ev, &its, NULL)) {
		n->np_tid = its.tid;
	} else if (ev->type == PTD_REC_EXIT && !ptd_rec_fork(ev, &fk, NULL)) {
		n->np_tid = fk.tid;
	}
	if (ptd_notelog_add(&q->noted, n))
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory noting records");
	return 0;
}

/* ---- threads ------------------------------------------------------------- */

static int32_t current_tid(const struct ptd_ptq *q, int32_t cpu)
{
	void *v;

	if ((uint32_t)cpu < PTQ_CPUS_LOW)
		return q->cur_tid_low[cpu] ? (int32_t)(q->cur_tid_low[cpu] - 2) : -1;
	v = ptd_u64map_get(&q->cur_tid, (uint64_t)(int64_t)cpu + 1);
	return v ? (int32_t)((intptr_t)v - 2) : -1;
}

static void set_current_tid(struct ptd_ptq *q, int32_t cpu, int32_t tid)
{
	if ((uint32_t)cpu < PTQ_CPUS_LOW)
		q->cur_tid_low[cpu] = (int64_t)tid + 2;
	else if (cpu >= 0)
		ptd_u64map_put(&q->cur_tid, (uint64_t)cpu + 1, (void *)(intptr_t)((int64_t)tid + 2));
}

void ptd_ptq_pid_tid(const struct ptd_ptq *q, const struct queue *pq, int32_t cur_tid,
		     int32_t *pid, int32_t *tid)
{
	const struct ptd_thread *t;

	if (pq->aq->tid == -1 || q->conf.have_sched_switch) {
		*tid = cur_tid;
		if (*tid == -1)
			*pid = -1;
	}
	t = *tid != -1 ? ptd_machine_thread(&q->s->machine, *tid) : NULL;
	if (t)
		*pid = t->pid;
	else if (*tid == 0)
		*pid = 0;   /* perf's idle thread, "swapper" */
}

static void set_pid_tid_cpu(struct ptd_ptq *q, struct queue *pq)
{
	ptd_ptq_pid_tid(q, pq, current_tid(q, pq->cpu), &pq->pid, &pq->tid);
	if (!pq->ahead) {
		pq->w.pid = pq->pid;
		pq->w.tid = pq->tid;
	}
}

/* perf's intel_pt_next_time: the next range end or start; 0 when none. */
static int next_time(struct ptd_ptq *q, struct queue *pq)
{
	if (pq->sel_start) {
		pq->sel_start = 0;
		pq->sel_timestamp = q->tsc_ranges[pq->sel_idx].end;
		return 1;
	}
	if (pq->sel_idx + 1 < q->cfg->nranges) {
		pq->sel_start = 1;
		pq->sel_timestamp = q->tsc_ranges[++pq->sel_idx].start;
		return 1;
	}
	return 0;
}

/* perf's intel_pt_time_filter: no sample before a range starts, and the
 * decoder fast-forwarded towards it (once per start and run_decoder
 * call: *ff_timestamp); 1 to stop decoding after the last range, or a
 * negative errno. */
static int time_filter(struct ptd_ptq *q, struct queue *pq, uint64_t *ff_timestamp)
{
	for (;;) {
		if (pq->sel_start) {
			if (pq->timestamp >= pq->sel_timestamp) {
				next_time(q, pq);
				if (!pq->sel_timestamp)
					return 0;
				continue;
			}
			pq->have_sample = 0;
			if (pq->sel_timestamp > *ff_timestamp) {
				*ff_timestamp = pq->sel_timestamp;
				return ptd_pdec_fast_forward(pq->dec, pq->sel_timestamp) ? -PTD_E_NOMEM : 0;
			}
			return 0;
		}
		if (pq->timestamp <= pq->sel_timestamp)
			return 0;
		if (!next_time(q, pq)) {
			pq->have_sample = 0;
			return 1;
		}
	}
}

/* The decoder may skip the plain branch states below this timestamp
 * (ptd_pdec_decode_to): the states run_decoder() would neither sample nor
 * stop at.  0: none. */
static uint64_t skip_bound(const struct ptd_ptq *q, const struct queue *pq, uint64_t ts)
{
	if ((!q->skip_branches && !q->skip_jumps) || pq->sel_timestamp)
		return 0;
	if (q->conf.timeless)
		return UINT64_MAX;
	return pq->timestamp < ts ? ts : 0;
}

/* The queue's next state: from its decoder, or from the thread that
 * decodes it ahead (which skips no more than bound would). */
static inline const struct ptd_pstate *next_state(struct queue *pq, uint64_t bound)
{
	if (pq->ahead)
		return ptd_ahead_next(pq->ahead);
	return ptd_pdec_decode_to(pq->dec, bound, KERNEL_START);
}

/* perf's intel_pt_run_decoder: 0 when *ts was reached, 1 at the end. */
static int run_decoder(struct ptd_ptq *q, struct queue *pq, uint64_t *ts)
{
	const struct ptd_pstate *st;
	uint64_t ff_timestamp = 0;
	int rc;

	for (;;) {
		if ((rc = ptd_ptq_sample(q, pq)))
			return rc < 0 ? rc : -1;
		st = next_state(pq, skip_bound(q, pq, *ts));
		if (pq->ahead && ptd_ahead_skipped(pq->ahead, st, &pq->timestamp, *ts)) {
			*ts = pq->timestamp;
			return 0;
		}
		ptd_ptq_track_time(&pq->timestamp, st, q->conf.timeless);
		if (st->err) {
			if (st->err == PDEC_ERR_NODATA)
				return 1;
			if (q->cfg->errors &&
			    ptd_ptq_synth_error(q, st->err, pq->cpu, pq->pid, pq->tid, st->from_ip,
						ptd_ptq_time(q, pq->timestamp), st->pos))
				return -1;
			continue;
		}
		pq->state = st;
		pq->have_sample = 1;
		ptd_ptq_sample_flags(pq);
		if (pq->sel_timestamp && (rc = time_filter(q, pq, &ff_timestamp)))
			return rc;
		if (!q->conf.timeless && pq->timestamp >= *ts) {
			*ts = pq->timestamp;
			return 0;
		}
	}
}

/* perf's intel_pt_process_timeless_queues: the queues of thread tid (all
 * for -1) decoded to their end. */
static int process_timeless(struct ptd_ptq *q, int32_t tid)
{
	uint64_t ts = 0;
	size_t i;
	int rc;

	for (i = 0; i < q->nr_queues; i++) {
		struct queue *pq = &q->queues[i];

		if (!pq->dec || (tid != -1 && pq->tid != tid))
			continue;
		set_pid_tid_cpu(q, pq);
		rc = run_decoder(q, pq, &ts);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int process_queues(struct ptd_ptq *q, uint64_t timestamp)
{
	uint64_t ts;
	uint32_t nr;
	int rc;

	while (q->heap.cnt && q->heap.a[0].ordinal < timestamp) {
		nr = q->heap.a[0].nr;
		ptd_auxheap_pop(&q->heap);
		if (q->heap.cnt) {
			ts = q->heap.a[0].ordinal + 1;
			if (ts > timestamp)
				ts = timestamp;
		} else {
			ts = timestamp;
		}
		set_pid_tid_cpu(q, &q->queues[nr]);
		rc = run_decoder(q, &q->queues[nr], &ts);
		if (rc < 0)
			return rc;
		if (!rc && ptd_auxheap_add(&q->heap, nr, ts))
			return -PTD_E_NOMEM;
	}
	return 0;
}


/* perf's intel_pt_setup_queue: decode to the first timestamp. */
/* AUXTRACE idx values allowed (the decoders are an array indexed by it) */
#define MAX_QUEUE_IDX (1u << 16)

/* One decoder per AUX queue, in an array indexed by the queues' idx.
 * Returns 0 or an error (in err). */
static int setup_queues(struct ptd_ptq *q, const struct pdec_params *pp, struct ptd_err *err)
{
	const struct ptd_auxq *aq = &q->s->auxq;
	uint32_t max_idx = 0;
	size_t i;

	for (i = 0; i < aq->queues.len; i++) {
		const struct ptd_aux_queue *a = *(struct ptd_aux_queue **)ptd_vec_at(&aq->queues, i);
		const struct ptd_aux_chunk *c = a->chunks.len ? ptd_vec_at(&a->chunks, 0) : NULL;

		if (a->idx >= MAX_QUEUE_IDX)
			return ptd_err_set(err, PTD_E_LIMIT,
					   "AUXTRACE record at %#" PRIx64 ": queue index %u is over the limit of %u",
					   c ? c->file_offset : 0, a->idx, MAX_QUEUE_IDX - 1);
		if (a->idx > max_idx)
			max_idx = a->idx;
	}
	if (!aq->queues.len)
		return 0;
	q->nr_queues = (size_t)max_idx + 1;
	/* aligned: their walkers are on cache lines of their own */
	q->queues = aligned_alloc(64, q->nr_queues * sizeof(*q->queues));
	if (q->queues)
		memset(q->queues, 0, q->nr_queues * sizeof(*q->queues));
	/* each queue is on the heap at most once: adding never fails */
	q->heap.a = calloc(q->nr_queues, sizeof(*q->heap.a));
	q->heap.cap = q->nr_queues;
	if (!q->queues || !q->heap.a)
		return ptd_err_set(err, PTD_E_NOMEM, "setting up the Intel PT queues: out of memory");
	for (i = 0; i < aq->queues.len; i++) {
		const struct ptd_aux_queue *a = *(struct ptd_aux_queue **)ptd_vec_at(&aq->queues, i);
		struct queue *pq = &q->queues[a->idx];
		struct pdec_params p = *pp;

		if (q->cfg->cpu_bitmap && a->cpu != -1 &&
		    ((unsigned)a->cpu >= q->cfg->cpu_bitmap_bits ||
		     !(q->cfg->cpu_bitmap[a->cpu / 8] & (1u << (a->cpu % 8)))))
			continue;   /* perf does not queue other CPUs' data with -C */
		pq->q = q;
		pq->aq = a;
		pq->nr = a->idx;
		pq->cpu = a->cpu;
		pq->tid = a->tid;
		pq->pid = -1;
		pq->w.q = q;
		pq->w.pq = pq;
		pq->w.pid = pq->pid;
		pq->w.tid = pq->tid;
		pq->w.now = &q->now;
		pq->w.pinsn = q->pinsn;
		pq->w.insns = &q->insns;
		pq->w.jcc = &q->jcc;
		pq->cbr_seen = UINT32_MAX;
		if (q->tsc_ranges) {   /* perf's intel_pt_setup_time_range */
			pq->sel_start = !!q->tsc_ranges[0].start;
			pq->sel_timestamp = pq->sel_start ? q->tsc_ranges[0].start : q->tsc_ranges[0].end;
		}
		ptd_ptq_callbacks(&p, q->conf.filters.n != 0);
		p.ctx = &pq->w;
		pq->dec = ptd_pdec_new(&p);
		if (!pq->dec)
			return ptd_err_set(err, PTD_E_NOMEM, "setting up the Intel PT queues: out of memory");
		if (q->skip_branches)   /* no power events: PSBs make no sample either */
			ptd_pdec_skip_psb(pq->dec);
	}
	if (ptd_ahead_start(q))
		return ptd_err_set(err, PTD_E_NOMEM, "starting the decode-ahead threads: out of memory");
	for (i = 0; i < q->nr_queues && !q->conf.timeless; i++) {
		struct queue *pq = &q->queues[i];
		const struct ptd_pstate *st;

		if (!pq->dec)
			continue;
		if (pq->sel_start && pq->sel_timestamp &&
		    ptd_pdec_fast_forward(pq->dec, pq->sel_timestamp))
			return ptd_err_set(err, PTD_E_NOMEM, "fast-forwarding to the --time range: out of memory");
		for (;;) {
			st = next_state(pq, 0);
			if (st->err == PDEC_ERR_NODATA)
				break;
			if (!st->err && st->timestamp)
				break;
		}
		if (st->err)
			continue;
		pq->timestamp = st->timestamp;
		pq->state = st;
		pq->have_sample = !(pq->sel_start && pq->sel_timestamp &&
				    pq->timestamp < pq->sel_timestamp);
		ptd_ptq_sample_flags(pq);
		if (ptd_auxheap_add(&q->heap, pq->nr, pq->timestamp))
			return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	}
	return 0;
}

int ptd_ptq_noted_tid(const struct ptd_ptq *q, const struct ptd_noted *n, int32_t *tid)
{
	int out = n->flags & PTD_NOTED_SWITCH_OUT;

	if (n->type == PTD_REC_ITRACE_START) {
		if (!q->conf.per_cpu_mmaps)
			return 0;
		*tid = (int32_t)n->np_tid;
		return 1;
	}
	if (n->type != PTD_REC_SWITCH && n->type != PTD_REC_SWITCH_CPU_WIDE)
		return 0;
	if (q->conf.have_sched_switch == 3) {
		/* perf sets the thread at switch-out (next) */
		if (!out || n->type != PTD_REC_SWITCH_CPU_WIDE)
			return 0;
		*tid = (int32_t)n->np_tid;
		return 1;
	}
	if (out)
		return 0;
	*tid = n->tid;
	return 1;
}

static int apply(struct ptd_ptq *q, const struct ptd_noted *n)
{
	int32_t tid;

	if (n->type == PTD_REC_AUX && (n->flags & PTD_NOTED_AUX_TRUNCATED) && q->cfg->errors)
		return ptd_ptq_synth_error(q, PDEC_ERR_LOST, n->cpu, n->pid, n->tid, 0, n->time, 0);
	if (ptd_ptq_noted_tid(q, n, &tid))
		set_current_tid(q, n->cpu, tid);
	return 0;
}

int ptd_ptq_run(struct ptd_ptq *q, struct ptd_session *s, const struct ptd_ptq_cfg *cfg,
		ptd_synth_fn fn, void *ctx, struct ptd_err *err)
{
	struct pdec_params pp;
	struct ptd_notecur cur = { 0 };
	int rc, first = 1;

	q->s = s;
	q->cfg = cfg;
	q->fn = fn;
	q->ctx = ctx;
	q->skip = cfg->initial_skip;
	if ((rc = ptd_ptq_conf(&q->conf, s, cfg, &pp, err)))
		return rc;
	q->pinsn = ptd_pinsn_new();
	/* 8 Ki instructions and blocks (0.7 MB), growing to 32 Ki (2.8 MB) */
	ptd_insncache_init(&q->insns, PTQ_INSNS_BITS_FIRST, PTQ_INSNS_BITS);
	if (cfg->callchain && cfg->callchain_sz)
		q->chain = calloc(cfg->callchain_sz, sizeof(*q->chain));
	if (cfg->last_branch && cfg->last_branch_sz) {
		q->br = calloc(cfg->last_branch_sz, sizeof(*q->br));
		q->stacks.br_sz = cfg->last_branch_sz;
	}
	q->stacks.no_callstack = !cfg->callchain && !cfg->thread_stack;
	/* ptd_ptq_sample() does nothing with a plain branch then */
	q->skip_branches = !cfg->branches && !cfg->calls && !cfg->returns && !cfg->thread_stack &&
			   !cfg->last_branch && !cfg->pwr_events;
	/* c and r (a branch filter) alone: ptd_ptq_sample() does nothing with
	 * the state of a conditional branch or a jump, which the filter
	 * leaves out */
	pp.keep_ops = ptd_ptq_kept_ops(q->conf.branches_filter);
	q->skip_jumps = q->conf.branches_filter && !cfg->thread_stack && !cfg->callchain &&
			!cfg->last_branch && !cfg->pwr_events && !(pp.keep_ops & PDEC_KEEP_NEVER);
	if (!q->skip_jumps)
		pp.keep_ops = 0;
	if (cfg->nranges && !q->conf.timeless) {
		q->tsc_ranges = calloc(cfg->nranges, sizeof(*q->tsc_ranges));
		if (!q->tsc_ranges)
			return ptd_err_set(err, PTD_E_NOMEM, "out of memory starting the Intel PT decoder");
		if ((rc = ptd_timerange_to_tsc(cfg->ranges, cfg->nranges, &q->conf.tc, q->tsc_ranges, err)))
			return rc;
	}
	if (!q->pinsn || (cfg->callchain && cfg->callchain_sz && !q->chain) || (q->stacks.br_sz && !q->br))
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory starting the Intel PT decoder");
	while (ptd_notelog_next(&q->noted, &cur)) {
		const struct ptd_noted *n = &cur.n;
		uint64_t ts = ptd_perf_time_to_tsc(n->time, &q->conf.tc);

		if (ts || q->conf.timeless) {
			if (first) {
				first = 0;
				q->now = n->time - 1;
				if ((rc = setup_queues(q, &pp, err)))
					return rc;
			}
			q->now = n->time - 1;
			if (!q->conf.timeless)
				rc = process_queues(q, ts);
			else if (n->type == PTD_REC_EXIT)
				rc = process_timeless(q, (int32_t)n->np_tid);
			if (rc)
				goto out;
		}
		q->now = n->time;
		if ((rc = apply(q, n)))
			goto out;
	}
	if (first && (rc = setup_queues(q, &pp, err)))
		return rc;
	q->now = UINT64_MAX;
	rc = q->conf.timeless ? process_timeless(q, -1) : process_queues(q, UINT64_MAX);
out:
	ptd_ahead_stop(q);
	if (q->stop)
		return q->stop;
	if (rc < 0)
		return ptd_err_set(err, PTD_E_NOMEM, "decoding Intel PT: out of memory");
	return 0;
}
