/* Segments: the TNT packets up to a TIP, taken in one step.
 *
 * Where plain branch states are skipped (ptd_pdec_decode_to), most of a
 * trace of call-heavy code is TNT packets each followed by a TIP, and
 * the same few byte strings come again and again from the same places
 * (the bench's W2: 308,583 TIPs after TNT packets, 143 different byte
 * strings).  Decoding one costs the packet loop, the runs of its bits,
 * the walk to the indirect branch and the TIP's state, some 700
 * instructions; what they leave depends only on where it starts (the
 * ip, in a map: the code), the upper bits of the last IP that a
 * compressed TIP takes, the bytes, and whether the sample time was up to
 * date, as long as no sample falls inside and nothing else is pending
 * (pdec_seg_may).  So a segment is noted as the loop decodes it and
 * cached by the walk for that key (pdec_params.seg_find, seg_put), then
 * taken in one step when it comes again (looked up with the length its
 * bytes had the last time: pdec_seg).  Right after the TIP of one
 * taken or decoded, the next is looked up at once (seg_again).
 *
 * A segment may hold two TIPs, each after TNT packets (up to
 * PDEC_SEG_TIPS, in PDEC_SEG_BYTES): what its first one leaves is where
 * the second one starts, so the same key holds, with the bytes of both;
 * what it leaves is read off at its last TIP, and its parts run on over
 * the TIP between.  Taking one takes two segments' TIPs in one lookup
 * and one take (the bench's W2: 306,478 segments taken before, 150,669
 * after, 2,844 of two TIPs noted).  It is noted where none is found for
 * the bytes scanned to their second TIP, as the loop decodes them; at
 * its first TIP the segment of that one alone is cached too (seg_put
 * with more), for where the bytes after it differ.  A segment of two
 * TIPs holds no CYC packet: their payloads would make too many keys
 * (the bench's W4: 5,129 noted for 44,481 taken, more instructions in
 * all than one TIP a segment).  A segment of one TIP found where two
 * may be is scanned again every PDEC_SEG_RESCAN times (the hint, of the
 * bytes' first four, may be from where a second did not fit).  And
 * where fewer of them are taken than noted, PDEC_SEG_WINDOW noted at a
 * time, they are noted no more (seg.tips 1): code whose pairs of TIPs
 * do not come again would note each one.
 *
 * CYC packets may come between them (the bench's W4, with a CYC before
 * every TNT and TIP: 154,020 segments, 156 byte strings).  A CYC moves
 * the time, which the states after it take and the next sample depends
 * on, so a segment is kept in parts, one before each CYC and the last
 * up to the TIP: taking it, the decoder takes each part's counts and
 * notes, and each CYC packet as the loop takes it (pdec_calc_cyc_timestamp:
 * its cycles counted, and the time they give, as it was worked out when
 * checking that every part fits with the times the CYC packets give,
 * seg_fits); and whether the cycles were still to be
 * sampled (sample_cyc) is in the key.
 *
 * What a segment leaves is read off the decoder at its TIP: the ip, the
 * last IP, the TIP's state, packet and branch, the return addresses
 * pushed, counts of instructions.  What depends on the decoder before it
 * is noted as the loop runs, for each part:
 * - the sample time: whether it was updated (pdec_update_sample_time
 *   sets seg.upd), and then how many instructions before the end;
 * - the skipped states' timestamps (pdec_note_skipped), each the sample
 *   time: from before an update in the part (NOTE_S), or the time
 *   (NOTE_T, with and after one);
 * - whether the cycles were sampled, and sample_cyc cleared;
 * and for the whole segment:
 * - the return stack: its top entries are in the key (the return from a
 *   call through a pointer, which ended the segment before, takes the
 *   top; one from a recursion more), and pop notes how deep the segment
 *   took them (seg.low): up to PDEC_SEG_DEEP, else, or on a pop of none,
 *   it is not cached.  What it leaves is kept as that many entries
 *   dropped and those above pushed; after a pop (seg.popped), ret_addr
 *   is the last one's;
 * - the loop's check for direct jumps that take no packets (no_progress:
 *   0 at the start and at the TIP, so the rest of it is unread).
 * The counts of instructions to the next sample are checked when it is
 * taken (seg_fit).
 *
 * PTDECODE_DEBUG_SEG_CHECK: each segment found is taken by a copy of the
 * decoder and decoded packet by packet by the decoder, and the two are
 * compared at its TIP (the tests run with it); a difference aborts
 * (pdec_segcheck.c).  Every other call of pdec_seg there begins with a
 * row (pdec_segrow.c), whose segments a copy takes again one at a time
 * (seg_row_check).  The entries below the top of the return stack a
 * segment does not take are kept as 0, so that a key and the entries it
 * takes have one segment. */
