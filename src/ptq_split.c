/* Decoding one queue on two threads: see ptq_split.h. */
#include "ptq_split.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the second part's first states compared with the first part's */
#define SPLIT_SNAPS 64

/* The second part's state after one of its states: the decoder's, and
 * that of its thread's replay of the records (struct ptd_ahead_q). */
struct snap {
	uint64_t idx;                /* the states the second part made, this one included */
	struct ptd_pdec *dec;        /* its decoder (the position, the loose reads) */
	int phase, set_up, have;
	size_t cur_off;
	uint64_t now, bound, timestamp;
	int32_t cur_tid, pid, tid;
};

enum { UNDECIDED, TAKEN, DROPPED };

struct ptd_split {
	struct ptd_ptq *q;
	struct queue *pq;            /* the second part's queue (aligned to 64) */
	struct ptd_ahead_q *first, *second;
	size_t chunk;                /* where the second part starts: a chunk, */
	uint64_t start;              /* its stream position */
	pthread_mutex_t mu;
	pthread_cond_t more;         /* a snapshot was added, or the second part ended */
	struct snap snaps[SPLIT_SNAPS];   /* under mu */
	unsigned n;
	int second_ended;            /* it makes no more snapshots */
	int cancel;                  /* the second part is not needed */
	/* the first part's thread */
	unsigned ci;                 /* the first snapshot at or after its position */
	int outcome;                 /* UNDECIDED, TAKEN, DROPPED: the first part's
	                                thread decides (under mu), the replay reads it
	                                once the first part's states ended */
	uint64_t taken_idx, taken_pos, insn_delta, cyc_delta;
	unsigned loose;              /* taken with references that differ
	                                (PDEC_LOOSE_*): valid while the second
	                                part's decoder does not read them */
	uint64_t taken_cyc_reads, taken_est_reads;   /* its reads of them then */
	/* the second part's thread */
	uint64_t made;
	struct {                     /* ptd_pdec_loose_reads() after the state in
	                                each slot of its ring (SPLIT_CHUNKS * CHUNK;
	                                not zeroed: written before the state is
	                                handed over, and its pages touched as used) */
		uint64_t cyc, est;
	} *reads;
	/* the replay */
	uint64_t serial_at;          /* PTDECODE_DEBUG_SPLIT_SERIAL=N: go serial at
	                                the second part's Nth state taken (0 no) */
	int reading_second, serial;
	uint64_t taken;              /* the second part's states it took */
	struct ptd_pstate st;        /* the first part's states, decoded serially */
};

/* The chunk at which the second part starts: the one whose start is
 * nearest to half of the trace's bytes, but not the first chunk with any
 * (0: none); the first at or after half would leave the first part up
 * to a chunk more (W1: 73% of its trace).  Its
 * stream position (the bytes before it, as get_trace gives them) and the
 * trace number the first part's decoder takes (its first chunk's). */
static size_t split_point(const struct queue *pq, uint64_t min_bytes, uint64_t *pos,
			  uint64_t *trace_nr)
{
	const struct ptd_vec *v = &pq->aq->chunks;
	uint64_t total = 0, acc = 0, prev_acc = 0;
	size_t i, first = v->len, prev = 0;

	for (i = 0; i < v->len; i++) {
		const struct ptd_aux_chunk *c = ptd_vec_at(v, i);

		if (c->payload.available && c->size) {
			total += c->size;
			if (first == v->len)
				first = i;
		}
	}
	if (total < min_bytes || total < 2)
		return 0;
	for (i = 0; i < v->len; i++) {
		const struct ptd_aux_chunk *c = ptd_vec_at(v, i);

		if (!c->payload.available || !c->size)
			continue;
		if (i > first && acc >= total / 2) {
			/* the start before, when nearer */
			if (prev && total / 2 - prev_acc < acc - total / 2) {
				i = prev;
				acc = prev_acc;
			}
			*pos = acc;
			*trace_nr = first + 1;
			return i;
		}
		if (i > first) {
			prev = i;
			prev_acc = acc;
		}
		acc += c->size;
	}
	return 0;
}

struct ptd_split *ptd_split_new(struct ptd_ptq *q, struct queue *pq, int explicit)
{
	struct ptd_split *sp;
	uint64_t pos = 0, trace_nr = 0;
	size_t k;

