#include "tools/record/pt_enc.h"

#include <intel-pt.h>
#include <stdlib.h>
#include <string.h>

/* packets are encoded into a window that is moved into `out` as it fills */
#define WIN 4096
#define RETSTACK 64   /* libipt's return stack depth */

struct ptd_ptenc {
	struct ptd_ptenc_config cfg;
	struct pt_encoder *enc;
	uint8_t win[WIN];
	uint8_t *out;
	size_t out_len, out_cap, out_start;   /* bytes [out_start, out_len) not taken */
	uint64_t total;
	uint64_t since_psb;                   /* bytes since the last PSB */
	int user;                             /* tracing on (user space) ... */
	int enabled;                          /* ... and packets generated (in the filter) */
	uint64_t last_ip;                     /* the decoders' last IP (0 after PSB) */
	uint64_t ip;                          /* next ip to execute (while enabled) */
	uint64_t tsc;
	/* pending TNT bits, first branch in the highest bit */
	uint64_t tnt;
	unsigned tnt_bits;
	/* perf's return stack: unbounded, cleared at PSB, popped by every RET */
	uint64_t *pstack;
	size_t pdepth, pcap;
	/* libipt's: a ring of 64, popped by compressed RETs only */
	uint64_t lstack[RETSTACK + 1];
	unsigned ltop, lbottom;
	uint64_t mtc_period;                  /* last MTC period index (ctc >> shift) */
	int in_psb;                           /* between PSB and PSBEND */
	void (*psb_fn)(void *ctx, uint64_t offset, int enabled, uint64_t ip);
	void *psb_ctx;
	uint64_t cyc_tsc;                     /* TSC of the last CYC */
	int in_tx;                            /* in a TSX transaction */
	int at_sysret;                        /* --kernel: the kernel's walk stopped at its
	                                         sysretq (ip); its TIP comes with the
	                                         next enable */
};

static int put(struct ptd_ptenc *e, const struct pt_packet *p, struct ptd_err *err);

static uint64_t ctc_of(const struct ptd_ptenc *e, uint64_t tsc)
{
	return (uint64_t)((unsigned __int128)tsc * e->cfg.ctc_d / e->cfg.ctc_n);
}

/* Core cycles at TSC tick tsc (the core clock is cbr / tsc_ratio of it) */
static uint64_t cycles_at(const struct ptd_ptenc *e, uint64_t tsc)
{
	if (!e->cfg.tsc_ratio || e->cfg.cbr == e->cfg.tsc_ratio)
		return tsc;
	return (uint64_t)((unsigned __int128)tsc * e->cfg.cbr / e->cfg.tsc_ratio);
}

/* A CYC with the core cycles from the last CYC to tsc, if any. */
static int cyc_to(struct ptd_ptenc *e, uint64_t tsc, struct ptd_err *err)
{
	struct pt_packet p;
	uint64_t n;

	if (!e->cfg.cyc || tsc <= e->cyc_tsc)
		return 0;
	n = cycles_at(e, tsc) - cycles_at(e, e->cyc_tsc);
	if (!n)
		return 0;
	memset(&p, 0, sizeof(p));
	p.type = ppt_cyc;
	p.payload.cyc.value = n;
	e->cyc_tsc = tsc;
	return put(e, &p, err);
}

/* Timing packets due before something happens at e->tsc: an MTC for each
 * crystal clock period that began since the last one (while tracing is
 * on), and a CYC with the cycles since the last CYC.  In cycle-accurate
 * mode an MTC is CYC-eligible, as on hardware: a CYC with the cycles up
 * to the period's start comes before it. */
static int timing(struct ptd_ptenc *e, struct ptd_err *err)
{
	struct pt_packet p;
	int rc;

	if (e->cfg.mtc && e->enabled) {
		uint64_t now = ctc_of(e, e->tsc) >> e->cfg.mtc_shift;

		/* one MTC per period; after a long pause only the last 255 */
		if (now > e->mtc_period + 255)
			e->mtc_period = now - 255;
		while (e->mtc_period < now) {
			/* the period starts at the first TSC tick whose CTC reaches it */
			uint64_t ctc = (e->mtc_period + 1) << e->cfg.mtc_shift;
			uint64_t at = (uint64_t)(((unsigned __int128)ctc * e->cfg.ctc_n + e->cfg.ctc_d - 1) /
						 e->cfg.ctc_d);

			e->mtc_period++;
			if (at <= e->tsc && (rc = cyc_to(e, at, err)))
				return rc;
			memset(&p, 0, sizeof(p));
			p.type = ppt_mtc;
			p.payload.mtc.ctc = (uint8_t)e->mtc_period;
			if ((rc = put(e, &p, err)))
				return rc;
		}
	}
	return cyc_to(e, e->tsc, err);
}

