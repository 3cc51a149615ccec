/* Segments taken in a row (pdec_seg.c): the commonest kind, in a loop
 * of its own whose state stays in locals.
 *
 * In call-heavy code most segments are taken one after the other (the
 * bench's W2: 32 a call of pdec_seg), each found from its hint in the
 * walk's table, of one part, noting at most the skipped states'
 * timestamps and an update of the sample time, and taking no sample.
 * Taken through the decoder's fields, each reads and writes some 30 of
 * them (the key's, the counts', the return stack's, the position's), and
 * the compiler cannot keep them in registers across the stores into the
 * return stack, which may alias them.  Here the ip, the return stack's
 * depth and top, the key's flags, the instructions taken and the room
 * left before a sample are locals, and the decoder is brought up to date
 * once, when the row ends, as seg_take_run would have left it after each
 * segment.  Any other segment ends the row, and pdec_seg's loop takes it
 * (looked up again: handing it over cost more in that loop than the
 * lookups it saved).
 *
 * Where segments hold CYC packets (pdec_seg_crow, below), the time and
 * the cycle counts are locals too, and a row takes segments of any parts
 * and flags. */
#include "decoders/intel-pt/pdec_segkey.h"

#include "decoders/intel-pt/pdec_segtab.h"

/* The flags of a part this loop takes: the sample time updated, and
 * skipped states' timestamps noted */
#define ROW_FLAGS (PDEC_SEG_UPD | PDEC_SEG_NOTE_S | PDEC_SEG_NOTE_T)

/* The period of ticks, which no segment a row takes changes, in locals
 * (row_period: false for other periods) */
struct row_period {
	uint64_t mask, ticks, last;   /* period_mask, period_ticks, last_masked_timestamp */
	bool cont;                    /* continuous_period */
};

static inline __attribute__((always_inline)) bool row_period(const struct ptd_pdec *d,
							      struct row_period *p)
{
	p->mask = d->period_mask;
	p->ticks = d->period_ticks;
	p->last = d->last_masked_timestamp;
	p->cont = d->continuous_period;
	return d->p.period_type == PDEC_PERIOD_TICKS && p->mask == ~(p->ticks - 1);
}

/* The instructions one-part segments may still take in a row
 * (pdec_seg_row) without a sample: they move the time (the timestamp and
 * the instructions since) by their count, and the timestamp stays.  With
 * a period of ticks, seg_fit holds for cnt instructions from a time ts
 * - continuous: just when 1 <= cnt and ts + cnt stays below the end of
 *   ts's period, whose masked bits are at or below the last masked
 *   timestamp (else it holds for none); the room is that end, less ts,
 *   less 1;
 * - not yet continuous (pdec_period_quiet_at): when ts + cnt + 1 stays
 *   below the end of the last masked timestamp's period and cnt is less
 *   than a period; the room is that end, less ts, less 2, and at most a
 *   period less 1 (a room too small only leaves a segment to pdec_seg);
 * and taken counts come off it.  ts is t + n, the timestamp and the
 * instructions since.  False where there is none to work out. */
static inline __attribute__((always_inline)) bool row_room_at(const struct row_period *p,
								   uint64_t t, uint64_t n,
								   uint64_t *left)
{
	uint64_t ts = t + n, masked = ts & p->mask;
	uint64_t end;

	if (ts < t || ts >= UINT64_MAX - (1ULL << 34))
		return false;
	if (p->cont) {
		end = masked + p->ticks;
		if (end <= masked)
			return false;
		*left = masked > p->last ? 0 : end - 1 - ts;
	} else {   /* pdec_period_quiet_at */
		end = p->last + p->ticks;
		if (end <= p->last)
			return false;
		*left = ts + 2 > end ? 0 : end - 2 - ts;
		if (*left > p->ticks - 1)
			*left = p->ticks - 1;   /* cnt < period_ticks: less, never more */
	}
	return true;
}

/* The row's state in locals: what the decoder's fields are, given the
 * instructions taken since its start */
