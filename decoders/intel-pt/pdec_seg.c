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
 * taken in one step when it comes again.
 *
 * What a segment leaves is read off the decoder at its TIP: the ip, the
 * last IP, the TIP's state, packet and branch, the return addresses
 * pushed, counts of instructions.  What depends on the decoder before it
 * is noted as the loop runs:
 * - the sample time: whether it was updated (pdec_update_sample_time
 *   sets seg.upd), and then how many instructions before the end;
 * - the skipped states' timestamps (pdec_note_skipped): the sample time
 *   from before an update (NOTE_S), or the time (NOTE_T, with and after
 *   an update, when the sample time equals the time);
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
 * compared at its TIP (the tests run with it); a difference aborts. */
#include "decoders/intel-pt/pdec_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The segment at p (avail bytes): TNT packets and PADs, then a TIP with
 * an IP, in at most PDEC_SEG_BYTES; its length, or 0 when there is none.
 * *npk: its packets but PADs. */
static unsigned seg_scan(const uint8_t *p, size_t avail, unsigned *npk)
{
	size_t lim = avail < PDEC_SEG_BYTES ? avail : PDEC_SEG_BYTES;
	unsigned i = 0, n = 0, b, size;
	uint64_t bits;

	while (i < lim) {
		b = p[i];
		if (!(b & 1)) {
			if (b == 2) {   /* long TNT, as pdec_quick_packet takes it */
				if (lim - i < 8 || p[i + 1] != 0xa3)
					return 0;
				memcpy(&bits, p + i, sizeof(bits));
				if (le64toh(bits) >> 16 < 2)
					return 0;
				i += 8;
			} else {
				i++;
			}
			n += b != 0;   /* 0: a PAD */
			continue;
		}
		if ((b & 0x1f) != 0x0d || !(b >> 5) || !(size = pdec_ip_packet_size(b, lim - i)))
			return 0;
		*npk = n + 1;
		return i + size;
	}
	return 0;
}

/* The key's bytes: the len (at most PDEC_SEG_BYTES) at p, of avail,
 * read little-endian, zero past len */
_Static_assert(PDEC_SEG_WORDS == 3, "seg_bytes reads three words");
static inline void seg_bytes(struct pdec_seg_key *k, const uint8_t *p, size_t avail, unsigned len)
{
	uint64_t w[PDEC_SEG_WORDS] = { 0, 0, 0 };
	unsigned r = len & 7;

	if (avail < PDEC_SEG_BYTES)
		memcpy(w, p, len);
	else
		memcpy(w, p, sizeof(w));
	k->bytes[0] = le64toh(w[0]);
	k->bytes[1] = len > 8 ? le64toh(w[1]) : 0;
	k->bytes[2] = len > 16 ? le64toh(w[2]) : 0;
	if (r)
		k->bytes[len >> 3] &= (1ULL << 8 * r) - 1;
}

static void seg_begin(struct ptd_pdec *d, const struct pdec_seg_key *k, size_t end, unsigned npk)
{
	unsigned i;

	d->seg.on = true;
	d->seg.npk = (uint8_t)npk;
	d->seg.key = *k;
	d->seg.end = end;
	d->seg.buf = d->buf;
	d->seg.notes = 0;
	d->seg.under = d->seg.popped = d->seg.upd = false;
	d->seg.depth = d->seg.low = d->stack_n;
	for (i = 0; i < PDEC_SEG_DEEP - 1; i++)
		d->seg.below[i] = d->stack_n > i + 1 ? d->stack[d->stack_n - 2 - i] : 0;
	d->seg.s0 = d->sample_timestamp;
	d->seg.tot = d->tot_insn_cnt;
}

static void seg_stop(struct ptd_pdec *d)
{
	d->seg.on = false;
	d->seg.low = 0;
}

/* Would cnt more instructions from here take no sample, and leave the
 * period as it is?  As run_once asks: with a period of ticks not yet
 * continuous, pdec_period_quiet; else pdec_insn_fit. */
static inline __attribute__((always_inline)) bool seg_fit(struct ptd_pdec *d,
							   uint64_t cnt)
{
	if (d->p.period_type == PDEC_PERIOD_TICKS && !d->continuous_period)
		return d->timestamp + d->timestamp_insn_cnt < UINT64_MAX - (1ULL << 33) &&
		       pdec_period_quiet(d, cnt);
	return pdec_insn_fit(d, cnt);
}

/* Take segment g, which starts at offset s of the piece.  false, with
 * nothing done, when the next sample falls inside it or the return
 * stack has no room. */
