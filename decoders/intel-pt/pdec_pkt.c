/* Packets for the perf-semantics decoder: pieces of trace from get_trace(),
 * their packets in perf's terms (pdec_priv.h) by pdec_parse. */
#define _GNU_SOURCE
#include "decoders/intel-pt/pdec_parse.h"

#include <errno.h>
#include <string.h>

const uint8_t ptd_pdec_psb[PDEC_PSB_LEN] = {
	0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
	0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
};

int pdec_test_packet(const uint8_t *buf, size_t len, bool quick, struct pdec_pkt *out)
{
	if (!len)
		return 0;
	if (quick)
		return (buf[0] & 3) == 3 ? 0 : pdec_quick_packet(buf, len, out);
	return pdec_parse(buf, len, 0, out);
}

/* perf's intel_pt_get_data: -ENODATA at the end, -ENOLINK after a break
 * (or always, with reposition). */
int pdec_get_data(struct ptd_pdec *d, bool reposition)
{
	struct pdec_buf b;
	int rc;

	memset(&b, 0, sizeof(b));
	d->pkt_step = 0;
	rc = d->p.get_trace(d->p.ctx, &b);
	if (rc)
		return rc;
	if (!b.len || !b.buf) {
		d->len = d->off = 0;
		return -ENODATA;
	}
	d->buf = b.buf;
	d->len = b.len;
	d->memo_n = 0;
	d->off = 0;
	d->buf_timestamp = b.ref_timestamp;
	d->state.buf_nr = b.trace_nr;
	if (!b.consecutive || reposition) {
		pdec_reposition(d);
		d->ref_timestamp = b.ref_timestamp;
		d->state.trace_nr = d->first_trace_nr ? d->first_trace_nr : b.trace_nr;
		d->first_trace_nr = 0;
		return -ENOLINK;
	}
	return 0;
}

int pdec_bad_packet(struct ptd_pdec *d)
{
	d->tx_flags = 0;
	d->have_tma = false;
	d->packet.type = PK_BAD;
	d->pkt_step = 1;
	return -EBADMSG;
}

int pdec_get_next_packet(struct ptd_pdec *d)
{
	return pdec_next_packet(d);
}

bool pdec_next_tsc(const uint8_t *buf, size_t len, uint64_t *tsc, size_t *rem)
{
	struct pdec_pkt out;
	size_t off = 0;
	int n;

	while ((n = pdec_parse(buf, len, off, &out)) > 0) {
		if (out.type == PK_TSC) {
			*tsc = out.payload;
			if (rem)
				*rem = len - off;
			return true;
		}
		if (out.type == PK_PSBEND)
			break;
		off += (size_t)n;
	}
	return false;
}

bool pdec_next_psb(const uint8_t **buf, size_t *len)
{
	const uint8_t *p = memmem(*buf, *len, ptd_pdec_psb, PDEC_PSB_LEN);

	if (!p)
		return false;
	*len -= (size_t)(p - *buf);
	*buf = p;
	return true;
}

bool pdec_step_psb(const uint8_t **buf, size_t *len)
{
	const uint8_t *p;

	if (!*len)
		return false;
	p = memmem(*buf + 1, *len - 1, ptd_pdec_psb, PDEC_PSB_LEN);
	if (!p)
		return false;
	*len -= (size_t)(p - *buf);
	*buf = p;
	return true;
}

int pdec_scan_for_psb(struct ptd_pdec *d)
{
	const uint8_t *p;
	int rc;

	for (;;) {
		if (d->off >= d->len) {
			rc = pdec_get_data(d, false);
			if (rc)
				return rc;
		}
		p = memmem(d->buf + d->off, d->len - d->off, ptd_pdec_psb, PDEC_PSB_LEN);
		if (!p) {
			d->pos += d->len - d->off;
			d->off = d->len;
			d->pkt_step = 0;
			continue;
		}
		d->pkt_step = (size_t)(p - (d->buf + d->off));
		return pdec_get_next_packet(d);
	}
}

/* Keeping the first PDEC_MEMO packets it parses for pdec_get_next_packet. */
void pdec_lookahead(struct ptd_pdec *d, int (*cb)(const struct pdec_pkt *pkt, void *data),
		    void *data)
{
	struct pdec_pkt spare, *pkt;
	size_t off = d->off + d->pkt_step;
	struct pdec_memo *m;
	int rc;

	d->memo_i = d->memo_n = 0;
	while (off < d->len) {
		m = d->memo_n < PDEC_MEMO ? &d->memo[d->memo_n] : NULL;
		pkt = m ? &m->pkt : &spare;
		rc = pdec_parse(d->buf, d->len, off, pkt);
		if (rc <= 0)
			break;
		if (m) {
			m->off = off;
			m->size = rc;
			d->memo_n++;
		}
		off += (size_t)rc;
		if (pkt->type == PK_PAD)
			continue;
		if (cb(pkt, data))
			break;
	}
}