#include "decoders/intel-pt/pdec_parse.h"
#include "decoders/intel-pt/pdec_segkey.h"
#include "decoders/intel-pt/pdec_segtab.h"

#include "common/hugemem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The segments at p (avail bytes): TNT, CYC and PAD packets, at least one
 * TNT, then a TIP with an IP, up to tips of them, in at most
 * PDEC_SEG_BYTES, with at most PDEC_SEG_PARTS - 1 CYC packets in all;
 * how many, each one's length from p and its parts (its CYC packets and
 * one) into e. */
struct seg_ends {
	unsigned n;
	uint8_t len[PDEC_SEG_TIPS], parts[PDEC_SEG_TIPS];
};

static unsigned seg_scan(const uint8_t *p, size_t avail, unsigned tips, struct seg_ends *e)
{
	size_t lim = avail < PDEC_SEG_BYTES ? avail : PDEC_SEG_BYTES;
	unsigned i = 0, parts = 1, t = 0, b, size;
	struct pdec_pkt pkt;
	uint64_t bits;

	e->n = 0;
	while (i < lim) {
		b = p[i];
		if (!(b & 1)) {
			if (b == 2) {   /* long TNT, as pdec_quick_packet takes it */
				if (lim - i < 8 || p[i + 1] != 0xa3)
					break;
				memcpy(&bits, p + i, sizeof(bits));
				if (le64toh(bits) >> 16 < 2)
					break;
				i += 8;
			} else {
				i++;
			}
			t |= b;   /* 0: a PAD */
			continue;
		}
		if ((b & 3) == 3) {   /* CYC */
			if (e->n || parts == PDEC_SEG_PARTS ||
			    !(size = (unsigned)pdec_cyc_packet(p + i, lim - i, &pkt)))
				break;
			parts++;
			i += size;
			continue;
		}
		if ((b & 0x1f) != 0x0d || !(b >> 5) || !t || !(size = pdec_ip_packet_size(b, lim - i)))
			break;
		i += size;
		e->len[e->n] = (uint8_t)i;
		e->parts[e->n] = (uint8_t)parts;
		if (++e->n == tips || parts > 1)
			break;
		t = 0;
	}
	return e->n;
}

/* The part noted begins */
static void seg_part_begin(struct ptd_pdec *d)
{
	d->seg.tot = d->tot_insn_cnt;
	d->seg.cyc_start = d->sample_cyc;
	d->seg.notes = 0;
	d->seg.upd = d->seg.cyc_cnt = false;
}

/* Noted from s, with key k, for the first n segments of e */
static void seg_begin(struct ptd_pdec *d, const struct pdec_seg_key *k, size_t s,
		      const struct seg_ends *e, unsigned n)
{
	unsigned i;

	d->seg.on = true;
	d->seg.np = 0;
	d->seg.key = *k;
	d->seg.start = s;
	memcpy(d->seg.ends, e->len, sizeof(d->seg.ends));
	memcpy(d->seg.eparts, e->parts, sizeof(d->seg.eparts));
	d->seg.nends = (uint8_t)n;
	d->seg.ie = 0;
	d->seg.nparts = e->parts[n - 1];
	d->seg.buf = d->buf;
	d->seg.under = d->seg.popped = false;
	d->seg.depth = d->seg.low = d->stack_n;
	for (i = 0; i < PDEC_SEG_DEEP - 1; i++)
		d->seg.below[i] = d->stack_n > i + 1 ? d->stack[d->stack_n - 2 - i] : 0;
	d->seg.tot0 = d->tot_insn_cnt;
	seg_part_begin(d);
}

