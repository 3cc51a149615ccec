/* libipt's packet decoder as the oracle: see ipt_oracle.h. */
#include "config.h"

#ifdef HAVE_PT_PERF
#include "tests/unit/ipt_oracle.h"

#include <intel-pt.h>

#include "decoders/intel-pt/pdec_priv.h"

static uint64_t ip_payload(const struct pt_packet_ip *ip, int *count)
{
	*count = (int)ip->ipc;
	return ip->ip;
}

/* libipt's packet in the decoder's terms; 0, or -1 for a kind it has none
 * of. */
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

int ipt_oracle_packet(const uint8_t *buf, size_t len, struct pdec_pkt *out)
{
	struct pt_packet_decoder *pk;
	struct pt_packet pkt;
	struct pt_config cfg;
	int rc = 0;

	if (!len)
		return 0;
	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)buf;
	cfg.end = (uint8_t *)buf + len;
	pk = pt_pkt_alloc_decoder(&cfg);
	if (pk && pt_pkt_sync_set(pk, 0) >= 0) {
		rc = pt_pkt_next(pk, &pkt, sizeof(pkt));
		if (rc <= 0 || convert(&pkt, out))
			rc = 0;
	}
	pt_pkt_free_decoder(pk);
	return rc;
}
#endif
