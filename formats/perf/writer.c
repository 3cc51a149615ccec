#include "formats/perf/writer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/perf/abi.h"

/* room reserved after the header for attrs and their ids */
#define ATTR_AREA (64u * 1024)

struct wattr {
	uint8_t *attr;
	size_t size;
	uint64_t *ids;
	size_t nr_ids;
};

struct wfeat {
	unsigned bit;
	uint8_t *p;
	size_t len;
};

struct ptd_writer {
	FILE *f;
	struct wattr attrs[64];
	size_t nr_attrs;
	struct wfeat feats[PTD_FEAT_BITS];
	size_t nr_feats;
	uint64_t data_start, data_end;
	int started;
};

static int ioerr(struct ptd_err *err, const char *what)
{
	return ptd_err_set(err, PTD_E_IO, "%s: %s", what, strerror(errno));
}

int ptd_writer_open(struct ptd_writer **out, const char *path, struct ptd_err *err)
{
	struct ptd_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return ptd_err_set(err, PTD_E_NOMEM, "writer");
	w->f = fopen(path, "w+b");
	if (!w->f) {
		free(w);
		return ptd_err_set(err, PTD_E_IO, "%s: %s", path, strerror(errno));
	}
	w->data_start = w->data_end = PTD_FILE_HEADER_SIZE + ATTR_AREA;
	*out = w;
	return 0;
}

int ptd_writer_attr(struct ptd_writer *w, const void *attr, size_t attr_size,
		    const uint64_t *ids, size_t nr_ids, struct ptd_err *err)
{
	struct wattr *a;

	if (w->started)
		return ptd_err_set(err, PTD_E_INVAL, "attrs must come before records");
	if (w->nr_attrs == sizeof(w->attrs) / sizeof(w->attrs[0]))
		return ptd_err_set(err, PTD_E_LIMIT, "too many attrs");
	if (w->nr_attrs && attr_size != w->attrs[0].size)
		return ptd_err_set(err, PTD_E_INVAL, "all attrs must have the same size");
	a = &w->attrs[w->nr_attrs];
	a->attr = malloc(attr_size);
	a->ids = malloc(nr_ids ? nr_ids * 8 : 1);
	if (!a->attr || !a->ids) {
		free(a->attr);
		free(a->ids);
		return ptd_err_set(err, PTD_E_NOMEM, "attr");
	}
	memcpy(a->attr, attr, attr_size);
	if (nr_ids)
		memcpy(a->ids, ids, nr_ids * 8);
	a->size = attr_size;
	a->nr_ids = nr_ids;
	w->nr_attrs++;
	return 0;
}

int ptd_writer_attr_id(struct ptd_writer *w, size_t idx, uint64_t id, struct ptd_err *err)
{
	struct wattr *a;
	uint64_t *n;

	if (idx >= w->nr_attrs)
		return ptd_err_set(err, PTD_E_INVAL, "no attr %zu", idx);
	a = &w->attrs[idx];
	n = realloc(a->ids, (a->nr_ids + 1) * 8);
	if (!n)
		return ptd_err_set(err, PTD_E_NOMEM, "attr ids");
	a->ids = n;
	a->ids[a->nr_ids++] = id;
	return 0;
}

int ptd_writer_data(struct ptd_writer *w, const void *p, size_t len, uint64_t *offset,
		    struct ptd_err *err)
{
	if (!w->started) {
		if (fseeko(w->f, (off_t)w->data_start, SEEK_SET))
			return ioerr(err, "seek");
		w->started = 1;
	}
	if (offset)
		*offset = w->data_end;
	if (len && fwrite(p, 1, len, w->f) != len)
		return ioerr(err, "write");
	w->data_end += len;
	return 0;
}

int ptd_writer_hole(struct ptd_writer *w, uint64_t len, struct ptd_err *err)
{
	int rc = ptd_writer_data(w, NULL, 0, NULL, err);

	if (rc)
		return rc;
	if (fseeko(w->f, (off_t)len, SEEK_CUR))
		return ioerr(err, "seek");
	w->data_end += len;
	return 0;
}

