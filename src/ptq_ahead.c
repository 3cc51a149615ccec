/* Decoding ahead (-j): see ptq_ahead.h.
 *
 * Each thread serves some of the queues.  A queue's states go through a
 * ring of CHUNKS chunks of CHUNK states: the thread fills a chunk and
 * hands it over; the replay reads it and gives it back when it asks for
 * the state after the chunk's last (the state it holds stays valid until
 * then).  The lock is taken once per chunk, and a side that waits is
 * woken only when BATCH chunks are ready for it. */
#include "ptq_ahead_priv.h"
#include "ptq_split.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auxqueue.h"
#include "common/hugemem.h"
#include "dsofiles.h"
#include "machine.h"
#include "tsc.h"

void ptd_ahead_produce(struct ptd_ptq *q, struct ptd_ahead_q *a, struct ptd_pstate *out)
{
	struct queue *pq = a->pq;
	const struct ptd_pstate *st;
	const struct ptd_noted *n;
	uint64_t ts, sb;
	int32_t tid;

	for (;;) {
		switch (a->phase) {
		case AT_RECORD:
			if (!a->have && !(a->have = ptd_notelog_next(&q->noted, &a->cur))) {
				if (!a->set_up) {
					a->phase = SETUP;
					continue;
				}
				a->now = UINT64_MAX;
				a->bound = UINT64_MAX;
				ptd_ptq_pid_tid(q, pq, a->cur_tid, &pq->w.pid, &pq->w.tid);
				a->phase = RUN;
				continue;
			}
			n = &a->cur.n;
			ts = ptd_perf_time_to_tsc(n->time, &q->conf.tc);
			if (ts) {
				a->now = n->time - 1;
				if (!a->set_up) {
					a->phase = SETUP;
					continue;
				}
				if (a->timestamp < ts) {
					a->bound = ts;
					ptd_ptq_pid_tid(q, pq, a->cur_tid, &pq->w.pid, &pq->w.tid);
					a->phase = RUN;
					continue;
				}
			}
			a->now = n->time;
			if (ptd_ptq_noted_tid(q, n, &tid) && n->cpu >= 0 && n->cpu == pq->cpu)
				a->cur_tid = tid;
			a->have = 0;
			continue;
		case SETUP:
			st = ptd_pdec_decode_to(pq->dec, 0, KERNEL_START);
			ptd_pstate_copy(out, st);
			if (st->err == PDEC_ERR_NODATA) {
				a->done = 1;
			} else if (!st->err && st->timestamp) {
				a->timestamp = st->timestamp;
				a->set_up = 1;
				a->phase = AT_RECORD;
			}
			return;
		case RUN:
			/* plain branch states skipped as the replay's skip_bound()
			 * would skip them for the record; the replay, which may stop
			 * the queue sooner, finds the skipped timestamps listed */
			sb = q->skip_branches && a->timestamp < a->bound ? a->bound : 0;
			st = ptd_pdec_decode_to(pq->dec, sb, KERNEL_START);
			ptd_pstate_copy(out, st);
			if (st->err == PDEC_ERR_NODATA) {
				a->done = 1;
				return;
			}
			ptd_ptq_track_time(&a->timestamp, st, 0);
			if (!st->err && a->timestamp >= a->bound)
				a->phase = AT_RECORD;   /* the replay stops after this state */
			return;
		}
	}
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct ptd_ahead_q *a;
	unsigned c, k;
	size_t i, ended;

	pthread_mutex_lock(&wk->mu);
	for (;;) {
		if (wk->stop)
			break;
		a = NULL;
		ended = 0;
		for (i = 0; wk->go && i < wk->nq; i++) {
			struct ptd_ahead_q *x = wk->qs[(wk->next + i) % wk->nq];

			if (x->ended) {
				ended++;
			} else if (x->full - x->freed < x->chunks) {
				a = x;
				wk->next = (wk->next + i + 1) % wk->nq;
				break;
			}
		}
		if (!a) {
			if (wk->go && ended == wk->nq)
				break;
			wk->waiting = 1;
			pthread_cond_wait(&wk->space, &wk->mu);
			wk->waiting = 0;
			continue;
		}
		c = (unsigned)(a->full % a->chunks);
		pthread_mutex_unlock(&wk->mu);
		for (k = 0; k < CHUNK && !a->done; k++) {
			ptd_ahead_produce(wk->q, a, &a->ring[c * CHUNK + k]);
			if (a->split)
				ptd_split_after(a->split, a, &a->ring[c * CHUNK + k]);
		}
		pthread_mutex_lock(&wk->mu);
		a->n[c] = k;
		a->full++;
		a->ended = a->done;
		if (a->waiting && (a->ended || a->full - a->freed >= BATCH))
			pthread_cond_broadcast(&wk->data);
	}
	pthread_mutex_unlock(&wk->mu);
	return NULL;
}

