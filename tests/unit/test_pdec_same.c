/* ptd_pdec_same (decoders/intel-pt/pdec_same.c), which decides where a
 * queue's second part, decoded on its own thread from a later piece of
 * the trace, gives the states the first part would (src/ptq_split.h).
 * The oracle is the decoder itself: one decoder runs over the whole
 * trace, others start at each later piece; wherever the decoder started
 * later is "the same" as the first at a state (at the same trace
 * position), every state after must be the first's, but for the count
 * of instructions, by the delta it gives.  The trace is built here: a
 * loop of conditional branches taken or not at random, PSB+ (TSC, CBR,
 * FUP) between pieces, sampled every 64 TSC ticks, so that the period's
 * state carries across PSBs (it differs at the first PSB after a start)
 * and converges later, or every 100 instructions (counted from the last
 * sample, which a later start does not know); with return compression
 * off and on (no calls: the same states).  And the cycle counts: those of CYC packets differ by
 * a constant where both have seen some, else they are compared. */
#include "config.h"

#include <stdio.h>

#ifndef HAVE_PT_PERF
int main(void)
{
	printf("1..0 # SKIP ptdecode was built without libipt or capstone\n");
	return 0;
}
#else
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decoders/intel-pt/pdec.h"
#include "tests/tap.h"

#define BASE 0x1000u
#define PIECES 24
#define TNT_BYTES 40           /* per piece: 240 branches */
#define TICKS 700              /* TSC ticks from one PSB to the next */

/* The code: one-byte instructions, and at every ip with (ip & 7) == 6 a
 * two-byte conditional branch back to BASE. */
static struct pdec_insn nop_insn = { PDEC_OP_OTHER, PDEC_BR_NO_BRANCH, 1, 0, { 0x90 } };
static struct pdec_insn jcc_insn = { PDEC_OP_JCC, PDEC_BR_CONDITIONAL, 2, 0, { 0x75 } };
static struct pdec_insn at_ip = { PDEC_OP_OTHER, PDEC_BR_NO_BRANCH, 0, 0, { 0 } };

static int walk(void *ctx, const struct pdec_insn **insn, uint64_t *insn_cnt, uint64_t *ip,
		uint64_t to_ip, uint64_t max_insn_cnt)
{
	uint64_t a = *ip, n = 0;

	(void)ctx;
	if (a < BASE || a >= BASE + 0x100000)
		return -EINVAL;
	for (;;) {
		if (to_ip && a == to_ip) {
			*insn = &at_ip;
			break;
		}
		n++;
		if ((a & 7) == 6) {
			jcc_insn.rel = (int32_t)((int64_t)BASE - (int64_t)(a + 2));
			*insn = &jcc_insn;
			break;
		}
		if (max_insn_cnt && n == max_insn_cnt) {
			*insn = &nop_insn;
			break;
		}
		a++;
	}
	*ip = a;
	*insn_cnt = n;
	return 0;
}

/* the trace, in pieces that each begin with PSB+ */
static uint8_t trace[PIECES * 128];
static size_t piece_at[PIECES + 1];

struct feed {
	unsigned next, first;
};

static int get_trace(void *ctx, struct pdec_buf *b)
{
	struct feed *f = ctx;

	if (f->next < PIECES) {
		b->buf = trace + piece_at[f->next];
		b->len = piece_at[f->next + 1] - piece_at[f->next];
		b->ref_timestamp = 1000;
		b->consecutive = f->next != f->first;
		b->trace_nr = f->next + 1;
		f->next++;
	}
	return 0;
}

static size_t put(size_t at, const uint8_t *p, size_t n)
{
	memcpy(trace + at, p, n);
	return at + n;
}