/* The part noted ends (its instructions fit 32 bits: pdec_seg_end
 * checks the segment's) */
static void seg_part_end(struct ptd_pdec *d)
{
	struct pdec_seg_part *q = &d->seg.part[d->seg.np];

	q->cnt = (uint32_t)(d->tot_insn_cnt - d->seg.tot);
	q->after = d->seg.upd ? (uint32_t)(d->timestamp_insn_cnt - d->sample_insn_cnt) : 0;
	q->flags = (uint8_t)(d->seg.notes | (d->seg.upd ? PDEC_SEG_UPD : 0) |
			     (d->seg.cyc_cnt ? PDEC_SEG_CYC_CNT : 0) |
			     (d->seg.cyc_start && !d->sample_cyc ? PDEC_SEG_CYC_CLR : 0));
}

void pdec_seg_part(struct ptd_pdec *d)
{
	if (d->seg.np + 1 >= d->seg.nparts) {   /* not the packets scanned */
		pdec_seg_cancel(d);
		return;
	}
	seg_part_end(d);
	if (d->packet.payload > UINT32_MAX) {   /* kept in 32 bits */
		pdec_seg_cancel(d);
		return;
	}
	d->seg.cyc[d->seg.np++] = (uint32_t)d->packet.payload;
	seg_part_begin(d);
	d->seg.cyc_start = true;   /* as the CYC packet leaves it */
}

static void seg_stop(struct ptd_pdec *d)
{
	d->seg.on = false;
	d->seg.low = 0;
}

/* Would cnt more instructions from a time of ts (the timestamp and the
 * instructions since) and a period's count of pic take no sample, and
 * leave the period as it is?  As run_once asks: with a period of ticks
 * not yet continuous, pdec_period_quiet; else pdec_insn_fit. */
static inline __attribute__((always_inline)) bool seg_fit(const struct ptd_pdec *d, uint64_t ts,
							   uint64_t pic, uint64_t cnt)
{
	if (d->p.period_type == PDEC_PERIOD_TICKS && !d->continuous_period)
		return ts < UINT64_MAX - (1ULL << 33) && pdec_period_quiet_at(d, ts, cnt);
	return pdec_insn_fit_at(d, ts, pic, cnt);
}

/* The times a segment's CYC packets give (pdec_cyc_time): ts[i] after
 * part i, when bit i of has is set */
struct seg_times {
	uint64_t ts[PDEC_SEG_PARTS - 1];
	unsigned has;
};

/* With more than one part: does every part of g fit (seg_fit), with the
 * times its CYC packets give between them (into *c), is every state's
 * time under the bound, and is there room for the timestamps it notes? */
static inline __attribute__((always_inline)) bool seg_fits(const struct ptd_pdec *d,
							    const struct pdec_seg *g,
							    struct seg_times *c)
{
	uint64_t t = d->timestamp, n = d->timestamp_insn_cnt, pic = d->period_insn_cnt;
	uint64_t cycles = d->cycle_cnt;
	unsigned i;

	if (d->list_skipped && d->n_skipped_ts + g->notes >= PDEC_SKIPPED_TS)
		return false;
	c->has = 0;
	for (i = 0;; i++) {
		if (g->part[i].cnt && !seg_fit(d, t + n, pic, g->part[i].cnt))
			return false;
		if (i + 1 == g->nparts)
			return t < d->skip_bound;
		n += g->part[i].cnt;
		pic += g->part[i].cnt;
		cycles += g->cyc[i];
		if (pdec_cyc_time(d, cycles, &c->ts[i])) {
			c->has |= 1u << i;
			if (c->ts[i] >= t)
				t = c->ts[i];
			n = 0;
		}
	}
}

