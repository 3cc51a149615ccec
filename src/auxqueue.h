/* AUX area queues: the AUXTRACE chunks of each mmap (one queue per CPU, or
 * per thread for --per-thread recordings), the PERF_RECORD_AUX records that
 * say when each range of the AUX buffer was written and with which flags,
 * and the gaps the recording itself reports.
 *
 * Chunks and AUX records are collected while the file is read; after
 * ptd_auxq_finish() every chunk has a time and flags, every loss is a gap
 * entry, and the chunks of all queues can be walked in time order. */
#ifndef PTD_AUXQUEUE_H
#define PTD_AUXQUEUE_H

#include <stdint.h>

#include "common/err.h"
#include "common/heap.h"
#include "common/u64map.h"
#include "common/vec.h"
#include "formats/perf/reader.h"
#include "formats/perf/records.h"

struct ptd_aux_queue;

enum ptd_gap_cause {
	PTD_GAP_AUX_TRUNCATED,      /* AUX flag TRUNCATED: the buffer filled up */
	PTD_GAP_AUX_COLLISION,      /* AUX flag COLLISION: sample collided with trace */
	PTD_GAP_AUX_PARTIAL,        /* AUX flag PARTIAL: incomplete record */
	PTD_GAP_NO_PAYLOAD,         /* AUX data announced but not saved in the file */
	PTD_GAP_LOST,               /* PERF_RECORD_LOST */
	PTD_GAP_LOST_SAMPLES,       /* PERF_RECORD_LOST_SAMPLES */
	PTD_GAP_AUXTRACE_ERROR,     /* PERF_RECORD_AUXTRACE_ERROR */
	PTD_GAP_NR
};

/* short name of a cause ("truncated", "lost", ...) */
const char *ptd_gap_cause_name(int cause);

struct ptd_gap {
	int cause;                  /* enum ptd_gap_cause */
	uint64_t time;              /* perf time; 0 when unknown */
	int32_t cpu, tid;           /* -1 when unknown */
	int32_t queue;              /* queue idx, -1 when not tied to one */
	uint64_t aux_offset;        /* AUX buffer position, when known */
	uint64_t bytes;             /* trace bytes lost or missing, when known */
	uint64_t count;             /* LOST / LOST_SAMPLES: records lost */
	uint64_t file_offset;       /* the record that reported it */
};

struct ptd_aux_chunk {
	struct ptd_aux_queue *queue; /* the queue holding it */
	uint64_t aux_offset;        /* AUXTRACE.offset: position in the AUX buffer */
	uint64_t size;
	uint64_t reference;
	int32_t tid, cpu;
	uint64_t file_offset;       /* of the AUXTRACE record */
	struct ptd_payload payload; /* where its bytes are */
	uint64_t time;              /* perf time of the first AUX record covering it */
	int timed;                  /* time comes from a covering AUX record */
	uint64_t flags;             /* OR of the covering AUX records' flags */
	uint32_t nr_aux;            /* AUX records covering it */
};

struct ptd_aux_queue {
	uint32_t idx;
	int32_t cpu, tid;           /* of its first chunk; cpu -1: per-thread */
	struct ptd_vec chunks;      /* struct ptd_aux_chunk, file order */
	uint64_t bytes;             /* payload bytes in all chunks */
	uint64_t nr_aux, aux_bytes; /* AUX records matched, bytes they announce */
	uint64_t flags;             /* OR of all flags seen */
	uint64_t first_time, last_time;
	size_t order;               /* position in ptd_auxq.queues */
};

struct ptd_auxq {
	struct ptd_u64map by_idx;   /* idx -> struct ptd_aux_queue */
	struct ptd_vec queues;      /* struct ptd_aux_queue *, in order of appearance */
	struct ptd_vec aux;         /* pending AUX records (private) */
	struct ptd_vec gaps;        /* struct ptd_gap; time order after finish */
	uint64_t nr_unmatched_aux;  /* AUX records for which no queue exists */
	uint64_t last_aux_time;     /* the latest time of an AUX record (0: none) */
	int finished;
};

void ptd_auxq_init(struct ptd_auxq *q);
void ptd_auxq_fini(struct ptd_auxq *q);

/* Returns 0 or -PTD_E_NOMEM / -PTD_E_LIMIT. */
int ptd_auxq_add_chunk(struct ptd_auxq *q, const struct ptd_rec_auxtrace *rec,
		       const struct ptd_payload *payload, uint64_t file_offset, struct ptd_err *err);
int ptd_auxq_add_aux(struct ptd_auxq *q, const struct ptd_rec_aux *rec,
		     const struct ptd_sample_id *sid, uint64_t file_offset, struct ptd_err *err);
int ptd_auxq_add_gap(struct ptd_auxq *q, const struct ptd_gap *gap, struct ptd_err *err);

/* Match AUX records to chunks, turn flags and missing data into gaps,
 * order gaps by time.  Call once, after the last record. */
int ptd_auxq_finish(struct ptd_auxq *q, struct ptd_err *err);

/* Walk every chunk of every queue in time order (file order on ties). */
struct ptd_auxq_iter {
	struct ptd_heap heap;
	const struct ptd_auxq *q;
};
int ptd_auxq_iter_init(struct ptd_auxq_iter *it, const struct ptd_auxq *q);
/* 1 with the next queue and chunk, 0 at the end */
int ptd_auxq_iter_next(struct ptd_auxq_iter *it, const struct ptd_aux_queue **queue,
		       const struct ptd_aux_chunk **chunk);
void ptd_auxq_iter_fini(struct ptd_auxq_iter *it);

#endif