static size_t put_psb(size_t at, uint64_t tsc, int fup, uint64_t ip, int cyc)
{
	static const uint8_t psb[16] = { 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
					 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82 };
	static const uint8_t cbr[4] = { 2, 3, 20, 0 }, psbend[2] = { 2, 0x23 };
	uint8_t b[9];
	int i;

	at = put(at, psb, sizeof(psb));
	b[0] = 0x19;
	for (i = 0; i < 7; i++)
		b[1 + i] = (uint8_t)(tsc >> (8 * i));
	at = put(at, b, 8);
	at = put(at, cbr, sizeof(cbr));
	if (fup) {
		b[0] = 0xdd;   /* FUP, 8 bytes of ip */
		for (i = 0; i < 8; i++)
			b[1 + i] = (uint8_t)(ip >> (8 * i));
		at = put(at, b, 9);
	}
	if (cyc) {
		b[0] = 0x03 | (uint8_t)(cyc << 3);   /* CYC */
		at = put(at, b, 1);
	}
	return put(at, psbend, sizeof(psbend));
}

/* Build the trace: PSB+, TIP.PGE to BASE, then pieces of TNT packets
 * (and CYC packets before every fourth one, with cyc), each after a
 * PSB+ with the ip the branches before it left. */
static void build(unsigned seed, int cyc)
{
	uint64_t ip = BASE, tsc = 1000;
	size_t at = 0;
	unsigned p, i, k;
	uint8_t b[9];

	for (p = 0; p < PIECES; p++) {
		piece_at[p] = at;
		at = put_psb(at, tsc, p > 0, ip, 0);
		if (!p) {
			b[0] = 0xd1;   /* TIP.PGE, 8 bytes of ip */
			for (i = 0; i < 8; i++)
				b[1 + i] = (uint8_t)(ip >> (8 * i));
			at = put(at, b, 9);
		}
		for (i = 0; i < TNT_BYTES; i++) {
			unsigned bits;

			seed = seed * 1103515245u + 12345u;
			bits = (seed >> 16) & 0x3f;
			if (cyc && !(i % 4)) {
				b[0] = 0x03 | (uint8_t)((5 + i % 7) << 3);
				at = put(at, b, 1);
			}
			b[0] = (uint8_t)(0x80 | bits << 1);   /* six bits, the first in bit 6 */
			at = put(at, b, 1);
			for (k = 0; k < 6; k++) {
				uint64_t jcc = (ip & ~7ull) + 6;

				ip = bits & (0x20u >> k) ? BASE : jcc + 2;
			}
		}
		tsc += TICKS;
	}
	piece_at[PIECES] = at;
}

struct rec {
	struct ptd_pstate st;
	struct ptd_pdec *snap;
	uint64_t pos;
};

/* All states of a decoder over pieces first.., with a snapshot after
 * each. */
static size_t run(struct pdec_params *p, unsigned first, struct rec *out, size_t max)
{
	struct feed f = { first, first };
	struct ptd_pdec *d;
	size_t n = 0;

	p->ctx = &f;
	d = ptd_pdec_new(p);
	if (first)
		ptd_pdec_continue_at(d, piece_at[first], 1);
	while (n < max) {
		const struct ptd_pstate *st = ptd_pdec_decode(d);

		if (st->err == PDEC_ERR_NODATA)
			break;
		out[n].st = *st;
		out[n].snap = ptd_pdec_snapshot(d);
		out[n].pos = ptd_pdec_pos(d);
		n++;
	}
	ptd_pdec_free(d);
	return n;
}

static int same_state(const struct ptd_pstate *a, const struct ptd_pstate *b, uint64_t di,
		      uint64_t dc, bool cycles)
{
	return a->type == b->type && a->flags == b->flags && a->err == b->err &&
	       a->from_ip == b->from_ip && a->to_ip == b->to_ip && a->timestamp == b->timestamp &&
	       a->est_timestamp == b->est_timestamp && a->tot_insn_cnt == b->tot_insn_cnt + di &&
	       (!cycles || a->tot_cyc_cnt == b->tot_cyc_cnt + dc) && a->trace_nr == b->trace_nr &&
	       a->buf_nr == b->buf_nr && a->pos == b->pos && a->psb_offset == b->psb_offset &&
	       a->from_nr == b->from_nr && a->to_nr == b->to_nr;
}

