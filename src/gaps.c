/* The gap report: see gaps.h. */
#define _GNU_SOURCE   /* qsort_r */
#include "gaps.h"

#include <stdlib.h>
#include <string.h>

#include "auxqueue.h"
#include "decoders/intel-pt/pdec.h"
#include "formats/perf/abi.h"

static const char *const names[PTD_GK_NR] = {
	[PTD_GK_OVERFLOW] = "overflow",
	[PTD_GK_AUX_TRUNCATED] = "aux-truncated",
	[PTD_GK_AUX_COLLISION] = "aux-collision",
	[PTD_GK_AUX_PARTIAL] = "aux-partial",
	[PTD_GK_NO_PAYLOAD] = "missing-payload",
	[PTD_GK_LOST_TRACE] = "lost-trace-data",
	[PTD_GK_LOST] = "lost-records",
	[PTD_GK_LOST_SAMPLES] = "lost-samples",
	[PTD_GK_AUXTRACE_ERROR] = "auxtrace-error",
	[PTD_GK_DECODE] = "decoder-error",
	[PTD_GK_SNAPSHOT] = "snapshot-boundary",
	[PTD_GK_PAUSED] = "paused",
};

const char *ptd_gap_kind_name(int kind)
{
	return kind >= 0 && kind < PTD_GK_NR ? names[kind] : "?";
}

/* a queue's samples so far, and its gaps waiting for the next sample */
struct qstate {
	uint64_t first_t, last_t;       /* perf time of its first and last sample */
	uint64_t first_insn, last_insn; /* the decoder's instruction count then */
	int have;
	struct ptd_vec timed;           /* session gaps (indexes), by time: a sample after */
	size_t next;                    /*   its time closes one; timed[next] is the first open */
	struct ptd_vec pending;         /* decoder errors (indexes): the next sample closes them */
	int stopped;                    /* the last branch stopped tracing asynchronously ... */
	uint64_t stop_nr, stop_ip;      /* ... in this AUX chunk (its number), at this ip */
};

static uint64_t key(int32_t cpu, int32_t tid)
{
	return cpu >= 0 ? (uint64_t)(uint32_t)cpu : (1ULL << 32) | (uint32_t)tid;
}

void ptd_gaps_init(struct ptd_gaps *g)
{
	memset(g, 0, sizeof(*g));
	g->gaps = (struct ptd_vec)PTD_VEC_INIT(sizeof(struct ptd_gap_rep));
	g->gaps.limit = PTD_GAPS_MAX;
}

void ptd_gaps_fini(struct ptd_gaps *g)
{
	size_t i = 0;
	uint64_t k;
	void *v;

	while (ptd_u64map_next(&g->queues, &i, &k, &v)) {
		ptd_vec_fini(&((struct qstate *)v)->timed);
		ptd_vec_fini(&((struct qstate *)v)->pending);
		free(v);
	}
	ptd_u64map_fini(&g->queues);
	ptd_vec_fini(&g->gaps);
}

static struct qstate *queue(struct ptd_gaps *g, int32_t cpu, int32_t tid)
{
	struct qstate *q = ptd_u64map_get(&g->queues, key(cpu, tid));

	if (q)
		return q;
	q = calloc(1, sizeof(*q));
	if (!q || ptd_u64map_put(&g->queues, key(cpu, tid), q)) {
		free(q);
		return NULL;
	}
	q->timed = (struct ptd_vec)PTD_VEC_INIT(sizeof(size_t));
	q->pending = (struct ptd_vec)PTD_VEC_INIT(sizeof(size_t));
	return q;
}

/* A new gap, listed with its queue (timed: closed by time, else by the
 * next sample).  Returns 0, 1 when over PTD_GAPS_MAX (counted, not kept),
 * or -PTD_E_NOMEM. */
static int add(struct ptd_gaps *g, int kind, int32_t cpu, int32_t tid, uint64_t when, int timed,
	       struct ptd_gap_rep **out)
{
	struct qstate *q = queue(g, cpu, tid);
	struct ptd_gap_rep *r;
	size_t *ix;

	if (!q)
		return -PTD_E_NOMEM;
	if (g->gaps.len >= PTD_GAPS_MAX) {
		g->nr_dropped++;
		return 1;
	}
	ix = ptd_vec_push(timed ? &q->timed : &q->pending);
	r = ix ? ptd_vec_push(&g->gaps) : NULL;
	if (!r)
		return -PTD_E_NOMEM;
	*ix = g->gaps.len - 1;
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->cpu = cpu;
	r->tid = cpu >= 0 ? -1 : tid;
	r->when = when;
	r->open = 1;
	r->seq = g->gaps.len - 1;
	*out = r;
	return 0;
}

/* gap indexes by time, as found among equals */
static int by_when(const void *a, const void *b, void *ctx)
{
	const struct ptd_gaps *g = ctx;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct ptd_gap_rep *x = ptd_vec_at(&g->gaps, i), *y = ptd_vec_at(&g->gaps, j);

	if (x->when != y->when)
		return x->when < y->when ? -1 : 1;
	return i < j ? -1 : i > j;
}