	/* an instruction period counts from the last sample, which the
	 * second part cannot know; and where every instruction is a state
	 * (i0ns), the second part's first states do not get past its first
	 * PSB either */
	if (q->conf.snapshot || !q->skip_branches || ptd_ahead_every_insn(q) ||
	    (q->cfg->instructions && q->cfg->period_type == 1))
		return NULL;
	k = split_point(pq, explicit ? 0 : PTD_SPLIT_AUTO_BYTES, &pos, &trace_nr);
	if (!k || !(sp = calloc(1, sizeof(*sp))))
		return NULL;
	sp->reads = malloc(SPLIT_CHUNKS * CHUNK * sizeof(*sp->reads));
	sp->q = q;
	sp->chunk = k;
	sp->start = pos;
	sp->pq = aligned_alloc(64, sizeof(*sp->pq));
	if (!sp->pq || !sp->reads) {
		free(sp->pq);
		free(sp->reads);
		free(sp);
		return NULL;
	}
	memcpy(sp->pq, pq, sizeof(*sp->pq));
	sp->pq->next_chunk = k;
	sp->pq->buf = sp->pq->spare = NULL;
	sp->pq->buf_size = sp->pq->buf_cap = sp->pq->spare_cap = 0;
	sp->pq->state = NULL;
	sp->pq->ahead = NULL;
	memset(&sp->pq->w, 0, sizeof(sp->pq->w));
	sp->pq->w.q = q;
	sp->pq->w.pq = sp->pq;
	sp->pq->w.pid = pq->w.pid;
	sp->pq->w.tid = pq->w.tid;
	sp->pq->dec = ptd_pdec_new_like(pq->dec, &sp->pq->w);
	if (!sp->pq->dec) {
		free(sp->pq);
		free(sp->reads);
		free(sp);
		return NULL;
	}
	ptd_pdec_continue_at(sp->pq->dec, pos, trace_nr);
	ptd_pdec_skip_psb(sp->pq->dec);   /* as the queue's (q->skip_branches) */
	pthread_mutex_init(&sp->mu, NULL);
	pthread_cond_init(&sp->more, NULL);
	if (getenv("PTDECODE_DEBUG_SPLIT_SERIAL"))
		sp->serial_at = strtoull(getenv("PTDECODE_DEBUG_SPLIT_SERIAL"), NULL, 10);
	return sp;
}

struct queue *ptd_split_queue(struct ptd_split *sp)
{
	return sp->pq;
}

void ptd_split_parts(struct ptd_split *sp, struct ptd_ahead_q *first, struct ptd_ahead_q *second)
{
	sp->first = first;
	sp->second = second;
	first->split = second->split = sp;
}

static void free_snaps(struct ptd_split *sp)
{
	unsigned i;

	for (i = 0; i < sp->n; i++) {
		ptd_pdec_snapshot_free(sp->snaps[i].dec);
		sp->snaps[i].dec = NULL;
	}
}

/* The second part's thread: its state after a state, while snapshots
 * are wanted (until the first part decides); it stops when the first
 * part does not need it. */
static void second_made(struct ptd_split *sp, struct ptd_ahead_q *a, const struct ptd_pstate *st)
{
	struct snap *s;

	sp->made++;
	sp->reads[st - a->ring].cyc = ptd_pdec_loose_reads(a->pq->dec, PDEC_LOOSE_CYC);
	sp->reads[st - a->ring].est = ptd_pdec_loose_reads(a->pq->dec, PDEC_LOOSE_EST);
	pthread_mutex_lock(&sp->mu);
	if (sp->cancel) {
		a->done = 1;
	} else if (st->err == PDEC_ERR_NODATA || a->done) {
		sp->second_ended = 1;
		pthread_cond_broadcast(&sp->more);
	} else if (sp->n < SPLIT_SNAPS && sp->outcome == UNDECIDED) {
		s = &sp->snaps[sp->n];
		s->dec = ptd_pdec_snapshot(a->pq->dec);
		if (s->dec) {
			s->idx = sp->made;
			s->phase = (int)a->phase;
			s->set_up = a->set_up;
			s->have = a->have;
			s->cur_off = a->cur.off;
			s->now = a->now;
			s->bound = a->bound;
			s->timestamp = a->timestamp;
			s->cur_tid = a->cur_tid;
			s->pid = a->pq->w.pid;
			s->tid = a->pq->w.tid;
			sp->n++;
		} else {
			sp->second_ended = 1;   /* out of memory: no more snapshots */
		}
		pthread_cond_broadcast(&sp->more);
	}
	pthread_mutex_unlock(&sp->mu);
}

static int same(struct ptd_split *sp, const struct ptd_ahead_q *a, const struct snap *s)
{
	return s->phase == (int)a->phase && s->set_up == a->set_up && s->have == a->have &&
	       s->cur_off == a->cur.off && s->now == a->now && s->bound == a->bound &&
	       s->timestamp == a->timestamp && s->cur_tid == a->cur_tid &&
	       s->pid == a->pq->w.pid && s->tid == a->pq->w.tid &&
	       ptd_pdec_same(a->pq->dec, s->dec, !sp->q->cfg->no_cycles, &sp->insn_delta,
			     &sp->cyc_delta, &sp->loose);
}

/* Under sp->mu: the decision taken; the second part's thread told when
 * its work is dropped, and the snapshots freed. */
static void decide(struct ptd_split *sp, int outcome)
{
	sp->outcome = outcome;
	if (outcome == DROPPED)
		sp->cancel = 1;
	free_snaps(sp);
}

/* The first part's thread, after a state: compared with the second
 * part's snapshots at the same position. */