/* What part q of a segment does to the decoder */
static inline __attribute__((always_inline)) void seg_part_take(struct ptd_pdec *d,
								     const struct pdec_seg_part *q)
{
	if (q->flags & PDEC_SEG_NOTE_S)
		pdec_note_skipped(d, d->sample_timestamp);
	d->tot_insn_cnt += q->cnt;
	d->timestamp_insn_cnt += q->cnt;
	d->period_insn_cnt += q->cnt;
	if (q->flags & PDEC_SEG_UPD) {
		pdec_update_sample_time(d);
		d->sample_insn_cnt -= q->after;
	} else {
		d->sample_insn_cnt += q->cnt;
	}
	if (q->flags & PDEC_SEG_NOTE_T)
		pdec_note_skipped(d, d->timestamp);
	if (q->flags & (PDEC_SEG_CYC_CNT | PDEC_SEG_CYC_CLR)) {
		if (q->flags & PDEC_SEG_CYC_CNT)
			d->sample_tot_cyc_cnt = d->tot_cyc_cnt;
		if (q->flags & PDEC_SEG_CYC_CLR)
			d->sample_cyc = false;
	}
}

/* Take segment g, which starts at offset s of the piece, but for what
 * seg_take_tip sets.  false, with nothing done, when the next sample
 * falls inside it, a state's time reaches the bound, or the return stack
 * or the list of skipped timestamps has no room.  Its CYC packets are
 * taken as the loop takes them, between its parts. */
static inline __attribute__((always_inline)) bool seg_take_run(struct ptd_pdec *d,
								    const struct pdec_seg *g, size_t s,
								    unsigned len)
{
	const struct pdec_seg_part *q;
	struct seg_times c;
	size_t off;
	unsigned i;

	c.has = 0;   /* set by seg_fits, read only after it (gcc cannot tell) */
	/* one part: the room for notes and the time's bound as for the start
	 * (pdec_seg_may, seg_again) */
	if ((g->nparts == 1 ? !seg_fit(d, d->timestamp + d->timestamp_insn_cnt, d->period_insn_cnt,
				       g->cnt) : !seg_fits(d, g, &c)) ||
	    d->stack_n + g->cnt >= PDEC_STACK_MAX / 2 ||
	    (d->stack_cap - d->stack_n + g->deep < g->npush &&
	     pdec_stack_reserve(d, g->npush - g->deep)))
		return false;
	seg_part_take(d, g->part);
	if (g->nparts > 1) {
		for (i = 1, q = g->part + 1; i < g->nparts; i++, q++) {
			pdec_cyc_count(d, g->cyc[i - 1]);   /* pdec_calc_cyc_timestamp */
			if (c.has & 1u << (i - 1))
				pdec_cyc_time_take(d, c.ts[i - 1]);
			seg_part_take(d, q);
		}
	}
	d->stack_n -= g->deep;
	for (i = 0; i < g->npush; i++)
		d->stack[d->stack_n++] = g->push[i];
	if (g->flags & PDEC_SEG_POP)
		d->ret_addr = g->ret_addr;
	d->ip = g->ip;
	d->last_ip = g->ip;   /* as the TIP's IP left it */
	off = s + len - g->tip_size;
	d->pos += off - d->off;
	d->off = off;
	d->pkt_step = g->tip_size;
	return true;
}

/* The TIP's state and packet as segment g, taken, leaves them: what
 * nothing reads until the decoder goes on from its TIP, so that of the
 * last of the segments taken one after the other only (pdec_seg) */
static inline __attribute__((always_inline)) void seg_take_tip(struct ptd_pdec *d,
								    const struct pdec_seg *g)
{
	d->have_last_ip = true;
	d->mtc_insn = true;
	d->state.from_ip = g->from_ip;
	d->state.to_ip = g->ip;
	d->state.insn_op = g->insn_op;
	d->state.insn_len = g->insn_len;
	memcpy(d->state.insn, g->insn, PDEC_INSN_BUF_SZ);
	d->tnt.type = PK_TNT;   /* the last TNT packet used up */
	d->tnt.count = 0;
	d->tnt.payload = 0;
	d->last_packet_type = g->last_type;
	d->packet.type = PK_TIP;
	d->packet.count = g->tip_count;
	d->packet.payload = g->tip_payload;
	d->nr = d->next_nr = (int)(d->pip_payload & 1);   /* pdec_update_nr, pdec_skipped */
}

