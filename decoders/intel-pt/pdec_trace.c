/* The perf-semantics decoder's packet loop (see pdec.h): reading packets
 * until one needs instructions walked, getting in sync after an error
 * (the PSB+ itself is pdec_psb.c's), and the per-call bookkeeping of
 * ptd_pdec_decode() (sample time, CBR changes). */
#include "decoders/intel-pt/pdec_parse.h"

#include <errno.h>
#include <string.h>

int pdec_walk_fup_tip(struct ptd_pdec *d)
{
	int err;

	if (d->tx_flags & PDEC_ABORT_TX) {
		d->tx_flags = 0;
		d->state.flags &= ~PDEC_IN_TX;
		d->state.flags |= PDEC_ABORT_TX;
	} else {
		d->state.flags |= PDEC_ASYNC;
	}
	for (;;) {
		err = pdec_get_next_packet(d);
		if (err)
			return err;
		switch (d->packet.type) {
		case PK_CBR:
			pdec_calc_cbr(d);
			break;
		case PK_OVF:
			return pdec_overflow(d);
		case PK_TIP_PGD:
			d->state.from_ip = d->ip;
			if (d->packet.count == 0) {
				d->state.to_ip = 0;
			} else {
				pdec_set_ip(d);
				d->state.to_ip = d->ip;
			}
			d->pge = false;
			d->continuous_period = false;
			d->state.type |= PDEC_TRACE_END;
			pdec_update_nr(d);
			return 0;
		case PK_TIP_PGE:
			d->pge = true;
			d->state.from_ip = 0;
			if (d->packet.count == 0) {
				d->state.to_ip = 0;
			} else {
				pdec_set_ip(d);
				d->state.to_ip = d->ip;
			}
			d->state.type |= PDEC_TRACE_BEGIN;
			pdec_mtc_cyc_cnt_pge(d);
			pdec_set_nr(d);
			return 0;
		case PK_TIP:
			d->state.from_ip = d->ip;
			if (d->packet.count == 0) {
				d->state.to_ip = 0;
			} else {
				pdec_set_ip(d);
				d->state.to_ip = d->ip;
			}
			pdec_update_nr(d);
			return 0;
		case PK_PIP:
			d->pip_payload = d->packet.payload;
			break;
		case PK_MTC:
			pdec_calc_mtc_timestamp(d);
			if (d->p.period_type == PDEC_PERIOD_MTC)
				d->state.type |= PDEC_INSTRUCTION;
			break;
		case PK_CYC:
			pdec_calc_cyc_timestamp(d);
			break;
		case PK_MODE_EXEC:
		case PK_VMCS:
		case PK_MNT:
		case PK_PAD:
			break;
		default:
			/* "Missing TIP after FUP" */
			d->pkt_state = ST_ERR_RESYNC;
			d->pkt_step = 0;
			return -ENOENT;
		}
	}
}

static int mode_tsx(struct ptd_pdec *d, bool *no_tip)
{
	uint32_t flags = (uint32_t)d->packet.payload & (PDEC_IN_TX | PDEC_ABORT_TX);
	int err;

	err = pdec_get_next_packet(d);
	if (err)
		return err;
	if (d->packet.type == PK_FUP) {
		d->fup_tx_flags = flags;
		d->set_fup_tx_flags = true;
		if (!(flags & PDEC_ABORT_TX))
			*no_tip = true;
	} else {
		d->tx_flags = flags & PDEC_IN_TX;   /* "Missing FUP after MODE.TSX" */
	}
	return 0;
}

/* A packet that must be followed by a FUP to bind to an ip. */
static int fup_bound(struct ptd_pdec *d, bool *flag, bool *no_tip)
{
	int err = pdec_get_next_packet(d);

	if (err)
		return err;
	if (d->packet.type == PK_FUP) {
		*flag = true;
		*no_tip = true;
	}
	return 0;
}

