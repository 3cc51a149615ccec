/* Writing a perf.data file (file mode): header, attrs with their sample
 * ids, the data section record by record (AUXTRACE payloads right after
 * their record), then feature sections.  The layout is perf's:
 *   header | attr ids | attrs | data | feature table | feature bodies */
#ifndef PTD_PERF_WRITER_H
#define PTD_PERF_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"

struct ptd_writer;

int ptd_writer_open(struct ptd_writer **out, const char *path, struct ptd_err *err);

/* Add an attr (attr_size bytes, attr.size must say the same) with its
 * sample ids.  All attrs come before the first record. */
int ptd_writer_attr(struct ptd_writer *w, const void *attr, size_t attr_size,
		    const uint64_t *ids, size_t nr_ids, struct ptd_err *err);

/* Give attr number `idx` (in the order added) one more sample id; allowed
 * until close, so ids of threads that appear later can be added. */
int ptd_writer_attr_id(struct ptd_writer *w, size_t idx, uint64_t id, struct ptd_err *err);

/* Append raw bytes to the data section: a whole record, or the payload
 * that follows an AUXTRACE record.  Returns 0 or an error; *offset (if not
 * NULL) gets the file offset the bytes were written at. */
int ptd_writer_data(struct ptd_writer *w, const void *p, size_t len, uint64_t *offset,
		    struct ptd_err *err);

/* Append len zero bytes without writing them: a hole in a sparse file
 * (for large test files). */
int ptd_writer_hole(struct ptd_writer *w, uint64_t len, struct ptd_err *err);

/* Add a feature section body (bit = PTD_FEAT_*); copied, written at close. */
int ptd_writer_feature(struct ptd_writer *w, unsigned bit, const void *p, size_t len,
		       struct ptd_err *err);

/* Write attrs, features and the header; close and free.  On error the file
 * is left incomplete.  NULL-safe. */
int ptd_writer_close(struct ptd_writer *w, struct ptd_err *err);

#endif
