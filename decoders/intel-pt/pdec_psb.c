/* PSB+ handling of the perf-semantics decoder, as perf's
 * intel_pt_walk_psbend, intel_pt_psb, intel_pt_fup_in_psb,
 * intel_pt_psb_with_fup, intel_pt_walk_psb and intel_pt_sync: the packets
 * of a PSB+ once in sync and while getting in sync. */
#include "decoders/intel-pt/pdec_priv.h"

#include <errno.h>
#include <string.h>

/* The rest of a PSB+ once synchronized. */
int pdec_walk_psbend(struct ptd_pdec *d)
{
	int err;

	d->in_psb = true;
	for (;;) {
		err = pdec_get_next_packet(d);
		if (err)
			goto out;
		switch (d->packet.type) {
		case PK_PSBEND:
			err = 0;
			goto out;
		case PK_OVF:
			err = pdec_overflow(d);
			goto out;
		case PK_TSC: pdec_calc_tsc_timestamp(d); break;
		case PK_TMA: pdec_calc_tma(d); break;
		case PK_CBR: pdec_calc_cbr(d); break;
		case PK_MODE_EXEC: pdec_mode_exec_status(d); break;
		case PK_PIP: d->pip_payload = d->packet.payload; pdec_set_nr(d); break;
		case PK_FUP:
			d->pge = true;
			if (d->packet.count) {
				pdec_set_last_ip(d);
				d->psb_ip = d->last_ip;
			}
			break;
		case PK_MODE_TSX: d->tx_flags = d->packet.payload & PDEC_IN_TX; break;
		case PK_MTC:
			pdec_calc_mtc_timestamp(d);
			if (d->p.period_type == PDEC_PERIOD_MTC)
				d->state.type |= PDEC_INSTRUCTION;
			break;
		case PK_CYC: pdec_calc_cyc_timestamp(d); break;
		case PK_VMCS:
		case PK_MNT:
		case PK_PAD:
			break;
		default:
			/* "Unexpected packet" */
			d->have_tma = false;
			err = -EAGAIN;
			goto out;
		}
	}
out:
	d->in_psb = false;
	return err;
}

void pdec_psb_reset(struct ptd_pdec *d)
{
	d->last_ip = 0;
	d->psb_ip = 0;
	d->have_last_ip = true;
	pdec_clear_stack(d);
}

void pdec_psb_state(struct ptd_pdec *d)
{
	d->state.type = PDEC_PSB_EVT;
	d->state.from_ip = d->psb_ip;
	d->state.to_ip = 0;
}

int pdec_psb(struct ptd_pdec *d)
{
	int err;

	pdec_psb_reset(d);
	err = pdec_walk_psbend(d);
	if (err)
		return err;
	pdec_psb_state(d);
	return 0;
}

int pdec_fup_in_psb(struct ptd_pdec *d)
{
	int err;

	if (d->ip != d->last_ip) {
		err = pdec_walk_fup(d);
		if (!err || err != -EAGAIN)
			return err;
	}
	d->pkt_state = ST_IN_SYNC;
	err = pdec_psb(d);
	if (err) {
		d->pkt_state = ST_ERR_RESYNC;
		return -ENOENT;
	}
	return 0;
}

struct psb_info {
	struct pdec_pkt fup_packet;
	bool fup;
	int after_psbend;
};

