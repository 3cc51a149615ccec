/* Segments (segcache.h). */
#include "segcache.h"

#include <stdlib.h>
#include <string.h>

#include "common/hugemem.h"

/* Each set's ways are filled in turn, 0 to PTD_SEGCACHE_WAYS - 1 and
 * again, so that a segment put where the set is full drops the one
 * cached first: the set's count of segments put (modulo the ways), after
 * the tags.  Segments used to be put first in their set, the others moved
 * down one, which copied some 400 bytes a segment (W2: 4.5% of the time
 * of an i100us run, by the clock). */
static uint8_t *set_count(const struct ptd_jccruns *r, size_t set)
{
	return &r->seg_tags[((size_t)PTD_SEGCACHE_WAYS << r->seg_bits) + set];
}

/* s, with hash h, into way i of set (of r's table) */
static void put_at(struct ptd_jccruns *r, size_t set, unsigned i, uint64_t h, const void *map,
		   const struct pdec_seg *s)
{
	size_t at = set * PTD_SEGCACHE_WAYS + i;

	r->segs[at].map = map;
	r->segs[at].seg = *s;
	r->seg_tags[at] = pdec_segtab_tag(h, r->seg_bits, &s->key);
}

/* Into the next way of its set in a new table */
static void move(struct ptd_jccruns *r, const struct pdec_segent *o)
{
	uint64_t h = pdec_segtab_hash(o->map, &o->seg.key);
	size_t set = pdec_segtab_index(h, r->seg_bits);
	uint8_t *c = set_count(r, set);

	if (*c < PTD_SEGCACHE_WAYS)
		put_at(r, set, (*c)++, h, o->map, &o->seg);
}

void ptd_segcache_put(struct ptd_jccruns *r, const void *map, const struct pdec_seg *s)
{
	unsigned bits = r->segs ? r->seg_bits : PTD_SEGCACHE_BITS_FIRST, old_bits = r->seg_bits;
	const struct pdec_seg_key *k = &s->key;
	struct pdec_segent *e, *old = r->segs;
	uint8_t *tags, *old_tags = r->seg_tags, *c;
	size_t i, n = PTD_SEGCACHE_WAYS, set;
	uint32_t m;
	uint64_t h;

	if (r->segs && bits < PTD_SEGCACHE_BITS && ++r->seg_fills > n << bits)
		bits = bits + 3 < PTD_SEGCACHE_BITS ? bits + 3 : PTD_SEGCACHE_BITS;
	if (!r->segs || bits != r->seg_bits) {
		/* with the runs' tables, in their huge pages (a table of 512
		 * sets in 4 KB pages is 164 page faults) */
		if (!(e = ptd_huge_zalloc((n << bits) * sizeof(*e))))
			return;   /* decoded packet by packet, or with the table as it is */
		if (!(tags = ptd_huge_zalloc((n + 1) << bits))) {
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
	set = pdec_segtab_index(h, r->seg_bits);
	e = &r->segs[set * n];
	/* the one for k and the same entries of the return stack taken (k's
	 * stack has gone on: they are the segment's below[]) replaced, as
	 * pdec_segtab_find finds it; else into the next way */
	for (m = pdec_segtab_ways(r->seg_tags, set, pdec_segtab_tag(h, r->seg_bits, k)); m; m &= m - 1) {
		i = pdec_segtab_way(m);
		if (pdec_segent_key(&e[i], map, k) && e[i].seg.deep == s->deep &&
		    !memcmp(e[i].seg.below, s->below, sizeof(s->below))) {
			e[i].seg = *s;
			return;
		}
	}
	c = set_count(r, set);
	put_at(r, set, *c % n, h, map, s);
	*c = (uint8_t)((*c + 1) % n);
}
