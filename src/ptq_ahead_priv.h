/* Decoding ahead (ptq_ahead.h): the threads' and the queues' state,
 * shared by ptq_ahead.c and ptq_split.c. */
#ifndef PTD_PTQ_AHEAD_PRIV_H
#define PTD_PTQ_AHEAD_PRIV_H

#include <pthread.h>

#include "ptq_ahead.h"

#define CHUNK 256
#define CHUNKS 8
/* a split queue's second part (ptq_split.h), whose states wait until the
 * first part is decoded: 4 Ki states (1.1 MB) at most */
#define SPLIT_CHUNKS 16
/* A sleeping side is woken when BATCH chunks wait for it (or the stream
 * ended): waking a thread costs more than handing over a few states. */
#define BATCH 4

struct worker;
struct ptd_split;

/* In three parts, each on cache lines of its own: the replay's, the
 * shared one (under wk->mu), the thread's. */
struct ptd_ahead_q {
	struct queue *pq;
	struct worker *wk;
	struct ptd_pstate *ring;     /* chunks * CHUNK states */
	unsigned chunks;             /* CHUNKS, or SPLIT_CHUNKS */
	unsigned pos;                /* the replay's: the next state of chunk freed % chunks */
	int holding;                 /* reading that chunk */
	const struct ptd_pstate *pending;  /* stopped before it (ptd_ahead_skipped) */
	unsigned skip_i;             /* its skipped timestamps taken */
	_Alignas(64) unsigned n[SPLIT_CHUNKS];   /* states in each chunk handed over */
	uint64_t full, freed;        /* chunks handed over, and given back */
	int ended;                   /* the last chunk (its state PDEC_ERR_NODATA) is handed over */
	int waiting;                 /* the replay waits for chunks */
	/* the thread's replay of the records (produce) */
	_Alignas(64) enum { AT_RECORD, SETUP, RUN } phase;
	int set_up, done;
	struct ptd_notecur cur;      /* the records read: the last one in cur.n, */
	int have;                    /* not yet taken */
	uint64_t now;                /* the maps' perf time for the walk */
	uint64_t bound;              /* RUN: the timestamp the replay runs the queue to */
	uint64_t timestamp;          /* the queue's timestamp as the replay moves it */
	int32_t cur_tid;             /* the current thread of the queue's CPU */
	struct ptd_split *split;     /* a part of a split queue (ptq_split.h), or NULL */
};

struct worker {               /* on cache lines of its own */
	_Alignas(64) struct ptd_ptq *q;
	pthread_t th;
	int started, go, stop;
	int waiting;                 /* the thread waits for space */
	pthread_mutex_t mu;
	pthread_cond_t data, space;
	struct ptd_ahead_q **qs;
	size_t nq, next;
	struct ptd_pinsn *pinsn;     /* the walker's caches, for the thread's queues */
	struct ptd_insncache insns;
	struct ptd_jccruns jcc;
};

struct ptd_ahead {
	struct worker *w;
	size_t nw;
	struct ptd_ahead_q *qs;     /* aligned to 64 */
	struct ptd_ahead_q **order; /* qs by worker */
	size_t nq;
	struct ptd_split *split;    /* the queue decoded on two threads, or NULL */
};

/* The queue's next state into *out, as the replay would have the decoder
 * make it (ptq.c: ptd_ptq_run, setup_queues, process_queues and
 * run_decoder, for this queue alone). */
void ptd_ahead_produce(struct ptd_ptq *q, struct ptd_ahead_q *a, struct ptd_pstate *out);

/* The next state of a's ring, or NULL when its thread ended; lent until
 * the next call. */
struct ptd_pstate *ptd_ahead_ring_next(struct ptd_ahead_q *a);

/* Every instruction a sample (i0ns: instruction samples at a period of
 * 0): each is a state, which costs more to hand over to the replay than
 * to decode (doc/performance.md), so threads are not used by default. */
static inline int ptd_ahead_every_insn(const struct ptd_ptq *q)
{
	return q->cfg->instructions && !q->cfg->period;
}

#endif
