/* The decoded-instruction cache of the Intel PT walk (insncache.h). */
#include "insncache.h"

#include <stdlib.h>
#include <string.h>

#include "common/hugemem.h"

int ptd_insncache_init(struct ptd_insncache *c, unsigned bits, unsigned max_bits)
{
	memset(c, 0, sizeof(*c));
	if (bits < 1 || max_bits > 24 || bits > max_bits)
		return -1;
	/* in huge pages: the hash touches them all over (hugemem.h) */
	c->ent = ptd_huge_zalloc(((size_t)1 << bits) * sizeof(*c->ent));
	c->blk = ptd_huge_zalloc(((size_t)1 << bits) * sizeof(*c->blk));
	c->bits = bits;
	c->max_bits = max_bits;
	return 0;
}

void ptd_insncache_grow(struct ptd_insncache *c)
{
	struct ptd_insncache_ent *ent;
	struct ptd_insncache_blk *blk;
	size_t i, n = (size_t)1 << c->bits;

	/* once (then bits is max_bits), the entries taken over */
	if (c->bits >= c->max_bits || !c->ent || !c->blk ||
	    !(ent = ptd_huge_zalloc(((size_t)1 << c->max_bits) * sizeof(*ent)))) {
		c->max_bits = c->bits;
		return;
	}
	if (!(blk = ptd_huge_zalloc(((size_t)1 << c->max_bits) * sizeof(*blk)))) {
		ptd_huge_free(ent);
		c->max_bits = c->bits;
		return;
	}
	c->old_ent = c->ent;
	c->old_blk = c->blk;
	c->ent = ent;
	c->blk = blk;
	c->bits = c->max_bits;
	for (i = 0; i < n; i++) {
		if (c->old_ent[i].file)
			*ptd_insncache_slot(c, c->old_ent[i].file, c->old_ent[i].off) = c->old_ent[i];
		if (c->old_blk[i].file)
			*ptd_insncache_block(c, c->old_blk[i].file, c->old_blk[i].off) = c->old_blk[i];
	}
}

void ptd_insncache_fini(struct ptd_insncache *c)
{
	ptd_huge_free(c->ent);
	ptd_huge_free(c->blk);
	ptd_huge_free(c->old_ent);
	ptd_huge_free(c->old_blk);
	c->ent = c->old_ent = NULL;
	c->blk = c->old_blk = NULL;
}