#define MAXST 20000

static void check(const char *name, int retcomp, bool cycles, int period_type, uint64_t period)
{
	static struct rec a[MAXST], b[MAXST];
	struct pdec_params p;
	size_t na, nb, i, j;
	unsigned first, matched = 0, unmatched = 0, bad = 0, samples = 0, loose_n = 0;

	memset(&p, 0, sizeof(p));
	p.walk = walk;
	p.get_trace = get_trace;
	p.return_compression = retcomp;
	p.period_type = period_type;
	p.period = period;
	p.max_non_turbo_ratio = 20;
	na = run(&p, 0, a, MAXST);
	for (i = 0; i < na; i++)
		samples += !!(a[i].st.type & PDEC_INSTRUCTION);
	ok(na > 1000 && samples > 20, "%s: the whole trace: %zu states, %u samples", name, na, samples);
	for (first = 1; first + 2 < PIECES; first++) {
		int found = 0;

		nb = run(&p, first, b, MAXST);
		/* the first state of b where a state of a at its position is
		 * the same: from there on, b's states are a's */
		for (j = 0, i = 0; j < nb && !found; j++) {
			uint64_t di, dc;
			unsigned loose;

			while (i < na && a[i].pos < b[j].pos)
				i++;
			for (size_t k = i; k < na && a[k].pos == b[j].pos && !found; k++) {
				size_t x, y;

				if (!ptd_pdec_same(a[k].snap, b[j].snap, cycles, &di, &dc, &loose))
					continue;
				found = 1;
				loose_n += !!loose;
				/* where references that differ are read, the replay
				 * goes back to the first decoder (ptq_split.c) */
				for (x = k + 1, y = j + 1; x < na && y < nb; x++, y++) {
					if (((loose & PDEC_LOOSE_CYC) &&
					     ptd_pdec_loose_reads(b[y].snap, PDEC_LOOSE_CYC) !=
					     ptd_pdec_loose_reads(b[j].snap, PDEC_LOOSE_CYC)) ||
					    ((loose & PDEC_LOOSE_EST) &&
					     ptd_pdec_loose_reads(b[y].snap, PDEC_LOOSE_EST) !=
					     ptd_pdec_loose_reads(b[j].snap, PDEC_LOOSE_EST))) {
						x = na;
						y = nb;
						break;
					}
					if (!same_state(&a[x].st, &b[y].st, di, dc, cycles))
						break;
				}
				if (x != na || y != nb) {
					bad++;
					printf("# %s: from piece %u, the same at state %zu (b's %zu), not at a's "
					       "state %zu of %zu (b's %zu of %zu)\n", name, first, k, j, x, na, y, nb);
				}
			}
		}
		if (found)
			matched++;
		else
			unmatched++;
		for (j = 0; j < nb; j++)
			ptd_pdec_snapshot_free(b[j].snap);
	}
	ok(!bad, "%s: where a decoder started later is the same, its states are the first's "
	   "(%u starts, %u with references that differ)", name, matched + unmatched, loose_n);
	if (period_type == PDEC_PERIOD_TICKS)
		ok(matched >= unmatched && matched > 0, "%s: the same somewhere from %u starts of %u",
		   name, matched, matched + unmatched);
	for (i = 0; i < na; i++)
		ptd_pdec_snapshot_free(a[i].snap);
}

int main(void)
{
	build(1, 0);
	check("no return compression", 0, true, PDEC_PERIOD_TICKS, 64);
	check("return compression", 1, true, PDEC_PERIOD_TICKS, 64);
	/* counted from the last sample: never the same, but by chance */
	check("instruction periods", 1, true, PDEC_PERIOD_INSTRUCTIONS, 100);
	build(7, 1);
	check("CYC, cycles counted", 1, true, PDEC_PERIOD_TICKS, 64);
	check("CYC, cycles not looked at", 1, false, PDEC_PERIOD_TICKS, 64);
	return done_testing();
}
#endif
