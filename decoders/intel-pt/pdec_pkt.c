/* Packets for the perf-semantics decoder: pieces of trace from get_trace(),
 * packets from libipt's packet decoder, in perf's terms (pdec_priv.h). */
#define _GNU_SOURCE
#include "decoders/intel-pt/pdec_parse.h"

#include <errno.h>
#include <intel-pt.h>
#include <string.h>

const uint8_t ptd_pdec_psb[PDEC_PSB_LEN] = {
	0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
	0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
};

void pdec_pkt_fini(struct ptd_pdec *d)
{
	pt_pkt_free_decoder(d->pk);
	d->pk = NULL;
}

static uint64_t ip_payload(const struct pt_packet_ip *ip, int *count)
{
	*count = (int)ip->ipc;
	return ip->ip;
}

/* Convert libipt's packet; 0, or -1 for one perf would call bad. */
static int convert(const struct pt_packet *in, struct pdec_pkt *out)
{
	out->count = 0;
	out->payload = 0;
	switch (in->type) {
	case ppt_pad: out->type = PK_PAD; break;
	case ppt_psb: out->type = PK_PSB; break;
	case ppt_psbend: out->type = PK_PSBEND; break;
	case ppt_tnt_8:
	case ppt_tnt_64:
		out->type = PK_TNT;
		out->count = in->payload.tnt.bit_size;
		if (out->count)
			out->payload = in->payload.tnt.payload << (64 - out->count);
		break;
	case ppt_tip: out->type = PK_TIP; out->payload = ip_payload(&in->payload.ip, &out->count); break;
	case ppt_tip_pge: out->type = PK_TIP_PGE; out->payload = ip_payload(&in->payload.ip, &out->count); break;
	case ppt_tip_pgd: out->type = PK_TIP_PGD; out->payload = ip_payload(&in->payload.ip, &out->count); break;
	case ppt_fup: out->type = PK_FUP; out->payload = ip_payload(&in->payload.ip, &out->count); break;
	case ppt_tsc: out->type = PK_TSC; out->payload = in->payload.tsc.tsc; break;
	case ppt_cbr: out->type = PK_CBR; out->payload = in->payload.cbr.ratio; break;
	case ppt_tma:
		out->type = PK_TMA;
		out->payload = in->payload.tma.ctc;
		out->count = in->payload.tma.fc;
		break;
	case ppt_mtc: out->type = PK_MTC; out->payload = in->payload.mtc.ctc; break;
	case ppt_cyc: out->type = PK_CYC; out->payload = in->payload.cyc.value; break;
	case ppt_mode:
		if (in->payload.mode.leaf == pt_mol_exec) {
			out->type = PK_MODE_EXEC;
			out->payload = (uint64_t)in->payload.mode.bits.exec.csd |
				       (uint64_t)in->payload.mode.bits.exec.csl << 1;
		} else {
			out->type = PK_MODE_TSX;
			out->payload = (uint64_t)in->payload.mode.bits.tsx.intx |
				       (uint64_t)in->payload.mode.bits.tsx.abrt << 1;
		}
		break;
	case ppt_pip:
		out->type = PK_PIP;
		out->payload = in->payload.pip.cr3 | (in->payload.pip.nr ? 1 : 0);
		break;
	case ppt_vmcs: out->type = PK_VMCS; out->payload = in->payload.vmcs.base; break;
	case ppt_mnt: out->type = PK_MNT; out->payload = in->payload.mnt.payload; break;
	case ppt_ovf: out->type = PK_OVF; break;
	case ppt_stop: out->type = PK_TRACESTOP; break;
	case ppt_ptw:
		out->type = in->payload.ptw.ip ? PK_PTWRITE_IP : PK_PTWRITE;
		out->payload = in->payload.ptw.payload;
		out->count = in->payload.ptw.plc;
		break;
	case ppt_exstop: out->type = in->payload.exstop.ip ? PK_EXSTOP_IP : PK_EXSTOP; break;
	case ppt_mwait:
		out->type = PK_MWAIT;
		out->payload = in->payload.mwait.hints | (uint64_t)in->payload.mwait.ext << 32;
		break;
	case ppt_pwre:
		out->type = PK_PWRE;
		/* the packet's bytes 2-3, as perf takes them: hw in bit 7, the
		 * sub-C-state in bits 11:8, the C-state in bits 15:12 */
		out->payload = (uint64_t)in->payload.pwre.hw << 7 |
			       (uint64_t)(in->payload.pwre.sub_state & 0xf) << 8 |
			       (uint64_t)(in->payload.pwre.state & 0xf) << 12;
		break;
	case ppt_pwrx:
		/* bytes 2-3: deepest C-state in bits 3:0, last in 7:4, the wake
		 * reason in 11:8 (interrupt 1, store to a monitored address 4,
		 * hardware autonomous 8; libipt keeps no timer deadline bit) */
		out->type = PK_PWRX;
		out->payload = (uint64_t)(in->payload.pwrx.deepest & 0xf) |
			       (uint64_t)(in->payload.pwrx.last & 0xf) << 4 |
			       (uint64_t)in->payload.pwrx.interrupt << 8 |
			       (uint64_t)in->payload.pwrx.store << 10 |
			       (uint64_t)in->payload.pwrx.autonomous << 11;
		break;
	default:
		return -1;
	}
	return 0;
}

