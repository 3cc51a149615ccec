/* The records the Intel PT replay notes (ptq.c): every record with a time,
 * as perf's Intel PT code sees it while processing events, kept in order
 * for the replay and the decode-ahead threads to read back.
 *
 * A file of many context switches notes as many records, so they are kept
 * delta-encoded in blocks of bytes (each field against the record before):
 * about 10 bytes a record instead of the 32 of struct ptd_noted.  The
 * blocks are in huge pages (common/hugemem.h), filled one after the
 * other: a buffer that grew by doubling took a page fault each 4 KB. */
#ifndef PTD_NOTELOG_H
#define PTD_NOTELOG_H

#include <stddef.h>
#include <stdint.h>

struct ptd_noted {
	uint64_t time;
	int32_t cpu, pid, tid;
	uint32_t np_tid;      /* SWITCH: the next or previous thread; ITRACE_START
	                         and EXIT: the record's thread */
	uint8_t type;         /* the record's type (< 64) */
	uint8_t flags;        /* PTD_NOTED_* */
};

#define PTD_NOTED_SWITCH_OUT 1     /* the record's misc has PTD_MISC_SWITCH_OUT */
#define PTD_NOTED_AUX_TRUNCATED 2  /* an AUX record's flags have PTD_AUX_FLAG_TRUNCATED */

struct ptd_noteblock;

struct ptd_notelog {
	struct ptd_noteblock *first, *last_block;
	uint64_t n;                   /* records added */
	size_t bytes;                 /* their bytes */
	struct ptd_noted last;        /* the last record added */
};

/* Where a reader is: start at { 0 } (ptd_notelog_next fills it). */
struct ptd_notecur {
	const struct ptd_noteblock *b;  /* NULL: before the first */
	size_t off;                   /* in b */
	struct ptd_noted n;           /* the record read last */
};

void ptd_notelog_fini(struct ptd_notelog *l);

/* Append n (n->type < 64, n->flags < 4).  0, or -1 out of memory. */
int ptd_notelog_add(struct ptd_notelog *l, const struct ptd_noted *n);

/* The record at c into c->n and c past it: 1, or 0 at the end. */
int ptd_notelog_next(const struct ptd_notelog *l, struct ptd_notecur *c);

#endif