/* Take segment g, as seg_take_run and seg_take_tip */
static inline __attribute__((always_inline)) bool seg_take(struct ptd_pdec *d,
								const struct pdec_seg *g, size_t s,
								unsigned len)
{
	if (!seg_take_run(d, g, s, len))
		return false;
	seg_take_tip(d, g);
	return true;
}

static __attribute__((noinline)) bool seg_take_copy(struct ptd_pdec *c, const struct pdec_seg *g,
						      size_t s, unsigned len)
{
	return seg_take(c, g, s, len);
}

/* After a segment taken, may the next one be (seg_again_at)? */
static inline __attribute__((always_inline)) bool seg_again(const struct ptd_pdec *d)
{
	return seg_again_at(d, d->off + d->pkt_step);
}

/* No segment at s: when none was taken before at a TNT packet, the
 * next try waits longer each time */
static int seg_none(struct ptd_pdec *d, int n, bool chain)
{
	if (!n && !chain) {
		d->seg.wait = d->seg.backoff;
		if (d->seg.backoff < 63)
			d->seg.backoff = d->seg.backoff * 2 + 1;
	}
	return n;
}

/* The segment for k: looked up in the table the walk gives (seg_table,
 * asked for once a call of pdec_seg: *t, t->segs NULL at first) where
 * k's ip is in its range, else, and where none is found there, by
 * seg_find (which also watches, for the segment then noted) */
static inline __attribute__((always_inline)) const struct pdec_seg *
seg_lookup(struct ptd_pdec *d, struct pdec_segtab *t, bool *asked, const struct pdec_seg_key *k,
	   bool *watch)
{
	const struct pdec_seg *g;

	if (d->p.seg_table && !d->seg.checking) {
		if (!*asked) {
			d->p.seg_table(d->p.ctx, k->ip, t);
			*asked = true;
		}
		if (t->segs && k->ip - t->lo < t->len &&
		    (g = pdec_segtab_find(t->segs, t->tags, t->bits, t->map, k, d->stack, d->stack_n)))
			return g;
	}
	return d->p.seg_find(d->p.ctx, k, d->stack, d->stack_n, watch);
}

/* The last of the segments taken one after the other (pdec_seg), if
 * any, leaves its TIP's state and packet; n returned */
static inline __attribute__((always_inline)) int seg_tip(struct ptd_pdec *d,
							  const struct pdec_seg *taken, int n)
{
	if (taken)
		seg_take_tip(d, taken);
	return n;
}

/* PTDECODE_DEBUG_SEG_CHECK: the n segments a row took from s, the
 * last of them last, taken again by c (the decoder before them) as
 * pdec_seg's loop takes one (the table t looked up for its key, then
 * seg_take_run) must leave c as the row left d; a difference aborts.
 * The loop's segments are checked against decoding their packets. */
static void seg_row_check(struct ptd_pdec *c, const struct ptd_pdec *d, size_t s,
			  const struct pdec_segtab *t, unsigned n, const struct pdec_seg *last)
{
	const struct pdec_seg *g = NULL;
	const struct pdec_seg_hint *slot;
	uint64_t w[PDEC_SEG_WORDS], h;
	struct pdec_seg_key k;
	unsigned i, len = 0, avail;

	for (i = 0; i < n; i++, s = c->off + c->pkt_step) {
		if ((i && !seg_again_at(c, s)) || s + PDEC_SEG_MIN > c->len)
			break;
		avail = seg_next(w, c->buf + s, c->len - s);
		seg_key_of(c, &k);
		h = seg_hint(w, k.ip);
		slot = seg_slot(c->seg.hint, h);
		len = seg_hint_len(slot, h);
		if (!len || len > avail)
			break;
		seg_bytes(&k, w, len);
		if (k.ip - t->lo >= t->len ||
		    !(g = pdec_segtab_find(t->segs, t->tags, t->bits, t->map, &k, c->stack, c->stack_n)) ||
		    !seg_take_run(c, g, s, len))
			break;
	}
	if (i < n || g != last || !pdec_seg_same(c, d))
		pdec_seg_row_differs(d, n, i);
}