static int put(struct ptd_ptenc *e, const struct pt_packet *p, struct ptd_err *err)
{
	int n;

	pt_enc_sync_set(e->enc, 0);
	n = pt_enc_next(e->enc, p);
	if (n < 0)
		return ptd_err_set(err, PTD_E_INVAL, "libipt encoder: %s (packet type %d)",
				   pt_errstr(pt_errcode(n)), (int)p->type);
	if (e->out_len + (size_t)n > e->out_cap) {
		size_t ncap = e->out_cap ? e->out_cap * 2 : 1 << 16;
		uint8_t *o;

		/* drop what was taken before growing */
		if (e->out_start) {
			memmove(e->out, e->out + e->out_start, e->out_len - e->out_start);
			e->out_len -= e->out_start;
			e->out_start = 0;
		}
		while (e->out_len + (size_t)n > ncap)
			ncap *= 2;
		if (ncap != e->out_cap) {
			o = realloc(e->out, ncap);
			if (!o)
				return ptd_err_set(err, PTD_E_NOMEM, "PT output buffer");
			e->out = o;
			e->out_cap = ncap;
		}
	}
	memcpy(e->out + e->out_len, e->win, (size_t)n);
	e->out_len += (size_t)n;
	e->total += (uint64_t)n;
	e->since_psb += (uint64_t)n;
	return 0;
}

static int simple(struct ptd_ptenc *e, enum pt_packet_type t, struct ptd_err *err)
{
	struct pt_packet p;

	memset(&p, 0, sizeof(p));
	p.type = t;
	return put(e, &p, err);
}

/* the smallest IP compression the decoders can expand from last_ip */
static enum pt_ip_compression compress(uint64_t last, uint64_t ip)
{
	if ((ip ^ last) >> 16 == 0)
		return pt_ipc_update_16;
	if ((ip ^ last) >> 32 == 0)
		return pt_ipc_update_32;
	if ((uint64_t)((int64_t)(ip << 16) >> 16) == ip)
		return pt_ipc_sext_48;
	return pt_ipc_full;
}

/* an IP packet with no timing packets before it (in a PSB+, or bound to
 * the packet just written) */
static int ip_put(struct ptd_ptenc *e, enum pt_packet_type t, uint64_t ip, int suppressed,
		  struct ptd_err *err)
{
	struct pt_packet p;

	memset(&p, 0, sizeof(p));
	p.type = t;
	if (suppressed) {
		p.payload.ip.ipc = pt_ipc_suppressed;
	} else {
		p.payload.ip.ipc = compress(e->last_ip, ip);
		p.payload.ip.ip = ip;
		e->last_ip = ip;
	}
	return put(e, &p, err);
}

static int ip_packet(struct ptd_ptenc *e, enum pt_packet_type t, uint64_t ip, int suppressed,
		     struct ptd_err *err)
{
	int rc;

	if (!e->in_psb && (rc = timing(e, err)))
		return rc;
	return ip_put(e, t, ip, suppressed, err);
}

/* TSC, then TMA when MTC is on: the crystal clock at that TSC and the TSC
 * ticks since that clock last ticked */
static int tsc_packet(struct ptd_ptenc *e, uint64_t tsc, struct ptd_err *err)
{
	struct pt_packet p;
	uint64_t ctc;
	int rc;

	e->cyc_tsc = tsc;
	if (e->cfg.no_tsc)
		return 0;
	memset(&p, 0, sizeof(p));
	p.type = ppt_tsc;
	p.payload.tsc.tsc = tsc & ((1ULL << 56) - 1);
	if ((rc = put(e, &p, err)))
		return rc;
	if (!e->cfg.mtc)
		return 0;
	ctc = ctc_of(e, tsc);
	e->mtc_period = ctc >> e->cfg.mtc_shift;
	memset(&p, 0, sizeof(p));
	p.type = ppt_tma;
	p.payload.tma.ctc = (uint16_t)ctc;
	p.payload.tma.fc = (uint16_t)(tsc - (uint64_t)((unsigned __int128)ctc * e->cfg.ctc_n / e->cfg.ctc_d));
	return put(e, &p, err);
}

