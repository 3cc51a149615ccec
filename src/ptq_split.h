/* Decoding one queue on two threads (-j): the second thread starts a
 * decoder of its own halfway through the queue's trace, at a chunk, and
 * runs it while the first decodes up to there.  Where the first reaches
 * a state at which its whole decoding state (the decoder's, that of its
 * replay of the records, the thread of the walk) is the second's at one
 * of its first SPLIT_SNAPS states (ptd_pdec_same), the second's states
 * after that one are the first's to come, but for the count of
 * instructions, which is made up: the replay takes them and the first
 * thread stops.  Perf's decoder carries some state across PSBs (a period
 * of ticks, the cycle-to-TSC ratio measured with CYC), so the two are
 * compared rather than assumed equal at a PSB; where none of those
 * states matches, the first thread decodes on alone and the second's
 * work is dropped.  Either way the output is the serial output.
 *
 * Used for a recording of one queue (per-thread or one CPU), not of
 * snapshots (whose chunks overlap), in modes where plain branch states
 * stay with the threads (q->skip_branches) and not with instruction
 * periods (counted from the last sample, which the second part cannot
 * know; i0ns is one too), and, without -j N, for PTD_SPLIT_AUTO_BYTES of
 * trace or more.  PTDECODE_DEBUG_JOBS makes
 * ptdecode say where the second part was taken; PTDECODE_DEBUG_SPLIT_SERIAL=N
 * makes the replay go back to the first part's decoder at the second
 * part's Nth state, as where the second part's decoder read a reference
 * of the cycle counts that differed (ptd_pdec_same: loose), for the
 * tests of that path. */
#ifndef PTD_PTQ_SPLIT_H
#define PTD_PTQ_SPLIT_H

#include "ptq_ahead_priv.h"

/* A split costs some 2 ms of CPU time on the bench's machine (a second
 * thread, its decoder's caches faulted in) and two busy vCPUs each run
 * about a quarter slower, so it pays only where the decoding takes
 * longer.  From 256 KiB (bench/analysis.md, the thirty-second round)
 * the bench's W1 (long TNT loops, 271 KB) ran 7 to 15% slower on two
 * threads in each of three measurements; its program did not gain up to
 * 807 KB, W2's gained from 382 KB in one measurement and lost at 450 KB
 * in another. */
#define PTD_SPLIT_AUTO_BYTES (512u << 10)

struct ptd_split;

/* A split of pq (q's only queue to decode), or NULL when there is none
 * to make or out of memory.  explicit: -j N was given. */
struct ptd_split *ptd_split_new(struct ptd_ptq *q, struct queue *pq, int explicit);
/* The second part's queue: a copy of pq for its thread's walk. */
struct queue *ptd_split_queue(struct ptd_split *sp);
/* The two parts' ahead queues, once set up (first: the queue's own);
 * their split set to sp. */
void ptd_split_parts(struct ptd_split *sp, struct ptd_ahead_q *first, struct ptd_ahead_q *second);
/* On a part's thread, after it made a state: the second's snapshots,
 * the first's comparisons (which may wait for the second's), the
 * handover (the first's a->done set) or the end of the second's work. */
void ptd_split_after(struct ptd_split *sp, struct ptd_ahead_q *a, const struct ptd_pstate *st);
/* The replay's next state of the split queue (the first part's). */
const struct ptd_pstate *ptd_split_next(struct ptd_split *sp);
/* Before the threads are joined: the first part waits no more for the
 * second's snapshots. */
void ptd_split_stop(struct ptd_split *sp);
/* After the threads are joined. */
void ptd_split_free(struct ptd_split *sp);

#endif
