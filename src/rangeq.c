/* Range backends' queues replayed as perf's cs-etm.c does: see rangeq.h. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "formats/out/ranges.h"
#include "formats/perf/abi.h"
#include "rangeq.h"
#include "rangesynth.h"

#define MAX_OPTS 8
#define CHUNK_MAX (1ull << 30)
#define PENDING 4

struct rq {
	struct ptd_session *s;
	const struct ptd_decoder_ops *ops;
	const struct ptd_rangeq_cfg *cfg;
	struct ptd_resolver *rv;
	ptd_synth_fn fn;
	void *ctx;
	struct ptd_image *im;
	struct ptd_map_hint hint;
	int32_t pid, tid;           /* the thread being traced */
	uint64_t now;               /* perf time of the sideband state to read code and resolve with */
	uint64_t time;              /* the samples' time */
	struct ptd_rangesynth rs;
	/* branches rangesynth gave while it took a range: they follow the
	 * range's instruction samples */
	struct ptd_rs_branch pending[PENDING];
	uint8_t pending_isa[PENDING];
	unsigned npending;
	int holding;
	uint32_t in_flags;          /* flags of the last branch given while holding */
	int in_given;
	uint64_t period_insns[128]; /* per trace ID: instructions since the last sample */
	/* ends of trace held until the queue's next chunk (perf never ends
	 * OpenCSD's stream: the decoder reset at the next buffer ends it) */
	struct ptd_trace_sample held[128];
	unsigned nheld;
	int rc;                     /* fn's non-zero value */
};

/* The image's reader: code of the traced thread's process, from the file
 * behind its map at q->now. */
static int read_code(void *ctx, uint8_t *buf, size_t size, uint64_t vaddr, uint64_t asid)
{
	struct rq *q = ctx;
	const struct ptd_map *map;
	const struct ptd_thread *th;
	struct ptd_dsofile *f;
	int32_t pid = q->pid;
	uint64_t off, n;

	/* the backend's asid: the thread the trace named (+ 1), whose
	 * context element it has not handed over yet */
	if (asid && asid - 1 <= INT32_MAX && (th = ptd_machine_thread(&q->s->machine, (int32_t)(asid - 1))))
		pid = th->pid;
	map = ptd_machine_find_map_hint(&q->s->machine, pid, vaddr >= (1ULL << 63), vaddr, q->now,
					&q->hint);
	if (!map || !(f = ptd_resolve_file(q->rv, map)) || !f->data)
		return -PTD_E_NOTFOUND;
	off = vaddr - map->start + map->pgoff;
	if (off >= f->size)
		return -PTD_E_NOTFOUND;
	n = f->size - off;
	if (n > map->end - vaddr)
		n = map->end - vaddr;
	if (n > size)
		n = size;
	memcpy(buf, f->data + off, (size_t)n);
	return (int)n;
}

static void synth_init(struct rq *q, struct ptd_synth *sy, int kind, int32_t cpu)
{
	memset(sy, 0, sizeof(*sy));
	sy->kind = kind;
	sy->pid = q->pid;
	sy->tid = q->tid;
	sy->cpu = cpu;
	sy->time = q->time;
	sy->now = q->now;
	sy->period = 1;
	sy->no_tstack = 1;   /* perf's cs-etm keeps no thread stacks */
}

static int deliver(struct rq *q, const struct ptd_synth *sy)
{
	int rc = q->fn(q->ctx, sy);

	if (rc && !q->rc)
		q->rc = rc;
	return rc;
}

/* perf's cs_etm__copy_insn: the instruction at ip, 4 bytes (T32: 2 or 4 as
 * its first halfword says), read from the code (zeros when it cannot be);
 * none for isa PTD_ISA_UNKNOWN (perf's discontinuity packet) */
static void copy_insn(struct rq *q, struct ptd_synth *sy, uint8_t isa)
{
	if (isa == PTD_ISA_UNKNOWN)
		return;
	sy->insn_len = 4;
	if (isa == PTD_ISA_T32 && ptd_image_read(q->im, sy->insn, 2, sy->ip, 0) == 2 &&
	    (sy->insn[1] & 0xf8) < 0xe8)
		sy->insn_len = 2;
	if (ptd_image_read(q->im, sy->insn, sy->insn_len, sy->ip, 0) != sy->insn_len)
		memset(sy->insn, 0, sizeof(sy->insn));
}