static int walk_packets(struct ptd_pdec *d)
{
	bool no_tip = false;
	int err;

	for (;;) {
		err = pdec_next_packet(d);
		if (err)
			return err;
next:
		if (d->p.quick) {
			switch (pdec_hop_trace(d, &no_tip, &err)) {
			case PDEC_HOP_IGNORE:
				continue;
			case PDEC_HOP_RETURN:
				return err;
			case PDEC_HOP_AGAIN:
				goto next;
			default:
				break;
			}
		}
		switch (d->packet.type) {
		case PK_TNT:
			if (!d->packet.count)
				break;
			if (pdec_seg_may(d, no_tip) && pdec_seg(d, d->off, false)) {
				no_tip = false;   /* at a TIP, as after its state skipped */
				continue;
			}
			d->tnt = d->packet;
			d->pkt_state = ST_TNT;
			err = pdec_walk_tnt(d);
			if (err == -EAGAIN)
				break;
			if (err == PDEC_SKIPPED && d->pkt_state == ST_IN_SYNC) {
				/* as decode_one would call walk_trace again */
				d->state.type = PDEC_BRANCH;
				d->state.flags = 0;
				no_tip = false;
				continue;
			}
			return err;
		case PK_TIP_PGD:
			if (d->packet.count)
				pdec_set_last_ip(d);
			d->pkt_state = ST_TIP_PGD;
			return pdec_walk_tip(d);
		case PK_TIP_PGE:
			d->pge = true;
			d->overflow = false;
			pdec_mtc_cyc_cnt_pge(d);
			pdec_set_nr(d);
			if (d->packet.count == 0)
				break;
			pdec_set_ip(d);
			d->state.from_ip = 0;
			d->state.to_ip = d->ip;
			d->state.type |= PDEC_TRACE_BEGIN;
			if (d->p.quick)   /* the to_ip again as an "instruction" sample */
				d->pkt_state = ST_RESAMPLE;
			return 0;
		case PK_OVF:
			return pdec_overflow(d);
		case PK_TIP:
			if (d->packet.count)
				pdec_set_last_ip(d);
			d->pkt_state = ST_TIP;
			err = pdec_walk_tip(d);
			if (err != PDEC_SKIPPED)
				return err;
			if (d->seg.on)
				pdec_seg_end(d);
			no_tip = false;   /* as a new call would start */
			continue;
		case PK_FUP:
			if (d->packet.count == 0) {
				no_tip = false;
				break;
			}
			pdec_set_last_ip(d);
			if (!d->p.branch_enable || !d->pge) {
				d->ip = d->last_ip;
				if (pdec_fup_event(d, no_tip))
					return 0;
				no_tip = false;
				break;
			}
			if (d->set_fup_mwait)
				no_tip = true;
			d->pkt_state = no_tip ? ST_FUP_NO_TIP : ST_FUP;
			err = pdec_walk_fup(d);
			if (err != -EAGAIN)
				return err;
			if (no_tip) {
				no_tip = false;
				break;
			}
			return pdec_walk_fup_tip(d);
		case PK_TRACESTOP:
			d->pge = false;
			d->continuous_period = false;
			d->tx_flags = 0;
			d->have_tma = false;
			break;
		case PK_PSB:
			d->state.psb_offset = d->pos;
			d->psb_ip = 0;
			if (pdec_psb_with_fup(d, &err))
				return err;
			err = pdec_psb(d);
			if (err == -EAGAIN)
				goto next;
			return err;
		case PK_PIP:
			d->pip_payload = d->packet.payload;
			break;
		case PK_MTC:
			pdec_calc_mtc_timestamp(d);
			if (d->p.period_type != PDEC_PERIOD_MTC || !d->mtc_insn || !d->timestamp)
				break;
			d->mtc_insn = false;
			d->state.type = PDEC_INSTRUCTION;
			d->state.from_ip = d->ip;
			d->state.to_ip = 0;
			return 0;
		case PK_TSC: pdec_calc_tsc_timestamp(d); break;
		case PK_TMA: pdec_calc_tma(d); break;
		case PK_CYC:
			if (d->seg.on)
				pdec_seg_part(d);
			pdec_calc_cyc_timestamp(d);
			break;
		case PK_CBR:
			pdec_calc_cbr(d);
			if (d->cbr != d->cbr_seen) {
				d->state.type = 0;
				return 0;
			}
			break;
		case PK_MODE_EXEC:
			err = pdec_get_next_packet(d);
			if (err)
				return err;
			if (d->packet.type == PK_FUP) {
				d->set_fup_mode_exec = true;
				no_tip = true;
			}
			goto next;
		case PK_MODE_TSX:
			if (!d->pge || d->in_psb) {
				d->tx_flags = d->packet.payload & PDEC_IN_TX;
				break;
			}
			err = mode_tsx(d, &no_tip);
			if (err)
				return err;
			goto next;
		case PK_PSBEND:
		case PK_VMCS:
		case PK_MNT:
		case PK_PAD:
			break;
		case PK_PTWRITE_IP:
			d->fup_ptw_payload = d->packet.payload;
			err = fup_bound(d, &d->set_fup_ptw, &no_tip);
			if (err)
				return err;
			goto next;
		case PK_PTWRITE:
			d->state.type = PDEC_PTW;
			d->state.from_ip = d->ip;
			d->state.to_ip = 0;
			d->state.ptw_payload = d->packet.payload;
			return 0;
		case PK_MWAIT:
			d->fup_mwait_payload = d->packet.payload;
			d->set_fup_mwait = true;
			break;
		case PK_PWRE:
			if (d->set_fup_mwait) {
				d->fup_pwre_payload = d->packet.payload;
				d->set_fup_pwre = true;
				break;
			}
			d->state.type = PDEC_PWR_ENTRY;
			d->state.from_ip = d->ip;
			d->state.to_ip = 0;
			d->state.pwrx_payload = d->packet.payload;
			return 0;
		case PK_EXSTOP_IP:
			err = fup_bound(d, &d->set_fup_exstop, &no_tip);
			if (err)
				return err;
			goto next;
		case PK_EXSTOP:
			d->state.type = PDEC_EX_STOP;
			d->state.from_ip = d->ip;
			d->state.to_ip = 0;
			return 0;
		case PK_PWRX:
			d->state.type = PDEC_PWR_EXIT;
			d->state.from_ip = d->ip;
			d->state.to_ip = 0;
			d->state.pwrx_payload = d->packet.payload;
			return 0;
		default:
			return pdec_bug(d);
		}
	}
}

