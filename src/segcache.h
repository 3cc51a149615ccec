/* Segments for the Intel PT decoder (pdec_params.seg_find, seg_put,
 * seg_table; decoders/intel-pt/pdec_seg.c, the table's layout and
 * lookup in decoders/intel-pt/pdec_segtab.h): what the TNT packets up
 * to a TIP leave, cached by (map, the decoder's key: ip, the last IP's
 * upper bits, the return stack's top entries the segment takes, the
 * trace bytes, whether
 * the sample time was up to date and whether cycles were still to be
 * sampled; hashed with the top entry alone) for a segment
 * whose every walk found its code in that map.  As for chains
 * (jccchain.h), maps live as long as the session and the walk finds a
 * map only where and when it holds, so the map stands for the code of
 * its range, and the addresses kept are the map's.  Call-heavy code
 * sends a few hundred different segments of one TIP (the bench's W2: 358
 * keys, of 143 byte strings) and a few thousand of two (W2: 2,844): a
 * table of sets of PTD_SEGCACHE_WAYS (PDEC_SEGTAB_WAYS) entries,
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
#include "decoders/intel-pt/pdec_segtab.h"
#include "jccrun.h"

#define PTD_SEGCACHE_WAYS PDEC_SEGTAB_WAYS
#define PTD_SEGCACHE_BITS_FIRST 3   /* 8 sets, 8 KB */
#define PTD_SEGCACHE_BITS 11        /* 2,048 sets, 2 MB (with 512, too few for
                                       W2's segments of two TIPs: 158.8 M
                                       instructions in i100us mode against
                                       77.6 M) */

/* The segment cached for k in map, taking the entries below the top of
 * the return stack (stack_n at stack) it holds; NULL when none */
static inline __attribute__((always_inline)) const struct pdec_seg *
ptd_segcache_find(const struct ptd_jccruns *r, const void *map, const struct pdec_seg_key *k,
		  const uint64_t *stack, size_t stack_n)
{
	return r->segs ? pdec_segtab_find(r->segs, r->seg_tags, r->seg_bits, map, k, stack, stack_n) : NULL;
}

/* Cache s for its key in map: in place of the one there before for the
 * same key and entries taken, else in the set's next way in turn (the
 * one cached first dropped when the set is full; segcache.c) */
void ptd_segcache_put(struct ptd_jccruns *r, const void *map, const struct pdec_seg *s);

#endif
