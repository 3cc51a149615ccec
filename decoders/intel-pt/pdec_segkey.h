/* What pdec_seg.c and pdec_segrow.c share: a segment's key made from the
 * trace's next bytes and the hint of its length. */
#ifndef PTD_DECODERS_INTEL_PT_PDEC_SEGKEY_H
#define PTD_DECODERS_INTEL_PT_PDEC_SEGKEY_H

#include <endian.h>
#include <stdint.h>
#include <string.h>

#include "decoders/intel-pt/pdec_priv.h"

struct pdec_segtab;

/* The next bytes at p (avail of them), little-endian, zero past them,
 * into w; how many, at most PDEC_SEG_BYTES */
_Static_assert(PDEC_SEG_WORDS == 3, "seg_next reads three words");
static inline __attribute__((always_inline)) unsigned seg_next(uint64_t *w, const uint8_t *p,
								size_t avail)
{
	uint64_t v[PDEC_SEG_WORDS] = { 0, 0, 0 };

	if (avail < PDEC_SEG_BYTES)
		memcpy(v, p, avail);
	else
		memcpy(v, p, sizeof(v));
	w[0] = le64toh(v[0]);
	w[1] = le64toh(v[1]);
	w[2] = le64toh(v[2]);
	return avail < PDEC_SEG_BYTES ? (unsigned)avail : PDEC_SEG_BYTES;
}

/* The bytes of a word that hold n (any number) of the key's bytes */
#define SEG_MASK(n) ((n) >= 8 ? ~0ULL : (n) > 0 ? (1ULL << (8 * (n))) - 1 : 0)

/* The masks of a key's words for each length, looked up (computed, they
 * took 8 instructions more a segment) */
#define SEG_MASKS(n) { SEG_MASK(n), SEG_MASK((n) - 8), SEG_MASK((n) - 16) }
_Static_assert(PDEC_SEG_BYTES == 24, "the masks' table");
static const uint64_t seg_masks[PDEC_SEG_BYTES + 1][PDEC_SEG_WORDS] = {
	SEG_MASKS(0), SEG_MASKS(1), SEG_MASKS(2), SEG_MASKS(3), SEG_MASKS(4),
	SEG_MASKS(5), SEG_MASKS(6), SEG_MASKS(7), SEG_MASKS(8), SEG_MASKS(9),
	SEG_MASKS(10), SEG_MASKS(11), SEG_MASKS(12), SEG_MASKS(13), SEG_MASKS(14),
	SEG_MASKS(15), SEG_MASKS(16), SEG_MASKS(17), SEG_MASKS(18), SEG_MASKS(19),
	SEG_MASKS(20), SEG_MASKS(21), SEG_MASKS(22), SEG_MASKS(23), SEG_MASKS(24),
};

/* The key's fields but its bytes, from the decoder's state */
static inline __attribute__((always_inline)) void seg_key_of(const struct ptd_pdec *d,
							      struct pdec_seg_key *k)
{
	k->ip = d->ip;
	k->last_ip = d->last_ip & ~0xffffULL;
	k->top = d->stack_n ? d->stack[d->stack_n - 1] : 0;
	k->eq = d->sample_timestamp == d->timestamp;
	k->cyc = d->sample_cyc;
}

/* The key's bytes: len (at most PDEC_SEG_BYTES) of the next bytes w */
static inline __attribute__((always_inline)) void seg_bytes(struct pdec_seg_key *k,
							     const uint64_t *w, unsigned len)
{
	const uint64_t *m = seg_masks[len];

	k->len = (uint8_t)len;
	k->bytes[0] = w[0] & m[0];
	k->bytes[1] = w[1] & m[1];
	k->bytes[2] = w[2] & m[2];
}

/* The hash of the next bytes w from ip for seg.hint: of the bytes every
 * segment has, and ip; its slot the top PDEC_SEG_HINT_BITS, its tag the
 * 8 bits below */
static inline __attribute__((always_inline)) uint64_t seg_hint(const uint64_t *w, uint64_t ip)
{
	return (w[0] & SEG_MASK(PDEC_SEG_MIN)) * 0x9e3779b97f4a7c15ULL ^ ip * 0xff51afd7ed558ccdULL;
}

/* h's slot in the hints (seg.hint), and the tag it keeps there */
static inline __attribute__((always_inline)) struct pdec_seg_hint *
seg_slot(struct pdec_seg_hint *hint, uint64_t h)
{
	return &hint[h >> (64 - PDEC_SEG_HINT_BITS)];
}

static inline __attribute__((always_inline)) uint8_t seg_tag(uint64_t h)
{
	return (uint8_t)(h >> (56 - PDEC_SEG_HINT_BITS));
}

/* The length slot hints for h: 0 when none, or one for another hash */
static inline __attribute__((always_inline)) unsigned seg_hint_len(const struct pdec_seg_hint *slot,
								    uint64_t h)
{
	return slot->tag == seg_tag(h) ? slot->len : 0;
}

/* After a segment taken, may the next one be, from offset s of the
 * piece?  Of what pdec_seg_may asks, a segment changes only the next
 * packet and the list of skipped timestamps. */
static inline __attribute__((always_inline)) bool seg_again_at(const struct ptd_pdec *d, size_t s)
{
	return s < d->len && pdec_seg_packet(d->buf[s], true) &&
	       (!d->list_skipped || d->n_skipped_ts + 2 < PDEC_SKIPPED_TS);
}

/* Segments taken one after the other from offset s of the piece, while
 * each is the commonest kind (pdec_segrow.c): found from its hint in t
 * (the walk's table, asked for), of one part, noting skipped states'
 * timestamps and updating the sample time only, in the room before the
 * next sample, needing no more room on the return stack, and not due to be
 * scanned again; the decoder left as seg_take_run leaves it after the
 * last, which is *last (its TIP's state not set: seg_take_tip).  The
 * segments taken, 0 with nothing done; where the next was found but is
 * not of that kind, *found (left as it was otherwise). */
unsigned pdec_seg_row(struct ptd_pdec *d, size_t s, const struct pdec_segtab *t,
		      const struct pdec_seg **last, const struct pdec_seg **found);
/* The same for segments of any parts and flags, with CYC packets between
 * them (the time they give taken as the loop takes it): no *found */
unsigned pdec_seg_crow(struct ptd_pdec *d, size_t s, const struct pdec_segtab *t,
		       const struct pdec_seg **last);

#endif
