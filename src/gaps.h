/* The gap report (ptdecode --gaps): every place where a queue's trace is
 * missing or could not be decoded, with its cause, its time span, the
 * trace bytes skipped and an estimate of the instructions lost.
 *
 * Gaps come from two places:
 * - the session (src/auxqueue.c): AUX records flagged TRUNCATED, COLLISION
 *   or PARTIAL, AUX data whose AUXTRACE payload is not in the file, LOST,
 *   LOST_SAMPLES and AUXTRACE_ERROR records, and the trace not recorded
 *   between two snapshots (each AUX chunk of a snapshot queue after its
 *   first): ptd_gaps_preload;
 * - the decoder, as the samples of the main job go by (ptd_gaps_sample):
 *   overflow packets, decode errors and their resynchronization, perf's
 *   "Lost trace data" (merged into the session's gap it reports, when there
 *   is one), and tracing paused between two AUX chunks: the trace of one
 *   chunk ends with tracing stopped asynchronously (perf's "tr end async":
 *   FUP + TIP.PGD, no syscall) and the next chunk's trace starts with it
 *   enabled again ("tr strt"), which is what disabling and enabling the
 *   event (perf record --control, an AUX pause) leaves in the trace.
 *
 * A gap's span runs from the last sample of its queue before it to the
 * first one after it (perf time, 0 when unknown: timeless decoding, or no
 * sample on that side).  Instructions lost are estimated from the queue's
 * decoded rate (instructions per ns between its first and last sample)
 * over the span, less the instructions decoded inside it; none for a pause
 * that resumes where it stopped (as an interrupt returns). */
#ifndef PTD_GAPS_H
#define PTD_GAPS_H

#include <stddef.h>
#include <stdint.h>

#include "common/u64map.h"
#include "common/vec.h"
#include "ptq.h"
#include "session.h"

enum ptd_gap_kind {
	PTD_GK_OVERFLOW,        /* OVF packet: the hardware dropped trace */
	PTD_GK_AUX_TRUNCATED,   /* AUX TRUNCATED: the buffer was full (perf: Lost trace data) */
	PTD_GK_AUX_COLLISION,
	PTD_GK_AUX_PARTIAL,
	PTD_GK_NO_PAYLOAD,      /* AUX data announced, AUXTRACE payload missing */
	PTD_GK_LOST_TRACE,      /* the decoder's Lost trace data, no session gap for it */
	PTD_GK_LOST,            /* PERF_RECORD_LOST */
	PTD_GK_LOST_SAMPLES,    /* PERF_RECORD_LOST_SAMPLES */
	PTD_GK_AUXTRACE_ERROR,  /* PERF_RECORD_AUXTRACE_ERROR */
	PTD_GK_DECODE,          /* decoder error, resynchronized at the next PSB */
	PTD_GK_SNAPSHOT,        /* not recorded between two snapshots */
	PTD_GK_PAUSED,          /* tracing stopped at the end of an AUX chunk, resumed in the next */
	PTD_GK_NR
};

/* short name of a kind ("overflow", "aux-truncated", ...) */
const char *ptd_gap_kind_name(int kind);

struct ptd_gap_rep {
	int kind;                 /* enum ptd_gap_kind */
	int32_t cpu, tid;         /* the queue: its CPU, or -1 and its thread */
	uint64_t when;            /* perf time it was reported at (0: unknown) */
	uint64_t start, end;      /* last sample before, first after; 0: unknown */
	uint64_t bytes;           /* trace bytes skipped or lost (bytes_known) */
	int bytes_known;
	uint64_t count;           /* LOST, LOST_SAMPLES: records lost */
	uint64_t insns;           /* estimated instructions lost (insns_known) */
	int insns_known;
	uint64_t ip;              /* decoder errors: where; 0 unknown */
	uint64_t file_offset;     /* session gaps: the record that reported it */
	const char *msg;          /* decoder errors: perf's message (static) */
	/* private */
	uint64_t pos, start_insn;
	size_t seq;
	int open;
	int resumed_there;        /* a pause that resumed where it stopped */
};

/* At most this many gaps are kept; more are counted in nr_dropped. */
#define PTD_GAPS_MAX (1u << 20)

struct ptd_gaps {
	struct ptd_vec gaps;      /* struct ptd_gap_rep, as found */
	uint64_t nr_dropped;      /* gaps beyond PTD_GAPS_MAX, not kept */
	struct ptd_u64map queues; /* queue key -> private state */
};

void ptd_gaps_init(struct ptd_gaps *g);
void ptd_gaps_fini(struct ptd_gaps *g);

/* The session's gaps and snapshot boundaries, before decoding.  Returns 0
 * or -PTD_E_NOMEM. */
int ptd_gaps_preload(struct ptd_gaps *g, const struct ptd_session *s);

/* A synthesized sample of the main job, in the order the decoder gives
 * them (a ptd_synth_fn's work).  Returns 0 or -PTD_E_NOMEM. */
int ptd_gaps_sample(struct ptd_gaps *g, const struct ptd_synth *sy);

/* After decoding: the estimates, and the gaps sorted by queue then time. */
void ptd_gaps_finish(struct ptd_gaps *g);

#endif
