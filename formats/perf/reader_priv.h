/* Internals shared by reader.c (opening, header) and stream.c (records). */
#ifndef PTD_PERF_READER_PRIV_H
#define PTD_PERF_READER_PRIV_H

#include "formats/perf/reader.h"

#define WINDOW (256u * 1024)                 /* > the largest record (64 KiB) */
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
	uint64_t pos;                 /* offset of the next record */
	uint64_t end;                 /* end of the data (UINT64_MAX in pipe mode) */
	struct ptd_decomp *decomp;
	uint64_t comp_offset;         /* offset of the compressed record being drained */
	uint8_t rec_copy[65536];      /* pipe: a record whose payload is being copied */
	FILE *spill;
	uint64_t spill_size;
};

void ptd_reader_warnf(struct ptd_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int ptd_reader_pread(struct ptd_reader *r, uint64_t off, void *buf, size_t len, struct ptd_err *err);
const uint8_t *ptd_reader_window(struct ptd_reader *r, uint64_t off, size_t len, struct ptd_err *err);
int ptd_reader_pipe_eof(struct ptd_reader *r, uint64_t off, struct ptd_err *err);
int ptd_reader_pipe_payload(struct ptd_reader *r, uint64_t off, uint64_t len,
			    struct ptd_payload *pl, struct ptd_err *err);

#endif
