/* Range backends' queues replayed as perf's cs-etm.c does: see rangeq.h. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "auxheap.h"
#include "formats/out/ranges.h"
#include "formats/perf/abi.h"
#include "rangeq_priv.h"

#define MAX_OPTS 8
#define CHUNK_MAX (1ull << 30)
#define PKT_MAX 1023                /* perf's CS_ETM_PACKET_MAX_BUFFER - 1 */

/* The image's reader: code of the traced thread's process, from the file
 * behind its map at q->now. */
static int read_code(void *ctx, uint8_t *buf, size_t size, uint64_t vaddr, uint64_t asid)
{
	struct rq *q = ctx;
	const struct ptd_map *map;
	const struct ptd_thread *th;
	struct ptd_dsofile *f;
	/* the thread being synthesized, or while decoding the queue's */
	int32_t pid = q->cur_chan ? q->cur_chan->pid : q->cur ? q->cur->pid : -1;
	uint64_t off, n;

	/* the backend's asid: the thread the trace named (+ 1), whose
	 * context element it has not handed over yet */
	if (asid && asid - 1 <= INT32_MAX && (th = ptd_machine_thread(&q->s->machine, (int32_t)(asid - 1))))
		pid = th->pid;
	map = ptd_machine_find_map_hint(&q->s->machine, pid, vaddr >= (1ULL << 63), vaddr, q->now,
					&q->hint);
	if (!map || !(f = ptd_resolve_file(q->rv, map)) || !f->data)
		return -PTD_E_NOTFOUND;
	off = ptd_map_file_off(map, vaddr);
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

static int cpu_wanted(const struct ptd_rangeq_cfg *cfg, int32_t cpu)
{
	if (!cfg->cpu_bitmap || cpu < 0)
		return 1;
	if ((unsigned)cpu >= cfg->cpu_bitmap_bits)
		return 0;
	return (cfg->cpu_bitmap[cpu / 8] >> (cpu % 8)) & 1;
}

/* ---- chunks: perf's cs_etm__get_data_block -------------------------------- */

static int on_decoded(void *ctx, const struct ptd_trace_sample *s);

static void close_chunk(struct rq *q, struct rq_queue *qq)
{
	if (qq->d)
		q->ops->destroy(qq->d);
	free(qq->data);
	qq->d = NULL;
	qq->data = NULL;
}

/* Open chunk c of qq: a decoder fed with its trace.  Returns 1, 0 when it
 * has nothing to decode (empty or unreadable: warned), or an error. */
static int open_chunk(struct rq *q, struct rq_queue *qq, const struct ptd_aux_chunk *c,
		      struct ptd_err *err)
{
	struct ptd_decoder_opt opts[MAX_OPTS];
	struct ptd_decoder_env env;
	struct ptd_auxinfo info;
	struct ptd_auxbuf buf;
	struct ptd_err e2 = { 0 };
	char optbuf[64];
	int rc;

	if (!c->size)
		return 0;
	if (c->size > CHUNK_MAX)
		return ptd_err_set(err, PTD_E_LIMIT, "AUXTRACE at file offset %#" PRIx64 ": %" PRIu64
				   " bytes, more than 1 GiB", c->file_offset, c->size);
	qq->data = malloc((size_t)c->size);
	if (!qq->data)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	rc = ptd_reader_read_payload(q->s->reader, &c->payload, 0, qq->data, (size_t)c->size, &e2);
	if (rc) {
		fprintf(stderr, "ptdecode: warning: AUXTRACE at file offset %#" PRIx64 ": its trace "
			"cannot be read: %s\n", c->file_offset, e2.msg);
		close_chunk(q, qq);
		return 0;
	}
	memset(&env, 0, sizeof(env));
	env.image = q->im;
	env.opts = opts;
	if (!q->cfg->ranges) {
		env.wait = on_decoded;
		env.wait_ctx = q;
	}
	env.nopts = q->ops->queue_opts ?
		    q->ops->queue_opts(qq->aq->cpu, c->flags & PTD_AUX_FLAG_PMU_FORMAT_MASK, opts, MAX_OPTS - 1,
				       optbuf, sizeof(optbuf)) : 0;
	if (q->trace_ids) {
		opts[env.nopts].key = "trace-ids";
		opts[env.nopts++].value = q->trace_ids;
	}
	info.type = q->s->auxinfo.type;
	info.priv = q->s->auxinfo.priv;
	info.npriv = (size_t)q->s->auxinfo.nr_priv;
	rc = q->ops->create(&qq->d, &info, &env, &e2);
	if (rc) {
		qq->d = NULL;
		close_chunk(q, qq);
		return ptd_err_set(err, -rc, "AUXTRACE_INFO at file offset %#" PRIx64 ": %s",
				   q->s->auxinfo.file_offset, e2.msg);
	}
	memset(&q->hint, 0, sizeof(q->hint));
	buf.data = qq->data;
	buf.size = (size_t)c->size;
	buf.offset = 0;
	rc = q->ops->feed(qq->d, &buf, &e2);
	if (rc) {
		close_chunk(q, qq);
		return ptd_err_set(err, -rc, "AUXTRACE at file offset %#" PRIx64 ": %s", c->file_offset,
				   e2.msg);
	}
	qq->done = 0;
	/* the previous chunk's ends of trace come first: perf's reset */
	memcpy(qq->inj, qq->held, qq->nheld * sizeof(qq->held[0]));
	qq->ninj = qq->nheld;
	qq->injected = 0;
	qq->nheld = 0;
	return 1;
}

/* perf's cs_etm__get_data_block: 1 while qq has trace left (opening its
 * next chunk when the current one is done), 0 when it has none, or an
 * error. */
static int get_block(struct rq *q, struct rq_queue *qq, struct ptd_err *err)
{
	int rc;

	while (!qq->d || qq->done) {
		close_chunk(q, qq);
		if (qq->next_chunk >= qq->aq->chunks.len)
			return 0;
		rc = open_chunk(q, qq, ptd_vec_at(&qq->aq->chunks, qq->next_chunk++), err);
		if (rc < 0)
			return rc;
	}
	return 1;
}

/* The next sample of qq's chunk: 1, or 2 for a held end of trace coming
 * first in a new chunk; 0 at its end (qq->done), or an error */
static int pull(struct rq *q, struct rq_queue *qq, struct ptd_trace_sample *t, struct ptd_err *err)
{
	struct ptd_err e2 = { 0 };
	int n;

	if (qq->injected < qq->ninj) {
		*t = qq->inj[qq->injected++];
		return 2;
	}
	n = q->ops->next(qq->d, t, &e2);
	if (n < 0) {
		const struct ptd_aux_chunk *c = ptd_vec_at(&qq->aq->chunks, qq->next_chunk - 1);

		return ptd_err_set(err, -n, "AUXTRACE at file offset %#" PRIx64 ": %s", c->file_offset,
				   e2.msg);
	}
	if (!n)
		qq->done = 1;
	return n;
}

/* ---- packets: perf's cs-etm-decoder.c ------------------------------------- */

static struct rq_chan *chan_of(struct rq_queue *qq, unsigned c)
{
	if (!qq->chan[c]) {
		qq->chan[c] = calloc(1, sizeof(*qq->chan[c]));
		if (qq->chan[c]) {
			qq->chan[c]->pid = qq->pid;
			qq->chan[c]->tid = qq->tid;
		}
	}
	return qq->chan[c];
}

static void reset_ts(struct rq_chan *ch)
{
	ch->cs_ts = ch->next_ts = ch->instr = 0;
}

/* perf's cs_etm_decoder__buffer_packet: 1 when the queue is now full (its
 * WAIT), -1 when out of memory */
static int buffer(struct rq_chan *ch, const struct ptd_trace_sample *t)
{
	if (ch->n == ch->cap) {
		unsigned cap = ch->cap ? 2 * ch->cap : 64;
		struct ptd_trace_sample *p = realloc(ch->pkt, cap * sizeof(*p));

		if (!p)
			return -1;
		ch->pkt = p;
		ch->cap = cap;
	}
	ch->pkt[ch->n++] = *t;
	return ch->n >= PKT_MAX;
}

/* One decoded element as perf's decoder callback takes it: 1 where it
 * answers OpenCSD with WAIT (a timestamp to act on, a full packet queue),
 * 0 to go on, -1 when out of memory.  A context element changes the
 * thread at once, for the packets not synthesized yet too, as in perf. */
static int element(struct rq *q, struct rq_queue *qq, const struct ptd_trace_sample *ts, int reset)
{
	struct ptd_trace_sample one = *ts;
	struct rq_chan *ch;
	int full;

	/* perf's timeless decoding keeps one packet queue for all the trace
	 * IDs of an AUX queue (CS_ETM_PER_THREAD_TRACEID) */
	if (q->cfg->timeless)
		one.chan = 0;
	ch = chan_of(qq, one.chan & 0x7f);
	if (!ch)
		return -1;
	if (one.kind == PTD_TS_EVENT && one.event == PTD_EV_CONTEXT) {
		const struct ptd_thread *th = ptd_machine_thread(&q->s->machine, (int32_t)one.u.context.tid);

		ch->tid = (int32_t)one.u.context.tid;
		if (th)
			ch->pid = th->pid;
		memset(&q->hint, 0, sizeof(q->hint));
		reset_ts(ch);
		return 0;
	}
	if (one.kind == PTD_TS_EVENT && one.event == PTD_EV_END_OF_TRACE && !reset) {
		if (qq->nheld < RQ_CHANS)
			qq->held[qq->nheld++] = *ts;
		return 0;
	}
	if (one.kind == PTD_TS_EVENT && one.event == PTD_EV_TICK) {
		/* perf's do_hard_timestamp: the first since a reset sets the
		 * time the queued ranges started at and stops */
		uint64_t v = one.tsc;

		if (ch->cs_ts) {
			ch->next_ts = v;
			return 0;
		}
		ch->cs_ts = !v || ch->instr > v ? 0 : v - ch->instr;
		ch->next_ts = v;
		ch->instr = 0;
		qq->ts_chan = (one.chan & 0x7f) + 1;
		return 1;
	}
	if ((one.kind == PTD_TS_EVENT && (one.event == PTD_EV_ENABLED || one.event == PTD_EV_OVERFLOW ||
					   one.event == PTD_EV_END_OF_TRACE)) || one.kind == PTD_TS_GAP) {
		reset_ts(ch);   /* a discontinuity */
		return buffer(ch, &one);
	}
	if (one.kind == PTD_TS_EVENT && (one.event == PTD_EV_EXCEPTION || one.event == PTD_EV_EXCEPTION_RET))
		return buffer(ch, &one);
	if (one.kind != PTD_TS_RANGE)
		return 0;   /* perf has no use for the others */
	full = buffer(ch, &one);
	if (full || q->cfg->timeless)
		return full;
	/* perf's do_soft_timestamp: once a timestamp is known, each range
	 * moves it on by its instructions and stops */
	ch->instr += one.insn_count;
	if (!ch->cs_ts)
		return 0;
	ch->cs_ts = ch->next_ts;
	ch->next_ts += ch->instr;
	ch->instr = 0;
	qq->ts_chan = (one.chan & 0x7f) + 1;
	return 1;
}

/* the backend's wait (decoder.h): perf's decoder callback for q->cur */
static int on_decoded(void *ctx, const struct ptd_trace_sample *s)
{
	struct rq *q = ctx;
	int rc = element(q, q->cur, s, 0);

	if (rc < 0)
		q->oom = 1;
	return rc > 0;
}

/* perf's cs_etm__decode_data_block: decode until the decoder would wait
 * or the chunk ends.  Returns 0 or an error. */
static int decode_block(struct rq *q, struct rq_queue *qq, struct ptd_err *err)
{
	struct ptd_trace_sample t;
	int rc, w = 0;

	q->cur = qq;
	q->cur_chan = NULL;
	while (!w && (rc = pull(q, qq, &t, err)) > 0) {
		if (rc == 2)   /* a held end of trace: not through the backend */
			w = element(q, qq, &t, 1);
		else
			w = (t.flags & PTD_SF_WAITED) != 0;
		if (w < 0 || q->oom)
			return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	}
	return w ? 0 : rc;
}

/* perf's cs_etm__etmq_get_timestamp: the timestamp a wait was for (0 if
 * none) and its trace ID */
static uint64_t take_ts(struct rq_queue *qq, unsigned *chan)
{
	unsigned c = (unsigned)qq->ts_chan;

	if (!c)
		return 0;
	qq->ts_chan = 0;
	*chan = c - 1;
	return qq->chan[c - 1]->cs_ts;
}

/* perf's cs_etm__process_traceid_queue: synthesize the queued packets */
static int process_chan(struct rq *q, struct rq_queue *qq, unsigned c)
{
	struct rq_chan *ch = qq->chan[c];
	unsigned i;

	q->cur = qq;
	q->cur_chan = ch;
	if (!ch)
		return 0;
	for (i = 0; i < ch->n; i++)
		if (ptd_rq_synth(q, &ch->pkt[i])) {
			ch->n = 0;
			return q->rc;
		}
	ch->n = 0;
	return 0;
}

/* perf's cs_etm__clear_all_traceid_queues (and, with discard, its
 * cs_etm__clear_all_packet_queues): every trace ID, in order */
static int process_all(struct rq *q, struct rq_queue *qq, int discard)
{
	unsigned c;
	int rc;

	for (c = 0; c < RQ_CHANS; c++) {
		if (!qq->chan[c])
			continue;
		if (discard)
			qq->chan[c]->n = 0;
		else if ((rc = process_chan(q, qq, c)))
			return rc;
	}
	return 0;
}

/* ---- the queues in perf's order ----------------------------------------- */

static void queue_init(struct rq *q, struct rq_queue *qq, const struct ptd_aux_queue *aq)
{
	const struct ptd_thread *th = aq->tid >= 0 ? ptd_machine_thread(&q->s->machine, aq->tid) : NULL;

	memset(qq, 0, sizeof(*qq));
	qq->aq = aq;
	qq->tid = aq->tid;
	qq->pid = th ? th->pid : aq->tid == 0 ? 0 : -1;
	ptd_rangesynth_init(&qq->rs, q->im, ptd_rq_on_branch, q);
}

static void queue_fini(struct rq *q, struct rq_queue *qq)
{
	unsigned c;

	close_chunk(q, qq);
	for (c = 0; c < RQ_CHANS; c++) {
		if (qq->chan[c])
			free(qq->chan[c]->pkt);
		free(qq->chan[c]);
	}
}

/* --format=ranges: every element as the backend gives it */
static int print_queue(struct rq *q, struct rq_queue *qq, struct ptd_err *err)
{
	struct ptd_trace_sample t;
	int rc;

	while ((rc = get_block(q, qq, err)) > 0) {
		q->cur = qq;
		q->cur_chan = NULL;
		while ((rc = pull(q, qq, &t, err)) > 0)
			if (ptd_ranges_print(q->cfg->ranges, &t))
				return ptd_err_set(err, PTD_E_IO, "writing the output failed");
		if (rc < 0)
			return rc;
	}
	return rc;
}

/* perf's timeless decoding of one queue (cs_etm__run_decoder) */
static int run_timeless(struct rq *q, struct rq_queue *qq, struct ptd_err *err)
{
	int rc;

	while ((rc = get_block(q, qq, err)) > 0) {
		rc = decode_block(q, qq, err);
		if (!rc)
			rc = process_chan(q, qq, 0);
		if (rc)
			return rc;
	}
	return rc;
}

/* perf's cs_etm__queue_first_cs_timestamp: decode qq up to its first
 * timestamp, dropping the packets before it, and put it on the heap */
static int first_ts(struct rq *q, struct rq_queue *qq, uint32_t nr, struct ptd_auxheap *h,
		    struct ptd_err *err)
{
	unsigned c = 0;
	uint64_t ts;
	int rc;

	while ((rc = get_block(q, qq, err)) > 0) {
		rc = decode_block(q, qq, err);
		if (rc)
			return rc;
		ts = take_ts(qq, &c);
		if (ts)
			return ptd_auxheap_add(h, nr << 8 | c, ts) ? ptd_err_set(err, PTD_E_NOMEM, "out of memory") : 0;
		process_all(q, qq, 1);
	}
	return rc;
}

/* perf's cs_etm__process_queues: the queues interleaved by the CoreSight
 * timestamps of their trace IDs */
static int run_timestamped(struct rq *q, struct rq_queue *qs, size_t n, struct ptd_err *err)
{
	struct ptd_auxheap h = { 0 };
	size_t i;
	int rc = 0;

	for (i = 0; i < n && !rc; i++)
		rc = first_ts(q, &qs[i], (uint32_t)i, &h, err);
	while (!rc && h.cnt) {
		struct rq_queue *qq = &qs[h.a[0].nr >> 8];
		unsigned c = h.a[0].nr & 0xff;
		uint64_t ts;

		ptd_auxheap_pop(&h);
		rc = process_chan(q, qq, c);
		while (!rc && (rc = get_block(q, qq, err)) > 0) {
			rc = decode_block(q, qq, err);
			if (rc)
				break;
			ts = take_ts(qq, &c);
			if (ts) {
				if (ptd_auxheap_add(&h, (uint32_t)(qq - qs) << 8 | c, ts))
					rc = ptd_err_set(err, PTD_E_NOMEM, "out of memory");
				break;
			}
			rc = process_all(q, qq, 0);
		}
	}
	ptd_auxheap_fini(&h);
	return rc;
}

/* perf's reading of the AUX_OUTPUT_HW_ID records (cs_etm__process_aux_output_hw_id):
 * each gives the trace ID of its sample's CPU; q->trace_ids becomes the
 * backend's "trace-ids" setting, NULL when there are none. */
static int trace_ids(struct rq *q, struct ptd_err *err)
{
	const struct ptd_vec *v = &q->s->hw_ids;
	uint8_t id_of_cpu[256];
	uint16_t cpu_of_id[128];        /* CPU + 1; 0: none */
	size_t i, len = 0;
	int c;

	if (!v->len)
		return 0;
	memset(id_of_cpu, 0, sizeof(id_of_cpu));
	memset(cpu_of_id, 0, sizeof(cpu_of_id));
	for (i = 0; i < v->len; i++) {
		const struct ptd_hw_id *h = ptd_vec_at(v, i);
		unsigned id = (unsigned)(h->hw_id & 0xff), version = (unsigned)(h->hw_id >> 60);

		if (version)
			return ptd_err_set(err, PTD_E_UNSUPPORTED, "AUX_OUTPUT_HW_ID at file offset %#" PRIx64
					   ": version %u (0 is known)", h->file_offset, version);
		if (h->cpu < 0 || h->cpu > 255)
			return ptd_err_set(err, PTD_E_FORMAT, "AUX_OUTPUT_HW_ID at file offset %#" PRIx64
					   ": %s", h->file_offset, h->cpu < 0 ? "no CPU in its sample ID" :
					   "a CPU above 255");
		if (id < 1 || id > 0x6f)
			return ptd_err_set(err, PTD_E_FORMAT, "AUX_OUTPUT_HW_ID at file offset %#" PRIx64
					   ": trace ID %#x (0x01 to 0x6f are valid)", h->file_offset, id);
		if ((cpu_of_id[id] && cpu_of_id[id] != h->cpu + 1) ||
		    (id_of_cpu[h->cpu] && id_of_cpu[h->cpu] != id))
			return ptd_err_set(err, PTD_E_FORMAT, "AUX_OUTPUT_HW_ID at file offset %#" PRIx64
					   ": trace ID %#x of CPU %d conflicts with an earlier record",
					   h->file_offset, id, h->cpu);
		cpu_of_id[id] = (uint16_t)(h->cpu + 1);
		id_of_cpu[h->cpu] = (uint8_t)id;
	}
	q->trace_ids = malloc(256 * 10 + 1);
	if (!q->trace_ids)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	for (c = 0; c < 256; c++)
		if (id_of_cpu[c])
			len += (size_t)sprintf(q->trace_ids + len, "%s%d:%#x", len ? "," : "", c, id_of_cpu[c]);
	return 0;
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
	struct rq_queue *qs;
	struct rq q;
	size_t i, n = 0, nq = s->auxq.queues.len;
	int rc = 0;

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
	qs = calloc(nq ? nq : 1, sizeof(*qs));
	if (!order || !qs) {
		free(order);
		free(qs);
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	}
	for (i = 0; i < nq; i++) {
		const struct ptd_aux_queue *aq = *(struct ptd_aux_queue **)ptd_vec_at(&s->auxq.queues, i);
		const struct ptd_thread *th = aq->cpu < 0 && aq->tid >= 0 ?
					      ptd_machine_thread(&s->machine, aq->tid) : NULL;

		order[i].aq = aq;
		order[i].exit_time = cfg->timeless && th && th->exit_time ? th->exit_time : UINT64_MAX;
	}
	qsort(order, nq, sizeof(*order), cmp_key);
	rc = trace_ids(&q, err);
	if (!rc)
		rc = ptd_image_new(&q.im, err);
	if (!rc)
		ptd_image_set_reader(q.im, read_code, &q);
	for (i = 0; i < nq && !rc; i++)
		if (cpu_wanted(cfg, order[i].aq->cpu))
			queue_init(&q, &qs[n++], order[i].aq);
	if (rc)
		;
	else if (cfg->ranges)
		for (i = 0; i < n && !rc; i++)
			rc = print_queue(&q, &qs[i], err);
	else if (cfg->timeless)
		for (i = 0; i < n && !rc; i++)
			rc = run_timeless(&q, &qs[i], err);
	else
		rc = run_timestamped(&q, qs, n, err);
	for (i = 0; i < n; i++)
		queue_fini(&q, &qs[i]);
	ptd_image_free(q.im);
	free(q.trace_ids);
	free(qs);
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