/* A row from s (pdec_seg_row), with the table asked for: any taken?  Out
 * of pdec_seg's loop, whose registers it would take.  Once a segment
 * holding CYC packets was taken (seg.crow), which pdec_seg_row leaves to
 * the loop, the rows are pdec_seg_crow's, which takes those too (the
 * bench's W4, a CYC packet before each TNT and TIP). */
static __attribute__((noinline)) bool seg_row(struct ptd_pdec *d, size_t s, struct pdec_segtab *t,
					      bool *asked, const struct pdec_seg **taken)
{
	const struct pdec_seg *found = NULL;
	struct ptd_pdec *c = NULL;
	uint64_t cyc = d->seg.found_cyc;
	unsigned n;

	if (!*asked) {
		d->p.seg_table(d->p.ctx, d->ip, t);
		*asked = true;
	}
	if (!t->segs || (d->seg.checking && !(c = pdec_seg_copy(d))))
		return false;
	if (d->seg.crow) {
		n = pdec_seg_crow(d, s, t, taken);
	} else if (!(n = pdec_seg_row(d, s, t, taken, &found)) && found && found->nparts > 1) {
		d->seg.crow = true;
		n = pdec_seg_crow(d, s, t, taken);
	}
	if (c) {
		if (n)
			seg_row_check(c, d, s, t, n, *taken);
		d->seg.row_checked += n;
		d->seg.row_cyc += d->seg.found_cyc - cyc;
		pdec_seg_copy_free(c);
	}
	return n;
}

/* A segment is looked up with the length its bytes scanned to the last
 * time they came from its ip (seg.hint) before they are scanned: a
 * segment found for the key of that length holds those bytes, which
 * scan to its length or further (a scan reads only the bytes up to the
 * end of the segments it finds).  Where none is found, the bytes are
 * scanned, and looked up again when they scan to another length (that
 * of the last TIP they reach). */
