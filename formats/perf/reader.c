#include "config.h"
#include "formats/perf/reader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/prefault.h"
#include "formats/perf/abi.h"
#include "formats/perf/cursor.h"
#include "formats/perf/decomp.h"
#include "formats/perf/reader_priv.h"

void ptd_reader_warnf(struct ptd_reader *r, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->opts.warn)
		r->opts.warn(r->opts.warn_ctx, msg);
	else
		fprintf(stderr, "ptdecode: warning: %s: %s\n", r->path, msg);
}

/* ---- input ------------------------------------------------------------ */

/* Read exactly len bytes at offset off of a seekable file. */
int ptd_reader_pread(struct ptd_reader *r, uint64_t off, void *buf, size_t len, struct ptd_err *err)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(r->fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ptd_err_set(err, PTD_E_IO, "read at offset %#llx: %s",
					   (unsigned long long)off, strerror(errno));
		if (n == 0)
			return ptd_err_set(err, PTD_E_TRUNCATED, "file ends at offset %#llx",
					   (unsigned long long)off);
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

/* The file offset of the first AUXTRACE payload after off that the
 * AUXTRACE index lists, 0 when none: a file's window is read up to it, as
 * the records skip the payloads (the decoder reads them as it decodes).
 * The index is only a hint here (checked: each entry is an AUXTRACE
 * record; perf writes them in order). */
static uint64_t next_payload(struct ptd_reader *r, uint64_t off)
{
	const struct ptd_auxtrace_index_entry *x = r->feat.auxtrace_index;
	size_t n = r->feat.nr_auxtrace_index;

	if (r->idx_next && (r->idx_next > n || x[r->idx_next - 1].file_offset + PTD_AUXTRACE_REC_SIZE > off))
		r->idx_next = 0;
	while (r->idx_next < n && x[r->idx_next].file_offset + PTD_AUXTRACE_REC_SIZE <= off)
		r->idx_next++;
	return r->idx_next < n ? x[r->idx_next].file_offset + PTD_AUXTRACE_REC_SIZE : 0;
}

/* Make [off, off+len), which the window does not hold (ptd_reader_window
 * looked first), available in it; len <= WINDOW.  Returns a pointer into
 * the window, or NULL with err set.  Pipe mode only moves forward. */
const uint8_t *ptd_reader_window_read(struct ptd_reader *r, uint64_t off, size_t len,
				      struct ptd_err *err)
{
	if (!r->hdr.pipe) {
		size_t want = WINDOW;
		uint64_t pl = next_payload(r, off);

		if (pl && pl - off >= len && pl - off < want)
			want = (size_t)(pl - off);
		if (r->hdr.file_size - off < want)
			want = (size_t)(r->hdr.file_size - off);
		if (want < len) {
			ptd_err_set(err, PTD_E_TRUNCATED, "file ends at offset %#llx",
				    (unsigned long long)r->hdr.file_size);
			return NULL;
		}
		if (want > r->win_faulted) {
			ptd_prefault(r->win + r->win_faulted, want - r->win_faulted);
			r->win_faulted = want;
		}
		if (ptd_reader_pread(r, off, r->win, want, err))
			return NULL;
		r->win_off = off;
		r->win_len = want;
		return r->win;
	}
	/* pipe: drop consumed bytes, then read until len bytes are there */
	if (off < r->win_off) {
		ptd_err_set(err, PTD_E_INVAL, "pipe input cannot go back to offset %#llx",
			    (unsigned long long)off);
		return NULL;
	}
	if (off - r->win_off >= r->win_len) {
		/* skip input between the window end and off */
		uint64_t skip = off - (r->win_off + r->win_len);

		r->win_off += r->win_len;
		r->win_len = 0;
		while (skip) {
			size_t chunk = skip < WINDOW ? (size_t)skip : WINDOW;
			ssize_t n = read(r->fd, r->win, chunk);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				ptd_err_set(err, n ? PTD_E_IO : PTD_E_TRUNCATED,
					    "input ends at offset %#llx", (unsigned long long)r->win_off);
				return NULL;
			}
			r->win_off += (uint64_t)n;
			skip -= (uint64_t)n;
		}
	} else {
		size_t drop = (size_t)(off - r->win_off);

		memmove(r->win, r->win + drop, r->win_len - drop);
		r->win_len -= drop;
		r->win_off = off;
	}
	while (r->win_len < len) {
		ssize_t n = read(r->fd, r->win + r->win_len, WINDOW - r->win_len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ptd_err_set(err, PTD_E_IO, "read: %s", strerror(errno));
			return NULL;
		}
		if (n == 0) {
			r->eof = 1;
			ptd_err_set(err, PTD_E_TRUNCATED, "input ends at offset %#llx",
				    (unsigned long long)(r->win_off + r->win_len));
			return NULL;
		}
		r->win_len += (size_t)n;
	}
	return r->win;
}