int ptd_gaps_preload(struct ptd_gaps *g, const struct ptd_session *s)
{
	static const int kinds[PTD_GAP_NR] = {
		[PTD_GAP_AUX_TRUNCATED] = PTD_GK_AUX_TRUNCATED,
		[PTD_GAP_AUX_COLLISION] = PTD_GK_AUX_COLLISION,
		[PTD_GAP_AUX_PARTIAL] = PTD_GK_AUX_PARTIAL,
		[PTD_GAP_NO_PAYLOAD] = PTD_GK_NO_PAYLOAD,
		[PTD_GAP_LOST] = PTD_GK_LOST,
		[PTD_GAP_LOST_SAMPLES] = PTD_GK_LOST_SAMPLES,
		[PTD_GAP_AUXTRACE_ERROR] = PTD_GK_AUXTRACE_ERROR,
	};
	const struct ptd_auxq *aq = &s->auxq;
	struct ptd_gap_rep *r;
	uint64_t key_;
	void *v;
	size_t i, k;
	int rc = 0;

	for (i = 0; i < aq->gaps.len; i++) {
		const struct ptd_gap *sg = ptd_vec_at(&aq->gaps, i);

		if (sg->cause < 0 || sg->cause >= PTD_GAP_NR)
			continue;
		if ((rc = add(g, kinds[sg->cause], sg->cpu, sg->tid, sg->time, 1, &r)))
			goto skip;
		r->bytes = sg->bytes;
		r->bytes_known = sg->cause <= PTD_GAP_NO_PAYLOAD && sg->bytes;
		r->count = sg->count;
		r->file_offset = sg->file_offset;
skip:
		if (rc < 0)
			return rc;
	}
	/* snapshot queues: trace before the first snapshot's window in the AUX
	 * buffer, or between two snapshots that do not overlap, was not
	 * recorded; such a gap begins after the trace of the earlier snapshot
	 * (taken at its chunk's time; before the first: at the start) */
	for (i = 0; i < aq->queues.len; i++) {
		const struct ptd_aux_queue *q = *(struct ptd_aux_queue **)ptd_vec_at(&aq->queues, i);
		uint64_t end = 0;

		if (!(q->flags & PTD_AUX_FLAG_OVERWRITE))
			continue;
		for (k = 0; k < q->chunks.len; k++) {
			const struct ptd_aux_chunk *c = ptd_vec_at(&q->chunks, k);

			if (c->aux_offset > end) {
				const struct ptd_aux_chunk *prev = k ? ptd_vec_at(&q->chunks, k - 1) : NULL;

				if ((rc = add(g, PTD_GK_SNAPSHOT, q->cpu, c->tid, prev ? prev->time : 0, 1, &r)) < 0)
					return rc;
				if (!rc) {
					r->file_offset = c->file_offset;
					r->bytes = c->aux_offset - end;
					r->bytes_known = 1;
				}
			}
			if (c->size > UINT64_MAX - c->aux_offset)
				end = UINT64_MAX;
			else if (c->aux_offset + c->size > end)
				end = c->aux_offset + c->size;
		}
	}
	/* each queue's session gaps in time order */
	i = 0;
	while (ptd_u64map_next(&g->queues, &i, &key_, &v)) {
		struct ptd_vec *t = &((struct qstate *)v)->timed;

		if (t->len > 1)
			qsort_r(t->data, t->len, sizeof(size_t), by_when, g);
	}
	return 0;
}

static void close_one(struct ptd_gap_rep *r, const struct ptd_synth *sy, const struct qstate *q)
{
	r->open = 0;
	r->start = q->have ? q->last_t : 0;
	r->end = sy->time;
	r->start_insn = q->have ? q->last_insn : sy->tot_insn;
	/* the decoder's instructions inside the span (its count may restart) */
	r->insns = sy->tot_insn >= r->start_insn ? sy->tot_insn - r->start_insn : 0;
	if (r->kind == PTD_GK_DECODE && sy->trace_pos > r->pos) {
		r->bytes = sy->trace_pos - r->pos;
		r->bytes_known = 1;
	}
}

/* Close the queue's gaps that the sample sy comes after: the decoder's
 * errors since the last sample, and the session gaps before its time. */
static void close_gaps(struct ptd_gaps *g, const struct ptd_synth *sy, struct qstate *q)
{
	size_t i;

	for (i = 0; i < q->pending.len; i++)
		close_one(ptd_vec_at(&g->gaps, *(size_t *)ptd_vec_at(&q->pending, i)), sy, q);
	q->pending.len = 0;
	while (q->next < q->timed.len) {
		struct ptd_gap_rep *r = ptd_vec_at(&g->gaps, *(size_t *)ptd_vec_at(&q->timed, q->next));

		if (r->when && sy->time && sy->time <= r->when)
			break;
		close_one(r, sy, q);
		q->next++;
	}
}