static inline __attribute__((always_inline)) bool seg_take(struct ptd_pdec *d,
								const struct pdec_seg *g, size_t s,
								unsigned len)
{
	size_t off;
	unsigned i;

	if (!seg_fit(d, g->cnt) || d->stack_n + g->cnt >= PDEC_STACK_MAX / 2 ||
	    (d->stack_cap - d->stack_n + g->deep < g->npush &&
	     pdec_stack_reserve(d, g->npush - g->deep)))
		return false;
	if (g->flags & PDEC_SEG_NOTE_S)
		pdec_note_skipped(d, d->sample_timestamp);
	d->tot_insn_cnt += g->cnt;
	d->timestamp_insn_cnt += g->cnt;
	d->period_insn_cnt += g->cnt;
	if (g->flags & PDEC_SEG_UPD) {
		pdec_update_sample_time(d);
		d->sample_insn_cnt -= g->after;
	} else {
		d->sample_insn_cnt += g->cnt;
	}
	if (g->flags & PDEC_SEG_NOTE_T)
		pdec_note_skipped(d, d->timestamp);
	d->stack_n -= g->deep;
	for (i = 0; i < g->npush; i++)
		d->stack[d->stack_n++] = g->push[i];
	if (g->flags & PDEC_SEG_POP)
		d->ret_addr = g->ret_addr;
	d->ip = g->ip;
	d->last_ip = g->last_ip;
	d->have_last_ip = true;
	d->mtc_insn = true;
	d->state.from_ip = g->from_ip;
	d->state.to_ip = g->to_ip;
	d->state.insn_op = g->insn_op;
	d->state.insn_len = g->insn_len;
	memcpy(d->state.insn, g->insn, PDEC_INSN_BUF_SZ);
	if (g->flags & PDEC_SEG_TNT) {
		d->tnt.type = g->tnt.type;
		d->tnt.count = g->tnt.count;
		d->tnt.payload = g->tnt.payload;
	}
	d->last_packet_type = g->npk > 1 ? PK_TNT : d->packet.type;
	d->packet.type = g->packet.type;
	d->packet.count = g->packet.count;
	d->packet.payload = g->packet.payload;
	d->nr = d->next_nr = (int)(d->pip_payload & 1);   /* pdec_update_nr, pdec_skipped */
	off = s + len - g->tip_size;
	d->pos += off - d->off;
	d->off = off;
	d->pkt_step = g->tip_size;
	return true;
}

static __attribute__((noinline)) bool seg_take_copy(struct ptd_pdec *c, const struct pdec_seg *g,
						      size_t s, unsigned len)
{
	return seg_take(c, g, s, len);
}

/* A copy of d, for the check */
static struct ptd_pdec *seg_copy(const struct ptd_pdec *d)
{
	struct ptd_pdec *c = malloc(sizeof(*c));

	if (!c)
		return NULL;
	memcpy(c, d, sizeof(*c));
	c->stack = NULL;
	c->stack_n = c->stack_cap = 0;
	if (pdec_stack_reserve(c, d->stack_n + 1)) {
		free(c);
		return NULL;
	}
	memcpy(c->stack, d->stack, d->stack_n * sizeof(*d->stack));
	c->stack_n = d->stack_n;
	return c;
}

/* The check: c (the segment taken) against d (decoded), or where d
 * stopped inside (fail) */
static void seg_compare(struct ptd_pdec *d, bool fail)
{
	struct ptd_pdec *c = d->seg.check, *t;
	bool same = false;

	d->seg.check = NULL;
	if (!fail && (t = malloc(sizeof(*t)))) {
		memcpy(t, c, sizeof(*t));
		pdec_same_unread(t, d);
		same = !memcmp(t, d, offsetof(struct ptd_pdec, seg)) && c->stack_n == d->stack_n &&
		       !memcmp(c->stack, d->stack, d->stack_n * sizeof(*d->stack));
		free(t);
	}
	if (!same) {
		fprintf(stderr,
			"ptdecode: PTDECODE_DEBUG_SEG_CHECK: the segment at trace position %#llx "
			"(ip %#llx, %u bytes) %s\n",
			(unsigned long long)d->pos, (unsigned long long)d->seg.key.ip,
			(unsigned)d->seg.key.len,
			fail ? "was taken where decoding stops inside it" :
			       "leaves the decoder otherwise than decoding it");
		abort();
	}
	d->seg.checked++;
	free(c->stack);
	free(c);
}

/* After a segment taken, may the next one be?  Of what pdec_seg_may
 * asks, a segment changes only the next packet and the list of skipped
 * timestamps. */
static inline bool seg_again(const struct ptd_pdec *d)
{
	size_t s = d->off + d->pkt_step;

	return s < d->len && pdec_seg_packet(d->buf[s]) &&
	       (!d->list_skipped || d->n_skipped_ts + 2 < PDEC_SKIPPED_TS);
}