/* Pipe mode: 1 when the input ends exactly at off, 0 when there is more,
 * negative when it ends before off (inside a skipped payload). */
int ptd_reader_pipe_eof(struct ptd_reader *r, uint64_t off, struct ptd_err *err)
{
	if (off < r->win_off + r->win_len)
		return 0;
	if (!ptd_reader_window(r, off, 1, err)) {
		if (err->code == PTD_E_TRUNCATED && r->win_off + r->win_len == off)
			return 1;
		return -err->code;
	}
	return 0;
}

/* Pipe mode: move `len` payload bytes at `off` to the spill file (or drop them). */
int ptd_reader_pipe_payload(struct ptd_reader *r, uint64_t off, uint64_t len,
			struct ptd_payload *pl, struct ptd_err *err)
{
	if (r->opts.keep_payloads && !r->spill) {
		r->spill = tmpfile();
		if (!r->spill)
			return ptd_err_set(err, PTD_E_IO, "spill file for AUX data: %s", strerror(errno));
	}
	pl->spilled = 1;
	pl->available = 1;
	pl->offset = r->spill_size;
	while (len) {
		size_t chunk = len < WINDOW ? (size_t)len : WINDOW;
		const uint8_t *p = ptd_reader_window(r, off, chunk, err);

		if (!p)
			return ptd_err_append(err, "AUXTRACE payload");
		if (r->spill && fwrite(p, 1, chunk, r->spill) != chunk)
			return ptd_err_set(err, PTD_E_IO, "writing spill file: %s", strerror(errno));
		if (r->spill)
			r->spill_size += chunk;
		off += chunk;
		len -= chunk;
	}
	return 0;
}

/* ---- header ----------------------------------------------------------- */

static int read_attrs(struct ptd_reader *r, struct ptd_err *err)
{
	const struct ptd_file_header *h = &r->hdr;
	uint64_t nr, i;
	size_t asz;
	uint8_t *buf;
	int rc = 0;

	if (h->attr_size < PTD_ATTR_SIZE_VER0 + 16 || h->attr_size > 4096)
		return ptd_err_set(err, PTD_E_FORMAT, "file header at offset 0: attr_size %llu is impossible",
				   (unsigned long long)h->attr_size);
	if (h->attrs.size % h->attr_size)
		return ptd_err_set(err, PTD_E_FORMAT, "file header at offset 0: attrs section size %llu is not a multiple of attr_size %llu",
				   (unsigned long long)h->attrs.size, (unsigned long long)h->attr_size);
	nr = h->attrs.size / h->attr_size;
	asz = (size_t)h->attr_size - 16;
	buf = malloc((size_t)h->attr_size);
	if (!buf)
		return ptd_err_set(err, PTD_E_NOMEM, "attr buffer");
	for (i = 0; i < nr && !rc; i++) {
		uint64_t off = h->attrs.offset + i * h->attr_size;
		uint64_t ids_off, ids_size, *ids = NULL;

		rc = ptd_reader_pread(r, off, buf, (size_t)h->attr_size, err);
		if (rc)
			break;
		ids_off = ptd_load_u64(buf + asz);
		ids_size = ptd_load_u64(buf + asz + 8);
		if (ids_size % 8 || ids_off > h->file_size || ids_size > h->file_size - ids_off) {
			rc = ptd_err_set(err, PTD_E_FORMAT, "attr %llu at offset %#llx: ids section [%#llx, +%#llx) outside the file",
					 (unsigned long long)i, (unsigned long long)off,
					 (unsigned long long)ids_off, (unsigned long long)ids_size);
			break;
		}
		if (ids_size) {
			ids = malloc((size_t)ids_size);
			if (!ids) {
				rc = ptd_err_set(err, PTD_E_NOMEM, "attr ids");
				break;
			}
			rc = ptd_reader_pread(r, ids_off, ids, (size_t)ids_size, err);
		}
		if (!rc)
			rc = ptd_evlist_add(&r->evlist, buf, asz, ids, (size_t)(ids_size / 8), NULL, err);
		if (rc)
			ptd_err_append(err, "attr %llu at offset %#llx", (unsigned long long)i,
				       (unsigned long long)off);
		free(ids);
	}
	free(buf);
	return rc;
}

