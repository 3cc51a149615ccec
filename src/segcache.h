/* Segments for the Intel PT decoder (pdec_params.seg_find, seg_put;
 * decoders/intel-pt/pdec_seg.c): what the TNT packets up to a TIP leave,
 * cached by (map, the decoder's key: ip, the last IP's upper bits, the
 * return stack's top entries the segment takes, the trace bytes, whether
 * the sample time was up to date and whether cycles were still to be
 * sampled; hashed with the top entry alone) for a segment
 * whose every walk found its code in that map.  As for chains
 * (jccchain.h), maps live as long as the session and the walk finds a
 * map only where and when it holds, so the map stands for the code of
 * its range, and the addresses kept are the map's.  Call-heavy code
 * sends a few hundred different segments of one TIP (the bench's W2: 358
 * keys, of 143 byte strings) and a few thousand of two (W2: 2,844): a
 * table of sets of PTD_SEGCACHE_WAYS entries,
 * 2^PTD_SEGCACHE_BITS_FIRST sets in the runs' set (jccrun.h), allocated
 * at the first segment, and eight times as large, with the segments it
 * holds, each time as many have been cached as it has entries, up to
 * 2^PTD_SEGCACHE_BITS sets (its entries are lent only until the next
 * segment is cached: a lookup moves none).
 * The tables are the runs' set's huge pages (common/hugemem.h): in 4 KB
 * pages each one first touched is a page fault, 10 to 25 us on the
 * bench's machine, and the largest table touches most of its pages
 * (W2, when it was 0.66 MB: 710 page faults against 157, 21.0 ms of CPU
 * against 12.2).  An entry is four cache lines, so the largest table is
 * one huge page (2 MB; 2.6 MB in 5-line entries took two, each thread's,
 * W2's peak RSS 15.4 MB with two threads against perf's 15.0). */
#ifndef PTD_SEGCACHE_H
#define PTD_SEGCACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "decoders/intel-pt/pdec.h"
#include "jccrun.h"

struct ptd_segent {
	const void *map;        /* NULL: empty */
	struct pdec_seg seg;    /* with its key (the first cache line with map) */
} __attribute__((aligned(64)));
_Static_assert(sizeof(struct ptd_segent) == 256, "an entry: four cache lines");

#define PTD_SEGCACHE_WAYS 4         /* a set's entries: with two, the keys of sets
                                       of three or more used in turn missed from
                                       0.6% to 2% of W2's lookups, as the maps'
                                       addresses fell */
#define PTD_SEGCACHE_BITS_FIRST 3   /* 8 sets, 8 KB */
#define PTD_SEGCACHE_BITS 11        /* 2,048 sets, 2 MB (with 512, too few for
                                       W2's segments of two TIPs: 158.8 M
                                       instructions in i100us mode against
                                       77.6 M) */

/* k's set: a hash of two products, the first of the ip, the map and the
 * top entry shifted (so that an ip and a top entry that swap do not
 * cancel), the second of that and the rest but the length and cycles
 * flag (the bytes past the length are zero; the flag has two values: its
 * keys share a set of four).  Four products, one for each word, took 9
 * instructions more a lookup (W2 in i100us mode: 121.5 M instructions in
 * all against 118.6 M; bench/analysis.md, twenty-eighth round) */
static inline __attribute__((always_inline)) struct ptd_segent *
ptd_segcache_set(const struct ptd_jccruns *r, const void *map, const struct pdec_seg_key *k)
{
	uint64_t h = ((k->ip ^ (uint64_t)(uintptr_t)map ^ k->top << 7) * 0xff51afd7ed558ccdULL ^
		      k->bytes[0] ^ (k->bytes[1] + k->bytes[2]) ^ k->last_ip ^ k->eq) * 0x9e3779b97f4a7c15ULL;

	return r->segs ? &r->segs[(h >> (64 - r->seg_bits)) * PTD_SEGCACHE_WAYS] : NULL;
}

/* Does e hold k's segment but for the entries of the return stack below
 * the top? */
static inline __attribute__((always_inline)) bool
ptd_segent_key(const struct ptd_segent *e, const void *map, const struct pdec_seg_key *k)
{
	const struct pdec_seg_key *a = &e->seg.key;

	return e->map == map && a->ip == k->ip && a->bytes[0] == k->bytes[0] &&
	       a->top == k->top && a->last_ip == k->last_ip &&
	       a->bytes[1] == k->bytes[1] && a->bytes[2] == k->bytes[2] &&
	       a->len == k->len && a->eq == k->eq && a->cyc == k->cyc;
}

/* The segment cached for k in map, taking the entries below the top of
 * the return stack (stack_n at stack) it holds; NULL when none */
static inline __attribute__((always_inline)) const struct pdec_seg *
ptd_segcache_find(const struct ptd_jccruns *r, const void *map, const struct pdec_seg_key *k,
		  const uint64_t *stack, size_t stack_n)
{
	const struct ptd_segent *e = ptd_segcache_set(r, map, k);
	unsigned i;

	if (!e)
		return NULL;
	for (i = 0; i < PTD_SEGCACHE_WAYS; i++)
		if (ptd_segent_key(&e[i], map, k) && pdec_seg_below(&e[i].seg, stack, stack_n))
			return &e[i].seg;
	return NULL;
}

/* Cache s for its key in map: first in its set, the others after it
 * (the last one dropped, or the one there before for the same key and
 * entries taken) */
void ptd_segcache_put(struct ptd_jccruns *r, const void *map, const struct pdec_seg *s);

#endif
