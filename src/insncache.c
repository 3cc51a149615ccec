/* The decoded-instruction cache of the Intel PT walk (insncache.h). */
#include "insncache.h"

#include <stdlib.h>

#include "common/hugemem.h"

int ptd_insncache_init(struct ptd_insncache *c, unsigned bits)
{
	c->ent = NULL;
	c->blk = NULL;
	c->bits = 0;
	if (bits < 1 || bits > 24)
		return -1;
	/* in huge pages: the hash touches them all over (hugemem.h) */
	c->ent = ptd_huge_zalloc(((size_t)1 << bits) * sizeof(*c->ent));
	c->blk = ptd_huge_zalloc(((size_t)1 << bits) * sizeof(*c->blk));
	c->bits = bits;
	return 0;
}

void ptd_insncache_fini(struct ptd_insncache *c)
{
	ptd_huge_free(c->ent);
	ptd_huge_free(c->blk);
	c->ent = NULL;
	c->blk = NULL;
}