static int send_branch(struct rq *q, const struct ptd_rs_branch *b, uint8_t isa)
{
	struct ptd_synth sy;

	synth_init(q, &sy, PTD_SYN_BRANCH, b->cpu);
	sy.ip = b->ip;
	sy.addr = b->addr;
	sy.flags = b->flags;
	copy_insn(q, &sy, isa);
	return deliver(q, &sy);
}

/* rangesynth's branches; isa: that of the range they leave (perf's
 * prev_packet), none for a trace start */
static int on_branch(void *ctx, const struct ptd_rs_branch *b)
{
	struct rq *q = ctx;
	const struct ptd_rs_chan *c = &q->rs.chan[b->chan & 0x7f];
	uint8_t isa = (b->flags & PTD_IPF_TRACE_BEGIN) ? PTD_ISA_UNKNOWN : c->prev.u.range.isa;

	if (q->holding) {
		q->in_flags = b->flags;
		q->in_given = 1;
	}
	if (!q->cfg->branches)
		return 0;
	if (q->holding && q->npending < PENDING) {
		q->pending_isa[q->npending] = isa;
		q->pending[q->npending++] = *b;
		return 0;
	}
	return send_branch(q, b, isa);
}

/* perf's cs_etm__instr_addr: the address of instruction k of range r
 * (T32 instructions are 2 or 4 bytes: read them; 2 when unreadable, as
 * perf).  *ck / *ca: instruction *ck is at *ca, a cursor that only moves
 * forward (k never decreases within a range). */
static uint64_t insn_addr(struct rq *q, const struct ptd_trace_sample *r, uint64_t k,
			  uint64_t *ck, uint64_t *ca)
{
	uint8_t hw[2];

	if (r->u.range.isa != PTD_ISA_T32)
		return r->ip + 4 * k;
	for (; *ck < k; ++*ck) {
		if (ptd_image_read(q->im, hw, 2, *ca, 0) < 2)
			*ca += 2;
		else
			*ca += (hw[1] & 0xf8) >= 0xe8 ? 4 : 2;
	}
	return *ca;
}

/* perf's cs_etm__sample for a range: its instruction samples */
static int insn_samples(struct rq *q, const struct ptd_trace_sample *r, uint32_t flags)
{
	uint64_t *acc = &q->period_insns[r->chan & 0x7f];
	uint64_t period = q->cfg->period, prev = *acc, offset, ck = 0, ca = r->ip;
	struct ptd_synth sy;

	*acc += r->insn_count;
	if (*acc < period)
		return 0;
	offset = period - prev;
	while (*acc >= period) {
		synth_init(q, &sy, PTD_SYN_INSN, r->cpu);
		sy.ip = insn_addr(q, r, offset - 1, &ck, &ca);
		sy.period = period;
		sy.flags = flags;
		copy_insn(q, &sy, r->u.range.isa);
		if (deliver(q, &sy))
			return -1;
		offset += period;
		*acc -= period;
	}
	return 0;
}

static int error_sample(struct rq *q, const struct ptd_trace_sample *t)
{
	struct ptd_synth sy;

	synth_init(q, &sy, PTD_SYN_ERROR, t->cpu);
	sy.err_code = 9;    /* perf's "unknown" */
	sy.err_msg = t->err.msg;
	sy.ip = (t->flags & PTD_SF_IP_SUPPRESSED) ? 0 : t->ip;
	sy.trace_pos = t->offset;
	return deliver(q, &sy);
}