static void read_features(struct ptd_reader *r, const uint64_t bitmap[4])
{
	const struct ptd_file_header *h = &r->hdr;
	uint64_t table = h->data.offset + h->data.size;
	unsigned bit, n = 0;
	struct ptd_err e;

	for (bit = 0; bit < PTD_FEAT_BITS; bit++) {
		uint8_t sec[16];
		uint64_t off, size;
		uint8_t *buf;
		const char *name = ptd_feat_name(bit);

		if (!((bitmap[bit / 64] >> (bit % 64)) & 1))
			continue;
		r->feat.bitmap[bit / 64] |= 1ULL << (bit % 64);
		if (ptd_reader_pread(r, table + 16ULL * n++, sec, 16, &e)) {
			ptd_reader_warnf(r, "feature section table at offset %#llx: %s",
			      (unsigned long long)(table + 16ULL * (n - 1)), e.msg);
			return;
		}
		off = ptd_load_u64(sec);
		size = ptd_load_u64(sec + 8);
		if (off > h->file_size || size > h->file_size - off) {
			ptd_reader_warnf(r, "feature %s: section [%#llx, +%#llx) outside the file; ignored",
			      name ? name : "?", (unsigned long long)off, (unsigned long long)size);
			continue;
		}
		if (size > MAX_FEATURE_SECTION)
			continue;
		switch (bit) {
		case PTD_FEAT_TRACING_DATA: case PTD_FEAT_CPU_TOPOLOGY:
		case PTD_FEAT_NUMA_TOPOLOGY: case PTD_FEAT_CACHE:
		case PTD_FEAT_MEM_TOPOLOGY: case PTD_FEAT_BPF_PROG_INFO:
		case PTD_FEAT_BPF_BTF:
			continue;       /* present, not needed */
		default:
			break;
		}
		buf = malloc(size ? (size_t)size : 1);
		if (!buf) {
			ptd_reader_warnf(r, "feature %s: out of memory", name ? name : "?");
			continue;
		}
		if (ptd_reader_pread(r, off, buf, (size_t)size, &e) ||
		    ptd_features_parse(&r->feat, bit, buf, (size_t)size, &r->evlist, &e))
			ptd_reader_warnf(r, "section at offset %#llx: %s", (unsigned long long)off, e.msg);
		free(buf);
	}
}

