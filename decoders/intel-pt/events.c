/* libipt's events, instruction classes and execution modes in ptdecode's
 * backend-neutral terms (decoders/decoder.h). */
#include "decoders/intel-pt/ipt_priv.h"

uint8_t ptd_ipt_mode(enum pt_exec_mode mode)
{
	switch (mode) {
	case ptem_16bit:
		return PTD_MODE_16;
	case ptem_32bit:
		return PTD_MODE_32;
	case ptem_64bit:
		return PTD_MODE_64;
	default:
		return PTD_MODE_UNKNOWN;
	}
}

uint8_t ptd_ipt_iclass(enum pt_insn_class iclass)
{
	switch (iclass) {
	case ptic_other:
		return PTD_INSN_OTHER;
	case ptic_call:
		return PTD_INSN_CALL;
	case ptic_return:
		return PTD_INSN_RETURN;
	case ptic_jump:
		return PTD_INSN_JUMP;
	case ptic_cond_jump:
		return PTD_INSN_COND_JUMP;
	case ptic_far_call:
		return PTD_INSN_FAR_CALL;
	case ptic_far_return:
		return PTD_INSN_FAR_RETURN;
	case ptic_far_jump:
		return PTD_INSN_FAR_JUMP;
	case ptic_ptwrite:
		return PTD_INSN_PTWRITE;
	default:
		return PTD_INSN_UNKNOWN;
	}
}

void ptd_ipt_event(struct ptd_trace_sample *s, const struct pt_event *ev)
{
	s->kind = PTD_TS_EVENT;
	if (ev->ip_suppressed)
		s->flags |= PTD_SF_IP_SUPPRESSED;
	if (ev->status_update)
		s->flags |= PTD_SF_STATUS_UPDATE;
	if (ev->has_tsc) {
		s->flags |= PTD_SF_TIME;
		s->tsc = ev->tsc;
	}
	switch (ev->type) {
	case ptev_enabled:
		s->event = ev->variant.enabled.resumed ? PTD_EV_RESUMED : PTD_EV_ENABLED;
		s->ip = ev->variant.enabled.ip;
		break;
	case ptev_disabled:
		s->event = PTD_EV_DISABLED;
		s->ip = ev->variant.disabled.ip;
		break;
	case ptev_async_disabled:
		s->event = PTD_EV_ASYNC_DISABLED;
		s->ip = ev->variant.async_disabled.at;
		s->to_ip = ev->variant.async_disabled.ip;
		break;
	case ptev_async_branch:
		s->event = PTD_EV_INTERRUPT;
		s->ip = ev->variant.async_branch.from;
		s->to_ip = ev->variant.async_branch.to;
		break;
	case ptev_paging:
		s->event = PTD_EV_PAGING;
		s->u.paging.cr3 = ev->variant.paging.cr3;
		s->u.paging.non_root = ev->variant.paging.non_root;
		break;
	case ptev_async_paging:
		s->event = PTD_EV_ASYNC_PAGING;
		s->ip = ev->variant.async_paging.ip;
		s->u.paging.cr3 = ev->variant.async_paging.cr3;
		s->u.paging.non_root = ev->variant.async_paging.non_root;
		break;
	case ptev_overflow:
		s->event = PTD_EV_OVERFLOW;
		s->ip = ev->variant.overflow.ip;
		break;
	case ptev_exec_mode:
		s->event = PTD_EV_EXEC_MODE;
		s->ip = ev->variant.exec_mode.ip;
		s->u.exec_mode.mode = ptd_ipt_mode(ev->variant.exec_mode.mode);
		s->mode = s->u.exec_mode.mode;
		break;
	case ptev_tsx:
		s->event = PTD_EV_TSX;
		s->ip = ev->variant.tsx.ip;
		s->u.tsx.speculative = ev->variant.tsx.speculative;
		s->u.tsx.aborted = ev->variant.tsx.aborted;
		break;
	case ptev_stop:
		s->event = PTD_EV_STOP;
		break;
	case ptev_vmcs:
		s->event = PTD_EV_VMCS;
		s->u.vmcs.base = ev->variant.vmcs.base;
		break;
	case ptev_async_vmcs:
		s->event = PTD_EV_ASYNC_VMCS;
		s->ip = ev->variant.async_vmcs.ip;
		s->u.vmcs.base = ev->variant.async_vmcs.base;
		break;
	case ptev_exstop:
		s->event = PTD_EV_EXSTOP;
		s->ip = ev->variant.exstop.ip;
		break;
	case ptev_mwait:
		s->event = PTD_EV_MWAIT;
		s->ip = ev->variant.mwait.ip;
		s->u.mwait.hints = ev->variant.mwait.hints;
		s->u.mwait.ext = ev->variant.mwait.ext;
		break;
	case ptev_pwre:
		s->event = PTD_EV_PWRE;
		s->u.pwre.state = ev->variant.pwre.state;
		s->u.pwre.sub_state = ev->variant.pwre.sub_state;
		s->u.pwre.hw = ev->variant.pwre.hw;
		break;
	case ptev_pwrx:
		s->event = PTD_EV_PWRX;
		s->u.pwrx.last = ev->variant.pwrx.last;
		s->u.pwrx.deepest = ev->variant.pwrx.deepest;
		s->u.pwrx.interrupt = ev->variant.pwrx.interrupt;
		s->u.pwrx.store = ev->variant.pwrx.store;
		s->u.pwrx.autonomous = ev->variant.pwrx.autonomous;
		break;
	case ptev_ptwrite:
		s->event = PTD_EV_PTWRITE;
		s->ip = ev->variant.ptwrite.ip;
		s->u.ptwrite.payload = ev->variant.ptwrite.payload;
		s->u.ptwrite.size = ev->variant.ptwrite.size;
		break;
	case ptev_tick:
		s->event = PTD_EV_TICK;
		s->ip = ev->variant.tick.ip;
		break;
	case ptev_cbr:
		s->event = PTD_EV_CBR;
		s->u.cbr.ratio = ev->variant.cbr.ratio;
		break;
	case ptev_mnt:
		s->event = PTD_EV_MNT;
		s->u.mnt.payload = ev->variant.mnt.payload;
		break;
	}
	/* an event type this libipt added after ptdecode was written stays 0 */
}
