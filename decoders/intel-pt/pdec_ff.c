/* The decoder's fast-forward for perf script's --time ranges: perf's
 * intel_pt_fast_forward.  Decoding moves on to the last PSB whose TSC is
 * before the range's start: first to the last piece of trace whose first
 * PSB's TSC is before it (looked for ahead, without decoding), then from
 * PSB to PSB inside that piece. */
#define _GNU_SOURCE
#include "decoders/intel-pt/pdec_priv.h"

#include <errno.h>
#include <string.h>

struct ff {
	uint64_t timestamp;      /* where to go */
	uint64_t buf_timestamp;  /* the reference time of the last piece before it */
};

/* perf's intel_pt_ff_cb: 1 (stop) at the first piece whose first PSB's
 * TSC is not before the timestamp */
static int ff_cb(const struct pdec_buf *b, void *data)
{
	struct ff *f = data;
	const uint8_t *buf = b->buf;
	size_t len = b->len;
	uint64_t tsc;

	if (!pdec_next_psb(&buf, &len) || !pdec_next_tsc(buf, len, &tsc, NULL))
		return 0;
	tsc = pdec_tsc_8b(tsc, b->ref_timestamp);
	if (tsc >= f->timestamp)
		return 1;
	f->buf_timestamp = b->ref_timestamp;
	return 0;
}

int ptd_pdec_fast_forward(struct ptd_pdec *d, uint64_t timestamp)
{
	struct ff f = { timestamp, 0 };
	const uint8_t *buf;
	size_t len;
	int rc;

	if (!d->p.lookahead)
		return 0;
	rc = d->p.lookahead(d->p.ctx, ff_cb, &f);
	if (rc < 0)
		return rc;
	if (f.buf_timestamp) {
		do {
			d->pos += d->len - d->off;
			d->off = d->len;
			rc = pdec_get_data(d, true);
			if (rc && rc != -ENOLINK)
				return rc;
		} while (d->buf_timestamp != f.buf_timestamp);
	}
	if (!d->buf || d->off >= d->len)
		return 0;
	buf = d->buf + d->off;
	len = d->len - d->off;
	if (!pdec_next_psb(&buf, &len))
		return 0;
	do {
		uint64_t tsc;

		if (!pdec_next_tsc(buf, len, &tsc, NULL))
			break;
		tsc = pdec_tsc_8b(tsc, d->buf_timestamp);
		if (tsc >= timestamp)
			break;
		/* decoding starts again at this PSB (as after a break) */
		d->pos += (size_t)(buf - (d->buf + d->off));
		d->off = (size_t)(buf - d->buf);
		pdec_reposition(d);
	} while (pdec_step_psb(&buf, &len));
	return 0;
}