int ptd_ahead_skipped(struct ptd_ahead_q *a, const struct ptd_pstate *st, uint64_t *timestamp,
		      uint64_t bound)
{
	while (a->skip_i < st->n_skipped_ts) {
		if (st->skipped_ts[a->skip_i] > *timestamp)
			*timestamp = st->skipped_ts[a->skip_i];
		a->skip_i++;
		if (*timestamp >= bound) {
			a->pending = st;
			return 1;
		}
	}
	a->skip_i = 0;
	return 0;
}

struct ptd_pstate *ptd_ahead_ring_next(struct ptd_ahead_q *a)
{
	struct worker *wk = a->wk;

	if (a->holding && a->pos < a->n[a->freed % a->chunks]) {
		return &a->ring[(a->freed % a->chunks) * CHUNK + a->pos++];
	}
	pthread_mutex_lock(&wk->mu);
	if (a->holding) {
		a->holding = 0;
		a->freed++;
		if (wk->waiting && a->chunks - (a->full - a->freed) >= BATCH)
			pthread_cond_signal(&wk->space);
	}
	if (a->full == a->freed && !a->ended) {
		/* the thread fills the ring, or ends, before it sleeps: BATCH
		 * chunks come */
		a->waiting = 1;
		while (a->full - a->freed < BATCH && !a->ended)
			pthread_cond_wait(&wk->data, &wk->mu);
		a->waiting = 0;
	}
	if (a->full == a->freed) {
		pthread_mutex_unlock(&wk->mu);
		return NULL;
	}
	a->holding = 1;
	a->pos = 0;
	pthread_mutex_unlock(&wk->mu);
	return &a->ring[(a->freed % a->chunks) * CHUNK + a->pos++];
}

const struct ptd_pstate *ptd_ahead_next(struct ptd_ahead_q *a)
{
	static const struct ptd_pstate nodata = { .err = PDEC_ERR_NODATA };
	const struct ptd_pstate *st;

	if ((st = a->pending)) {
		a->pending = NULL;
		return st;
	}
	st = a->split ? ptd_split_next(a->split) : ptd_ahead_ring_next(a);
	return st ? st : &nodata;
}

/* Can every map's file be read?  (Loads them all.) */
static int maps_readable(struct ptd_ptq *q)
{
	const struct ptd_machine *m = &q->s->machine;
	size_t i = 0, j;
	uint64_t k;
	void *v;

	while (ptd_u64map_next(&m->procs, &i, &k, &v)) {
		const struct ptd_process *p = v;

		for (j = 0; j < p->maps.len; j++) {
			const struct ptd_dsofile *f = ptd_dsofiles_get(q->cfg->files, ptd_vec_at(&p->maps, j));

			if (!f || !f->data)
				return 0;
		}
	}
	return 1;
}

static void free_ahead(struct ptd_ptq *q)
{
	struct ptd_ahead *ah = q->ahead;
	size_t i;

	for (i = 0; i < ah->nw; i++) {
		struct worker *wk = &ah->w[i];

		ptd_pinsn_free(wk->pinsn);
		ptd_insncache_fini(&wk->insns);
		ptd_jccruns_fini(&wk->jcc);
		pthread_mutex_destroy(&wk->mu);
		pthread_cond_destroy(&wk->data);
		pthread_cond_destroy(&wk->space);
	}
	for (i = 0; i < ah->nq; i++) {
		if (ah->qs[i].pq)
			ah->qs[i].pq->ahead = NULL;
		ptd_huge_free(ah->qs[i].ring);
	}
	ptd_split_free(ah->split);
	free(ah->w);
	free(ah->qs);
	free(ah->order);
	free(ah);
	q->ahead = NULL;
}

