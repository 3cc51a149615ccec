/* Segments (segcache.h). */
#include "segcache.h"

#include <stdlib.h>
#include <string.h>

#include "common/hugemem.h"

void ptd_segcache_put(struct ptd_jccruns *r, const void *map, const struct pdec_seg *s)
{
	unsigned bits = r->segs ? r->seg_bits : PTD_SEGCACHE_BITS_FIRST;
	const struct pdec_seg_key *k = &s->key;
	struct ptd_segent *e;

	if (r->segs && bits < PTD_SEGCACHE_BITS && ++r->seg_fills > (size_t)8 << bits)
		bits = bits + 3 < PTD_SEGCACHE_BITS ? bits + 3 : PTD_SEGCACHE_BITS;
	if (!r->segs || bits != r->seg_bits) {
		/* with the runs' tables, in their huge pages (a table of 1 Ki
		 * sets in 4 KB pages is 164 page faults) */
		if (!(e = ptd_huge_zalloc(((size_t)2 << bits) * sizeof(*e))))
			return;   /* decoded packet by packet, or with the table as it is */
		ptd_huge_free(r->segs);
		r->segs = e;
		r->seg_bits = bits;
		r->seg_fills = 0;
	}
	e = ptd_segcache_set(r, map, k);
	/* k's return stack has gone on: the entries taken are the
	 * segment's below[] */
	if (!ptd_segent_key(&e[0], map, k) || e[0].seg.deep != s->deep ||
	    memcmp(e[0].seg.below, s->below, sizeof(s->below)))
		e[1] = e[0];
	e[0].map = map;
	e[0].seg = *s;
}
