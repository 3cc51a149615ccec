/* Skipping states for consumers that ignore plain branch states
 * (ptd_pdec_decode_to): a state skipped where the walk makes it, and runs
 * of conditional branches, the decoder's fast path.  Each taken bit of a TNT
 * packet makes a state that would be returned, skipped and decoded past;
 * here the steps of a run come from the walk_jcc callback (blocks it has
 * walked before) and the decoder is left as that one state at a time
 * would leave it: instruction counts, sample time, the cycle sample
 * flag, nr, the TNT packet, ip, and after the packet's last bit the
 * decoder's state. */
#include "decoders/intel-pt/pdec_priv.h"

#include <errno.h>

/* What a state skipped with timestamp ts leaves behind, besides the
 * sample time. */
static inline void skipped(struct ptd_pdec *d, uint64_t ts)
{
	d->nr = d->next_nr;
	pdec_note_skipped(d, ts);
}

bool pdec_skip_state(struct ptd_pdec *d)
{
	bool update;
	uint64_t ts;

	if (!d->skip_bound || d->state.type != PDEC_BRANCH || d->cbr != d->cbr_seen)
		return false;
	update = pdec_sample_time_state(d->pkt_state);
	ts = update ? d->timestamp : d->sample_timestamp;
	if (ts >= d->skip_bound ||
	    ptd_pdec_to_user(d->state.from_ip, d->state.to_ip, d->skip_kernel_start))
		return false;
	/* what decode_one() does after a state, and ptd_pdec_decode_to()
	 * with one it skips */
	if (update) {
		pdec_update_sample_time(d);
		if (d->sample_cyc) {
			d->sample_tot_cyc_cnt = d->tot_cyc_cnt;
			d->sample_cyc = false;
		}
	}
	skipped(d, ts);
	d->state.type = PDEC_BRANCH;
	d->state.flags = 0;
	return true;
}

/* One run; the steps taken (*err: what pdec_jcc_run returns). */
static unsigned run_once(struct ptd_pdec *d, int *err)
{
	struct pdec_jcc_run run;
	uint64_t cap, cnt;
	unsigned k, taken = 0;

	*err = 0;
	/* the states would be plain branches below the bound, and the walk
	 * would take no sample: the period is known without side effects */
	if (d->state.type != PDEC_BRANCH || d->tx_flags || d->cbr != d->cbr_seen ||
	    d->timestamp >= d->skip_bound ||
	    (d->p.period_type == PDEC_PERIOD_TICKS && !d->continuous_period))
		return 0;
	cap = pdec_next_sample(d);
	run.n = 0;
	d->p.walk_jcc(d->p.ctx, d->ip, d->tnt.payload, (unsigned)d->tnt.count, &run);
	/* steps that end before the next sample: cap is the walk's
	 * max_insn_cnt now, and no less than that less the instructions
	 * walked at each later step (pdec_time.c next_period) */
	for (k = 0; k < run.n && k < (unsigned)d->tnt.count && (!cap || run.insn_cnt[k] < cap); k++)
		if ((d->tnt.payload << k) & (1ULL << 63))
			taken = k + 1;
	if (!k)
		return 0;
	cnt = run.insn_cnt[k - 1];
	d->mtc_insn = true;
	d->tot_insn_cnt += cnt;
	d->timestamp_insn_cnt += cnt;
	d->sample_insn_cnt += cnt;
	d->period_insn_cnt += cnt;
	d->no_progress = 0;
	if (d->sample_cyc && (d->tnt.payload & (1ULL << 63)))
		d->sample_tot_cyc_cnt = d->tot_cyc_cnt;
	d->sample_cyc = false;
	if (taken) {
		/* the last taken branch's state took the sample time; the walks
		 * after it counted on both instruction counts alike */
		pdec_update_sample_time(d);
		skipped(d, d->timestamp);
	}
	d->tnt.count -= (int)k;
	d->tnt.payload <<= k;
	d->ip = run.ip[k - 1];
	if (d->tnt.count) {
		d->pkt_state = ST_TNT_CONT;
	} else if (taken == k) {
		d->pkt_state = ST_IN_SYNC;   /* as after the state of a last bit taken */
		*err = PDEC_SKIPPED;
	} else {
		pdec_update_sample_time(d);   /* as after a last bit not taken */
		d->pkt_state = ST_IN_SYNC;
		*err = -EAGAIN;
	}
	return k;
}

int pdec_jcc_run(struct ptd_pdec *d)
{
	unsigned k, all = 0;
	int err;

	if (!d->p.walk_jcc)
		return 0;
	do {
		k = run_once(d, &err);
		all += k;
	} while (k == PDEC_JCC_MAX && d->tnt.count);
	/* code where runs are short (calls, returns, indirect branches
	 * between the conditional ones) is left to the walk for a while: the
	 * lookups would cost more than they save */
	if (all > 1) {
		d->jcc_backoff = 0;
	} else {
		d->jcc_wait = d->jcc_backoff;
		if (d->jcc_backoff < 1023)
			d->jcc_backoff = d->jcc_backoff * 2 + 1;
	}
	return err;
}