/* Tell the threads to go (go) or to stop, and join them when stopping. */
static void signal_all(struct ptd_ahead *ah, int go)
{
	size_t i;

	for (i = 0; i < ah->nw; i++) {
		pthread_mutex_lock(&ah->w[i].mu);
		if (go)
			ah->w[i].go = 1;
		else
			ah->w[i].stop = 1;
		pthread_cond_broadcast(&ah->w[i].space);
		pthread_mutex_unlock(&ah->w[i].mu);
	}
	if (!go)
		ptd_split_stop(ah->split);
	for (i = 0; !go && i < ah->nw; i++)
		if (ah->w[i].started)
			pthread_join(ah->w[i].th, NULL);
}

/* Back to serial decoding: no thread has decoded anything yet. */
static void undo(struct ptd_ptq *q)
{
	size_t i;

	signal_all(q->ahead, 0);
	for (i = 0; i < q->nr_queues; i++) {
		struct queue *pq = &q->queues[i];

		pq->ahead = NULL;
		pq->w.now = &q->now;
		pq->w.pinsn = q->pinsn;
		pq->w.insns = &q->insns;
		pq->w.jcc = &q->jcc;
		memset(pq->w.files, 0, sizeof(pq->w.files));
		pq->w.win.map = NULL;
		pq->w.win.len = 0;
		pq->w.prev.len = 0;
	}
	free_ahead(q);
}

unsigned ptd_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 1 ? (unsigned)(n < 1024 ? n : 1024) : 1;
}

/* a, decoding pq on wk's thread, its ring of chunks chunks: 0 or -1 */
static int set_up_queue(const struct ptd_ptq *q, struct ptd_ahead_q *a, struct queue *pq,
			struct worker *wk, unsigned chunks)
{
	a->pq = pq;
	a->wk = wk;
	wk->nq++;
	a->cur_tid = -1;
	a->now = q->now;
	a->phase = AT_RECORD;
	a->chunks = chunks;
	/* in the huge pages of the walkers' tables (hugemem.h): its pages
	 * are touched as the ring turns, where 4 KB pages cost a fault each */
	a->ring = ptd_huge_zalloc(sizeof(*a->ring) * CHUNK * chunks);
	return a->ring ? 0 : -1;
}