int pdec_seg(struct ptd_pdec *d, size_t s, bool chain)
{
	const struct pdec_seg *g, *taken = NULL;
	struct pdec_seg_key k;
	uint64_t w[PDEC_SEG_WORDS];
	struct pdec_seg_hint *slot;
	struct seg_ends e;
	unsigned len, l, avail, i, ne = 0;
	uint64_t h;
	struct pdec_segtab t;
	bool watch, rescan, asked = false;
	const bool rows = d->p.seg_table && !d->seg.checking;
	/* checked, every other call begins with a row (seg_row_check), and
	 * the segment after it is decoded */
	bool row = d->p.seg_table && d->seg.checking && (d->seg.row_turn = !d->seg.row_turn);
	int n = 0;

	for (;; s = d->off + d->pkt_step) {
		/* after one of one part taken here, the commonest segments in a
		 * loop of their own (where rows are long); from where it stops,
		 * this one */
		if (row && seg_row(d, s, &t, &asked, &taken)) {
			n = 1;
			if (!seg_again(d))
				return seg_tip(d, taken, n);
			s = d->off + d->pkt_step;
		}
		if (s + PDEC_SEG_MIN > d->len)
			return seg_none(d, seg_tip(d, taken, n), chain);
		avail = seg_next(w, d->buf + s, d->len - s);
		seg_key_of(d, &k);
		watch = false;
		g = NULL;
		h = seg_hint(w, k.ip);
		slot = seg_slot(d->seg.hint, h);
		len = seg_hint_len(slot, h);
		if (len && len <= avail) {
			seg_bytes(&k, w, len);
			g = seg_lookup(d, &t, &asked, &k, &watch);
		}
		/* a segment of fewer TIPs than may be, scanned again now and
		 * then: the hint may be from bytes where no more fitted */
		rescan = g && g->tips < d->seg.tips && g->nparts == 1 && !d->seg.checking &&
			 ++slot->n >= PDEC_SEG_RESCAN;
		if (!g || d->seg.checking || rescan) {
			/* a segment found to check may be of more TIPs than
			 * are noted now */
			if (!seg_scan(d->buf + s, d->len - s, g && !rescan ? PDEC_SEG_TIPS : d->seg.tips,
				      &e)) {
				if (g && !rescan)
					pdec_seg_scan_differs(d, &k, len, 0);
				return seg_none(d, seg_tip(d, taken, n), chain);
			}
			if (g && !rescan) {   /* the check: len is where one of them ends */
				for (i = 0; i < e.n && e.len[i] != len; i++)
					;
				if (i == e.n)
					pdec_seg_scan_differs(d, &k, len, e.len[e.n - 1]);
				ne = i + 1;
				break;
			}
			ne = e.n;
			l = e.len[ne - 1];
			slot->len = (uint8_t)l;
			slot->tag = seg_tag(h);
			slot->n = 0;
			if (l != len) {
				seg_bytes(&k, w, l);
				g = d->p.seg_find(d->p.ctx, &k, d->stack, d->stack_n, &watch);
			}
			len = l;
			if (!g || d->seg.checking)
				break;
		}
		d->seg.backoff = 0;
		if (!seg_take_run(d, g, s, len))
			return seg_tip(d, taken, n);
		taken = g;
		d->seg.crow |= g->nparts > 1;
		row = rows;
		d->seg.taken++;
		d->seg.ctaken += g->tips > 1;
		d->seg.found_cyc += g->nparts > 1;
		n = 1;
		if (!seg_again(d))
			return seg_tip(d, taken, n);
	}
	seg_tip(d, taken, n);
	/* none to look up here: the walk is in another map (walk_seg_find),
	 * so none would be noted either; tried again later, as where the
	 * bytes scan to none */
	if (!g && !watch)
		return seg_none(d, n, chain);
	d->seg.backoff = 0;
	/* none cached here (or one to check): noted as it is decoded */
	if (g && (d->seg.check = pdec_seg_copy(d)) && !seg_take_copy(d->seg.check, g, s, len)) {
		pdec_seg_copy_free(d->seg.check);
		d->seg.check = NULL;
	}
	d->seg.found_cyc += d->seg.check && g->nparts > 1;
	d->seg.ctaken += d->seg.check && g->tips > 1;
	if (watch || d->seg.check)
		seg_begin(d, &k, s, &e, ne);
	return n;
}

