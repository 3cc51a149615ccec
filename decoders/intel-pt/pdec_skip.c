/* Skipping states for consumers that ignore plain branch states
 * (ptd_pdec_decode_to): runs of TNT bits, the decoder's fast path (a
 * single state is skipped where the walk makes it: pdec_skip_state in
 * pdec_priv.h).  Each taken bit of a TNT packet,
 * direct call and direct jump makes a state that would be returned,
 * skipped and decoded past; here the steps of a run come from the
 * walk_jcc callback (blocks it has walked before: conditional branches,
 * direct calls and jumps, compressed returns) and the decoder is left as
 * that one state at a time would leave it: instruction counts, sample
 * time, the cycle sample flag, nr, the return stack, the TNT packet, ip,
 * and after the packet's last bit the decoder's state.  A long TNT
 * packet whose runs are all plain and whole is a chain: what it leaves
 * is cached by the walk (jcc_chain) and taken in one step when the same
 * bits come from the same place again (loops). */
#include "decoders/intel-pt/pdec_priv.h"

#include <errno.h>

/* A run of a packet that ended where it began, with all its steps
 * taken: a loop, which may take the same run again next, with the same
 * outcomes to come.  The run is then known without asking the walk.  It
 * stays lent while the packet's runs are taken (no walk between them),
 * and would not change (nor does the time, which picks the maps). */
struct again {
	const struct pdec_jcc_run *run;   /* NULL: none */
	uint64_t ip, base;
	uint8_t bits;
};

/* Of the first n steps of a run with calls, jumps or returns, those the
 * walk would take as the run does: not one whose calls and jumps reach
 * the walk's check for a loop that takes no packets (it begins at the
 * third direct call or jump in a row, PDEC_JCC_UNCOND: only step 0's can,
 * after no_progress np), nor one when the return stack may grow past its
 * bound, nor a return when returns are not compressed, nor a return out
 * of the run the walk finds no address for (an error). */
static inline unsigned run_steps(const struct ptd_pdec *d, const struct pdec_jcc_run *run,
				 unsigned n, unsigned np)
{
	if ((run->uncond[0] && run->uncond[0] + np > PDEC_JCC_UNCOND) ||
	    d->stack_n + PDEC_JCC_OPS >= PDEC_STACK_MAX / 2)
		return 0;
	if (!d->p.return_compression)
		return run->first_ret < n ? run->first_ret : n;
	if (run->kind[run->n - 1] == PDEC_RUN_RET_OUT && run->n <= n &&
	    (d->stack_n < 1u + run->mid_out || !d->stack[d->stack_n - 1 - run->mid_out]))
		return run->n - 1;
	return n;
}

/* A long TNT packet's runs as they are taken, for the chain they make
 * (pdec_params.jcc_chain): ok while each was plain and taken whole. */
struct chain_rec {
	bool ok;
	uint64_t base;
	struct pdec_jcc_chain c;
};

/* May runs be taken here?  The states would be plain branches below the
 * bound, and the walk would take no sample. */
static inline bool runs_may(const struct ptd_pdec *d)
{
	return d->state.type == PDEC_BRANCH && !d->tx_flags && d->cbr == d->cbr_seen &&
	       d->timestamp < d->skip_bound;
}

/* A period of ticks not yet continuous: the steps must leave it so
 * (pdec_period_quiet); else the period is known without side effects. */
static inline bool runs_quiet(const struct ptd_pdec *d)
{
	return d->p.period_type == PDEC_PERIOD_TICKS && !d->continuous_period;
}

/* One run; the steps taken (*err: what pdec_jcc_run returns; *more: the
 * run went as far as it could know, and the next one may go on).  r: the
 * chain noted, or NULL. */
static unsigned run_once(struct ptd_pdec *d, struct again *a, int *err, bool *more,
			 struct chain_rec *r)
{
	const struct pdec_jcc_run *run;
	uint64_t cap, cnt, tk, base = 0, ip = d->ip;
	uint8_t bits = (uint8_t)(d->tnt.payload >> (64 - PDEC_JCC_MAX));
	unsigned k, n, taken = 0, np = d->no_progress;
	bool first_upd, later_uncond = false, quiet;
	int rc;