int ptd_ahead_start(struct ptd_ptq *q)
{
	struct ptd_ahead *ah;
	struct ptd_split *sp = NULL;
	struct queue *only = NULL;
	unsigned jobs = q->cfg->jobs ? q->cfg->jobs : ptd_online_cpus();
	uint64_t bytes = 0;
	size_t i, j, nq = 0;

	if (jobs <= 1 || q->conf.timeless || q->tsc_ranges)
		return 0;
	for (i = 0; i < q->nr_queues; i++) {
		const struct ptd_aux_queue *aq = q->queues[i].aq;

		if (!q->queues[i].dec)
			continue;
		nq++;
		only = &q->queues[i];
		for (j = 0; j < aq->chunks.len; j++)
			bytes += ((const struct ptd_aux_chunk *)ptd_vec_at(&aq->chunks, j))->size;
	}
	if (!nq || nq > PTD_AHEAD_MAX_QUEUES)
		return 0;
	/* by default only where it pays (doc/performance.md): the states of
	 * plain branches stay with the threads, not every instruction is a
	 * sample (i0ns), and there are queues to decode side by side (or one
	 * to split), enough trace for the start-up, and enough trace between
	 * records (each stops every queue and hands a state over) */
	if (!q->cfg->jobs && nq > 1 &&
	    (!q->skip_branches || ptd_ahead_every_insn(q) || bytes < PTD_AHEAD_AUTO_BYTES ||
	     bytes / PTD_AHEAD_RECORD_BYTES < q->noted.n))
		return 0;
	if (!maps_readable(q))
		return 0;
	/* one queue: on two threads, where it can be split */
	if (nq == 1 && !(sp = ptd_split_new(q, only, q->cfg->jobs != 0)) && !q->cfg->jobs)
		return 0;
	if (!(ah = calloc(1, sizeof(*ah)))) {
		ptd_split_free(sp);
		return -1;
	}
	q->ahead = ah;
	ah->split = sp;
	if (sp)
		nq++;   /* the second part */
	ah->nw = jobs < nq ? jobs : nq;
	ah->w = aligned_alloc(64, ah->nw * sizeof(*ah->w));
	if (ah->w)
		memset(ah->w, 0, ah->nw * sizeof(*ah->w));
	ah->qs = aligned_alloc(64, nq * sizeof(*ah->qs));
	if (ah->qs)
		memset(ah->qs, 0, nq * sizeof(*ah->qs));
	ah->order = calloc(nq, sizeof(*ah->order));
	if (!ah->w || !ah->qs || !ah->order) {
		ah->nw = 0;
		free_ahead(q);
		return -1;
	}
	ah->nq = nq;
	if (getenv("PTDECODE_DEBUG_JOBS"))
		fprintf(stderr, "ptdecode: decoding %zu queues ahead on %zu threads\n",
			nq - (sp != NULL), ah->nw);
	for (i = 0; i < ah->nw; i++) {
		struct worker *wk = &ah->w[i];

		wk->q = q;
		pthread_mutex_init(&wk->mu, NULL);
		pthread_cond_init(&wk->data, NULL);
		pthread_cond_init(&wk->space, NULL);
		/* the first thread's queues walk with the replay's caches,
		 * which it does not use while threads decode */
		if (!i)
			continue;
		wk->pinsn = ptd_pinsn_new();
		if (!wk->pinsn || ptd_insncache_init(&wk->insns, PTQ_INSNS_BITS_FIRST, PTQ_INSNS_BITS)) {
			ah->nw = i + 1;
			free_ahead(q);
			return -1;
		}
	}
	/* queue k to thread k % nw; each thread's queues together in order */
	for (i = 0, j = 0; i < q->nr_queues; i++) {
		struct queue *pq = &q->queues[i];
		struct ptd_ahead_q *a = &ah->qs[j];

		if (!pq->dec)
			continue;
		if (set_up_queue(q, a, pq, &ah->w[j % ah->nw], CHUNKS)) {
			free_ahead(q);
			return -1;
		}
		j++;
	}
	if (sp) {   /* the second part, on a thread of its own */
		struct ptd_ahead_q *a = &ah->qs[j];

		if (set_up_queue(q, a, ptd_split_queue(sp), &ah->w[j % ah->nw], SPLIT_CHUNKS)) {
			free_ahead(q);
			return -1;
		}
		ptd_split_parts(sp, &ah->qs[0], a);
	}
	for (i = 0, j = 0; i < ah->nw; i++) {
		size_t k;

		ah->w[i].qs = &ah->order[j];
		for (k = 0; k < nq; k++)
			if (ah->qs[k].wk == &ah->w[i])
				ah->order[j++] = &ah->qs[k];
	}
	for (i = 0; i < nq; i++) {
		struct ptd_ahead_q *a = &ah->qs[i];
		struct queue *pq = a->pq;

		pq->w.now = &a->now;
		if (a->wk != &ah->w[0]) {
			pq->w.pinsn = a->wk->pinsn;
			pq->w.insns = &a->wk->insns;
			pq->w.jcc = &a->wk->jcc;
		}   /* else the replay's */
		pq->ahead = a;
	}
	for (i = 0; i < ah->nw; i++) {
		if (pthread_create(&ah->w[i].th, NULL, worker_main, &ah->w[i])) {
			undo(q);   /* none has started decoding: serial after all */
			return 0;
		}
		ah->w[i].started = 1;
	}
	/* every thread runs (waiting for the go): the decoders list what
	 * they skip from now on, for ptd_ahead_skipped; not for one queue,
	 * which the replay runs to the next record's time as the thread
	 * does (no other queue's timestamp comes first) */
	for (i = 0; i < nq && !sp; i++)
		ptd_pdec_list_skipped(ah->qs[i].pq->dec);
	signal_all(ah, 1);
	return 0;
}

void ptd_ahead_stop(struct ptd_ptq *q)
{
	if (!q->ahead)
		return;
	signal_all(q->ahead, 0);
	free_ahead(q);
}