/* The packet at off of the piece that pk decodes, by libipt, into *out;
 * its size, or <= 0 when bad. */
int pdec_parse_ipt(struct pt_packet_decoder *pk, size_t off, struct pdec_pkt *out)
{
	struct pt_packet pkt;
	int rc;

	if (pt_pkt_sync_set(pk, off) < 0)
		return 0;
	rc = pt_pkt_next(pk, &pkt, sizeof(pkt));
	if (rc <= 0 || convert(&pkt, out))
		return 0;
	return rc;
}

int pdec_test_packet(const uint8_t *buf, size_t len, bool quick, struct pdec_pkt *out)
{
	struct pt_packet_decoder *pk;
	struct pt_config cfg;
	int rc = 0;

	if (!len)
		return 0;
	if (quick)
		return (buf[0] & 3) == 3 ? 0 : pdec_quick_packet(buf, len, out);
	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)buf;
	cfg.end = (uint8_t *)buf + len;
	pk = pt_pkt_alloc_decoder(&cfg);
	if (pk)
		rc = pdec_parse_ipt(pk, 0, out);
	pt_pkt_free_decoder(pk);
	return rc;
}

static int new_piece(struct ptd_pdec *d, const struct pdec_buf *b)
{
	struct pt_config cfg;

	pdec_pkt_fini(d);
	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)b->buf;
	cfg.end = (uint8_t *)b->buf + b->len;
	d->pk = pt_pkt_alloc_decoder(&cfg);
	if (!d->pk)
		return -ENOMEM;
	d->buf = b->buf;
	d->len = b->len;
	d->memo_n = 0;
	d->off = 0;
	d->pkt_step = 0;
	return 0;
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
	rc = new_piece(d, &b);
	if (rc)
		return rc;
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
	struct pt_packet_decoder *pk;
	struct pt_config cfg;
	struct pdec_pkt out;
	bool found = false;
	size_t off = 0;
	int n;

	if (!len)
		return false;
	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)buf;
	cfg.end = (uint8_t *)buf + len;
	pk = pt_pkt_alloc_decoder(&cfg);
	while ((n = pdec_parse(pk, buf, len, off, &out)) > 0) {
		if (out.type == PK_TSC) {
			*tsc = out.payload;
			if (rem)
				*rem = len - off;
			found = true;
			break;
		}
		if (out.type == PK_PSBEND)
			break;
		off += (size_t)n;
	}
	pt_pkt_free_decoder(pk);
	return found;
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
		rc = pdec_parse(d->pk, d->buf, d->len, off, pkt);
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