/* One backend sample through perf's rules. */
static int take(struct rq *q, const struct ptd_trace_sample *ts)
{
	struct ptd_trace_sample one;
	const struct ptd_trace_sample *t = ts;
	uint32_t prev_flags;
	unsigned i;
	int rc;

	if (q->cfg->timeless) {
		/* perf's timeless decoding keeps one packet queue for all the
		 * trace IDs of an AUX queue (CS_ETM_PER_THREAD_TRACEID) */
		one = *ts;
		one.chan = 0;
		t = &one;
	}

	if (t->kind == PTD_TS_EVENT && t->event == PTD_EV_CONTEXT) {
		const struct ptd_thread *th = ptd_machine_thread(&q->s->machine, (int32_t)t->u.context.tid);

		q->tid = (int32_t)t->u.context.tid;
		if (th)
			q->pid = th->pid;
		memset(&q->hint, 0, sizeof(q->hint));
		return 0;
	}
	if (t->kind == PTD_TS_EVENT && t->event == PTD_EV_END_OF_TRACE) {
		if (q->nheld < sizeof(q->held) / sizeof(q->held[0]))
			q->held[q->nheld++] = *t;
		return 0;
	}
	if (t->kind == PTD_TS_GAP && q->cfg->errors && error_sample(q, t))
		return -1;
	if (t->kind != PTD_TS_RANGE || !q->cfg->instructions)
		return ptd_rangesynth_add(&q->rs, t) ? -1 : 0;
	/* the flags of perf's prev_packet: those of the branch into the range,
	 * or the previous range's when it was not left by a branch */
	prev_flags = q->rs.chan[t->chan & 0x7f].prev_flags;
	q->holding = 1;
	q->in_given = 0;
	q->npending = 0;
	rc = ptd_rangesynth_add(&q->rs, t);
	q->holding = 0;
	if (rc)
		return -1;
	if (insn_samples(q, t, q->in_given ? q->in_flags : prev_flags))
		return -1;
	for (i = 0; i < q->npending; i++)
		if (send_branch(q, &q->pending[i], q->pending_isa[i]))
			return -1;
	q->npending = 0;
	return 0;
}

static int cpu_wanted(const struct ptd_rangeq_cfg *cfg, int32_t cpu)
{
	if (!cfg->cpu_bitmap || cpu < 0)
		return 1;
	if ((unsigned)cpu >= cfg->cpu_bitmap_bits)
		return 0;
	return (cfg->cpu_bitmap[cpu / 8] >> (cpu % 8)) & 1;
}

static int decode_chunk(struct rq *q, const struct ptd_aux_queue *aq, const struct ptd_aux_chunk *c,
			struct ptd_err *err)
{
	struct ptd_decoder_opt opts[MAX_OPTS];
	struct ptd_decoder_env env;
	struct ptd_auxinfo info;
	struct ptd_auxbuf buf;
	struct ptd_decoder *d = NULL;
	struct ptd_trace_sample t;
	struct ptd_err e2 = { 0 };
	char optbuf[64];
	uint8_t *data;
	unsigned i;
	int rc;

	if (!c->size)
		return 0;
	if (c->size > CHUNK_MAX)
		return ptd_err_set(err, PTD_E_LIMIT, "AUXTRACE at file offset %#" PRIx64 ": %" PRIu64
				   " bytes, more than 1 GiB", c->file_offset, c->size);
	data = malloc((size_t)c->size);
	if (!data)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	rc = ptd_reader_read_payload(q->s->reader, &c->payload, 0, data, (size_t)c->size, &e2);
	if (rc) {
		fprintf(stderr, "ptdecode: warning: AUXTRACE at file offset %#" PRIx64 ": its trace "
			"cannot be read: %s\n", c->file_offset, e2.msg);
		free(data);
		return 0;
	}
	memset(&env, 0, sizeof(env));
	env.image = q->im;
	env.opts = opts;
	env.nopts = q->ops->queue_opts ? q->ops->queue_opts(aq->cpu, c->flags & PTD_AUX_FLAG_PMU_FORMAT_MASK,
							    opts, MAX_OPTS, optbuf, sizeof(optbuf)) : 0;
	info.type = q->s->auxinfo.type;
	info.priv = q->s->auxinfo.priv;
	info.npriv = (size_t)q->s->auxinfo.nr_priv;
	rc = q->ops->create(&d, &info, &env, &e2);
	if (rc) {
		free(data);
		return ptd_err_set(err, -rc, "AUXTRACE_INFO at file offset %#" PRIx64 ": %s",
				   q->s->auxinfo.file_offset, e2.msg);
	}
	memset(&q->hint, 0, sizeof(q->hint));
	/* the previous chunk's ends of trace: perf's reset discontinuity */
	for (i = 0; i < q->nheld && !q->cfg->ranges; i++)
		if (ptd_rangesynth_add(&q->rs, &q->held[i])) {
			rc = q->rc;
			break;
		}
	q->nheld = 0;
	if (rc) {
		q->ops->destroy(d);
		free(data);
		return rc;
	}
	buf.data = data;
	buf.size = (size_t)c->size;
	buf.offset = 0;
	rc = q->ops->feed(d, &buf, &e2);
	while (!rc) {
		int n = q->ops->next(d, &t, &e2);

		if (n <= 0) {
			if (n < 0)
				rc = ptd_err_set(err, -n, "AUXTRACE at file offset %#" PRIx64 ": %s",
						 c->file_offset, e2.msg);
			break;
		}
		if (q->cfg->ranges && ptd_ranges_print(q->cfg->ranges, &t))
			rc = ptd_err_set(err, PTD_E_IO, "writing the output failed");
		else if (!q->cfg->ranges && take(q, &t))
			rc = q->rc;   /* fn's value (take fails only through fn) */
	}
	q->ops->destroy(d);
	free(data);
	return rc;
}

