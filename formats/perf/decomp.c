#include "config.h"
#include "formats/perf/decomp.h"

#include <stdlib.h>
#include <string.h>

#ifdef HAVE_ZSTD
#include "formats/perf/cursor.h"
#include "formats/perf/zstd_load.h"

/* the output window: one record is at most 64 KiB, so a window of a few
 * records always makes progress while bounding memory */
#define OUT_CAP (1u << 20)

struct ptd_decomp {
	ZSTD_DStream *zs;
	uint8_t *in;           /* copy of the compressed bytes */
	size_t in_len, in_pos, in_cap;
	uint8_t out[OUT_CAP];
	size_t out_len, out_pos;
};

int ptd_decomp_new(struct ptd_decomp **out, struct ptd_err *err)
{
	struct ptd_decomp *d;
	int rc;

	*out = NULL;
	if ((rc = ptd_zstd_load(err)))
		return rc;
	d = calloc(1, sizeof(*d));
	if (!d || !(d->zs = ZSTD_createDStream())) {
		free(d);
		return ptd_err_set(err, PTD_E_NOMEM, "zstd decompression stream");
	}
	ZSTD_initDStream(d->zs);
	*out = d;
	return 0;
}

void ptd_decomp_free(struct ptd_decomp *d)
{
	if (!d)
		return;
	ZSTD_freeDStream(d->zs);
	free(d->in);
	free(d);
}

int ptd_decomp_feed(struct ptd_decomp *d, const uint8_t *p, size_t len, struct ptd_err *err)
{
	if (len > d->in_cap) {
		uint8_t *n = realloc(d->in, len);

		if (!n)
			return ptd_err_set(err, PTD_E_NOMEM, "compressed record copy");
		d->in = n;
		d->in_cap = len;
	}
	if (len)
		memcpy(d->in, p, len);
	d->in_len = len;
	d->in_pos = 0;
	return 0;
}

size_t ptd_decomp_pending(const struct ptd_decomp *d)
{
	return d->out_len - d->out_pos;
}

int ptd_decomp_next(struct ptd_decomp *d, const uint8_t **rec, size_t *size, struct ptd_err *err)
{
	for (;;) {
		size_t avail = d->out_len - d->out_pos;
		ZSTD_inBuffer in;
		ZSTD_outBuffer out;
		size_t rc;

		if (avail >= 8) {
			size_t rsz = ptd_load_u32(d->out + d->out_pos + 4) >> 16;

			if (rsz < 8)
				return ptd_err_set(err, PTD_E_FORMAT,
						   "record of size %zu inside compressed data", rsz);
			if (rsz <= avail) {
				*rec = d->out + d->out_pos;
				*size = rsz;
				d->out_pos += rsz;
				return 1;
			}
		}
		if (d->in_pos >= d->in_len)
			return 0;
		/* slide the partial record to the front and decompress more */
		memmove(d->out, d->out + d->out_pos, avail);
		d->out_len = avail;
		d->out_pos = 0;
		in.src = d->in;
		in.size = d->in_len;
		in.pos = d->in_pos;
		out.dst = d->out;
		out.size = OUT_CAP;
		out.pos = d->out_len;
		rc = ZSTD_decompressStream(d->zs, &out, &in);
		if (ZSTD_isError(rc))
			return ptd_err_set(err, PTD_E_FORMAT, "zstd: %s", ZSTD_getErrorName(rc));
		if (out.pos == d->out_len && in.pos == d->in_pos)
			return ptd_err_set(err, PTD_E_FORMAT, "zstd stream makes no progress");
		d->in_pos = in.pos;
		d->out_len = out.pos;
	}
}

#else

struct ptd_decomp { int unused; };

int ptd_decomp_new(struct ptd_decomp **out, struct ptd_err *err)
{
	*out = NULL;
	return ptd_err_set(err, PTD_E_UNSUPPORTED,
			   "compressed records need zstd (rebuild with libzstd-dev installed)");
}

void ptd_decomp_free(struct ptd_decomp *d) { (void)d; }

int ptd_decomp_feed(struct ptd_decomp *d, const uint8_t *p, size_t len, struct ptd_err *err)
{
	return ptd_err_set(err, PTD_E_UNSUPPORTED, "no zstd");
}

int ptd_decomp_next(struct ptd_decomp *d, const uint8_t **rec, size_t *size, struct ptd_err *err)
{
	return 0;
}

size_t ptd_decomp_pending(const struct ptd_decomp *d) { return 0; }

#endif