/* The packet loop; a segment noted where it returns inside one is not
 * cached */
static inline __attribute__((always_inline)) int walk_trace(struct ptd_pdec *d)
{
	int err = walk_packets(d);

	if (d->seg.on)
		pdec_seg_cancel(d);
	return err;
}

static int walk_to_ip(struct ptd_pdec *d)
{
	int err;

	for (;;) {
		err = pdec_get_next_packet(d);
		if (err)
			return err;
		switch (d->packet.type) {
		case PK_TIP_PGD:
			d->continuous_period = false;
			d->pge = false;
			if (pdec_have_ip(d))
				pdec_set_ip(d);
			if (!d->ip)
				break;
			d->state.type |= PDEC_TRACE_END;
			return 0;
		case PK_TIP_PGE:
			d->pge = true;
			pdec_mtc_cyc_cnt_pge(d);
			if (pdec_have_ip(d))
				pdec_set_ip(d);
			if (!d->ip)
				break;
			d->state.type |= PDEC_TRACE_BEGIN;
			return 0;
		case PK_TIP:
			d->pge = true;
			if (pdec_have_ip(d))
				pdec_set_ip(d);
			if (!d->ip)
				break;
			return 0;
		case PK_FUP:
			if (pdec_have_ip(d))
				pdec_set_ip(d);
			if (d->ip)
				return 0;
			break;
		case PK_MTC: pdec_calc_mtc_timestamp(d); break;
		case PK_TSC: pdec_calc_tsc_timestamp(d); break;
		case PK_TMA: pdec_calc_tma(d); break;
		case PK_CYC: pdec_calc_cyc_timestamp(d); break;
		case PK_CBR: pdec_calc_cbr(d); break;
		case PK_PIP: d->pip_payload = d->packet.payload; pdec_set_nr(d); break;
		case PK_MODE_EXEC: pdec_mode_exec_status(d); break;
		case PK_MODE_TSX: d->tx_flags = d->packet.payload & PDEC_IN_TX; break;
		case PK_OVF:
			return pdec_overflow(d);
		case PK_TRACESTOP:
			d->pge = false;
			d->continuous_period = false;
			d->tx_flags = 0;
			d->have_tma = false;
			break;
		case PK_PSB:
			d->state.psb_offset = d->pos;
			pdec_psb_reset(d);
			err = pdec_walk_psb(d);
			if (err)
				return err;
			pdec_psb_state(d);
			return 0;
		default:
			break;
		}
	}
}

static int sync_ip(struct ptd_pdec *d)
{
	int err;

	d->set_fup_tx_flags = d->set_fup_ptw = d->set_fup_mwait = false;
	d->set_fup_pwre = d->set_fup_exstop = d->set_fup_mode_exec = false;
	d->overflow = false;
	if (!d->p.branch_enable) {
		d->pkt_state = ST_IN_SYNC;
		d->state.type = 0;
		return 0;
	}
	err = walk_to_ip(d);
	if (err || ((d->state.type & PDEC_PSB_EVT) && !d->ip))
		return err;
	d->pkt_state = d->p.quick ? ST_RESAMPLE : ST_IN_SYNC;
	d->state.from_ip = 0;
	d->state.to_ip = d->ip;
	return 0;
}

static int resample(struct ptd_pdec *d)
{
	d->pkt_state = ST_IN_SYNC;
	d->state.type = PDEC_INSTRUCTION;
	d->state.from_ip = d->ip;
	d->state.to_ip = 0;
	return 0;
}

/* One state, as perf's intel_pt_decode() makes it, but for its estimated
 * timestamp. */