/* Each index entry must point at an AUXTRACE record inside the data. */
static void check_auxtrace_index(struct ptd_reader *r)
{
	struct ptd_features *f = &r->feat;
	struct ptd_err e2;
	size_t i;

	for (i = 0; i < f->nr_auxtrace_index; i++) {
		const struct ptd_auxtrace_index_entry *e = &f->auxtrace_index[i];
		uint8_t h[8];
		const char *why = NULL;

		if (e->file_offset < r->hdr.data.offset || e->file_offset >= r->end ||
		    e->size < PTD_AUXTRACE_REC_SIZE || e->size > r->end - e->file_offset)
			why = "is outside the data section";
		else if (ptd_reader_pread(r, e->file_offset, h, 8, &e2) ||
			 ptd_load_u32(h) != PTD_REC_AUXTRACE)
			why = "does not point at an AUXTRACE record";
		if (why) {
			ptd_reader_warnf(r, "AUXTRACE index entry %zu [%#llx, +%#llx) %s; index ignored",
			      i, (unsigned long long)e->file_offset, (unsigned long long)e->size, why);
			free(f->auxtrace_index);
			f->auxtrace_index = NULL;
			f->nr_auxtrace_index = 0;
			return;
		}
	}
}

static int open_file_mode(struct ptd_reader *r, struct ptd_err *err)
{
	uint8_t h[PTD_FILE_HEADER_SIZE];
	struct ptd_file_header *fh = &r->hdr;
	struct ptd_cursor c;
	uint64_t bitmap[4];
	int i;

	if (fh->file_size < PTD_FILE_HEADER_SIZE)
		return ptd_err_set(err, PTD_E_TRUNCATED, "file ends at offset %#llx, inside the %d-byte perf.data header at offset 0",
				   (unsigned long long)fh->file_size, PTD_FILE_HEADER_SIZE);
	if (ptd_reader_pread(r, 0, h, sizeof(h), err))
		return ptd_err_append(err, "header");
	ptd_cur_init(&c, h, sizeof(h));
	ptd_cur_u64(&c);
	fh->header_size = ptd_cur_u64(&c);
	fh->attr_size = ptd_cur_u64(&c);
	fh->attrs.offset = ptd_cur_u64(&c);
	fh->attrs.size = ptd_cur_u64(&c);
	fh->data.offset = ptd_cur_u64(&c);
	fh->data.size = ptd_cur_u64(&c);
	fh->event_types.offset = ptd_cur_u64(&c);
	fh->event_types.size = ptd_cur_u64(&c);
	for (i = 0; i < 4; i++)
		bitmap[i] = ptd_cur_u64(&c);
	if (fh->header_size < PTD_FILE_HEADER_SIZE - 32)
		return ptd_err_set(err, PTD_E_FORMAT, "file header at offset 0: header size %llu is too small",
				   (unsigned long long)fh->header_size);
	if (fh->attrs.offset > fh->file_size || fh->attrs.size > fh->file_size - fh->attrs.offset)
		return ptd_err_set(err, PTD_E_FORMAT, "file header at offset 0: attrs section [%#llx, +%#llx) outside the file (%llu bytes)",
				   (unsigned long long)fh->attrs.offset, (unsigned long long)fh->attrs.size,
				   (unsigned long long)fh->file_size);
	if (fh->data.offset > fh->file_size || fh->data.size > fh->file_size - fh->data.offset)
		return ptd_err_set(err, PTD_E_TRUNCATED, "file header at offset 0: data section [%#llx, +%#llx) extends past the end of the file (%llu bytes)",
				   (unsigned long long)fh->data.offset, (unsigned long long)fh->data.size,
				   (unsigned long long)fh->file_size);
	if (fh->data.offset < PTD_FILE_HEADER_SIZE && fh->data.size)
		return ptd_err_set(err, PTD_E_FORMAT, "file header at offset 0: data section at %#llx overlaps the header",
				   (unsigned long long)fh->data.offset);
	if (read_attrs(r, err))
		return -err->code;
	r->pos = fh->data.offset;
	r->end = fh->data.offset + fh->data.size;
	read_features(r, bitmap);
	check_auxtrace_index(r);
	return 0;
}