struct row {
	size_t stack_n;
	uint64_t ip, last_ip, top;
	uint64_t taken;               /* instructions since */
	uint64_t ts_cnt;              /* timestamp_insn_cnt then */
	uint64_t sample_cnt;
	uint64_t left;                /* room before a sample */
	bool upd;                     /* the sample time updated since */
	uint8_t eq, cyc;              /* the key's */
};

/* false where no room can be worked out */
static inline __attribute__((always_inline)) bool row_load(const struct ptd_pdec *d,
							    struct row *r)
{
	struct row_period p;

	r->stack_n = d->stack_n;
	r->top = r->stack_n ? d->stack[r->stack_n - 1] : 0;
	r->ip = d->ip;
	r->last_ip = d->last_ip;
	r->taken = 0;
	r->ts_cnt = d->timestamp_insn_cnt;
	r->sample_cnt = d->sample_insn_cnt;
	r->upd = false;
	r->eq = d->sample_timestamp == d->timestamp;
	r->cyc = d->sample_cyc;
	return row_period(d, &p) && row_room_at(&p, d->timestamp, d->timestamp_insn_cnt, &r->left);
}

/* The segment in the walk's table (segs, tags, bits, map) for the bytes
 * at p (at least PDEC_SEG_BYTES) from ip, with the last IP last_ip, the
 * return stack (stack) n deep with top entry top, and the key's flags eq
 * and cyc (seg_key_of): looked up with the length the bytes' hint in hint
 * gives (into *l, the hint's slot into *slot), its key into *k; NULL when
 * the hint or the table has none.  Scalars, not a struct: the rows keep
 * them in locals, which the stores into the return stack cannot alias. */
static inline __attribute__((always_inline)) const struct pdec_seg *
row_find(const struct pdec_segent *segs, const uint8_t *tags, unsigned bits, const void *map,
	 struct pdec_seg_hint *hint, const uint8_t *p, uint64_t ip, uint64_t last_ip,
	 const uint64_t *stack, size_t n, uint64_t top, uint8_t eq, uint8_t cyc,
	 struct pdec_seg_key *k, struct pdec_seg_hint **slot, unsigned *l)
{
	uint64_t w[PDEC_SEG_WORDS], h;

	seg_next(w, p, PDEC_SEG_BYTES);
	h = seg_hint(w, ip);
	*slot = seg_slot(hint, h);
	/* the tag and the length tested apart: seg_hint_len's select took 17
	 * instructions more a segment here (W2) */
	if ((*slot)->tag != seg_tag(h) || !(*l = (*slot)->len))
		return NULL;
	k->ip = ip;
	k->last_ip = last_ip & ~0xffffULL;
	k->top = top;
	k->eq = eq;
	k->cyc = cyc;
	seg_bytes(k, w, *l);
	return pdec_segtab_find(segs, tags, bits, map, k, stack, n);
}

/* What segment g does to the return stack: its depth *n and top entry
 * *top in locals */
static inline __attribute__((always_inline)) void row_stack(uint64_t *stack, size_t *n,
							     uint64_t *top,
							     const struct pdec_seg *g)
{
	unsigned i;

	*n -= g->deep;
	for (i = 0; i < g->npush; i++)
		stack[(*n)++] = g->push[i];
	*top = *n ? stack[*n - 1] : 0;
}

/* The decoder as seg_take_run would leave it after g, the last segment
 * taken, which ends at offset s (its TIP's state not set: seg_take_tip),
 * at ip, with the return stack n deep; pop the last one that popped it
 * (or NULL), and the row's counts: segs segments, two of two TIPs, cyc
 * with CYC packets.  What the counts of instructions and the time leave
 * is the caller's. */
static inline __attribute__((always_inline)) void row_done(struct ptd_pdec *d,
							    const struct pdec_seg *g, size_t s,
							    uint64_t ip, size_t n,
							    const struct pdec_seg *pop,
							    unsigned segs, unsigned two,
							    unsigned cyc)
{
	d->stack_n = n;
	d->ip = d->last_ip = ip;
	d->pos += s - g->tip_size - d->off;
	d->off = s - g->tip_size;
	d->pkt_step = g->tip_size;
	if (pop)   /* read from the last only: in another cache line of its entry */
		d->ret_addr = pop->ret_addr;
	d->seg.backoff = 0;
	d->seg.taken += segs;
	d->seg.ctaken += two;
	d->seg.found_cyc += cyc;
}

