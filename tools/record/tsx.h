/* --tsx N[:K]: where the emulated TSX transactions of one thread begin and
 * end (doc/record.md, "Events").  No transaction really runs: the recorder
 * picks points in the thread's observed control flow and the PT encoder
 * writes there what a CPU writes for XBEGIN, XEND and an abort.
 *
 * Every Nth call (direct or indirect, not a call to the next instruction)
 * that the thread makes outside a transaction begins one, at the call
 * instruction.  It ends at the call's matching return (the first return to
 * the frame the call was made from): the third, sixth... transaction of
 * the thread aborts there, and the others commit there (the return then
 * runs outside the transaction).  One still open at its Kth control
 * transfer (the call that began it is the first) runs out of capacity and
 * aborts at that transfer.  An abort happens at a transfer's instruction,
 * which does not complete, and its fallback address is the transfer's
 * target: execution goes on where it really went.  A real transaction
 * cannot go on in the kernel: one still open when the thread leaves user
 * mode (a syscall, a signal, preemption) commits just before. */
#ifndef PTD_RECORD_TSX_H
#define PTD_RECORD_TSX_H

#include <stdint.h>

#include "tools/record/xev.h"

#define PTD_TSX_CAPACITY 64   /* K when not given */

enum ptd_tsx_what {
	PTD_TSX_NONE,
	PTD_TSX_BEGIN,      /* at the instruction, which runs inside the transaction */
	PTD_TSX_COMMIT,     /* at the instruction, which runs outside */
	PTD_TSX_ABORT,      /* at the instruction, which does not complete; execution
	                       goes on at the transfer's target */
};

struct ptd_tsx {
	unsigned every;      /* a transaction at every Nth call (0: none) */
	unsigned capacity;   /* ... aborting at its Kth transfer (K >= 2) */
	uint64_t ncalls;     /* calls made outside transactions */
	uint64_t ntx;        /* transactions begun */
	unsigned depth;      /* in one: calls not yet returned from, its own included */
	unsigned ninside;    /* in one: its transfers so far, its call included */
	int in_tx;
};

/* What happens at transfer ev of the thread, before its instruction runs
 * (the transfers of xev.h in order, lost ones too). */
enum ptd_tsx_what ptd_tsx_at(struct ptd_tsx *x, const struct ptd_xev *ev);

/* The thread is interrupted (preempted, or stopped at the end of the
 * recording): PTD_TSX_COMMIT if a transaction was open. */
enum ptd_tsx_what ptd_tsx_leave(struct ptd_tsx *x);

/* "begin", "commit", "abort" (the truth's words) */
const char *ptd_tsx_name(enum ptd_tsx_what w);

#endif