/* Trace the AUX records announce but the file does not hold (perf 6.1
 * prints nothing for it): said once on stderr. */
static void warn_missing(const struct ptd_session *s)
{
	uint64_t n = 0, bytes = 0;
	size_t i;

	for (i = 0; i < s->auxq.gaps.len; i++) {
		const struct ptd_gap *g = ptd_vec_at(&s->auxq.gaps, i);

		if (g->cause == PTD_GAP_NO_PAYLOAD) {
			n++;
			bytes += g->bytes;
		}
	}
	if (n)
		fprintf(stderr, "ptdecode: warning: %" PRIu64 " AUX records announce %" PRIu64 " bytes of "
			"trace that the file does not hold: not decoded (--gaps lists them)\n", n, bytes);
}

/* perf's timeless order: a per-thread queue when its thread exits (perf
 * decodes it at the EXIT record), the others at the end by index */
struct qkey {
	const struct ptd_aux_queue *aq;
	uint64_t exit_time;         /* UINT64_MAX: decoded at the end */
};

static int cmp_key(const void *a, const void *b)
{
	const struct qkey *x = a, *y = b;

	if (x->exit_time != y->exit_time)
		return x->exit_time < y->exit_time ? -1 : 1;
	return x->aq->idx < y->aq->idx ? -1 : x->aq->idx > y->aq->idx;
}