/* The counts of instructions and the sample time as seg_take_run would
 * leave them */
static inline __attribute__((always_inline)) void row_store(struct ptd_pdec *d,
							     const struct row *r)
{
	d->tot_insn_cnt += r->taken;
	d->timestamp_insn_cnt += r->taken;
	d->period_insn_cnt += r->taken;
	if (r->upd) {   /* pdec_update_sample_time */
		d->sample_timestamp = d->timestamp;
		d->state.cycles = d->tot_cyc_cnt;
		d->seg.upd = true;
	}
	d->sample_insn_cnt = r->sample_cnt;
}

unsigned pdec_seg_row(struct ptd_pdec *d, size_t s, const struct pdec_segtab *t,
		      const struct pdec_seg **last, const struct pdec_seg **found)
{
	/* in locals: what the stores into the return stack may alias */
	const uint8_t *const buf = d->buf;
	const size_t len = d->len;
	const struct pdec_segent *const segs = t->segs;
	const uint8_t *const tags = t->tags;
	const unsigned bits = t->bits;
	const void *const map = t->map;
	const uint64_t lo = t->lo, span = t->len;
	struct pdec_seg_hint *const hint = d->seg.hint;
	const unsigned tips = d->seg.tips;
	uint64_t *const stack = d->stack;
	const size_t cap = d->stack_cap;
	const struct pdec_seg *g, *prev = NULL, *pop = NULL;
	unsigned n = 0, two = 0, l, f;
	struct pdec_seg_key k;
	struct pdec_seg_hint *slot;
	struct row r;

	if (!row_load(d, &r))
		return 0;
	while (len - s >= PDEC_SEG_BYTES && r.ip - lo < span) {
		if (!(g = row_find(segs, tags, bits, map, hint, buf + s, r.ip, r.last_ip, stack,
				   r.stack_n, r.top, r.eq, r.cyc, &k, &slot, &l)))
			break;
		f = g->part[0].flags;
		if (g->nparts != 1 || (f & ~ROW_FLAGS) || (uint64_t)g->cnt - 1 >= r.left ||
		    r.stack_n + g->cnt >= PDEC_STACK_MAX / 2 || cap - r.stack_n + g->deep < g->npush ||
		    (g->tips < tips && slot->n + 1 >= PDEC_SEG_RESCAN)) {   /* pdec_seg scans */
			*found = g;
			break;
		}
		if (g->tips < tips)
			slot->n++;   /* pdec_seg's count to the next scan */
		/* seg_take_run (seg_part_take) */
		if (f & PDEC_SEG_NOTE_S)   /* the sample time before the part */
			pdec_note_skipped(d, r.eq ? d->timestamp : d->sample_timestamp);
		r.left -= g->cnt;
		r.taken += g->cnt;
		if (f & PDEC_SEG_UPD) {
			r.upd = true;
			r.eq = true;
			r.sample_cnt = r.ts_cnt + r.taken - g->part[0].after;
		} else {
			r.sample_cnt += g->cnt;
		}
		if (f & PDEC_SEG_NOTE_T)
			pdec_note_skipped(d, d->timestamp);
		row_stack(stack, &r.stack_n, &r.top, g);
		if (g->flags & PDEC_SEG_POP)
			pop = g;
		r.ip = r.last_ip = g->ip;
		prev = g;
		s += l;
		n++;
		two += g->tips > 1;
		if (!seg_again_at(d, s))
			break;
	}
	if (!n)
		return 0;
	row_store(d, &r);
	row_done(d, prev, s, r.ip, r.stack_n, pop, n, two, 0);
	*last = prev;
	return n;
}

/* Segments with CYC packets in a row: as pdec_seg_row, for segments of
 * any parts and flags (the bench's W4, a CYC packet before every TNT and
 * TIP: most segments have two parts, and pdec_seg's loop took each at
 * about 500 instructions).  A CYC packet moves the time, so besides the
 * row's state, the timestamp and the instructions since, the sample's
 * time, count and cycles, and the cycle counts are locals here; the room
 * before a sample is worked out again after each time a CYC packet
 * gives.  A segment is checked as seg_fits checks it (every part in the
 * room, the list of skipped timestamps with room for its notes and the
 * time it leaves under the bound), with the times its CYC packets give,
 * then taken as seg_take_run takes it. */