int ptd_writer_feature(struct ptd_writer *w, unsigned bit, const void *p, size_t len,
		       struct ptd_err *err)
{
	struct wfeat *f;

	if (bit >= PTD_FEAT_BITS || w->nr_feats == PTD_FEAT_BITS)
		return ptd_err_set(err, PTD_E_INVAL, "feature bit %u", bit);
	f = &w->feats[w->nr_feats];
	f->p = malloc(len ? len : 1);
	if (!f->p)
		return ptd_err_set(err, PTD_E_NOMEM, "feature");
	memcpy(f->p, p, len);
	f->len = len;
	f->bit = bit;
	w->nr_feats++;
	return 0;
}

static int by_bit(const void *x, const void *y)
{
	const struct wfeat *a = x, *b = y;

	return (int)a->bit - (int)b->bit;
}

static int put(struct ptd_writer *w, uint64_t off, const void *p, size_t len, struct ptd_err *err)
{
	if (fseeko(w->f, (off_t)off, SEEK_SET) || (len && fwrite(p, 1, len, w->f) != len))
		return ioerr(err, "write");
	return 0;
}

static int finish(struct ptd_writer *w, struct ptd_err *err)
{
	uint64_t hdr[13] = { 0 }, off = PTD_FILE_HEADER_SIZE, attr_off, table, body;
	size_t i, asz = w->nr_attrs ? w->attrs[0].size : 64;

	/* ids first, then the attr entries (attr + ids section) */
	for (i = 0; i < w->nr_attrs; i++) {
		if (put(w, off, w->attrs[i].ids, w->attrs[i].nr_ids * 8, err))
			return -err->code;
		off += w->attrs[i].nr_ids * 8;
	}
	attr_off = off;
	for (i = 0, off = PTD_FILE_HEADER_SIZE; i < w->nr_attrs; i++) {
		uint64_t sec[2] = { off, w->attrs[i].nr_ids * 8 };
		uint64_t at = attr_off + i * (asz + 16);

		if (at + asz + 16 > w->data_start)
			return ptd_err_set(err, PTD_E_LIMIT, "attrs do not fit the reserved area");
		if (put(w, at, w->attrs[i].attr, asz, err) || put(w, at + asz, sec, 16, err))
			return -err->code;
		off += sec[1];
	}
	/* features: a table of {offset, size} in bit order, then the bodies */
	qsort(w->feats, w->nr_feats, sizeof(w->feats[0]), by_bit);
	table = w->data_end;
	body = table + 16 * w->nr_feats;
	for (i = 0; i < w->nr_feats; i++) {
		uint64_t sec[2] = { body, w->feats[i].len };

		if (put(w, table + 16 * i, sec, 16, err) || put(w, body, w->feats[i].p, w->feats[i].len, err))
			return -err->code;
		body += w->feats[i].len;
		hdr[9 + w->feats[i].bit / 64] |= 1ULL << (w->feats[i].bit % 64);
	}
	hdr[0] = PTD_PERF_MAGIC2;
	hdr[1] = PTD_FILE_HEADER_SIZE;
	hdr[2] = asz + 16;
	hdr[3] = attr_off;
	hdr[4] = w->nr_attrs * (asz + 16);
	hdr[5] = w->data_start;
	hdr[6] = w->data_end - w->data_start;
	if (put(w, 0, hdr, sizeof(hdr), err))
		return -err->code;
	return 0;
}

int ptd_writer_close(struct ptd_writer *w, struct ptd_err *err)
{
	size_t i;
	int rc;

	if (!w)
		return 0;
	rc = finish(w, err);
	if (fclose(w->f) && !rc)
		rc = ioerr(err, "close");
	for (i = 0; i < w->nr_attrs; i++) {
		free(w->attrs[i].attr);
		free(w->attrs[i].ids);
	}
	for (i = 0; i < w->nr_feats; i++)
		free(w->feats[i].p);
	free(w);
	return rc;
}