static int flush_tnt(struct ptd_ptenc *e, struct ptd_err *err)
{
	struct pt_packet p;
	int rc;

	if (!e->tnt_bits)
		return 0;
	if ((rc = timing(e, err)))
		return rc;
	memset(&p, 0, sizeof(p));
	p.type = e->tnt_bits <= 6 ? ppt_tnt_8 : ppt_tnt_64;
	p.payload.tnt.bit_size = (uint8_t)e->tnt_bits;
	p.payload.tnt.payload = e->tnt;
	e->tnt = 0;
	e->tnt_bits = 0;
	return put(e, &p, err);
}

static int tnt_bit(struct ptd_ptenc *e, int taken, struct ptd_err *err)
{
	e->tnt = (e->tnt << 1) | (taken ? 1 : 0);
	e->tnt_bits++;
	if (e->tnt_bits == (e->cfg.long_tnt ? 47u : 6u))
		return flush_tnt(e, err);
	return 0;
}

/* ---- the two decoders' return stacks -------------------------------- */

static int push(struct ptd_ptenc *e, uint64_t ret, struct ptd_err *err)
{
	if (e->pdepth == e->pcap) {
		size_t ncap = e->pcap ? e->pcap * 2 : 256;
		uint64_t *n = realloc(e->pstack, ncap * sizeof(*n));

		if (!n)
			return ptd_err_set(err, PTD_E_NOMEM, "return stack");
		e->pstack = n;
		e->pcap = ncap;
	}
	e->pstack[e->pdepth++] = ret;
	e->lstack[e->ltop] = ret;
	e->ltop = (e->ltop + 1) % (RETSTACK + 1);
	if (e->ltop == e->lbottom)
		e->lbottom = (e->lbottom + 1) % (RETSTACK + 1);
	return 0;
}

/* A RET to `to`: may it be compressed, so that both decoders take the
 * right return address from their stacks?  Updates both stacks as the
 * decoders will: perf pops on every RET, libipt only on a compressed one. */
static int ret_compressed(struct ptd_ptenc *e, uint64_t to)
{
	uint64_t ptop = e->pdepth ? e->pstack[e->pdepth - 1] : 0;
	int lempty = e->ltop == e->lbottom;
	unsigned lt = e->ltop ? e->ltop - 1 : RETSTACK;
	int ok = !e->cfg.noretcomp && e->pdepth && ptop == to && !lempty && e->lstack[lt] == to;

	if (e->pdepth)
		e->pdepth--;
	if (ok)
		e->ltop = lt;
	return ok;
}

/* ---- PSB+ ------------------------------------------------------------ */

static int mode_tsx(struct ptd_ptenc *e, int intx, int abrt, struct ptd_err *err)
{
	struct pt_packet p;

	memset(&p, 0, sizeof(p));
	p.type = ppt_mode;
	p.payload.mode.leaf = pt_mol_tsx;
	p.payload.mode.bits.tsx.intx = intx ? 1 : 0;
	p.payload.mode.bits.tsx.abrt = abrt ? 1 : 0;
	return put(e, &p, err);
}

static int psb_plus(struct ptd_ptenc *e, struct ptd_err *err)
{
	struct pt_packet p;
	int rc;

	if ((rc = flush_tnt(e, err)))
		return rc;
	if (e->psb_fn)
		e->psb_fn(e->psb_ctx, e->total, e->enabled, e->ip);
	if ((rc = simple(e, ppt_psb, err)))
		return rc;
	e->in_psb = 1;
	e->since_psb = 16;
	e->last_ip = 0;
	e->pdepth = 0;          /* perf clears its return stack at PSB */
	if ((rc = tsc_packet(e, e->tsc, err)))
		return rc;
	memset(&p, 0, sizeof(p));
	p.type = ppt_cbr;
	p.payload.cbr.ratio = e->cfg.cbr;
	if ((rc = put(e, &p, err)))
		return rc;
	memset(&p, 0, sizeof(p));
	p.type = ppt_mode;
	p.payload.mode.leaf = pt_mol_exec;
	p.payload.mode.bits.exec.csl = 1;
	if ((rc = put(e, &p, err)))
		return rc;
	if ((e->cfg.tsx || e->in_tx) && (rc = mode_tsx(e, e->in_tx, 0, err)))
		return rc;
	if (e->enabled && (rc = ip_packet(e, ppt_fup, e->ip, 0, err)))
		return rc;
	e->in_psb = 0;
	return simple(e, ppt_psbend, err);
}