int ptd_rangeq_run(struct ptd_session *s, const struct ptd_decoder_ops *ops,
		   const struct ptd_rangeq_cfg *cfg, struct ptd_resolver *rv, ptd_synth_fn fn,
		   void *ctx, struct ptd_err *err)
{
	struct qkey *order;
	struct rq q;
	size_t i, j, nq = s->auxq.queues.len;
	int rc;

	memset(&q, 0, sizeof(q));
	q.s = s;
	q.ops = ops;
	q.cfg = cfg;
	q.rv = rv;
	q.fn = fn;
	q.ctx = ctx;
	/* perf 6.1 decodes after the last record: code, threads and names as
	 * they are at the end; with timestamps every sample has the time of
	 * the last AUX record (its latest_kernel_timestamp) */
	q.now = UINT64_MAX;
	q.time = cfg->timeless ? 0 : s->auxq.last_aux_time;
	if (!s->auxinfo.present)
		return ptd_err_set(err, PTD_E_UNSUPPORTED, "no AUXTRACE_INFO in this file");
	/* the order perf decodes the queues in */
	order = malloc((nq ? nq : 1) * sizeof(*order));
	if (!order)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	for (i = 0; i < nq; i++) {
		const struct ptd_aux_queue *aq = *(struct ptd_aux_queue **)ptd_vec_at(&s->auxq.queues, i);
		const struct ptd_thread *th = aq->cpu < 0 && aq->tid >= 0 ?
					      ptd_machine_thread(&s->machine, aq->tid) : NULL;

		order[i].aq = aq;
		order[i].exit_time = cfg->timeless && th && th->exit_time ? th->exit_time : UINT64_MAX;
	}
	qsort(order, nq, sizeof(*order), cmp_key);
	rc = ptd_image_new(&q.im, err);
	if (rc) {
		free(order);
		return rc;
	}
	ptd_image_set_reader(q.im, read_code, &q);
	for (i = 0; i < nq && !rc; i++) {
		const struct ptd_aux_queue *aq = order[i].aq;
		const struct ptd_thread *th;

		if (!cpu_wanted(cfg, aq->cpu))
			continue;
		q.tid = aq->tid;
		th = aq->tid >= 0 ? ptd_machine_thread(&s->machine, aq->tid) : NULL;
		q.pid = th ? th->pid : aq->tid == 0 ? 0 : -1;
		memset(q.period_insns, 0, sizeof(q.period_insns));
		q.nheld = 0;   /* the queue's last end of trace: perf never sees it */
		ptd_rangesynth_init(&q.rs, q.im, on_branch, &q);
		for (j = 0; j < aq->chunks.len && !rc; j++)
			rc = decode_chunk(&q, aq, ptd_vec_at(&aq->chunks, j), err);
	}
	ptd_image_free(q.im);
	free(order);
	if (!rc)
		warn_missing(s);
	return rc;
}

/* ---- the events (perf's cs_etm__synth_events) ---------------------------- */

#define SAMPLE_MASK (PTD_SAMPLE_IP | PTD_SAMPLE_TID | PTD_SAMPLE_TIME | PTD_SAMPLE_ADDR | \
		     PTD_SAMPLE_ID | PTD_SAMPLE_STREAM_ID | PTD_SAMPLE_CPU | PTD_SAMPLE_PERIOD | \
		     PTD_SAMPLE_IDENTIFIER)

void ptd_rangeq_events(const struct ptd_evsel *ev, int timeless, int branches, int instructions,
		       uint64_t period, const char *mods, char *br_name, char *insn_name,
		       struct ptd_script_evsel *br, struct ptd_script_evsel *insn)
{
	uint64_t st = (ev->sample_type & SAMPLE_MASK) | PTD_SAMPLE_IP | PTD_SAMPLE_TID | PTD_SAMPLE_PERIOD;

	st = timeless ? st & ~(uint64_t)PTD_SAMPLE_TIME : st | PTD_SAMPLE_TIME;
	if (branches) {
		snprintf(br_name, PTD_RANGEQ_NAME_MAX, "branches%s", mods);
		*br = (struct ptd_script_evsel){ 0, 4, 1, st | PTD_SAMPLE_ADDR, br_name, NULL };
	}
	if (instructions) {
		snprintf(insn_name, PTD_RANGEQ_NAME_MAX, "instructions%s", mods);
		*insn = (struct ptd_script_evsel){ 0, 1, period, st, insn_name, NULL };
	}
}

int ptd_rangeq_timeless(const struct ptd_evsel *ev, int force)
{
	return force || !ev || !((ev->config >> 28) & 1);
}

const struct ptd_evsel *ptd_rangeq_trace_evsel(const struct ptd_session *s, const struct ptd_decoder_ops *ops)
{
	const struct ptd_evlist *el = ptd_reader_evlist(s->reader);
	struct ptd_auxinfo info = { s->auxinfo.type, s->auxinfo.priv, (size_t)s->auxinfo.nr_priv };
	uint32_t pmu;
	size_t i;

	if (!s->auxinfo.present || !s->auxinfo.nr_priv)
		return NULL;
	if (!ops || !ops->pmu_type)
		pmu = (uint32_t)s->auxinfo.priv[0];
	else if (ops->pmu_type(&info, &pmu))
		return NULL;
	for (i = 0; i < el->evsels.len; i++) {
		const struct ptd_evsel *ev = *(struct ptd_evsel **)ptd_vec_at(&el->evsels, i);

		if (ev->type == pmu)
			return ev;
	}
	return NULL;
}