void pdec_seg_end(struct ptd_pdec *d)
{
	struct pdec_seg g;
	size_t n;
	unsigned i, len = d->seg.ends[d->seg.ie];
	bool last = d->seg.ie + 1 == d->seg.nends;

	if (d->off + d->pkt_step != d->seg.start + len || d->buf != d->seg.buf || d->seg.under ||
	    d->packet.type != PK_TIP || d->state.to_ip != d->ip || d->last_ip != d->ip ||
	    d->seg.np + 1 != d->seg.eparts[d->seg.ie] || d->no_progress ||
	    d->seg.depth - d->seg.low > PDEC_SEG_DEEP ||
	    d->stack_n - d->seg.low > PDEC_SEG_PUSH ||
	    d->tot_insn_cnt - d->seg.tot0 > UINT32_MAX ||
	    d->seg.depth + (d->tot_insn_cnt - d->seg.tot0) >= PDEC_STACK_MAX / 2) {
		pdec_seg_cancel(d);
		return;
	}
	memset(&g, 0, sizeof(g));
	seg_part_end(d);
	g.nparts = (uint8_t)(d->seg.np + 1);
	g.tips = (uint8_t)(d->seg.ie + 1);
	memcpy(g.part, d->seg.part, sizeof(g.part));
	memcpy(g.cyc, d->seg.cyc, sizeof(g.cyc));
	for (i = 0; i < g.nparts; i++)
		g.notes = (uint8_t)(g.notes + !!(g.part[i].flags & PDEC_SEG_NOTE_S) +
				    !!(g.part[i].flags & PDEC_SEG_NOTE_T));
	g.cnt = (uint32_t)(d->tot_insn_cnt - d->seg.tot0);
	if (d->seg.popped) {
		g.flags |= PDEC_SEG_POP;
		g.ret_addr = d->ret_addr;
	}
	n = d->stack_n - d->seg.low;
	g.deep = (uint8_t)(d->seg.depth - d->seg.low);
	/* those it takes (the rest 0: one segment for a key and those) */
	for (i = 0; i + 1 < g.deep; i++)
		g.below[i] = d->seg.below[i];
	g.npush = (uint8_t)n;
	memcpy(g.push, d->stack + d->seg.low, n * sizeof(g.push[0]));
	g.ip = d->ip;
	g.from_ip = d->state.from_ip;
	g.insn_op = d->state.insn_op;
	g.insn_len = d->state.insn_len;
	memcpy(g.insn, d->state.insn, PDEC_INSN_BUF_SZ);
	g.tip_count = (uint8_t)d->packet.count;
	g.tip_payload = d->packet.payload;
	g.last_type = (uint8_t)d->last_packet_type;
	g.tip_size = (uint8_t)d->pkt_step;
	g.key = d->seg.key;
	if (!last) {   /* the segment it begins with, cached; noted on to the next TIP */
		seg_bytes(&g.key, g.key.bytes, len);
		d->p.seg_put(d->p.ctx, &g, true);
		d->seg.noted++;
		d->seg.ie++;
		return;
	}
	seg_stop(d);
	if (d->seg.check) {   /* the one found, the same: cached as it is */
		pdec_seg_compare(d, false);
	} else {
		d->p.seg_put(d->p.ctx, &g, false);
		d->seg.noted++;
		if (g.tips > 1 && !(++d->seg.cnoted % d->seg.window)) {
			/* fewer taken than noted: noted again and again */
			if (d->seg.ctaken - d->seg.cmark < d->seg.window) {
				d->seg.tips = 1;
				d->seg.closed = true;
			}
			d->seg.cmark = d->seg.ctaken;
		}
	}
	/* the next may start right after it, as after one taken */
	if (seg_again(d))
		pdec_seg(d, d->off + d->pkt_step, true);
}

void pdec_seg_cancel(struct ptd_pdec *d)
{
	seg_stop(d);
	if (d->seg.check)
		pdec_seg_compare(d, true);
}

void pdec_seg_init(struct ptd_pdec *d)
{
	const char *w = getenv("PTDECODE_DEBUG_SEG_WINDOW");

	d->seg.tips = getenv("PTDECODE_DEBUG_SEG_SINGLE") ? 1 : PDEC_SEG_TIPS;
	d->seg.window = w && atoi(w) > 0 ? (uint64_t)atoi(w) : PDEC_SEG_WINDOW;
}

void pdec_seg_fini(struct ptd_pdec *d)
{
	ptd_huge_free(d->seg.hint);
	if (d->p.seg_find && getenv("PTDECODE_DEBUG_SEGS"))
		fprintf(stderr,
			"ptdecode: segments: %llu taken, %llu noted, %llu checked, %llu with CYC, "
			"%llu of two TIPs taken or checked, %llu noted, %llu taken in rows and "
			"checked, %llu with CYC%s\n",
			(unsigned long long)d->seg.taken, (unsigned long long)d->seg.noted,
			(unsigned long long)d->seg.checked, (unsigned long long)d->seg.found_cyc,
			(unsigned long long)d->seg.ctaken, (unsigned long long)d->seg.cnoted,
			(unsigned long long)d->seg.row_checked, (unsigned long long)d->seg.row_cyc,
			d->seg.closed ? ", then no more" : "");
}