/* at an instruction boundary: a PSB+ when the period is up */
static int maybe_psb(struct ptd_ptenc *e, struct ptd_err *err)
{
	if (e->since_psb < e->cfg.psb_period)
		return 0;
	return psb_plus(e, err);
}

/* ---- API ----------------------------------------------------------------- */

int ptd_ptenc_new(struct ptd_ptenc **out, const struct ptd_ptenc_config *cfg, struct ptd_err *err)
{
	struct ptd_ptenc *e = calloc(1, sizeof(*e));
	struct pt_config pc;

	if (!e)
		return ptd_err_set(err, PTD_E_NOMEM, "PT encoder");
	e->cfg = *cfg;
	if (e->cfg.psb_period < 256 || (e->cfg.psb_period & (e->cfg.psb_period - 1))) {
		free(e);
		return ptd_err_set(err, PTD_E_INVAL, "psb period %llu: a power of two of at least 256 bytes",
				   (unsigned long long)cfg->psb_period);
	}
	if (e->cfg.mtc && (!e->cfg.ctc_n || !e->cfg.ctc_d || e->cfg.mtc_shift > 15)) {
		free(e);
		return ptd_err_set(err, PTD_E_INVAL, "MTC needs a TSC:CTC ratio and a period of 0-15");
	}
	if (e->cfg.no_tsc && (e->cfg.mtc || e->cfg.cyc)) {
		free(e);
		return ptd_err_set(err, PTD_E_INVAL, "MTC and CYC packets need TSC packets");
	}
	pt_config_init(&pc);
	pc.begin = e->win;
	pc.end = e->win + WIN;
	e->enc = pt_alloc_encoder(&pc);
	if (!e->enc) {
		free(e);
		return ptd_err_set(err, PTD_E_NOMEM, "libipt encoder");
	}
	*out = e;
	return 0;
}

void ptd_ptenc_free(struct ptd_ptenc *e)
{
	if (!e)
		return;
	pt_free_encoder(e->enc);
	free(e->out);
	free(e->pstack);
	free(e);
}

int ptd_ptenc_start(struct ptd_ptenc *e, uint64_t tsc, struct ptd_err *err)
{
	e->tsc = tsc;
	e->enabled = e->user = e->at_sysret = 0;
	return psb_plus(e, err);
}

static int in_filter(const struct ptd_ptenc *e, uint64_t ip)
{
	return !e->cfg.in_filter || e->cfg.in_filter(e->cfg.filter_ctx, ip);
}

/* packets start at ip: TSC + TIP.PGE */
static int pge(struct ptd_ptenc *e, uint64_t tsc, uint64_t ip, struct ptd_err *err)
{
	int rc;

	if ((rc = maybe_psb(e, err)) || (rc = tsc_packet(e, tsc, err)))
		return rc;
	e->enabled = 1;
	e->ip = ip;
	return ip_packet(e, ppt_tip_pge, ip, 0, err);
}

int ptd_ptenc_enable(struct ptd_ptenc *e, uint64_t tsc, uint64_t ip, struct ptd_err *err)
{
	int rc;

	e->tsc = tsc;
	if (e->user)
		return ptd_err_set(err, PTD_E_INVAL, "PT encoder: enable while enabled");
	e->user = 1;
	if (e->at_sysret) {
		/* the kernel returns to user space: TSC + TIP */
		e->at_sysret = 0;
		if ((rc = maybe_psb(e, err)) || (rc = tsc_packet(e, tsc, err)))
			return rc;
		e->ip = ip;
		return ip_packet(e, ppt_tip, ip, 0, err);
	}
	e->ip = ip;
	if (!in_filter(e, ip))
		return 0;
	return pge(e, tsc, ip, err);
}

