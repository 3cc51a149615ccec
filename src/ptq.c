/* Intel PT queues replayed as perf script replays them: see ptq.h. */
#include "ptq_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"
#include "decoders/intel-pt/pdec.h"
#include "decoders/intel-pt/overlap.h"
#include "decoders/intel-pt/pinsn.h"
#include "dsofiles.h"
#include "formats/perf/abi.h"
#include "formats/perf/records.h"
#include "tsc.h"
#include "tstack.h"

struct ptd_ptq *ptd_ptq_new(void)
{
	struct ptd_ptq *q = calloc(1, sizeof(*q));

	if (q)
		q->noted.elsize = sizeof(struct noted);
	return q;
}

static void free_queues(struct ptd_ptq *q)
{
	size_t i;

	for (i = 0; i < q->nr_queues; i++) {
		ptd_pdec_free(q->queues[i].dec);
		free(q->queues[i].buf);
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
	ptd_vec_fini(&q->noted);
	ptd_tstacks_fini(&q->stacks);
	free(q->chain);
	free(q->br);
	free(q->tsc_ranges);
	ptd_ptq_conf_fini(&q->conf);
	free(q);
}

int ptd_ptq_note(struct ptd_ptq *q, const struct ptd_event *ev, struct ptd_err *err)
{
	struct noted *n;
	struct ptd_rec_switch sw;
	struct ptd_rec_aux aux;
	struct ptd_rec_itrace_start its;
	struct ptd_rec_fork fk;

	if (ev->type >= PTD_REC_HEADER_ATTR || !(ev->sid.have & PTD_SAMPLE_TIME) ||
	    !ev->sid.time || ev->sid.time == UINT64_MAX)
		return 0;
	n = ptd_vec_push(&q->noted);
	if (!n)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory noting records");
	memset(n, 0, sizeof(*n));
	n->time = ev->sid.time;
	n->type = ev->type;
	n->misc = ev->misc;
	n->cpu = ev->sid.have & PTD_SAMPLE_CPU ? (int32_t)ev->sid.cpu : -1;
	n->pid = ev->sid.have & PTD_SAMPLE_TID ? (int32_t)ev->sid.pid : -1;
	n->tid = ev->sid.have & PTD_SAMPLE_TID ? (int32_t)ev->sid.tid : -1;
	if ((ev->type == PTD_REC_SWITCH || ev->type == PTD_REC_SWITCH_CPU_WIDE) &&
	    !ptd_rec_switch(ev, &sw, NULL)) {
		n->np_pid = sw.next_prev_pid;
		n->np_tid = sw.next_prev_tid;
	} else if (ev->type == PTD_REC_AUX && !ptd_rec_aux(ev, &aux, NULL)) {
		n->aux_flags = aux.flags;
	} else if (ev->type == PTD_REC_ITRACE_START && !ptd_rec_itrace_start(ev, &its, NULL)) {
		n->np_pid = its.pid;
		n->np_tid = its.tid;
	} else if (ev->type == PTD_REC_EXIT && !ptd_rec_fork(ev, &fk, NULL)) {
		n->np_pid = fk.pid;
		n->np_tid = fk.tid;
	}
	return 0;
}

/* ---- threads ------------------------------------------------------------- */

static int32_t current_tid(const struct ptd_ptq *q, int32_t cpu)
{
	void *v = ptd_u64map_get(&q->cur_tid, (uint64_t)(int64_t)cpu + 1);

	return v ? (int32_t)((intptr_t)v - 2) : -1;
}

static void set_current_tid(struct ptd_ptq *q, int32_t cpu, int32_t tid)
{
	if (cpu >= 0)
		ptd_u64map_put(&q->cur_tid, (uint64_t)cpu + 1, (void *)(intptr_t)(tid + 2));
}

static void set_pid_tid_cpu(struct ptd_ptq *q, struct queue *pq)
{
	const struct ptd_thread *t;

	if (pq->aq->tid == -1 || q->conf.have_sched_switch) {
		pq->tid = current_tid(q, pq->cpu);
		if (pq->tid == -1)
			pq->pid = -1;
	}
	t = pq->tid != -1 ? ptd_machine_thread(&q->s->machine, pq->tid) : NULL;
	if (t)
		pq->pid = t->pid;
	else if (pq->tid == 0)
		pq->pid = 0;   /* perf's idle thread, "swapper" */
}

/* ---- the decoder's callbacks --------------------------------------------- */

/* Chunk idx of the queue's trace, read into *nb (*nb_size bytes, the
 * caller's to free); prev: the chunk before it (for snapshots, which
 * overlap: what prev did not hold).  Returns 1 with b filled, 0 when the
 * chunk gives nothing, or a negative errno. */
static int load_chunk(struct queue *pq, size_t idx, const uint8_t *prev, size_t prev_size,
		      uint8_t **nb, size_t *nb_size, struct pdec_buf *b)
{
	const struct ptd_aux_chunk *c = ptd_vec_at(&pq->aq->chunks, idx);
	const uint8_t *start;
	struct ptd_err e;
	int consecutive;

	*nb = NULL;
	*nb_size = c->size;
	if (!c->payload.available || !c->size)
		return 0;
	if (!(*nb = malloc(c->size)))
		return -ENOMEM;
	if (ptd_reader_read_payload(pq->q->s->reader, &c->payload, 0, *nb, c->size, &e))
		goto none;
	start = *nb;
	consecutive = prev != NULL;
	if (pq->q->conf.snapshot && prev) {
		/* snapshots overlap: use what the previous one did not hold */
		start = ptd_pt_find_overlap(prev, prev_size, *nb, c->size, 1, &consecutive);
		if (start == *nb + c->size)
			goto none;
	} else if (pq->q->conf.snapshot) {
		consecutive = 0;
	}
	b->buf = start;
	b->len = c->size - (size_t)(start - *nb);
	b->ref_timestamp = c->reference;
	b->consecutive = consecutive;
	b->trace_nr = idx + 1;
	return 1;
none:
	free(*nb);
	*nb = NULL;
	return 0;
}

static int get_trace(void *ctx, struct pdec_buf *b)
{
	struct queue *pq = ctx;
	uint8_t *nb;
	size_t size;
	int rc;

	while (pq->next_chunk < pq->aq->chunks.len) {
		rc = load_chunk(pq, pq->next_chunk++, pq->buf, pq->buf_size, &nb, &size, b);
		if (rc < 0)
			return rc;
		if (!rc)
			continue;
		free(pq->buf);
		pq->buf = nb;
		pq->buf_size = size;
		return 0;
	}
	b->len = 0;
	return 0;
}

/* perf's intel_pt_pgd_ip: did a branch to ip leave the address filters?
 * User space addresses are matched by file and offset in the thread's
 * maps (no thread or no map: no). */
static int pgd_ip(void *ctx, uint64_t ip)
{
	struct queue *pq = ctx;
	struct ptd_ptq *q = pq->q;
	const struct ptd_map *map;

	if (ip >= KERNEL_START)
		return ptd_addrfilters_left(&q->conf.filters, ip, NULL);
	if (pq->tid == -1)
		return 0;
	map = ptd_machine_find_map_hint(&q->s->machine, pq->pid, 0, ip, q->now, &pq->maps);
	if (!map)
		return 0;
	return ptd_addrfilters_left(&q->conf.filters, ip - map->start + map->pgoff, map->filename);
}

/* perf's intel_pt_lookahead: the chunks after the current one, as
 * get_trace would give them, until cb says stop */
static int lookahead(void *ctx, int (*cb)(const struct pdec_buf *b, void *data), void *data)
{
	struct queue *pq = ctx;
	const uint8_t *prev = pq->buf;
	size_t prev_size = pq->buf_size, i;
	uint8_t *old = NULL, *nb;
	struct pdec_buf b;
	int rc = 0;

	for (i = pq->next_chunk; i < pq->aq->chunks.len; i++) {
		size_t size;

		memset(&b, 0, sizeof(b));
		rc = load_chunk(pq, i, prev, prev_size, &nb, &size, &b);
		if (rc < 0)
			break;
		if (!rc)
			continue;
		free(old);
		old = nb;
		prev = nb;
		prev_size = size;
		if ((rc = cb(&b, data)))
			break;
	}
	free(old);
	return rc < 0 ? rc : 0;
}

/* The file of the map ip is in (*map), or NULL when there is none. */
static inline __attribute__((always_inline)) struct ptd_dsofile *walk_file(struct ptd_ptq *q, struct queue *pq, uint64_t ip,
				     const struct ptd_map **map)
{
	struct ptd_dsofile *f;

	*map = ptd_machine_find_map_hint(&q->s->machine, pq->pid, ip >= KERNEL_START, ip, q->now,
					 &pq->maps);
	if (!*map)
		return NULL;
	/* the machine keeps its file names for its lifetime: the same pointer
	 * is the same name */
	if (q->walk_file && (*map)->filename == q->walk_fname)
		return q->walk_file;
	f = ptd_dsofiles_get(q->cfg->files, *map);
	if (f) {
		q->walk_fname = (*map)->filename;
		q->walk_file = f;
	}
	return f;
}

/* pdec_params.walk_jcc: a run of conditional branches from ip, when the
 * walk would find all its blocks in ip's map */
static void walk_jcc(void *ctx, uint64_t ip, uint64_t bits, unsigned nbits,
		     struct pdec_jcc_run *run)
{
	struct queue *pq = ctx;
	struct ptd_ptq *q = pq->q;
	const struct ptd_jccrun *e;
	const struct ptd_map *map;
	struct ptd_dsofile *f;
	uint64_t off, end;
	unsigned i, n;

	if (pq->tid == -1 && ip < KERNEL_START)
		return;
	if (!(f = walk_file(q, pq, ip, &map)) || !f->data)
		return;
	off = ip - map->start + map->pgoff;
	end = map->end - map->start + map->pgoff;
	e = ptd_jccrun_get(&q->jcc, &q->insns, q->pinsn, f, off, map->pgoff, end,
			   (uint32_t)(bits >> (64 - PDEC_JCC_MAX)));
	if (!e || e->lo < map->pgoff || e->hi >= end)
		return;
	n = e->n < nbits ? e->n : nbits;
	for (i = 0; i < n; i++) {
		run->insn_cnt[i] = e->insn_cnt[i];
		run->ip[i] = ip - off + e->off_after[i];
	}
	run->n = n;
}

/* walk() where its first block is not one walked before: instruction by
 * instruction, through the instruction cache, caching the blocks made. */
static __attribute__((noinline)) int walk_slow(struct queue *pq, struct pdec_insn *insn,
					       uint64_t *insn_cnt_out, uint64_t *ip,
					       uint64_t to_ip, uint64_t max_insn_cnt)
{
	struct ptd_ptq *q = pq->q;
	const struct ptd_map *map;
	struct ptd_dsofile *f;
	struct ptd_insncache_ent *ce;
	struct ptd_insncache_blk *be;
	uint64_t insn_cnt = 0, off, blk_off, blk_ip, blk_cnt;

	insn->length = 0;
	insn->op = PDEC_OP_OTHER;
	if (to_ip && *ip == to_ip)
		goto out;
	if (pq->tid == -1 && *ip < KERNEL_START)
		return -EINVAL;   /* no thread */
	for (;;) {
		if (!(f = walk_file(q, pq, *ip, &map)))
			return -EINVAL;
		if (!f->data) {
			/* perf reports an unreadable dso twice, then quietly resyncs */
			if (f->itrace_failed && f->itrace_seen)
				return -ENOENT;
			if (f->itrace_failed)
				f->itrace_seen = 1;
			f->itrace_failed = 1;
			return -EINVAL;
		}
		off = *ip - map->start + map->pgoff;
		/* a block walked before: used when the walk would not stop
		 * inside it (at to_ip, after max_insn_cnt, at the map's end) */
		be = ptd_insncache_block(&q->insns, f, off);
		if (be && be->file == f && be->off == off &&
		    (!max_insn_cnt || insn_cnt + be->insn_cnt <= max_insn_cnt) &&
		    *ip + be->to_branch < map->end &&
		    !(to_ip && to_ip > *ip && to_ip <= *ip + be->to_branch)) {
			insn_cnt += be->insn_cnt;
			*ip += be->to_branch;
			*insn = be->insn;
			goto out;
		}
		blk_off = off;
		blk_ip = *ip;
		blk_cnt = insn_cnt;
		for (;;) {
			if (off >= f->size)
				return -EINVAL;
			ce = ptd_insncache_slot(&q->insns, f, off);
			if (ce && ce->file == f && ce->off == off) {
				*insn = ce->insn;
			} else {
				if (ptd_pinsn_decode(q->pinsn, f->data + off, f->size - off, *ip,
						     f->is_64_bit, insn))
					return -EINVAL;
				if (ce) {
					ce->file = f;
					ce->off = off;
					ce->insn = *insn;
				}
			}
			insn_cnt++;
			if (insn->branch != PDEC_BR_NO_BRANCH) {
				if (be && insn_cnt - blk_cnt <= UINT32_MAX && *ip - blk_ip <= UINT32_MAX) {
					be->file = f;
					be->off = blk_off;
					be->insn_cnt = (uint32_t)(insn_cnt - blk_cnt);
					be->to_branch = (uint32_t)(*ip - blk_ip);
					be->insn = *insn;
				}
				goto out;
			}
			if (max_insn_cnt && insn_cnt >= max_insn_cnt)
				goto out;
			*ip += insn->length;
			if (to_ip && *ip == to_ip) {
				insn->length = 0;
				insn->op = PDEC_OP_OTHER;
				goto out;
			}
			if (*ip >= map->end)
				break;
			off += insn->length;
		}
	}
out:
	*insn_cnt_out = insn_cnt;
	return 0;
}

/* pdec_params.walk: the commonest case, a block walked before from *ip,
 * inline; the rest in walk_slow(). */
static int walk(void *ctx, struct pdec_insn *insn, uint64_t *insn_cnt_out, uint64_t *ip,
		uint64_t to_ip, uint64_t max_insn_cnt)
{
	struct queue *pq = ctx;
	struct ptd_ptq *q = pq->q;
	const struct ptd_map *map;
	const struct ptd_insncache_blk *be;
	struct ptd_dsofile *f;
	uint64_t off;

	if ((to_ip && *ip == to_ip) || (pq->tid == -1 && *ip < KERNEL_START) ||
	    !(f = walk_file(q, pq, *ip, &map)) || !f->data)
		return walk_slow(pq, insn, insn_cnt_out, ip, to_ip, max_insn_cnt);
	off = *ip - map->start + map->pgoff;
	be = ptd_insncache_block(&q->insns, f, off);
	if (!be || be->file != f || be->off != off ||
	    (max_insn_cnt && be->insn_cnt > max_insn_cnt) || *ip + be->to_branch >= map->end ||
	    (to_ip && to_ip > *ip && to_ip <= *ip + be->to_branch))
		return walk_slow(pq, insn, insn_cnt_out, ip, to_ip, max_insn_cnt);
	*insn_cnt_out = be->insn_cnt;
	*ip += be->to_branch;
	*insn = be->insn;
	return 0;
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
	if (!q->skip_branches || pq->sel_timestamp)
		return 0;
	if (q->conf.timeless)
		return UINT64_MAX;
	return pq->timestamp < ts ? ts : 0;
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
		st = ptd_pdec_decode_to(pq->dec, skip_bound(q, pq, *ts), KERNEL_START);
		if (st->skipped_timestamp > pq->timestamp)
			pq->timestamp = st->skipped_timestamp;
		if (st->err) {
			if (st->err == PDEC_ERR_NODATA)
				return 1;
			pq->timestamp = st->est_timestamp;
			if (q->cfg->errors &&
			    ptd_ptq_synth_error(q, st->err, pq->cpu, pq->pid, pq->tid, st->from_ip,
						ptd_ptq_time(q, pq->timestamp), st->pos))
				return -1;
			continue;
		}
		pq->state = st;
		pq->have_sample = 1;
		ptd_ptq_sample_flags(pq);
		if (!q->conf.timeless && ptd_pdec_to_user(st->from_ip, st->to_ip, KERNEL_START))
			pq->timestamp = st->est_timestamp;   /* estimated upon return to user space */
		else if (st->timestamp > pq->timestamp)
			pq->timestamp = st->timestamp;
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
	q->queues = calloc(q->nr_queues, sizeof(*q->queues));
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
		pq->cbr_seen = UINT32_MAX;
		if (q->tsc_ranges) {   /* perf's intel_pt_setup_time_range */
			pq->sel_start = !!q->tsc_ranges[0].start;
			pq->sel_timestamp = pq->sel_start ? q->tsc_ranges[0].start : q->tsc_ranges[0].end;
		}
		p.walk = walk;
		p.get_trace = get_trace;
		p.lookahead = lookahead;
		p.walk_jcc = walk_jcc;
		if (q->conf.filters.n)
			p.pgd_ip = pgd_ip;
		p.ctx = pq;
		pq->dec = ptd_pdec_new(&p);
		if (!pq->dec)
			return ptd_err_set(err, PTD_E_NOMEM, "setting up the Intel PT queues: out of memory");
	}
	for (i = 0; i < q->nr_queues && !q->conf.timeless; i++) {
		struct queue *pq = &q->queues[i];
		const struct ptd_pstate *st;

		if (!pq->dec)
			continue;
		if (pq->sel_start && pq->sel_timestamp &&
		    ptd_pdec_fast_forward(pq->dec, pq->sel_timestamp))
			return ptd_err_set(err, PTD_E_NOMEM, "fast-forwarding to the --time range: out of memory");
		for (;;) {
			st = ptd_pdec_decode(pq->dec);
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

static int apply(struct ptd_ptq *q, const struct noted *n)
{
	int out = !!(n->misc & PTD_MISC_SWITCH_OUT);

	if (n->type == PTD_REC_AUX && (n->aux_flags & PTD_AUX_FLAG_TRUNCATED) && q->cfg->errors)
		return ptd_ptq_synth_error(q, PDEC_ERR_LOST, n->cpu, n->pid, n->tid, 0, n->time, 0);
	if (n->type == PTD_REC_ITRACE_START) {
		if (q->conf.per_cpu_mmaps)
			set_current_tid(q, n->cpu, (int32_t)n->np_tid);
	} else if (n->type == PTD_REC_SWITCH || n->type == PTD_REC_SWITCH_CPU_WIDE) {
		if (q->conf.have_sched_switch == 3) {
			if (!out)
				return 0;   /* perf sets the thread at switch-out (next) */
			if (n->type != PTD_REC_SWITCH_CPU_WIDE)
				return 0;
			set_current_tid(q, n->cpu, (int32_t)n->np_tid);
		} else if (!out) {
			set_current_tid(q, n->cpu, n->tid);
		}
	}
	return 0;
}

int ptd_ptq_run(struct ptd_ptq *q, struct ptd_session *s, const struct ptd_ptq_cfg *cfg,
		ptd_synth_fn fn, void *ctx, struct ptd_err *err)
{
	struct pdec_params pp;
	int rc, first = 1;
	size_t i;

	q->s = s;
	q->cfg = cfg;
	q->fn = fn;
	q->ctx = ctx;
	q->skip = cfg->initial_skip;
	if ((rc = ptd_ptq_conf(&q->conf, s, cfg, &pp, err)))
		return rc;
	q->pinsn = ptd_pinsn_new();
	ptd_insncache_init(&q->insns, 15);   /* 32 Ki instructions and blocks, 2.8 MB at most */
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
	if (cfg->nranges && !q->conf.timeless) {
		q->tsc_ranges = calloc(cfg->nranges, sizeof(*q->tsc_ranges));
		if (!q->tsc_ranges)
			return ptd_err_set(err, PTD_E_NOMEM, "out of memory starting the Intel PT decoder");
		if ((rc = ptd_timerange_to_tsc(cfg->ranges, cfg->nranges, &q->conf.tc, q->tsc_ranges, err)))
			return rc;
	}
	if (!q->pinsn || (cfg->callchain && cfg->callchain_sz && !q->chain) || (q->stacks.br_sz && !q->br))
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory starting the Intel PT decoder");
	for (i = 0; i < q->noted.len; i++) {
		const struct noted *n = ptd_vec_at(&q->noted, i);
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
	if (q->stop)
		return q->stop;
	if (rc < 0)
		return ptd_err_set(err, PTD_E_NOMEM, "decoding Intel PT: out of memory");
	return 0;
}
