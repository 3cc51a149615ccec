/* Decoding ahead (-j): threads that run the queues' decoders ahead of the
 * replay, so that decoding runs in parallel with sample synthesis and
 * with the other queues' decoding.  The output is the serial output.
 *
 * The replay decodes a queue between two sideband records up to the
 * first state whose timestamp reaches the second's: which states a queue
 * decodes under which sideband (the maps' time, the thread of its CPU)
 * follows from its own timestamps and the records alone, not from the
 * other queues.  A thread replays the records for its queues the same
 * way (ptd_ptq_noted_tid, ptd_ptq_pid_tid, ptd_ptq_track_time) and hands
 * the states over in order; the replay takes them in place of the
 * decoder's (ptd_ahead_next) and synthesizes as before.  The threads skip
 * plain branch states up to the next record's timestamp, where the replay
 * may stop a queue sooner (at the next queue's timestamp): the decoder
 * lists the skipped states' timestamps (ptd_pdec_list_skipped) and the
 * replay stops where the serial decode would have (ptd_ahead_skipped).
 *
 * Without -j, threads (one per online CPU) are used only where they
 * were measured to pay (doc/performance.md): modes where plain branch
 * states stay with the threads (no b, c, r, call stacks, last branches or
 * power events) and not every instruction is a sample (i0ns): two
 * queues or more, PTD_AHEAD_AUTO_BYTES of trace and PTD_AHEAD_RECORD_BYTES
 * of it a record with a time, or one queue of PTD_SPLIT_AUTO_BYTES,
 * decoded on two threads (ptq_split.h).  Handing every branch state (or
 * every instruction) from one core to another costs more than the
 * decoding it moves, and so does a state for every record where the
 * records are dense (every one stops every queue).  With -j N (N > 1) the threads
 * are used whenever they can be.  The environment variable
 * PTDECODE_DEBUG_JOBS makes ptdecode say when it decodes ahead.
 *
 * Serial decoding is kept (no threads) for -j 1, timeless decoding,
 * --time (fast-forwarding depends on the replay), more than
 * PTD_AHEAD_MAX_QUEUES queues, and when the file of a map cannot be read
 * (perf reports such a file's first two failures only: which queue fails
 * first is an order across queues). */
#ifndef PTD_PTQ_AHEAD_H
#define PTD_PTQ_AHEAD_H

#include "ptq_priv.h"

#define PTD_AHEAD_MAX_QUEUES 64
#define PTD_AHEAD_AUTO_BYTES (512u << 10)
/* W5, a context switch every 26 bytes of trace: two threads lose 10 to
 * 20%; 13,500 bytes a record: they gain 1.55 times (doc/performance.md,
 * the nineteenth round); not measured in between */
#define PTD_AHEAD_RECORD_BYTES 512u

/* -j's default: the online CPUs (1 when unknown, at most 1024) */
unsigned ptd_online_cpus(void);

/* Start the threads when the queues of q (set up, not yet decoded) can be
 * decoded ahead: min(jobs, queues) threads, each queue's walker and ahead
 * set.  Returns 0 (threads started or serial decoding), or -1 when
 * out of memory. */
int ptd_ahead_start(struct ptd_ptq *q);

/* The queue's next state, as ptd_pdec_decode_to() would give it;
 * borrowed until the next call. */
const struct ptd_pstate *ptd_ahead_next(struct ptd_ahead_q *a);

/* Before the replay takes st: the timestamps of the states the thread
 * skipped before it move *timestamp; 1 when the replay's bound is reached
 * at one of them, as the serial decode would have returned that state and
 * stopped there (a plain branch: nothing else comes of it); st is then
 * the next state ptd_ahead_next() gives, its list taken up where it
 * stopped. */
int ptd_ahead_skipped(struct ptd_ahead_q *a, const struct ptd_pstate *st, uint64_t *timestamp,
		      uint64_t bound);

/* Stop and join the threads and free them (none: nothing). */
void ptd_ahead_stop(struct ptd_ptq *q);

#endif
