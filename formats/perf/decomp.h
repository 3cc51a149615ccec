/* Records inside COMPRESSED / COMPRESSED2 records: a zstd stream whose
 * output is a sequence of ordinary records, possibly split across several
 * compressed records.  Output is produced in bounded pieces. */
#ifndef PTD_PERF_DECOMP_H
#define PTD_PERF_DECOMP_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"

struct ptd_decomp;

/* Returns 0, or -PTD_E_UNSUPPORTED when built without zstd. */
int ptd_decomp_new(struct ptd_decomp **out, struct ptd_err *err);
void ptd_decomp_free(struct ptd_decomp *d);   /* NULL-safe */

/* Hand over the compressed bytes of one record (copied).  Any partial
 * record left from the previous one is kept in front of the new output. */
int ptd_decomp_feed(struct ptd_decomp *d, const uint8_t *p, size_t len, struct ptd_err *err);

/* The next complete record: *rec points at its header (borrowed until the
 * next call), *size is header.size.  Returns 1 with a record, 0 when the
 * fed input is used up (a partial record may remain for the next feed), or
 * a negative error for a corrupt stream or a record of size < 8. */
int ptd_decomp_next(struct ptd_decomp *d, const uint8_t **rec, size_t *size, struct ptd_err *err);

/* Bytes of an unfinished record held back at the end. */
size_t ptd_decomp_pending(const struct ptd_decomp *d);

#endif
