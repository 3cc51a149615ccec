/* Reading a perf.data file, record by record, in file order.
 *
 * File mode (PERFILE2 header, seekable) and pipe mode (16-byte header, from
 * a pipe, stdin or a file).  Records are handed out one at a time from a
 * bounded window: memory does not grow with the file.  AUXTRACE payloads are
 * not read: the event names where they are (the file itself, or in pipe
 * mode a spill file the reader writes them to when asked to keep them).
 *
 * Records inside COMPRESSED/COMPRESSED2 records are handed out after the
 * compressed record itself, each with the compressed record's offset (as
 * perf reports them) and `compressed` set.
 */
#ifndef PTD_PERF_READER_H
#define PTD_PERF_READER_H

#include <stdint.h>
#include <stdio.h>

#include "common/err.h"
#include "formats/perf/evlist.h"
#include "formats/perf/features.h"
#include "formats/perf/sample.h"

struct ptd_section {
	uint64_t offset, size;
};

struct ptd_file_header {
	int pipe;                     /* pipe-mode file */
	uint64_t file_size;           /* 0 when unknown (pipe) */
	uint64_t header_size;
	uint64_t attr_size;           /* file mode: bytes per attr entry */
	struct ptd_section attrs, data, event_types;
	uint64_t nr_records;          /* records handed out so far */
};

/* Where the bytes that follow a record (AUXTRACE payload) are. */
struct ptd_payload {
	int spilled;                  /* 1: in the reader's spill file, 0: in the input file */
	int available;                /* 0: not kept (pipe mode without keep_payloads) */
	uint64_t offset;              /* offset in the file or the spill file */
	uint64_t size;
};

struct ptd_event {   /* ptd_event_fill sets each member before the sample */
	uint64_t offset;              /* file offset of the record (of the COMPRESSED one) */
	int compressed;               /* came out of a compressed record */
	uint32_t type;
	uint16_t misc;
	uint16_t size;
	const uint8_t *data;          /* the record, header included; borrowed until the next read */
	struct ptd_evsel *evsel;      /* attr it belongs to, or NULL */
	struct ptd_sample_id sid;     /* from the trailer or the sample; have=0 when none */
	struct ptd_payload payload;   /* AUXTRACE (and pipe TRACING_DATA): bytes after the record */
	int sample_ok;                /* SAMPLE only: `sample` is valid */
	struct ptd_sample sample;     /* SAMPLE only; last: ptd_event_fill clears what comes before */
};

struct ptd_reader_opts {
	int keep_payloads;            /* pipe mode: copy AUXTRACE payloads to a spill file */
	/* called for problems that do not stop reading; NULL: print to stderr */
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
};

struct ptd_reader;

/* Open `path` ("-" is standard input) and read the header, attrs and
 * features.  Returns 0 or a negative error whose message names the file and
 * the offset. */
int ptd_reader_open(struct ptd_reader **out, const char *path,
		    const struct ptd_reader_opts *opts, struct ptd_err *err);
void ptd_reader_close(struct ptd_reader *r);   /* NULL-safe */

const struct ptd_file_header *ptd_reader_header(const struct ptd_reader *r);
const struct ptd_features *ptd_reader_features(const struct ptd_reader *r);
struct ptd_evlist *ptd_reader_evlist(struct ptd_reader *r);
const char *ptd_reader_path(const struct ptd_reader *r);

/* The next record.  Returns 1 with *ev filled, 0 at the end of the data, or
 * a negative error (bad size, truncation, corrupt compressed data) whose
 * message names the offset and the record type. */
int ptd_reader_next(struct ptd_reader *r, struct ptd_event *ev, struct ptd_err *err);

/* *ev for a record ptd_reader_next gave before (rec: a copy of its
 * bytes, size of them; off and compressed as it gave them): the header's
 * fields, then with evsel (NULL: none) the sample or the sample_id
 * trailer, as ptd_reader_next parsed them.  Returns 0, or -PTD_E_FORMAT
 * when they do not parse (ev->sample_ok is then 0; err says why, for a
 * sample). */
int ptd_event_fill(struct ptd_event *ev, const uint8_t *rec, size_t size, uint64_t off,
		   int compressed, struct ptd_evsel *evsel, struct ptd_err *err);

/* Copy `len` bytes at `off` within a payload into buf.  Returns 0 or an
 * error (out of range, I/O, payload not kept). */
int ptd_reader_read_payload(struct ptd_reader *r, const struct ptd_payload *p,
			    uint64_t off, void *buf, size_t len, struct ptd_err *err);

#endif