struct crow {
	size_t stack_n;
	uint64_t ip, last_ip, top;
	uint64_t ts, n;               /* timestamp, timestamp_insn_cnt */
	uint64_t taken;               /* instructions since the start */
	uint64_t st, sn;              /* sample_timestamp, sample_insn_cnt */
	uint64_t scycles;             /* state.cycles, when upd */
	uint64_t cycles, tot_cyc;     /* cycle_cnt, tot_cyc_cnt */
	uint64_t stcc;                /* sample_tot_cyc_cnt */
	uint64_t reads;               /* CYC packets counted */
	uint64_t left;                /* room before a sample */
	bool upd, cyc;                /* the sample time updated; sample_cyc */
};

/* What the time of a CYC packet depends on, which no segment changes
 * (pdec_cyc_time): whether there is one, the reference and the rate */
struct crow_clock {
	struct row_period p;
	uint64_t ref;
	double rate;
	bool timed;
};

/* Does every part of g fit from r's time (seg_fits)?  The times its CYC
 * packets give into ts, bit i of *has set when part i's does, and the
 * room the last part leaves into *left. */
static inline __attribute__((always_inline)) bool crow_fits(const struct ptd_pdec *d,
							     const struct crow_clock *k,
							     const struct crow *r,
							     const struct pdec_seg *g,
							     uint64_t *ts, unsigned *has,
							     uint64_t *left)
{
	uint64_t t = r->ts, cycles = r->cycles, room = r->left, c;
	unsigned i;

	*has = 0;
	for (i = 0;; i++) {
		/* a part of none fits but alone (seg_fits, seg_fit) */
		if ((c = g->part[i].cnt) || g->nparts == 1) {
			if (c - 1 >= room)
				return false;
			room -= c;
		}
		if (i + 1 == g->nparts)
			break;
		cycles += g->cyc[i];
		if (k->timed) {
			ts[i] = pdec_cyc_at(k->ref, cycles, k->rate);
			*has |= 1u << i;
			if (ts[i] >= t)
				t = ts[i];
			if (!row_room_at(&k->p, t, 0, &room))
				return false;
		}
	}
	*left = room;
	return g->nparts == 1 || t < d->skip_bound;
}

/* What part q does (seg_part_take) */
static inline __attribute__((always_inline)) void crow_part(struct ptd_pdec *d, struct crow *r,
							     const struct pdec_seg_part *q)
{
	if (q->flags & PDEC_SEG_NOTE_S)
		pdec_note_skipped(d, r->st);
	r->taken += q->cnt;
	r->n += q->cnt;
	if (q->flags & PDEC_SEG_UPD) {
		r->upd = true;
		r->st = r->ts;
		r->sn = r->n - q->after;
		r->scycles = r->tot_cyc;
	} else {
		r->sn += q->cnt;
	}
	if (q->flags & PDEC_SEG_NOTE_T)
		pdec_note_skipped(d, r->ts);
	if (q->flags & PDEC_SEG_CYC_CNT)
		r->stcc = r->tot_cyc;
	if (q->flags & PDEC_SEG_CYC_CLR)
		r->cyc = false;
}