/* A transfer while the ip is outside the filter regions: no packets,
 * unless it enters one. */
static int branch_filtered(struct ptd_ptenc *e, uint64_t tsc, const struct ptd_xev *ev,
			   struct ptd_err *err)
{
	if (ev->cls == PTD_X_SYSCALL || ev->cls == PTD_X_ASYNC) {
		e->user = 0;
		return 0;
	}
	e->ip = ev->to;
	return in_filter(e, ev->to) ? pge(e, tsc, ev->to, err) : 0;
}

/* A transfer that leaves the filter regions: the decoders walk to it
 * (a call pushes its return for both, a return pops perf's stack), then
 * TIP.PGD with its target. */
static int branch_out(struct ptd_ptenc *e, const struct ptd_xev *ev, struct ptd_err *err)
{
	int rc = 0;

	if ((ev->cls == PTD_X_CALL && ev->to != ev->from + ev->insn_len) || ev->cls == PTD_X_ICALL)
		rc = push(e, ev->from + ev->insn_len, err);
	else if (ev->cls == PTD_X_RET && e->pdepth)
		e->pdepth--;
	if (rc || (rc = flush_tnt(e, err)) || (rc = ip_packet(e, ppt_tip_pgd, ev->to, 0, err)))
		return rc;
	e->enabled = 0;
	e->ip = ev->to;
	return 0;
}

int ptd_ptenc_branch(struct ptd_ptenc *e, uint64_t tsc, const struct ptd_xev *ev,
		     struct ptd_err *err)
{
	int rc = 0;

	e->tsc = tsc;
	if (!e->user)
		return ptd_err_set(err, PTD_E_INVAL, "PT encoder: branch at %#llx while disabled",
				   (unsigned long long)ev->from);
	if (!e->enabled)
		return branch_filtered(e, tsc, ev, err);
	/* a PSB+ due goes before this transfer's packets, at the boundary
	 * after the previous one */
	if ((rc = maybe_psb(e, err)))
		return rc;
	if (ev->cls != PTD_X_SYSCALL && ev->cls != PTD_X_ASYNC && !in_filter(e, ev->to))
		return branch_out(e, ev, err);
	switch (ev->cls) {
	case PTD_X_COND:
		rc = tnt_bit(e, ev->taken, err);
		break;
	case PTD_X_JUMP:
		break;
	case PTD_X_CALL:
		/* a call to the next instruction (PIC) is no call for the decoders */
		if (ev->to != ev->from + ev->insn_len)
			rc = push(e, ev->from + ev->insn_len, err);
		break;
	case PTD_X_ICALL:
		rc = push(e, ev->from + ev->insn_len, err);
		if (!rc)
			rc = flush_tnt(e, err);
		if (!rc)
			rc = ip_packet(e, ppt_tip, ev->to, 0, err);
		break;
	case PTD_X_IJUMP:
		if (!(rc = flush_tnt(e, err)))
			rc = ip_packet(e, ppt_tip, ev->to, 0, err);
		break;
	case PTD_X_RET:
		if (ret_compressed(e, ev->to))
			rc = tnt_bit(e, 1, err);
		else if (!(rc = flush_tnt(e, err)))
			rc = ip_packet(e, ppt_tip, ev->to, 0, err);
		break;
	case PTD_X_SYSCALL:
		/* a far branch into the kernel, where tracing is filtered */
		if (!(rc = flush_tnt(e, err)) && !(rc = tsc_packet(e, tsc, err)))
			rc = ip_packet(e, ppt_tip_pgd, 0, 1, err);
		e->enabled = e->user = 0;
		return rc;
	case PTD_X_ASYNC:
		return ptd_ptenc_interrupt(e, tsc, ev->from, err);
	default:
		return ptd_err_set(err, PTD_E_INVAL, "PT encoder: transfer class %d", ev->cls);
	}
	e->ip = ev->to;
	return rc;
}

int ptd_ptenc_kernel_entry(struct ptd_ptenc *e, uint64_t tsc, uint64_t entry,
			   struct ptd_err *err)
{
	int rc;

