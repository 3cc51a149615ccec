/* Snapshot mode (perf record -S): the AUX buffer is a ring that keeps the
 * last `size` bytes of a trace stream, and each snapshot saves what it
 * holds then.  Successive snapshots overlap when less than `size` bytes
 * were written in between, and leave a gap when more were.  The ring also
 * remembers where the stream's PSBs are: after a gap a decoder can only
 * start again at the first PSB of the next snapshot. */
#ifndef PTD_RECORD_SNAPSHOT_H
#define PTD_RECORD_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"

struct ptd_snappsb {
	uint64_t offset;      /* stream offset of the PSB */
	int enabled;          /* tracing was on: its PSB+ has FUP(ip) */
	uint64_t ip;
	int32_t tid;          /* the thread running then */
};

struct ptd_snapring;

int ptd_snapring_new(struct ptd_snapring **out, size_t size, struct ptd_err *err);
void ptd_snapring_free(struct ptd_snapring *r);   /* NULL-safe */

/* The stream's next n bytes. */
void ptd_snapring_append(struct ptd_snapring *r, const uint8_t *p, size_t n);

/* A PSB at stream offset `offset` (not yet appended is fine). */
int ptd_snapring_psb(struct ptd_snapring *r, const struct ptd_snappsb *psb, struct ptd_err *err);

/* The ring's contents now: a pointer to `*len` bytes (valid until the next
 * append) that start at stream offset *start. */
const uint8_t *ptd_snapring_contents(struct ptd_snapring *r, size_t *len, uint64_t *start);

/* The last PSB at or before stream offset off still in the ring, or NULL. */
const struct ptd_snappsb *ptd_snapring_psb_before(const struct ptd_snapring *r, uint64_t off);

/* The first PSB at or after stream offset off, or NULL. */
const struct ptd_snappsb *ptd_snapring_psb_at(const struct ptd_snapring *r, uint64_t off);

#endif