static int decoder_error(struct ptd_gaps *g, const struct ptd_synth *sy)
{
	struct qstate *q = queue(g, sy->cpu, sy->tid);
	struct ptd_gap_rep *r;
	size_t i;
	int rc;

	if (!q)
		return -PTD_E_NOMEM;
	if (sy->err_code == PDEC_ERR_LOST) {
		/* perf's Lost trace data for a loss the session knows: an open
		 * gap of the queue reported by then */
		for (i = q->next; i < q->timed.len; i++) {
			r = ptd_vec_at(&g->gaps, *(size_t *)ptd_vec_at(&q->timed, i));
			if (r->when > sy->time)
				break;
			if (!r->msg && (r->kind == PTD_GK_AUX_TRUNCATED || r->kind == PTD_GK_NO_PAYLOAD)) {
				r->msg = sy->err_msg;
				r->ip = sy->ip;
				return 0;
			}
		}
	}
	rc = add(g, sy->err_code == PDEC_ERR_OVR ? PTD_GK_OVERFLOW :
		    sy->err_code == PDEC_ERR_LOST ? PTD_GK_LOST_TRACE : PTD_GK_DECODE,
		 sy->cpu, sy->tid, sy->time, 0, &r);
	if (rc)
		return rc < 0 ? rc : 0;
	r->ip = sy->ip;
	r->msg = sy->err_msg;
	r->pos = sy->trace_pos;
	r->bytes_known = r->kind == PTD_GK_OVERFLOW;   /* the trace goes on: nothing skipped */
	return 0;
}

/* A branch: tracing stopped at the end of one AUX chunk and started again
 * in the next is a pause (gaps.h); the next sample closes it. */
static int branch(struct ptd_gaps *g, const struct ptd_synth *sy, struct qstate *q)
{
	const uint32_t stop = PTD_IPF_TRACE_END | PTD_IPF_ASYNC;
	struct ptd_gap_rep *r;
	int rc;

	if (q->stopped && (sy->flags & PTD_IPF_TRACE_BEGIN) && sy->buf_nr > q->stop_nr) {
		if ((rc = add(g, PTD_GK_PAUSED, sy->cpu, sy->tid, q->last_t, 0, &r)) < 0)
			return rc;
		if (!rc) {
			r->ip = q->stop_ip;
			r->bytes_known = 1;   /* nothing of the trace is missing */
			r->resumed_there = sy->addr == q->stop_ip;
		}
	}
	q->stopped = (sy->flags & (stop | PTD_IPF_SYSCALLRET)) == stop;
	q->stop_nr = sy->buf_nr;
	q->stop_ip = sy->ip;
	return 0;
}

int ptd_gaps_sample(struct ptd_gaps *g, const struct ptd_synth *sy)
{
	struct qstate *q;
	int rc;

	if (sy->kind == PTD_SYN_ERROR)
		return decoder_error(g, sy);
	q = queue(g, sy->cpu, sy->tid);
	if (!q)
		return -PTD_E_NOMEM;
	if (sy->kind == PTD_SYN_BRANCH && (rc = branch(g, sy, q)))
		return rc;
	close_gaps(g, sy, q);
	if (!q->have) {
		q->have = 1;
		q->first_t = sy->time;
		q->first_insn = sy->tot_insn;
	}
	q->last_t = sy->time;
	q->last_insn = sy->tot_insn;
	return 0;
}

static int cmp(const void *a, const void *b)
{
	const struct ptd_gap_rep *x = a, *y = b;
	uint64_t kx = key(x->cpu, x->tid), ky = key(y->cpu, y->tid);
	uint64_t tx = x->start ? x->start : x->when, ty = y->start ? y->start : y->when;

	if (kx != ky)
		return kx < ky ? -1 : 1;
	if (tx != ty)
		return tx < ty ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void ptd_gaps_finish(struct ptd_gaps *g)
{
	size_t i;

	for (i = 0; i < g->gaps.len; i++) {
		struct ptd_gap_rep *r = ptd_vec_at(&g->gaps, i);
		struct qstate *q = ptd_u64map_get(&g->queues, key(r->cpu, r->tid));
		uint64_t decoded = r->insns;
		double rate;

		r->insns = 0;
		if (r->open) {   /* nothing after it */
			r->start = q && q->have ? q->last_t : 0;
			continue;
		}
		if (r->kind == PTD_GK_PAUSED && r->resumed_there) {
			r->insns_known = 1;
			continue;
		}
		if (!q || !r->start || !r->end || r->end <= r->start || q->last_t <= q->first_t ||
		    q->last_insn <= q->first_insn)
			continue;
		rate = (double)(q->last_insn - q->first_insn) / (double)(q->last_t - q->first_t);
		rate *= (double)(r->end - r->start);
		r->insns = rate > (double)decoded ? (uint64_t)(rate - (double)decoded + 0.5) : 0;
		r->insns_known = 1;
	}
	/* by queue, then time; as found among equals */
	if (g->gaps.len > 1)
		qsort(g->gaps.data, g->gaps.len, sizeof(struct ptd_gap_rep), cmp);
}
