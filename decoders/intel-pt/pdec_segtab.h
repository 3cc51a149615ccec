/* The table of segments (pdec_seg.c), as the walk keeps it (the caller's
 * src/segcache.h: its memory, what goes in and when it grows) and as the
 * decoder looks segments up in it itself (pdec_params.seg_table): sets
 * of PDEC_SEGTAB_WAYS entries, each a map and a segment with its key,
 * and beside them a byte for each entry, its key's tag.
 * A lookup through pdec_params.seg_find is a call, the walk's check that
 * the ip is in the map of its last lookup, then this; in a row of
 * segments taken one after the other (the bench's W2: 32 a row) the map,
 * the time and the thread stay, so the decoder asks for the table and
 * the map's range of ips once a row and looks up the others inline. */
#ifndef PTD_PDEC_SEGTAB_H
#define PTD_PDEC_SEGTAB_H

#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "decoders/intel-pt/pdec.h"

struct pdec_segent {
	const void *map;        /* NULL: empty */
	struct pdec_seg seg;    /* with its key (the first cache line with map) */
} __attribute__((aligned(64)));
_Static_assert(sizeof(struct pdec_segent) == 256, "an entry: four cache lines");
_Static_assert(offsetof(struct pdec_segent, seg.cnt) == 64 &&
	       offsetof(struct pdec_segent, seg.push[1]) == 128 &&
	       offsetof(struct pdec_segent, seg.cyc) + sizeof(uint32_t) * (PDEC_SEG_PARTS - 1) <= 192,
	       "an entry's lines (struct pdec_seg)");

#define PDEC_SEGTAB_WAYS 4   /* a set's entries: with two, the keys of sets
                                of three or more used in turn missed from
                                0.6% to 2% of W2's lookups, as the maps'
                                addresses fell */

/* What pdec_params.seg_table gives: the table (NULL: none yet) of 2^bits
 * sets and their tags, and the map whose segments the ips in
 * [lo, lo + len) find there, until the decoder's next call of the walk or
 * of seg_put */
struct pdec_segtab {
	const struct pdec_segent *segs;
	const uint8_t *tags;
	unsigned bits;
	const void *map;
	uint64_t lo, len;
};

/* k's hash in map: of two products, the first of the ip, the map and the
 * top entry shifted (so that an ip and a top entry that swap do not
 * cancel), the second of that and the rest but the length and cycles
 * flag (the bytes past the length are zero; the flag is in the tag).
 * Four products, one for each word, took 9 instructions more a lookup
 * (W2 in i100us mode: 121.5 M instructions in all against 118.6 M;
 * bench/analysis.md, twenty-eighth round).  Its set is the top bits, its
 * tag the 8 bits below. */
static inline __attribute__((always_inline)) uint64_t pdec_segtab_hash(const void *map,
									const struct pdec_seg_key *k)
{
	return ((k->ip ^ (uint64_t)(uintptr_t)map ^ k->top << 7) * 0xff51afd7ed558ccdULL ^
		k->bytes[0] ^ (k->bytes[1] + k->bytes[2]) ^ k->last_ip ^ k->eq) * 0x9e3779b97f4a7c15ULL;
}

/* The set of hash h in a table of 2^bits sets */
static inline __attribute__((always_inline)) size_t pdec_segtab_index(uint64_t h, unsigned bits)
{
	return (size_t)(h >> (64 - bits));
}

/* The tag of k, whose hash is h, in a table of 2^bits sets (an empty
 * way's is 0, as some keys' are: its map, NULL, tells it) */
static inline __attribute__((always_inline)) uint8_t pdec_segtab_tag(uint64_t h, unsigned bits,
								      const struct pdec_seg_key *k)
{
	return (uint8_t)((h >> (56 - bits)) ^ k->cyc);
}

/* Does e hold k's segment but for the entries of the return stack below
 * the top? */
static inline __attribute__((always_inline)) bool
pdec_segent_key(const struct pdec_segent *e, const void *map, const struct pdec_seg_key *k)
{
	const struct pdec_seg_key *a = &e->seg.key;

	return e->map == map && a->ip == k->ip && a->bytes[0] == k->bytes[0] &&
	       a->top == k->top && a->last_ip == k->last_ip &&
	       a->bytes[1] == k->bytes[1] && a->bytes[2] == k->bytes[2] &&
	       a->len == k->len && a->eq == k->eq && a->cyc == k->cyc;
}

/* The ways of set (their tags at tags) whose tag is tag, found from the
 * set's four at once: a bit for each, its top bit where way i's is
 * byte i (and where a byte of 1 is above one of 0 in the set's tags,
 * xored with tag: looked at in vain) */
_Static_assert(PDEC_SEGTAB_WAYS == 4, "a set's tags: one word");
static inline __attribute__((always_inline)) uint32_t pdec_segtab_ways(const uint8_t *tags,
									size_t set, uint8_t tag)
{
	uint32_t w, x;

	memcpy(&w, tags + set * PDEC_SEGTAB_WAYS, sizeof(w));
	x = le32toh(w) ^ 0x01010101u * tag;
	return (x - 0x01010101u) & ~x & 0x80808080u;
}

/* The next of the ways m holds (pdec_segtab_ways) */
static inline __attribute__((always_inline)) unsigned pdec_segtab_way(uint32_t m)
{
	return (unsigned)__builtin_ctz(m) >> 3;
}

/* The segment of segs (2^bits sets, their ways' tags at tags) for k in
 * map, taking the entries below the top of the return stack (stack_n at
 * stack) it holds; NULL when none.  Only the ways whose tag is k's are
 * looked at: in call-heavy code a segment was as likely in any of the
 * first two ways, and each way looked at took a cache line of the table
 * (W2 i100us: 1.8 a lookup) and a branch that went either way. */
static inline __attribute__((always_inline)) const struct pdec_seg *
pdec_segtab_find(const struct pdec_segent *segs, const uint8_t *tags, unsigned bits,
		 const void *map, const struct pdec_seg_key *k, const uint64_t *stack, size_t stack_n)
{
	uint64_t h = pdec_segtab_hash(map, k);
	size_t set = pdec_segtab_index(h, bits);
	const struct pdec_segent *e = &segs[set * PDEC_SEGTAB_WAYS];
	uint32_t m;
	unsigned i;

	for (m = pdec_segtab_ways(tags, set, pdec_segtab_tag(h, bits, k)); m; m &= m - 1) {
		i = pdec_segtab_way(m);
		if (pdec_segent_key(&e[i], map, k) && pdec_seg_below(&e[i].seg, stack, stack_n))
			return &e[i].seg;
	}
	return NULL;
}

#endif