unsigned pdec_seg_crow(struct ptd_pdec *d, size_t s, const struct pdec_segtab *t,
		       const struct pdec_seg **last)
{
	/* in locals, as in pdec_seg_row (a struct of them, passed to
	 * row_find, made W2 6% slower in a build without the profile: the
	 * stores into the return stack may alias it) */
	const uint8_t *const buf = d->buf;
	const size_t len = d->len;
	const struct pdec_segent *const segs = t->segs;
	const uint8_t *const tags = t->tags;
	const unsigned bits = t->bits;
	const void *const map = t->map;
	const uint64_t lo = t->lo, span = t->len;
	struct pdec_seg_hint *const hint = d->seg.hint;
	const unsigned tips = d->seg.tips;
	const bool pge = d->pge;
	uint64_t *const stack = d->stack;
	const size_t cap = d->stack_cap;
	const struct pdec_seg *g, *prev = NULL, *pop = NULL;
	unsigned n = 0, two = 0, cyc = 0, l, i, has;
	uint64_t ts[PDEC_SEG_PARTS - 1], left;
	struct pdec_seg_key k;
	struct pdec_seg_hint *slot;
	struct crow_clock clk;
	struct crow r;

	if (!row_period(d, &clk.p))
		return 0;
	clk.ref = d->cyc_ref_timestamp;
	clk.rate = d->have_calc_cyc_to_tsc ? d->calc_cyc_to_tsc : d->cbr_cyc_to_tsc;
	clk.timed = d->cyc_ref_timestamp && (d->have_calc_cyc_to_tsc || d->cbr);
	r.stack_n = d->stack_n;
	r.top = r.stack_n ? stack[r.stack_n - 1] : 0;
	r.ip = d->ip;
	r.last_ip = d->last_ip;
	r.ts = d->timestamp;
	r.n = d->timestamp_insn_cnt;
	r.taken = 0;
	r.st = d->sample_timestamp;
	r.sn = d->sample_insn_cnt;
	r.scycles = 0;
	r.cycles = d->cycle_cnt;
	r.tot_cyc = d->tot_cyc_cnt;
	r.stcc = d->sample_tot_cyc_cnt;
	r.reads = 0;
	r.upd = false;
	r.cyc = d->sample_cyc;
	if (!row_room_at(&clk.p, r.ts, r.n, &r.left))
		return 0;
	while (len - s >= PDEC_SEG_BYTES && r.ip - lo < span) {
		if (!(g = row_find(segs, tags, bits, map, hint, buf + s, r.ip, r.last_ip, stack,
				   r.stack_n, r.top, r.st == r.ts, r.cyc, &k, &slot, &l)))
			break;
		if ((d->list_skipped && g->nparts > 1 && d->n_skipped_ts + g->notes >= PDEC_SKIPPED_TS) ||
		    !crow_fits(d, &clk, &r, g, ts, &has, &left) ||
		    r.stack_n + g->cnt >= PDEC_STACK_MAX / 2 || cap - r.stack_n + g->deep < g->npush ||
		    (g->nparts == 1 && g->tips < tips && slot->n + 1 >= PDEC_SEG_RESCAN))
			break;   /* pdec_seg's loop takes it, or stops */
		if (g->nparts == 1 && g->tips < tips)
			slot->n++;
		for (i = 0;; i++) {   /* seg_take_run */
			crow_part(d, &r, &g->part[i]);
			if (i + 1 == g->nparts)
				break;
			r.reads++;   /* pdec_cyc_count */
			r.cycles += g->cyc[i];
			if (pge)
				r.tot_cyc += g->cyc[i];
			r.cyc = true;
			if (has & 1u << i) {   /* pdec_cyc_time_take */
				if (ts[i] >= r.ts)
					r.ts = ts[i];
				r.n = 0;
			}
		}
		r.left = left;
		row_stack(stack, &r.stack_n, &r.top, g);
		if (g->flags & PDEC_SEG_POP)
			pop = g;
		r.ip = r.last_ip = g->ip;
		prev = g;
		s += l;
		n++;
		two += g->tips > 1;
		cyc += g->nparts > 1;
		if (!seg_again_at(d, s))
			break;
	}
	if (!n)
		return 0;
	d->tot_insn_cnt += r.taken;
	d->period_insn_cnt += r.taken;
	d->timestamp = r.ts;
	d->timestamp_insn_cnt = r.n;
	d->sample_timestamp = r.st;
	d->sample_insn_cnt = r.sn;
	if (r.upd) {
		d->state.cycles = r.scycles;
		d->seg.upd = true;
	}
	d->cycle_cnt = r.cycles;
	d->tot_cyc_cnt = r.tot_cyc;
	d->sample_tot_cyc_cnt = r.stcc;
	if (r.reads) {
		d->cyc_reads += r.reads;
		d->have_cyc = true;
	}
	d->sample_cyc = r.cyc;
	row_done(d, prev, s, r.ip, r.stack_n, pop, n, two, cyc);
	*last = prev;
	return n;
}
