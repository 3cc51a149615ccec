/* Timestamps and sampling periods of the perf-semantics decoder, computed
 * as perf's intel-pt-decoder computes them: the time is the last TSC, or
 * the last MTC (scaled by the TSC/CTC ratio from the last TMA), or CYC
 * cycles scaled by the core:bus ratio; between timing packets each
 * instruction counts as one tick for periods and two (scaled by the
 * maximum non-turbo ratio over CBR) for the estimated timestamp. */
#include "decoders/intel-pt/pdec_parse.h"
#include "decoders/intel-pt/pdec_skim.h"

static uint64_t multdiv(uint64_t t, uint32_t n, uint32_t d)
{
	if (!d)
		return 0;
	return (t / d) * n + ((t % d) * n) / d;
}

void pdec_reposition(struct ptd_pdec *d)
{
	d->ip = 0;
	d->pkt_state = ST_NO_PSB;
	d->timestamp = 0;
	d->have_tma = false;
}

uint64_t pdec_est_timestamp(const struct ptd_pdec *d)
{
	uint64_t est = d->sample_insn_cnt << 1;

	if (d->cbr && d->p.max_non_turbo_ratio) {
		est *= d->p.max_non_turbo_ratio;
		est /= d->cbr;
	}
	return d->sample_timestamp + est;
}

/* The 7 bytes of a TSC packet completed from a reference time. */
uint64_t pdec_tsc_8b(uint64_t timestamp, uint64_t ref)
{
	timestamp |= ref & (0xffULL << 56);
	if (timestamp < ref) {
		if (ref - timestamp > (1ULL << 55))
			timestamp += 1ULL << 56;
	} else if (timestamp - ref > (1ULL << 55)) {
		timestamp -= 1ULL << 56;
	}
	return timestamp;
}

#define TSC_SLIP 0x10000

void pdec_calc_tsc_timestamp(struct ptd_pdec *d)
{
	uint64_t timestamp;

	d->have_tma = false;
	if (d->ref_timestamp) {
		timestamp = pdec_tsc_8b(d->packet.payload, d->ref_timestamp);
		d->tsc_timestamp = timestamp;
		d->timestamp = timestamp;
		d->ref_timestamp = 0;
		d->timestamp_insn_cnt = 0;
	} else if (d->timestamp) {
		timestamp = d->packet.payload | (d->timestamp & (0xffULL << 56));
		d->tsc_timestamp = timestamp;
		if (timestamp < d->timestamp && d->timestamp - timestamp < TSC_SLIP)
			timestamp = d->timestamp;   /* a TSC slipped past MTCs */
		if (timestamp < d->timestamp) {
			if (!d->buf_timestamp || timestamp + (1ULL << 56) < d->buf_timestamp) {
				timestamp += 1ULL << 56;   /* wrapped */
				d->tsc_timestamp = timestamp;
			} else {
				timestamp = d->timestamp;  /* bad: keep the time */
			}
		}
		d->timestamp = timestamp;
		d->timestamp_insn_cnt = 0;
	}
	if (d->last_packet_type == PK_CYC) {
		d->cyc_ref_timestamp = d->timestamp;
		d->cycle_cnt = 0;
		d->have_calc_cyc_to_tsc = false;   /* perf calibrates after MTCs only */
	}
}

void pdec_mtc_cyc_cnt_pge(struct ptd_pdec *d)
{
	if (d->have_cyc)
		return;
	d->cyc_cnt_timestamp = d->timestamp;
	d->base_cyc_cnt = d->tot_cyc_cnt;
}

static void mtc_cyc_cnt_upd(struct ptd_pdec *d)
{
	uint64_t tot, delta;

	if (d->have_cyc)
		return;
	d->sample_cyc = true;
	d->est_reads++;
	if (!d->pge || d->timestamp <= d->cyc_cnt_timestamp)
		return;
	delta = d->timestamp - d->cyc_cnt_timestamp;
	tot = pdec_to_u64((double)delta * d->tsc_to_cyc + (double)d->base_cyc_cnt);   /* in double, as perf */
	if (tot > d->tot_cyc_cnt)
		d->tot_cyc_cnt = tot;
}