/* The FUP of a PSB+, unless a TIP.PGE follows the PSBEND closely. */
static int psb_lookahead_cb(const struct pdec_pkt *pkt, void *data)
{
	struct psb_info *in = data;

	switch (pkt->type) {
	case PK_MNT: case PK_TSC: case PK_TMA: case PK_MODE_EXEC: case PK_MODE_TSX:
	case PK_MTC: case PK_CYC: case PK_VMCS: case PK_CBR: case PK_PIP:
		if (in->after_psbend && !--in->after_psbend)
			return 1;
		return 0;
	case PK_FUP:
		if (in->after_psbend || in->fup || pkt->count == 0)
			return 1;
		in->fup_packet = *pkt;
		in->fup = true;
		return 0;
	case PK_PSBEND:
		if (!in->fup)
			return 1;
		in->after_psbend = 6;
		return 0;
	case PK_TIP_PGE:
		if (in->after_psbend)
			in->fup = false;
		return 1;
	case PK_PTWRITE: case PK_PTWRITE_IP: case PK_EXSTOP: case PK_EXSTOP_IP:
	case PK_MWAIT: case PK_PWRE: case PK_PWRX:
		if (in->after_psbend) {
			if (!--in->after_psbend)
				return 1;
			return 0;
		}
		return 1;
	default:
		return 1;
	}
}

bool pdec_psb_with_fup(struct ptd_pdec *d, int *err)
{
	struct psb_info in;

	if (!d->p.branch_enable)
		return false;
	memset(&in, 0, sizeof(in));
	pdec_lookahead(d, psb_lookahead_cb, &in);
	if (!in.fup)
		return false;
	d->packet = in.fup_packet;
	pdec_set_last_ip(d);
	d->pkt_state = ST_FUP_IN_PSB;
	*err = pdec_fup_in_psb(d);
	return true;
}

/* PSB+ while getting in sync. */
int pdec_walk_psb(struct ptd_pdec *d)
{
	int err;

	d->in_psb = true;
	for (;;) {
		err = pdec_get_next_packet(d);
		if (err)
			goto out;
		switch (d->packet.type) {
		case PK_TIP_PGD:
			d->continuous_period = false;
			/* fall through */
		case PK_TIP_PGE: case PK_TIP: case PK_PTWRITE: case PK_PTWRITE_IP:
		case PK_EXSTOP: case PK_EXSTOP_IP: case PK_MWAIT: case PK_PWRE: case PK_PWRX:
			err = -ENOENT;   /* "Unexpected packet" */
			goto out;
		case PK_FUP:
			d->pge = true;
			if (pdec_have_ip(d)) {
				pdec_set_ip(d);
				d->psb_ip = d->ip;
			}
			break;
		case PK_MTC: pdec_calc_mtc_timestamp(d); break;
		case PK_TSC: pdec_calc_tsc_timestamp(d); break;
		case PK_TMA: pdec_calc_tma(d); break;
		case PK_CYC: pdec_calc_cyc_timestamp(d); break;
		case PK_CBR: pdec_calc_cbr(d); break;
		case PK_PIP: d->pip_payload = d->packet.payload; pdec_set_nr(d); break;
		case PK_MODE_EXEC: pdec_mode_exec_status(d); break;
		case PK_MODE_TSX: d->tx_flags = d->packet.payload & PDEC_IN_TX; break;
		case PK_TRACESTOP:
			d->pge = false;
			d->continuous_period = false;
			d->tx_flags = 0;
			/* fall through */
		case PK_TNT:
			d->have_tma = false;
			d->pkt_state = d->ip ? ST_IN_SYNC : ST_ERR_RESYNC;
			err = -ENOENT;
			goto out;
		case PK_OVF:
			err = pdec_overflow(d);
			goto out;
		case PK_PSBEND:
			err = 0;
			goto out;
		default:
			break;
		}
	}
out:
	d->in_psb = false;
	return err;
}

int pdec_sync_psb(struct ptd_pdec *d)
{
	int err;

	d->pge = false;
	d->continuous_period = false;
	pdec_psb_reset(d);
	d->have_last_ip = false;
	d->ip = 0;
	err = pdec_scan_for_psb(d);
	if (err)
		return err;
	d->have_last_ip = true;
	d->pkt_state = ST_IN_SYNC;
	err = pdec_walk_psb(d);
	if (err)
		return err;
	pdec_psb_state(d);
	if (d->ip)
		d->pkt_state = d->p.quick ? ST_RESAMPLE : ST_IN_SYNC;
	return 0;
}