int ptd_reader_open(struct ptd_reader **out, const char *path,
		    const struct ptd_reader_opts *opts, struct ptd_err *err)
{
	struct ptd_reader *r = calloc(1, sizeof(*r));
	struct stat st;
	uint8_t magic[16] = { 0 };
	uint64_t m, hsize;
	int rc;

	if (!r || !(r->win = malloc(WINDOW)) || !(r->path = strdup(path))) {
		if (r)
			free(r->win);
		free(r);
		return ptd_err_set(err, PTD_E_NOMEM, "reader");
	}
	if (opts)
		r->opts = *opts;
	ptd_evlist_init(&r->evlist);
	if (!strcmp(path, "-")) {
		r->fd = 0;
	} else {
		r->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (r->fd >= 0 && fstat(r->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
			/* a perf.data directory (perf record --kcore): DIR/data */
			int fd = openat(r->fd, "data", O_RDONLY | O_CLOEXEC);

			close(r->fd);
			r->fd = fd;
		}
		if (r->fd < 0) {
			rc = ptd_err_set(err, PTD_E_IO, "%s", strerror(errno));
			goto fail;
		}
		r->own_fd = 1;
	}
	if (fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode))
		r->hdr.file_size = (uint64_t)st.st_size;
	/* read the magic through the pipe path so non-seekable input works */
	r->hdr.pipe = !S_ISREG(st.st_mode);
	if (r->hdr.pipe) {
		const uint8_t *p = ptd_reader_window(r, 0, 16, err);

		if (!p) {
			rc = ptd_err_set(err, PTD_E_TRUNCATED, "input ends at offset %#llx, inside the perf.data header at offset 0",
					 (unsigned long long)r->win_len);
			goto fail;
		}
		memcpy(magic, p, 16);
	} else if ((rc = ptd_reader_pread(r, 0, magic, r->hdr.file_size < 16 ? 8 : 16, err))) {
		ptd_err_set(err, PTD_E_TRUNCATED, "file ends at offset %#llx, inside the perf.data header at offset 0",
			    (unsigned long long)r->hdr.file_size);
		goto fail;
	}
	m = ptd_load_u64(magic);
	hsize = ptd_load_u64(magic + 8);
	if (m == PTD_PERF_MAGIC2_SW) {
		rc = ptd_err_set(err, PTD_E_UNSUPPORTED,
				 "written on a machine of the other byte order; such files are not supported");
		goto fail;
	}
	if (m != PTD_PERF_MAGIC2) {
		rc = ptd_err_set(err, PTD_E_FORMAT, "not a perf.data file (magic %016llx at offset 0)",
				 (unsigned long long)m);
		goto fail;
	}
	if (hsize == PTD_PIPE_HEADER_SIZE) {
		if (!r->hdr.pipe) {
			/* a pipe-mode recording saved to a file: read it as a stream */
			r->win_off = 0;
			r->win_len = 0;
			r->hdr.pipe = 1;
		}
		r->hdr.header_size = hsize;
		r->pos = PTD_PIPE_HEADER_SIZE;
		r->end = UINT64_MAX;
	} else if (r->hdr.pipe) {
		rc = ptd_err_set(err, PTD_E_UNSUPPORTED,
				 "file-mode perf.data (header size %llu) cannot be read from a pipe",
				 (unsigned long long)hsize);
		goto fail;
	} else if ((rc = open_file_mode(r, err))) {
		goto fail;
	}
	*out = r;
	return 0;
fail:
	ptd_reader_close(r);
	return rc;
}

void ptd_reader_close(struct ptd_reader *r)
{
	if (!r)
		return;
	if (r->own_fd)
		close(r->fd);
	if (r->spill)
		fclose(r->spill);
	ptd_decomp_free(r->decomp);
	ptd_evlist_fini(&r->evlist);
	ptd_features_fini(&r->feat);
	free(r->win);
	free(r->rec_copy);
	free(r->path);
	free(r);
}

const struct ptd_file_header *ptd_reader_header(const struct ptd_reader *r) { return &r->hdr; }
const struct ptd_features *ptd_reader_features(const struct ptd_reader *r) { return &r->feat; }
struct ptd_evlist *ptd_reader_evlist(struct ptd_reader *r) { return &r->evlist; }
const char *ptd_reader_path(const struct ptd_reader *r) { return r->path; }