void pdec_calc_tma(struct ptd_pdec *d)
{
	uint32_t ctc = (uint32_t)d->packet.payload;
	uint32_t fc = (uint32_t)d->packet.count;
	uint32_t rem = ctc & d->ctc_rem_mask;

	if (!d->p.tsc_ctc_ratio_d)
		return;
	if (d->pge && !d->in_psb)
		pdec_mtc_cyc_cnt_pge(d);
	else
		mtc_cyc_cnt_upd(d);
	d->last_mtc = (ctc >> d->p.mtc_period) & 0xff;
	d->last_ctc = ctc - rem;
	d->ctc_timestamp = d->tsc_timestamp - fc;
	if (d->tsc_ctc_mult)
		d->ctc_timestamp -= (uint64_t)rem * d->tsc_ctc_mult;
	else
		d->ctc_timestamp -= multdiv(rem, d->p.tsc_ctc_ratio_n, d->p.tsc_ctc_ratio_d);
	d->ctc_delta = 0;
	d->have_tma = true;
	d->fixup_last_mtc = true;
}

/* With an MTC period above 8 bits, the last MTC from TMA lacks the low bits
 * of the first MTC that follows: take them from it. */
static void fixup_last_mtc(uint32_t mtc, unsigned shift, uint32_t *last)
{
	uint32_t first_missing_bit = 1U << (16 - shift);
	uint32_t mask = ~(first_missing_bit - 1);

	*last |= mtc & mask;
	if (*last >= mtc) {
		*last -= first_missing_bit;
		*last &= 0xff;
	}
}

/* ---- CYC calibration by look-ahead (perf's intel_pt_calc_cyc_to_tsc) ---- */

struct cyc_calc {
	struct ptd_pdec *d;
	uint64_t cycle_cnt;
	unsigned cbr;
	uint32_t last_mtc;
	uint64_t ctc_timestamp, ctc_delta, timestamp;
	bool have_tma, fixup_last_mtc;
	double cbr_cyc_to_tsc;
	bool after_cyc;     /* the packet before the one looked at is a CYC */
};

/* What the packet ahead says: 0 to look further, 1 to stop; *timestamp
 * set and 2 when it is a timing packet right after a CYC, which gives the
 * TSC ticks per cycle. */
static int cyc_calc_pkt(struct cyc_calc *c, const struct pdec_pkt *pkt, uint64_t *timestamp)
{
	struct ptd_pdec *d = c->d;
	uint32_t mtc, mtc_delta;

	switch (pkt->type) {
	case PK_TNT: case PK_TIP_PGE: case PK_TIP: case PK_FUP: case PK_PSB: case PK_PIP:
	case PK_MODE_EXEC: case PK_MODE_TSX: case PK_PSBEND: case PK_PAD: case PK_VMCS:
	case PK_MNT: case PK_PTWRITE: case PK_PTWRITE_IP:
		return 0;
	case PK_MTC:
		if (!c->have_tma)
			return 0;
		mtc = (uint32_t)pkt->payload;
		if (d->p.mtc_period > 8 && c->fixup_last_mtc) {
			c->fixup_last_mtc = false;
			fixup_last_mtc(mtc, d->p.mtc_period, &c->last_mtc);
		}
		mtc_delta = mtc > c->last_mtc ? mtc - c->last_mtc : mtc + 256 - c->last_mtc;
		c->ctc_delta += (uint64_t)mtc_delta << d->p.mtc_period;
		c->last_mtc = mtc;
		if (d->tsc_ctc_mult)
			*timestamp = c->ctc_timestamp + c->ctc_delta * d->tsc_ctc_mult;
		else
			*timestamp = c->ctc_timestamp + multdiv(c->ctc_delta, d->p.tsc_ctc_ratio_n,
								d->p.tsc_ctc_ratio_d);
		if (*timestamp < c->timestamp)
			return 1;
		if (!c->after_cyc) {
			c->timestamp = *timestamp;
			return 0;
		}
		return 2;
	case PK_TSC:   /* perf calibrates between MTCs only: a TSC can slip */
	case PK_TMA:
		return 1;
	case PK_CYC:
		c->cycle_cnt += pkt->payload;
		return 0;
	case PK_CBR:
		if (c->cbr && c->cbr != (unsigned)pkt->payload)
			return 1;
		c->cbr = (unsigned)pkt->payload;
		c->cbr_cyc_to_tsc = d->max_non_turbo_ratio_fp / c->cbr;
		return 0;
	default:
		return 1;
	}
}

