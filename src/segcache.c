/* Segments (segcache.h). */
#include "segcache.h"

#include <stdlib.h>
#include <string.h>

#include "common/hugemem.h"

/* Into the set of a new table: where it is first empty */
static void move(struct ptd_jccruns *r, const struct pdec_segent *o)
{
	uint64_t h = pdec_segtab_hash(o->map, &o->seg.key);
	size_t set = pdec_segtab_index(h, r->seg_bits) * PTD_SEGCACHE_WAYS;
	unsigned i;

	for (i = 0; i < PTD_SEGCACHE_WAYS; i++) {
		if (!r->segs[set + i].map) {
			r->segs[set + i] = *o;
			r->seg_tags[set + i] = pdec_segtab_tag(h, r->seg_bits, &o->seg.key);
			return;
		}
	}
}

void ptd_segcache_put(struct ptd_jccruns *r, const void *map, const struct pdec_seg *s)
{
	unsigned bits = r->segs ? r->seg_bits : PTD_SEGCACHE_BITS_FIRST, old_bits = r->seg_bits;
	const struct pdec_seg_key *k = &s->key;
	struct pdec_segent *e, *old = r->segs;
	uint8_t *tags, *old_tags = r->seg_tags;
	size_t i, n = PTD_SEGCACHE_WAYS, set;
	uint64_t h;

	if (r->segs && bits < PTD_SEGCACHE_BITS && ++r->seg_fills > n << bits)
		bits = bits + 3 < PTD_SEGCACHE_BITS ? bits + 3 : PTD_SEGCACHE_BITS;
	if (!r->segs || bits != r->seg_bits) {
		/* with the runs' tables, in their huge pages (a table of 512
		 * sets in 4 KB pages is 164 page faults) */
		if (!(e = ptd_huge_zalloc((n << bits) * sizeof(*e))))
			return;   /* decoded packet by packet, or with the table as it is */
		if (!(tags = ptd_huge_zalloc(n << bits))) {
			ptd_huge_free(e);
			return;
		}
		r->segs = e;
		r->seg_tags = tags;
		r->seg_bits = bits;
		r->seg_fills = 0;
		if (old) {   /* the segments cached taken over */
			for (i = 0; i < n << old_bits; i++)
				if (old[i].map)
					move(r, &old[i]);
			ptd_huge_free(old);
			ptd_huge_free(old_tags);
		}
	}
	h = pdec_segtab_hash(map, k);
	set = pdec_segtab_index(h, r->seg_bits) * n;
	e = &r->segs[set];
	tags = &r->seg_tags[set];
	/* the one for k and the same entries of the return stack taken (k's
	 * stack has gone on: they are the segment's below[]), else the last */
	for (i = 0; i + 1 < n; i++)
		if (pdec_segent_key(&e[i], map, k) && e[i].seg.deep == s->deep &&
		    !memcmp(e[i].seg.below, s->below, sizeof(s->below)))
			break;
	memmove(e + 1, e, i * sizeof(*e));
	memmove(tags + 1, tags, i);
	e[0].map = map;
	e[0].seg = *s;
	tags[0] = pdec_segtab_tag(h, r->seg_bits, k);
}