int pdec_seg(struct ptd_pdec *d)
{
	const struct pdec_seg *g;
	struct pdec_seg_key k;
	unsigned len, npk;
	bool watch;
	int n = 0;
	size_t s = d->off;   /* the TNT packet read, then the packet after a TIP */

	for (;; s = d->off + d->pkt_step) {
		if (s >= d->len || !(len = seg_scan(d->buf + s, d->len - s, &npk))) {
			if (!n) {   /* none here: wait longer each time */
				d->seg.wait = d->seg.backoff;
				if (d->seg.backoff < 63)
					d->seg.backoff = d->seg.backoff * 2 + 1;
			}
			return n;
		}
		d->seg.backoff = 0;
		seg_bytes(&k, d->buf + s, d->len - s, len);
		k.ip = d->ip;
		k.last_ip = d->last_ip & ~0xffffULL;
		k.top = d->stack_n ? d->stack[d->stack_n - 1] : 0;
		k.stack = d->stack;
		k.stack_n = d->stack_n;
		k.len = (uint8_t)len;
		k.eq = d->sample_timestamp == d->timestamp;
		watch = false;
		g = d->p.seg_find(d->p.ctx, &k, &watch);
		if (!g || d->seg.checking)
			break;
		if (!seg_take(d, g, s, len))
			return n;
		d->seg.taken++;
		n = 1;
		if (!seg_again(d))
			return n;
	}
	/* none cached here (or one to check): noted as it is decoded */
	if (g && (d->seg.check = seg_copy(d)) && !seg_take_copy(d->seg.check, g, s, len)) {
		free(d->seg.check->stack);
		free(d->seg.check);
		d->seg.check = NULL;
	}
	if (watch || d->seg.check)
		seg_begin(d, &k, s + len, npk);
	return n;
}

void pdec_seg_end(struct ptd_pdec *d)
{
	struct pdec_seg g;
	size_t n;

	if (d->off + d->pkt_step != d->seg.end || d->buf != d->seg.buf || d->seg.under ||
	    d->no_progress || d->seg.depth - d->seg.low > PDEC_SEG_DEEP ||
	    d->stack_n - d->seg.low > PDEC_SEG_PUSH ||
	    d->tot_insn_cnt - d->seg.tot > UINT32_MAX ||
	    d->seg.depth + (d->tot_insn_cnt - d->seg.tot) >= PDEC_STACK_MAX / 2) {
		pdec_seg_cancel(d);
		return;
	}
	memset(&g, 0, sizeof(g));
	g.cnt = (uint32_t)(d->tot_insn_cnt - d->seg.tot);
	if (d->seg.upd) {
		g.flags |= PDEC_SEG_UPD;
		g.after = (uint32_t)(d->timestamp_insn_cnt - d->sample_insn_cnt);
	}
	g.flags |= d->seg.notes;
	if (d->seg.popped) {
		g.flags |= PDEC_SEG_POP;
		g.ret_addr = d->ret_addr;
	}
	n = d->stack_n - d->seg.low;
	g.deep = (uint8_t)(d->seg.depth - d->seg.low);
	memcpy(g.below, d->seg.below, sizeof(g.below));
	g.npush = (uint8_t)n;
	memcpy(g.push, d->stack + d->seg.low, n * sizeof(g.push[0]));
	g.ip = d->ip;
	g.last_ip = d->last_ip;
	g.from_ip = d->state.from_ip;
	g.to_ip = d->state.to_ip;
	g.insn_op = d->state.insn_op;
	g.insn_len = d->state.insn_len;
	memcpy(g.insn, d->state.insn, PDEC_INSN_BUF_SZ);
	g.packet.type = d->packet.type;
	g.packet.count = d->packet.count;
	g.packet.payload = d->packet.payload;
	g.npk = d->seg.npk;
	if (g.npk > 1) {
		g.flags |= PDEC_SEG_TNT;
		g.tnt.type = d->tnt.type;
		g.tnt.count = d->tnt.count;
		g.tnt.payload = d->tnt.payload;
	}
	g.tip_size = (uint8_t)d->pkt_step;
	seg_stop(d);
	if (d->seg.check)
		seg_compare(d, false);
	d->p.seg_put(d->p.ctx, &d->seg.key, &g);
	d->seg.noted++;
}

void pdec_seg_cancel(struct ptd_pdec *d)
{
	seg_stop(d);
	if (d->seg.check)
		seg_compare(d, true);
}

void pdec_seg_fini(struct ptd_pdec *d)
{
	if (d->p.seg_find && getenv("PTDECODE_DEBUG_SEGS"))
		fprintf(stderr, "ptdecode: segments: %llu taken, %llu noted, %llu checked\n",
			(unsigned long long)d->seg.taken, (unsigned long long)d->seg.noted,
			(unsigned long long)d->seg.checked);
}