static int cyc_calc_cb(const struct pdec_pkt *pkt, void *data)
{
	struct cyc_calc *c = data;
	struct ptd_pdec *d = c->d;
	uint64_t timestamp = 0;
	double cyc_to_tsc;
	int rc = cyc_calc_pkt(c, pkt, &timestamp);

	if (rc != 2) {
		c->after_cyc = pkt->type == PK_CYC;
		return rc;
	}
	if (!c->cbr && d->cbr) {
		c->cbr = d->cbr;
		c->cbr_cyc_to_tsc = d->cbr_cyc_to_tsc;
	}
	if (!c->cycle_cnt)
		return 1;
	cyc_to_tsc = (double)(timestamp - d->timestamp) / (double)c->cycle_cnt;
	if (c->cbr && cyc_to_tsc > c->cbr_cyc_to_tsc && cyc_to_tsc / c->cbr_cyc_to_tsc > 1.25)
		return 1;   /* too far from the CBR-based value */
	d->calc_cyc_to_tsc = cyc_to_tsc;
	d->have_calc_cyc_to_tsc = true;
	return 1;
}

/* After an MTC right after a CYC: the TSC ticks per cycle up to the next
 * MTC that follows a CYC, when the trace ahead (in this piece) has one.
 * perf's look-ahead from the packet after the current one, skimming: the
 * packets that only move it on (PAD, short TNT, TIP, TIP.PGE and FUP
 * with a valid IP compression that fits) are taken by their first byte
 * (short TNT by pdec_skim_quick, the others by pdec_skim_tab), CYC
 * packets by their bytes, the rest parsed as the walk
 * parses them.  None is kept for the walk (pdec_lookahead's memo):
 * parsing them again costs it less than keeping them cost here. */
static void calc_cyc_to_tsc(struct ptd_pdec *d)
{
	struct cyc_calc c = {
		.d = d, .last_mtc = d->last_mtc, .ctc_timestamp = d->ctc_timestamp,
		.ctc_delta = d->ctc_delta, .timestamp = d->timestamp, .have_tma = d->have_tma,
		.fixup_last_mtc = d->fixup_last_mtc, .after_cyc = d->last_packet_type == PK_CYC,
	};
	const uint8_t *buf = d->buf;
	size_t off, len = d->len;
	struct pdec_pkt pkt;
	unsigned b, v;
	int rc;

	d->memo_i = d->memo_n = 0;
	for (off = d->off + d->pkt_step; off < len; off += (size_t)rc) {
		b = buf[off];
		/* CYC and short TNT packets apart, the next offset waiting on
		 * no load from the table (pdec_skim_quick) */
		v = pdec_skim_quick(b);
		if (v & SKIM_CYC) {
			if (!(b & 4)) {   /* no extension byte */
				c.cycle_cnt += b >> 3;
				rc = 1;
			} else if ((rc = pdec_cyc_packet(buf + off, len - off, &pkt))) {
				c.cycle_cnt += pkt.payload;
			} else {
				break;
			}
			c.after_cyc = true;
			continue;
		}
		if (v) {   /* short TNT */
			rc = 1;
			c.after_cyc = false;
			continue;
		}
		v = pdec_skim_tab[b];
		rc = (int)(v & SKIM_LEN);
		if (rc && (size_t)rc <= len - off) {
			if (v & SKIM_CLR)
				c.after_cyc = false;
			continue;
		}
		if ((rc = pdec_parse(buf, len, off, &pkt)) <= 0)
			break;
		if (pkt.type != PK_PAD && cyc_calc_cb(&pkt, &c))
			break;
	}
}