	e->tsc = tsc;
	if (!e->user || !e->enabled || e->cfg.in_filter)
		return ptd_err_set(err, PTD_E_INVAL, "PT encoder: kernel entry while disabled");
	if ((rc = maybe_psb(e, err)) || (rc = flush_tnt(e, err)) || (rc = tsc_packet(e, tsc, err)))
		return rc;
	e->ip = entry;
	return ip_packet(e, ppt_tip, entry, 0, err);
}

int ptd_ptenc_kernel_exit(struct ptd_ptenc *e, uint64_t ip, struct ptd_err *err)
{
	int rc = flush_tnt(e, err);

	e->ip = ip;
	e->user = 0;
	e->at_sysret = 1;
	return rc;
}

int ptd_ptenc_interrupt(struct ptd_ptenc *e, uint64_t tsc, uint64_t ip, struct ptd_err *err)
{
	int rc;

	e->tsc = tsc;
	if (!e->enabled) {
		e->user = 0;   /* outside the filter regions: nothing to say */
		return 0;
	}
	if ((rc = flush_tnt(e, err)) || (rc = tsc_packet(e, tsc, err)) ||
	    (rc = ip_packet(e, ppt_fup, ip, 0, err)) || (rc = ip_packet(e, ppt_tip_pgd, 0, 1, err)))
		return rc;
	e->enabled = e->user = 0;
	return 0;
}

/* Before an event bound to ip: a PSB+ if due, the TNT bits of the
 * branches before it, and the timing packets, so that nothing comes
 * between the event's packets.  The PSB+ comes a little early rather than
 * right after the event: its FUP would name the same ip as the event's,
 * which libipt cannot take (perf can). */
#define EVENT_BYTES 64   /* more than TNT, timing and the longest event's packets */
static int before_event(struct ptd_ptenc *e, uint64_t tsc, uint64_t ip, const char *what,
			struct ptd_err *err)
{
	int rc;

	e->tsc = tsc;
	if (!e->enabled)
		return ptd_err_set(err, PTD_E_INVAL, "PT encoder: %s at %#llx while disabled", what,
				   (unsigned long long)ip);
	if (e->since_psb + EVENT_BYTES >= e->cfg.psb_period && (rc = psb_plus(e, err)))
		return rc;
	if ((rc = flush_tnt(e, err)))
		return rc;
	return timing(e, err);
}

int ptd_ptenc_ptwrite(struct ptd_ptenc *e, uint64_t tsc, uint64_t ip, uint64_t payload,
		      unsigned bytes, struct ptd_err *err)
{
	struct pt_packet p;
	int rc;

	if (bytes != 4 && bytes != 8)
		return ptd_err_set(err, PTD_E_INVAL, "PT encoder: a ptwrite of %u bytes", bytes);
	if ((rc = before_event(e, tsc, ip, "ptwrite", err)))
		return rc;
	memset(&p, 0, sizeof(p));
	p.type = ppt_ptw;
	p.payload.ptw.plc = bytes == 8;
	p.payload.ptw.ip = 1;
	p.payload.ptw.payload = bytes == 8 ? payload : (uint32_t)payload;
	if ((rc = put(e, &p, err)) || (rc = ip_put(e, ppt_fup, ip, 0, err)))
		return rc;
	e->ip = ip;
	return 0;
}

int ptd_ptenc_power(struct ptd_ptenc *e, uint64_t tsc, uint64_t ip,
		    const struct ptd_ptenc_pwr *pw, struct ptd_err *err)
{
	struct pt_packet p;
	int rc;

	if ((rc = before_event(e, tsc, ip, "power event", err)))
		return rc;
	memset(&p, 0, sizeof(p));
	p.type = ppt_mwait;
	p.payload.mwait.hints = pw->hints;
	p.payload.mwait.ext = pw->ext;
	if ((rc = put(e, &p, err)))
		return rc;
	memset(&p, 0, sizeof(p));
	p.type = ppt_pwre;
	p.payload.pwre.state = pw->state & 0xf;
	p.payload.pwre.sub_state = pw->sub_state & 0xf;
	p.payload.pwre.hw = pw->hw ? 1 : 0;
	if ((rc = put(e, &p, err)))
		return rc;
	memset(&p, 0, sizeof(p));
	p.type = ppt_exstop;
	p.payload.exstop.ip = 1;
	if ((rc = put(e, &p, err)) || (rc = ip_put(e, ppt_fup, ip, 0, err)))
		return rc;
	e->ip = ip;
	memset(&p, 0, sizeof(p));
	p.type = ppt_pwrx;
	p.payload.pwrx.deepest = pw->deepest & 0xf;
	p.payload.pwrx.last = pw->last & 0xf;
	p.payload.pwrx.interrupt = (pw->wake & 1) != 0;
	p.payload.pwrx.store = (pw->wake & 4) != 0;
	p.payload.pwrx.autonomous = (pw->wake & 8) != 0;
	return put(e, &p, err);
}

