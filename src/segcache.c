/* Segments (segcache.h). */
#include "segcache.h"

#include <stdlib.h>
#include <string.h>

#include "common/hugemem.h"

/* Into the set of a new table: where it is first empty */
static void move(struct ptd_jccruns *r, const struct pdec_segent *o)
{
	struct pdec_segent *e = ptd_segcache_set(r, o->map, &o->seg.key);
	unsigned i;

	for (i = 0; i < PTD_SEGCACHE_WAYS; i++) {
		if (!e[i].map) {
			e[i] = *o;
			return;
		}
	}
}

void ptd_segcache_put(struct ptd_jccruns *r, const void *map, const struct pdec_seg *s)
{
	unsigned bits = r->segs ? r->seg_bits : PTD_SEGCACHE_BITS_FIRST, old_bits = r->seg_bits;
	const struct pdec_seg_key *k = &s->key;
	struct pdec_segent *e, *old = r->segs;
	size_t i, n = PTD_SEGCACHE_WAYS;

	if (r->segs && bits < PTD_SEGCACHE_BITS && ++r->seg_fills > n << bits)
		bits = bits + 3 < PTD_SEGCACHE_BITS ? bits + 3 : PTD_SEGCACHE_BITS;
	if (!r->segs || bits != r->seg_bits) {
		/* with the runs' tables, in their huge pages (a table of 512
		 * sets in 4 KB pages is 164 page faults) */
		if (!(e = ptd_huge_zalloc((n << bits) * sizeof(*e))))
			return;   /* decoded packet by packet, or with the table as it is */
		r->segs = e;
		r->seg_bits = bits;
		r->seg_fills = 0;
		if (old) {   /* the segments cached taken over */
			for (i = 0; i < n << old_bits; i++)
				if (old[i].map)
					move(r, &old[i]);
			ptd_huge_free(old);
		}
	}
	e = ptd_segcache_set(r, map, k);
	/* the one for k and the same entries of the return stack taken (k's
	 * stack has gone on: they are the segment's below[]), else the last */
	for (i = 0; i + 1 < n; i++)
		if (pdec_segent_key(&e[i], map, k) && e[i].seg.deep == s->deep &&
		    !memcmp(e[i].seg.below, s->below, sizeof(s->below)))
			break;
	memmove(e + 1, e, i * sizeof(*e));
	e[0].map = map;
	e[0].seg = *s;
}