void pdec_calc_mtc_timestamp(struct ptd_pdec *d)
{
	uint64_t timestamp;
	uint32_t mtc, delta;

	if (!d->have_tma)
		return;
	mtc = (uint32_t)d->packet.payload;
	if (d->p.mtc_period > 8 && d->fixup_last_mtc) {
		d->fixup_last_mtc = false;
		fixup_last_mtc(mtc, d->p.mtc_period, &d->last_mtc);
	}
	delta = mtc > d->last_mtc ? mtc - d->last_mtc : mtc + 256 - d->last_mtc;
	d->ctc_delta += (uint64_t)delta << d->p.mtc_period;
	if (d->tsc_ctc_mult)
		timestamp = d->ctc_timestamp + d->ctc_delta * d->tsc_ctc_mult;
	else
		timestamp = d->ctc_timestamp + multdiv(d->ctc_delta, d->p.tsc_ctc_ratio_n,
						       d->p.tsc_ctc_ratio_d);
	if (timestamp >= d->timestamp)
		d->timestamp = timestamp;
	mtc_cyc_cnt_upd(d);
	d->timestamp_insn_cnt = 0;
	d->last_mtc = mtc;
	if (d->last_packet_type == PK_CYC) {
		d->cyc_ref_timestamp = d->timestamp;
		d->cycle_cnt = 0;
		d->have_calc_cyc_to_tsc = false;
		calc_cyc_to_tsc(d);
	}
}

void pdec_calc_cbr(struct ptd_pdec *d)
{
	unsigned cbr = (unsigned)(d->packet.payload & 0xff);

	d->cbr_payload = d->packet.payload;
	if (d->cbr == cbr)
		return;
	d->cbr = cbr;
	d->cbr_cyc_to_tsc = d->max_non_turbo_ratio_fp / cbr;
	d->cyc_ref_timestamp = d->timestamp;
	d->cycle_cnt = 0;
	if (d->p.max_non_turbo_ratio)
		d->tsc_to_cyc = cbr / d->max_non_turbo_ratio_fp;
	if (d->pge)
		pdec_mtc_cyc_cnt_pge(d);
}

bool pdec_cyc_time(const struct ptd_pdec *d, uint64_t cycle_cnt, uint64_t *timestamp)
{
	if (!d->cyc_ref_timestamp)
		return false;
	if (d->have_calc_cyc_to_tsc)
		*timestamp = pdec_cyc_at(d->cyc_ref_timestamp, cycle_cnt, d->calc_cyc_to_tsc);
	else if (d->cbr)
		*timestamp = pdec_cyc_at(d->cyc_ref_timestamp, cycle_cnt, d->cbr_cyc_to_tsc);
	else
		return false;
	return true;
}

void pdec_calc_cyc_timestamp(struct ptd_pdec *d)
{
	uint64_t timestamp;

	pdec_cyc_count(d, d->packet.payload);
	if (pdec_cyc_time(d, d->cycle_cnt, &timestamp))
		pdec_cyc_time_take(d, timestamp);
}

/* ---- sampling periods --------------------------------------------------- */

static uint64_t lower_power_of_2(uint64_t x)
{
	uint64_t p = 1;

	while (x >>= 1)
		p <<= 1;
	return p;
}

void pdec_setup_period(struct ptd_pdec *d)
{
	if (d->p.period_type == PDEC_PERIOD_TICKS) {
		uint64_t period = lower_power_of_2(d->p.period);

		d->period_mask = ~(period - 1);
		d->period_ticks = period;
	}
}

void pdec_sample_insn(struct ptd_pdec *d)
{
	uint64_t timestamp, masked;

	switch (d->p.period_type) {
	case PDEC_PERIOD_INSTRUCTIONS:
		d->period_insn_cnt = 0;
		break;
	case PDEC_PERIOD_TICKS:
		timestamp = d->timestamp + d->timestamp_insn_cnt;
		masked = timestamp & d->period_mask;
		if (masked > d->last_masked_timestamp)
			d->last_masked_timestamp = masked;
		else
			d->last_masked_timestamp += d->period_ticks;
		break;
	default:
		break;
	}
	d->state.type |= PDEC_INSTRUCTION;
}
