/* The quick modes of the perf-semantics decoder (--itrace=q, qq): perf's
 * intel_pt_hop_trace, called by the packet loop (pdec_trace.c). */
#include "decoders/intel-pt/pdec_priv.h"

#include <errno.h>

/* Quick modes (perf's hop and leap): TNT ignored, no code walked; the ip
 * comes from FUPs and TIPs (hop), or only from the FUP of each PSB+ when
 * leaping from PSB to PSB. */
int pdec_hop_trace(struct ptd_pdec *d, bool *no_tip, int *err)
{
	*err = 0;
	if (d->p.quick >= 2 && !d->in_psb && d->packet.type != PK_PSB) {
		*err = pdec_scan_for_psb(d);
		if (*err)
			return PDEC_HOP_RETURN;
	}
	switch (d->packet.type) {
	case PK_TNT:
		return PDEC_HOP_IGNORE;
	case PK_TIP_PGD:
		d->pge = false;
		if (!d->packet.count) {
			pdec_set_nr(d);
			return PDEC_HOP_IGNORE;
		}
		pdec_set_ip(d);
		d->state.type |= PDEC_TRACE_END;
		d->state.from_ip = 0;
		d->state.to_ip = d->ip;
		pdec_update_nr(d);
		return PDEC_HOP_RETURN;
	case PK_TIP:
		if (!d->packet.count) {
			pdec_set_nr(d);
			return PDEC_HOP_IGNORE;
		}
		pdec_set_ip(d);
		d->state.type = PDEC_INSTRUCTION;
		d->state.from_ip = d->ip;
		d->state.to_ip = 0;
		pdec_update_nr(d);
		return PDEC_HOP_RETURN;
	case PK_FUP:
		if (!d->packet.count)
			return PDEC_HOP_IGNORE;
		pdec_set_ip(d);
		if (d->set_fup_mwait || d->set_fup_pwre || !d->p.branch_enable || !d->pge)
			*no_tip = true;
		if (*no_tip) {
			d->state.type = PDEC_INSTRUCTION;
			d->state.from_ip = d->ip;
			d->state.to_ip = 0;
			pdec_fup_event(d, *no_tip);
			return PDEC_HOP_RETURN;
		}
		pdec_fup_event(d, *no_tip);
		d->state.type |= PDEC_INSTRUCTION | PDEC_BRANCH;
		*err = pdec_walk_fup_tip(d);
		if (!*err && d->state.to_ip)
			d->pkt_state = ST_RESAMPLE;
		return PDEC_HOP_RETURN;
	case PK_PSB:
		d->state.psb_offset = d->pos;
		d->psb_ip = 0;
		d->last_ip = 0;
		d->have_last_ip = true;
		*err = pdec_walk_psbend(d);
		if (*err == -EAGAIN)
			return PDEC_HOP_AGAIN;
		if (*err)
			return PDEC_HOP_RETURN;
		d->state.type = PDEC_PSB_EVT;
		if (d->psb_ip) {
			d->state.type |= PDEC_INSTRUCTION;
			d->ip = d->psb_ip;
		}
		d->state.from_ip = d->psb_ip;
		d->state.to_ip = 0;
		return PDEC_HOP_RETURN;
	default:
		return PDEC_HOP_PROCESS;
	}
}