static inline __attribute__((always_inline)) void decode_one(struct ptd_pdec *d)
{
	int err;

	do {
		d->state.type = PDEC_BRANCH;
		d->state.flags = 0;
		switch (d->pkt_state) {
		case ST_NO_PSB:
			err = pdec_sync_psb(d);
			break;
		case ST_NO_IP:
			d->have_last_ip = false;
			d->last_ip = 0;
			d->ip = 0;
			/* fall through */
		case ST_ERR_RESYNC:
			err = sync_ip(d);
			break;
		case ST_IN_SYNC:
			err = walk_trace(d);
			break;
		case ST_TNT:
		case ST_TNT_CONT:
			err = pdec_walk_tnt(d);
			if (err == -EAGAIN)
				err = walk_trace(d);
			break;
		case ST_TIP:
		case ST_TIP_PGD:
			err = pdec_walk_tip(d);
			break;
		case ST_FUP:
			err = pdec_walk_fup(d);
			if (err == -EAGAIN)
				err = pdec_walk_fup_tip(d);
			break;
		case ST_FUP_NO_TIP:
			err = pdec_walk_fup(d);
			if (err == -EAGAIN)
				err = walk_trace(d);
			break;
		case ST_FUP_IN_PSB:
			err = pdec_fup_in_psb(d);
			break;
		case ST_RESAMPLE:
			err = resample(d);
			break;
		default:
			err = pdec_bug(d);
			break;
		}
	} while (err == -ENOLINK || err == PDEC_SKIPPED);

	if (err) {
		d->state.err = pdec_ext_err(err);
		if (err != -EOVERFLOW)
			d->state.from_ip = d->ip;
		pdec_update_sample_time(d);
		d->sample_tot_cyc_cnt = d->tot_cyc_cnt;
		pdec_set_nr(d);
	} else {
		d->state.err = 0;
		if (d->cbr != d->cbr_seen) {
			d->cbr_seen = d->cbr;
			if (!d->state.type) {
				d->state.from_ip = d->ip;
				d->state.to_ip = 0;
			}
			d->state.type |= PDEC_CBR_CHG;
			d->state.cbr_payload = d->cbr_payload;
			d->state.cbr = d->cbr;
		}
		if (pdec_sample_time_state(d->pkt_state)) {
			pdec_update_sample_time(d);
			if (d->sample_cyc) {
				d->sample_tot_cyc_cnt = d->tot_cyc_cnt;
				d->state.flags |= PDEC_SAMPLE_IPC;
				d->sample_cyc = false;
			}
		}
		if (!d->have_cyc)
			d->state.flags |= PDEC_SAMPLE_IPC;
	}
	if ((d->state.type & PDEC_PSB_EVT) && d->tsc_timestamp)
		d->sample_timestamp = d->tsc_timestamp;
	d->state.from_nr = d->nr;
	d->state.to_nr = d->next_nr;
	d->nr = d->next_nr;
	d->state.timestamp = d->sample_timestamp;
	d->state.tot_insn_cnt = d->tot_insn_cnt;
	d->state.tot_cyc_cnt = d->sample_tot_cyc_cnt;
	d->state.pos = d->pos;
}

const struct ptd_pstate *ptd_pdec_decode_to(struct ptd_pdec *d, uint64_t bound,
					    uint64_t kernel_start)
{
	/* the walk's maps may change between calls */
	d->chain_seen[0].c.bits = d->chain_seen[1].c.bits = 0;
	if (!bound) {
		decode_one(d);
		d->state.skipped_timestamp = 0;
		d->state.n_skipped_ts = 0;
		d->state.est_timestamp = pdec_est_timestamp(d);
		return &d->state;
	}
	d->skip_bound = bound;
	d->skip_kernel_start = kernel_start;
	d->skipped_timestamp = 0;
	d->n_skipped_ts = 0;
	for (;;) {
		decode_one(d);
		if ((d->state.type != PDEC_BRANCH &&
		     !(d->skip_psb && d->state.type == PDEC_PSB_EVT)) || d->state.err ||
		    d->state.timestamp >= d->skip_bound ||
		    ptd_pdec_to_user(d->state.from_ip, d->state.to_ip, kernel_start) ||
		    (d->state.type == PDEC_BRANCH && pdec_kept(d)))
			break;
		pdec_note_skipped(d, d->state.timestamp);
	}
	d->skip_bound = 0;
	d->state.skipped_timestamp = d->skipped_timestamp;
	d->state.n_skipped_ts = d->n_skipped_ts;
	if (d->n_skipped_ts)
		memcpy(d->state.skipped_ts, d->skipped_ts, d->n_skipped_ts * sizeof(d->skipped_ts[0]));
	d->state.est_timestamp = pdec_est_timestamp(d);
	return &d->state;
}

void ptd_pdec_list_skipped(struct ptd_pdec *d)
{
	d->list_skipped = 1;
}

void ptd_pdec_skip_psb(struct ptd_pdec *d)
{
	d->skip_psb = 1;
}

const struct ptd_pstate *ptd_pdec_decode(struct ptd_pdec *d)
{
	return ptd_pdec_decode_to(d, 0, 0);
}
