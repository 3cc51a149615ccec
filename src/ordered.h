/* Time ordering of the records of a perf.data file, as perf does it.
 *
 * perf record writes each CPU's ring buffer in turn, so records are in time
 * order per CPU but not across CPUs; a FINISHED_ROUND record marks the end
 * of a pass over all buffers.  Records with a timestamp wait in a queue;
 * at each FINISHED_ROUND those up to the largest timestamp seen before the
 * previous round are released, in time order (ties in arrival order); at
 * the end, the rest.  Records are copied into the queue, their bytes and
 * sample_id trailer: each comes out as the reader gave it, a SAMPLE's
 * sample parsed again, its bytes read where the queue keeps them. */
#ifndef PTD_ORDERED_H
#define PTD_ORDERED_H

#include <stddef.h>
#include <stdint.h>

#include "formats/perf/reader.h"

/* the queue flushes its older half beyond this many bytes */
#define PTD_ORDERED_MAX_BYTES (256u << 20)

/* how many of the newest runs a record that does not follow the last one
 * tries before it starts a run of its own */
#define PTD_ORDERED_SCAN 16

struct ptd_ordered_run;
struct ptd_ordered_slab;

struct ptd_ordered {
	struct ptd_ordered_run **heap;    /* the runs of records, by their first */
	size_t nruns, cap;
	/* the runs that took the last records, oldest first */
	struct ptd_ordered_run *recent[PTD_ORDERED_SCAN];
	size_t nrecent;
	size_t len;                       /* records queued */
	/* slabs spent, for the next records: small, large */
	struct ptd_ordered_slab *spare[2];
	size_t nspare[2];
	struct ptd_event out;             /* the record ptd_ordered_pop gave */
	/* what it left, kept while its bytes may be read: a spent slab, an
	 * empty run */
	struct ptd_ordered_slab *spent;
	struct ptd_ordered_run *spent_run;
	uint64_t seq;                     /* arrival numbers */
	uint64_t max_ts;
	uint64_t next_flush;
	size_t bytes;
};

void ptd_ordered_init(struct ptd_ordered *o);
void ptd_ordered_fini(struct ptd_ordered *o);

/* Queue a copy of ev under timestamp ts.  Returns 0 or -PTD_E_NOMEM. */
int ptd_ordered_push(struct ptd_ordered *o, const struct ptd_event *ev, uint64_t ts);

/* At a FINISHED_ROUND: the limit up to which records may now be released
 * (and the round bookkeeping advanced).  UINT64_MAX at the end of input. */
uint64_t ptd_ordered_round(struct ptd_ordered *o);

/* The earliest queued record with a timestamp <= limit, or NULL: its
 * event as ptd_reader_next gave it, valid until the next pop or push or
 * ptd_ordered_fini. */
const struct ptd_event *ptd_ordered_pop(struct ptd_ordered *o, uint64_t limit);

/* When the queue is over its size limit: the timestamp up to which its
 * older half should be released, else 0. */
uint64_t ptd_ordered_overflow(const struct ptd_ordered *o);

#endif