static void first_made(struct ptd_split *sp, struct ptd_ahead_q *a, const struct ptd_pstate *st)
{
	uint64_t pos;
	unsigned i;

	if (sp->outcome != UNDECIDED)
		return;
	pos = ptd_pdec_pos(a->pq->dec);
	if (st->err != PDEC_ERR_NODATA && !a->done && pos < sp->start)
		return;
	pthread_mutex_lock(&sp->mu);
	if (st->err == PDEC_ERR_NODATA || a->done) {
		decide(sp, DROPPED);
		goto out;
	}
	for (;;) {
		while (sp->ci < sp->n && ptd_pdec_pos(sp->snaps[sp->ci].dec) < pos)
			sp->ci++;
		if (sp->ci < sp->n)
			break;
		if (sp->n == SPLIT_SNAPS || sp->second_ended) {
			decide(sp, DROPPED);   /* past the second part's snapshots */
			goto out;
		}
		pthread_cond_wait(&sp->more, &sp->mu);
	}
	for (i = sp->ci; i < sp->n && ptd_pdec_pos(sp->snaps[i].dec) == pos; i++) {
		if (same(sp, a, &sp->snaps[i])) {
			sp->taken_idx = sp->snaps[i].idx;
			sp->taken_pos = pos;
			sp->taken_cyc_reads = ptd_pdec_loose_reads(sp->snaps[i].dec, PDEC_LOOSE_CYC);
			sp->taken_est_reads = ptd_pdec_loose_reads(sp->snaps[i].dec, PDEC_LOOSE_EST);
			decide(sp, TAKEN);
			a->done = 1;   /* this state is the first part's last */
			break;
		}
	}
out:
	pthread_mutex_unlock(&sp->mu);
}

void ptd_split_after(struct ptd_split *sp, struct ptd_ahead_q *a, const struct ptd_pstate *st)
{
	if (a == sp->second)
		second_made(sp, a, st);
	else
		first_made(sp, a, st);
}

/* The second part read what it should not have (sp->loose): the first
 * part's decoder, where it stopped, decodes the rest on the replay's
 * thread, its first states (those the replay took from the second part)
 * dropped. */
static const struct ptd_pstate *go_serial(struct ptd_split *sp)
{
	uint64_t i;

	pthread_mutex_lock(&sp->mu);
	sp->cancel = 1;
	pthread_mutex_unlock(&sp->mu);
	sp->serial = 1;
	for (i = 0; i < sp->taken; i++) {
		ptd_ahead_produce(sp->q, sp->first, &sp->st);
		if (sp->st.err == PDEC_ERR_NODATA)
			return NULL;
	}
	ptd_ahead_produce(sp->q, sp->first, &sp->st);
	return &sp->st;
}

const struct ptd_pstate *ptd_split_next(struct ptd_split *sp)
{
	struct ptd_pstate *st;
	uint64_t i;

	if (sp->serial) {
		if (sp->st.err == PDEC_ERR_NODATA)
			return NULL;
		ptd_ahead_produce(sp->q, sp->first, &sp->st);
		return &sp->st;
	}
	if (!sp->reading_second) {
		/* the first part's outcome is written before its last chunk is
		 * handed over, under its worker's lock */
		if ((st = ptd_ahead_ring_next(sp->first)) || sp->outcome != TAKEN)
			return st;
		sp->reading_second = 1;
		for (i = 0; i < sp->taken_idx; i++)
			if (!ptd_ahead_ring_next(sp->second))
				return NULL;
	}
	st = ptd_ahead_ring_next(sp->second);
	if (!st)
		return NULL;
	if (((sp->loose & PDEC_LOOSE_CYC) && sp->reads[st - sp->second->ring].cyc != sp->taken_cyc_reads) ||
	    ((sp->loose & PDEC_LOOSE_EST) && sp->reads[st - sp->second->ring].est != sp->taken_est_reads) ||
	    (sp->serial_at && sp->taken + 1 == sp->serial_at))
		return go_serial(sp);
	sp->taken++;
	st->tot_insn_cnt += sp->insn_delta;
	st->tot_cyc_cnt += sp->cyc_delta;
	st->cycles += sp->cyc_delta;
	return st;
}

void ptd_split_stop(struct ptd_split *sp)
{
	if (!sp)
		return;
	pthread_mutex_lock(&sp->mu);
	sp->second_ended = 1;
	pthread_cond_broadcast(&sp->more);
	pthread_mutex_unlock(&sp->mu);
}

void ptd_split_free(struct ptd_split *sp)
{
	if (!sp)
		return;
	if (getenv("PTDECODE_DEBUG_JOBS")) {
		fprintf(stderr, "ptdecode: queue %u split at chunk %zu: ", sp->pq->nr, sp->chunk);
		if (sp->serial)
			fprintf(stderr, "second part taken from trace position %#llx, decoded serially from its state %llu\n",
				(unsigned long long)sp->taken_pos, (unsigned long long)sp->taken + 1);
		else if (sp->outcome == TAKEN)
			fprintf(stderr, "second part taken from trace position %#llx\n",
				(unsigned long long)sp->taken_pos);
		else
			fprintf(stderr, "second part not taken\n");
	}
	free_snaps(sp);
	pthread_mutex_destroy(&sp->mu);
	pthread_cond_destroy(&sp->more);
	free(sp->pq->buf);
	free(sp->pq->spare);
	ptd_pdec_free(sp->pq->dec);
	free(sp->pq);
	free(sp->reads);
	free(sp);
}