	*err = 0;
	*more = false;
	if (!runs_may(d))
		return 0;
	quiet = runs_quiet(d);
	cap = quiet ? 0 : pdec_next_sample(d);
	if (a->run && a->ip == ip && a->bits == bits) {
		run = a->run;
		base = a->base;
	} else if (!(run = d->p.walk_jcc(d->p.ctx, ip, d->tnt.payload, (unsigned)d->tnt.count,
					 /* a run through a return is never plain */
					 d->p.return_compression && d->stack_n && !d->p.keep_ops ?
					 d->stack[d->stack_n - 1] : 0, &base))) {
		return 0;
	}
	a->run = NULL;
	if (d->p.keep_ops && !run->plain)
		return 0;   /* its calls and returns are states kept */
	n = run->n < (unsigned)d->tnt.count ? run->n : (unsigned)d->tnt.count;
	/* steps that end before the next sample: cap is the walk's
	 * max_insn_cnt now, and no less than that less the instructions
	 * walked at each later step (pdec_time.c next_period) */
	/* the steps the walk would take alike (run_steps) below the cap (or,
	 * quiet, that leave the period so); the last one whose bit is set (a
	 * conditional branch taken, or a return), taken */
	if (!run->plain)
		n = run_steps(d, run, n, np);
	/* insn_cnt grows along the run, and so does the time at its steps
	 * (unless it wraps): the last step first */
	if (!quiet) {
		if (!cap || !n || run->insn_cnt[n - 1] < cap)
			k = n;
		else
			for (k = 0; run->insn_cnt[k] < cap; k++)
				;
	} else if (n && d->timestamp + d->timestamp_insn_cnt < UINT64_MAX - (1ULL << 33) &&
		   pdec_period_quiet(d, run->insn_cnt[n - 1])) {
		k = n;
	} else {
		for (k = 0; k < n && pdec_period_quiet(d, run->insn_cnt[k]); k++)
			;
	}
	if (k && (tk = d->tnt.payload >> (64 - k)))
		taken = k - (unsigned)__builtin_ctzll(tk);
	later_uncond = k > run->uncond_from;
	if (!k)
		return 0;
	/* the states of the first step's calls and jumps come before its bit:
	 * in a new packet they leave the sample time as it is (pdec_skip_state) */
	first_upd = pdec_sample_time_state(d->pkt_state);
	if (run->uncond[0] && !first_upd &&
	    (d->sample_timestamp >= d->skip_bound ||
	     (d->list_skipped && d->sample_timestamp != d->timestamp)))
		return 0;
	if (run->nops[k - 1] && (rc = pdec_run_stack(d, run, base, run->nops[k - 1]))) {
		*err = rc;
		return 0;
	}
	cnt = run->insn_cnt[k - 1];
	d->mtc_insn = true;
	d->tot_insn_cnt += cnt;
	d->timestamp_insn_cnt += cnt;
	d->sample_insn_cnt += cnt;
	d->period_insn_cnt += cnt;
	d->no_progress = 0;
	if (d->sample_cyc && ((run->uncond[0] && first_upd) || (d->tnt.payload & (1ULL << 63))))
		pdec_sample_cyc_cnt(d);
	d->sample_cyc = false;
	if (run->uncond[0] && !first_upd)
		pdec_skipped(d, d->sample_timestamp);
	if (taken || later_uncond || (run->uncond[0] && first_upd)) {
		/* the last state took the sample time; the walks after it
		 * counted on both instruction counts alike */
		pdec_update_sample_time(d);
		pdec_skipped(d, d->timestamp);
	}
	if (r) {
		/* whole: as many steps as the run has, or as the packet has left */
		r->ok = r->ok && run->plain && k == (run->n < (unsigned)d->tnt.count ?
						     run->n : (unsigned)d->tnt.count) &&
			(!r->c.bits || base == r->base);
		r->base = base;
		r->c.cnt += cnt;
		r->c.bits = (uint8_t)(r->c.bits + k);
		if (taken)
			r->c.flags |= PDEC_CHAIN_UPD;
		r->c.flags = (uint8_t)((r->c.flags & ~PDEC_CHAIN_LAST) |
				       (taken == k ? PDEC_CHAIN_LAST : 0));
	}
	d->tnt.count -= (int)k;
	d->tnt.payload <<= k;
	d->ip = run->kind[k - 1] == PDEC_RUN_RET_OUT ? d->ret_addr : base + run->ip[k - 1];
	if (d->tnt.count) {
		d->pkt_state = ST_TNT_CONT;
		*more = k == run->n && (k == PDEC_JCC_MAX || run->kind[k - 1] == PDEC_RUN_RET_OUT);
		if (k == PDEC_JCC_MAX && d->ip == ip && !run->mid_out) {
			a->run = run;
			a->ip = ip;
			a->base = base;
			a->bits = bits;
		}
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

/* May a chain be taken or noted here?  run_once's early tests pass, and
 * the period is known without side effects (not quiet). */
static inline __attribute__((always_inline)) bool chain_may(const struct ptd_pdec *d)
{
	return runs_may(d) && !runs_quiet(d);
}

/* The decoder left as run_once, run by run, would leave it after the
 * runs of chain c (its ip base plus the value); what pdec_jcc_run
 * returns. */
static inline __attribute__((always_inline)) int chain_take(struct ptd_pdec *d,
								    const struct pdec_jcc_chain *c,
								    uint64_t base)
{
	if (d->sample_cyc && (d->tnt.payload & (1ULL << 63)))
		pdec_sample_cyc_cnt(d);
	d->sample_cyc = false;
	d->mtc_insn = true;
	d->no_progress = 0;
	d->tot_insn_cnt += c->cnt;
	d->timestamp_insn_cnt += c->cnt;
	d->period_insn_cnt += c->cnt;
	if (c->flags & PDEC_CHAIN_UPD) {
		/* the last run with a bit set took the sample time; the runs
		 * after it counted on both instruction counts alike */
		pdec_update_sample_time(d);
		pdec_skipped(d, d->timestamp);
	} else {
		d->sample_insn_cnt += c->cnt;
	}
	d->tnt.count -= c->bits;
	d->tnt.payload <<= c->bits;
	d->ip = base + c->ip;
	d->jcc_backoff = 0;   /* more than one bit taken */
	if (d->tnt.count) {
		d->pkt_state = ST_TNT_CONT;
		return 0;
	}
	d->pkt_state = ST_IN_SYNC;
	if (c->flags & PDEC_CHAIN_LAST)
		return PDEC_SKIPPED;
	pdec_update_sample_time(d);
	return -EAGAIN;
}

/* A long TNT packet's bytes: 02 a3 and six of payload */
#define LONG_TNT 8
_Static_assert(sizeof(((struct pdec_chain_seen *)0)->bytes) == LONG_TNT,
	       "a seen packet's bytes: one word");

/* Is s a chain seen for the packet of bytes next from ip? */
static inline __attribute__((always_inline)) bool seen_for(const struct pdec_chain_seen *s,
							   uint64_t next, uint64_t ip)
{
	return s->c.bits && s->bytes == next && s->ip == ip;
}

/* The long TNT packet at d->off, whose chain c (from ip, its ip base plus
 * the value) the walk found and which was just taken, kept in the
 * decoder's two last (pdec_chain_seen) */
static void chain_seen(struct ptd_pdec *d, const struct pdec_jcc_chain *c, uint64_t base,
		       uint64_t ip)
{
	struct pdec_chain_seen *s = &d->chain_seen[d->chain_next];

	d->chain_next ^= 1;
	memcpy(&s->bytes, d->buf + d->off, sizeof(s->bytes));
	s->ip = ip;
	s->base = base;
	s->pkt = d->packet;
	s->c = *c;
}

/* Is the packet after the one at d->off, a long TNT packet's bytes from
 * the decoder's piece, one chain_again may look at?  In the piece with a
 * packet's bytes after it, and not a packet read ahead (memo). */
static inline __attribute__((always_inline)) bool again_next(const struct ptd_pdec *d, size_t *o)
{
	if (d->len < 2 * LONG_TNT || d->off > d->len - 2 * LONG_TNT)
		return false;
	*o = d->off + LONG_TNT;
	return !(d->memo_i < d->memo_n && d->memo[d->memo_i].off == *o);
}

/* After chain_again took the packet of s from s's ip and was left there
 * (a loop whose packets come again one after the other: the bench's W1,
 * 26,110 of its 28,070 packets taken again): the packets after it with
 * the same bytes, as chain_again would take each, with only what differs
 * from one to the next.  Each is seen_for s from the same ip; chain_may
 * holds, as nothing it reads changes; chain_take's state, packet and TNT
 * payload are what the last one left, its sample time the same (the
 * timestamp does not move), and pdec_skipped, with that timestamp again,
 * notes nothing; what moves is the position, the counts and the last
 * packet's type (s's, from the second on), with pdec_insn_fit at each
 * packet. */
static void chain_repeat(struct ptd_pdec *d, const struct pdec_chain_seen *s)
{
	const uint64_t cnt = s->c.cnt;
	const bool upd = s->c.flags & PDEC_CHAIN_UPD;
	uint64_t next, n = 0;
	size_t o;

	while (again_next(d, &o)) {
		memcpy(&next, d->buf + o, sizeof(next));
		if (next != s->bytes || !pdec_insn_fit(d, cnt))
			break;
		d->pos += LONG_TNT;
		d->off = o;
		d->tot_insn_cnt += cnt;
		d->timestamp_insn_cnt += cnt;
		d->period_insn_cnt += cnt;
		d->sample_insn_cnt = upd ? d->timestamp_insn_cnt : d->sample_insn_cnt + cnt;
		n++;
	}
	if (n)
		d->last_packet_type = d->packet.type;   /* s's, read after itself */
	d->chains_again += n;
	d->chains_row += n;
}

/* After a long TNT packet's state was skipped (PDEC_SKIPPED): the packets
 * after it that are one of the two last whose chain the walk found, from
 * the same ip, taken as the packet loop would take each (ptd_pdec_decode_to:
 * the state skipped, the packet read, the TNT packet's runs), the lookup
 * left out: from the same ip and bytes the walk would find the same
 * chain, as its maps do not change within a call of ptd_pdec_decode_to
 * (the two are forgotten at each).  A loop whose packets come again, one
 * after the other (the bench's W1: 28,070 of its 33,224 long TNT packets)
 * or in turns of two (a loop of two conditional branches, with an odd
 * number of bits a packet).  Not where a segment is noted, nor into a
 * packet read ahead (memo); what pdec_jcc_run returns. */
static int chain_again(struct ptd_pdec *d)
{
	const struct pdec_chain_seen *s;
	uint64_t next;
	size_t o;
	int rc = PDEC_SKIPPED;

	while (rc == PDEC_SKIPPED && !d->seg.on && d->pkt_step == LONG_TNT && again_next(d, &o)) {
		memcpy(&next, d->buf + o, sizeof(next));
		if (seen_for(&d->chain_seen[0], next, d->ip))
			s = &d->chain_seen[0];
		else if (seen_for(&d->chain_seen[1], next, d->ip))
			s = &d->chain_seen[1];
		else
			break;
		/* the packet loop after the state skipped */
		d->state.type = PDEC_BRANCH;
		d->state.flags = 0;
		if (!chain_may(d) || !pdec_insn_fit(d, s->c.cnt))
			break;
		/* the packet read (pdec_next_packet: the bytes of the one
		 * kept, so its packet), then taken as a TNT packet's runs */
		d->last_packet_type = d->packet.type;
		d->pos += LONG_TNT;
		d->off = o;
		d->packet = s->pkt;
		d->tnt = d->packet;
		d->pkt_state = ST_TNT;
		d->chains_again++;
		rc = chain_take(d, &s->c, s->base);
		if (rc == PDEC_SKIPPED && d->ip == s->ip)
			chain_repeat(d, s);
	}
	return rc;
}

int pdec_jcc_run(struct ptd_pdec *d)
{
	struct again a = { NULL, 0, 0, 0 };
	struct chain_rec rec, *r = NULL;
	unsigned k, all = 0;
	bool more;
	int err;

	if (!d->p.walk_jcc)
		return 0;
	/* a long packet: its runs in one step when the walk has cached
	 * them, else noted as they are taken */
	if (d->tnt.count > PDEC_JCC_MAX && d->p.jcc_chain && chain_may(d)) {
		uint64_t base;
		const struct pdec_jcc_chain *c = d->p.jcc_chain(d->p.ctx, d->ip, d->tnt.payload,
								(unsigned)d->tnt.count, &base);

		if (c && pdec_insn_fit(d, c->cnt)) {
			uint64_t ip = d->ip;
			int rc = chain_take(d, c, base);

			if (d->pkt_step != LONG_TNT)
				return rc;
			chain_seen(d, c, base, ip);
			return rc == PDEC_SKIPPED ? chain_again(d) : rc;
		}
		if (!c) {
			rec = (struct chain_rec){ .ok = true };
			r = &rec;
		}
	}
	do {
		k = run_once(d, &a, &err, &more, r);
		all += k;
	} while (more);
	if (r) {
		rec.c.ip = d->ip - rec.base;
		d->p.jcc_chain_put(d->p.ctx, rec.ok && k && rec.c.bits > 1 ? &rec.c : NULL,
				   rec.base);
	}
	/* code where runs are short (indirect branches between the
	 * conditional ones) is left to the walk for a while: the lookups
	 * would cost more than they save */
	if (all > 1) {
		d->jcc_backoff = 0;
	} else {
		d->jcc_wait = d->jcc_backoff;
		if (d->jcc_backoff < 1023)
			d->jcc_backoff = d->jcc_backoff * 2 + 1;
	}
	return err;
}