int ptd_ptenc_tsx(struct ptd_ptenc *e, uint64_t tsc, uint64_t ip, int begin, struct ptd_err *err)
{
	int rc;

	if ((rc = before_event(e, tsc, ip, begin ? "transaction begin" : "commit", err)))
		return rc;
	if ((rc = mode_tsx(e, begin, 0, err)) || (rc = ip_put(e, ppt_fup, ip, 0, err)))
		return rc;
	e->in_tx = begin ? 1 : 0;
	e->ip = ip;
	return 0;
}

int ptd_ptenc_tsx_abort(struct ptd_ptenc *e, uint64_t tsc, uint64_t ip, uint64_t to,
			struct ptd_err *err)
{
	int rc;

	if ((rc = before_event(e, tsc, ip, "transaction abort", err)))
		return rc;
	/* the FUP names the instruction that did not complete, the TIP where
	 * execution went instead; neither is a call or a return, so the
	 * decoders' return stacks stay as they are */
	if ((rc = mode_tsx(e, 0, 1, err)) || (rc = ip_put(e, ppt_fup, ip, 0, err)) ||
	    (rc = ip_put(e, ppt_tip, to, 0, err)))
		return rc;
	e->in_tx = 0;
	e->ip = to;
	return 0;
}

void ptd_ptenc_set_in_tx(struct ptd_ptenc *e, int in_tx)
{
	e->in_tx = in_tx ? 1 : 0;
}

int ptd_ptenc_overflow(struct ptd_ptenc *e, uint64_t tsc, uint64_t ip, struct ptd_err *err)
{
	int rc;

	e->tsc = tsc;
	/* the branches before the overflow made it out */
	if ((rc = flush_tnt(e, err)) || (rc = simple(e, ppt_ovf, err)))
		return rc;
	e->enabled = e->user = 1;
	e->at_sysret = 0;
	e->ip = ip;
	if ((rc = ip_packet(e, ppt_fup, ip, 0, err)))
		return rc;
	/* the decoders' return stacks are not in step after an overflow: a
	 * PSB+ empties perf's, and then returns are compressed only for
	 * calls both decoders saw */
	return psb_plus(e, err);
}

int ptd_ptenc_resync(struct ptd_ptenc *e, uint64_t tsc, uint64_t ip, struct ptd_err *err)
{
	e->tsc = tsc;
	e->ip = ip;
	if (e->at_sysret)   /* the sysretq was lost: tracing resumes with TIP.PGE */
		e->enabled = e->at_sysret = 0;
	return psb_plus(e, err);
}

int ptd_ptenc_flush(struct ptd_ptenc *e, struct ptd_err *err)
{
	return flush_tnt(e, err);
}

void ptd_ptenc_on_psb(struct ptd_ptenc *e, void (*fn)(void *ctx, uint64_t offset, int enabled,
						       uint64_t ip), void *ctx)
{
	e->psb_fn = fn;
	e->psb_ctx = ctx;
}

int ptd_ptenc_enabled(const struct ptd_ptenc *e)
{
	return e->user;
}

const uint8_t *ptd_ptenc_data(const struct ptd_ptenc *e, size_t *len)
{
	*len = e->out_len - e->out_start;
	return e->out + e->out_start;
}

void ptd_ptenc_take(struct ptd_ptenc *e, size_t n)
{
	size_t avail = e->out_len - e->out_start;

	e->out_start += n < avail ? n : avail;
	if (e->out_start == e->out_len)
		e->out_start = e->out_len = 0;
}

uint64_t ptd_ptenc_total(const struct ptd_ptenc *e)
{
	return e->total;
}
