/* Internals shared by reader.c (opening, header) and stream.c (records). */
#ifndef PTD_PERF_READER_PRIV_H
#define PTD_PERF_READER_PRIV_H

#include "formats/perf/reader.h"

/* > the largest record (64 KiB): each page of it is touched once (a page
 * new to the process is dear), and a larger window saves only reads */
#define WINDOW (68u * 1024)
#define MAX_FEATURE_SECTION (64ULL << 20)    /* larger feature sections are skipped */

struct ptd_reader {
	char *path;
	int fd;
	int own_fd;
	int eof;                      /* pipe: no more input */
	struct ptd_file_header hdr;
	struct ptd_evlist evlist;
	struct ptd_features feat;
	struct ptd_reader_opts opts;
	uint8_t *win;                 /* window over the input */
	uint64_t win_off;             /* input offset of win[0] */
	size_t win_len;
	size_t win_faulted;           /* bytes of win faulted in (prefault.h) */
	size_t idx_next;              /* file: the AUXTRACE index entry whose payload
	                                 ends the next window read (next_payload) */
	uint64_t pos;                 /* offset of the next record */
	uint64_t end;                 /* end of the data (UINT64_MAX in pipe mode) */
	struct ptd_decomp *decomp;
	uint64_t comp_offset;         /* offset of the compressed record being drained */
	uint8_t *rec_copy;            /* pipe: a record whose payload is being copied
	                                 (64 KiB, allocated at the first) */
	FILE *spill;
	uint64_t spill_size;
};

void ptd_reader_warnf(struct ptd_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int ptd_reader_pread(struct ptd_reader *r, uint64_t off, void *buf, size_t len, struct ptd_err *err);
/* ptd_reader_window where the window does not hold the bytes: read them */
const uint8_t *ptd_reader_window_read(struct ptd_reader *r, uint64_t off, size_t len,
				      struct ptd_err *err);

/* len bytes of input at off, in the window (moved, read, as needed):
 * valid until the next call; NULL with err set when the input ends before
 * them or cannot be read.  Inline, as each record takes two (always:
 * gcc made it a function of its own, 30 instructions a call). */
static inline __attribute__((always_inline)) const uint8_t *
ptd_reader_window(struct ptd_reader *r, uint64_t off, size_t len, struct ptd_err *err)
{
	if (off >= r->win_off && off - r->win_off + len <= r->win_len)
		return r->win + (off - r->win_off);
	return ptd_reader_window_read(r, off, len, err);
}
int ptd_reader_pipe_eof(struct ptd_reader *r, uint64_t off, struct ptd_err *err);
int ptd_reader_pipe_payload(struct ptd_reader *r, uint64_t off, uint64_t len,
			    struct ptd_payload *pl, struct ptd_err *err);

#endif
