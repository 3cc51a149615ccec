/* The decoded-instruction cache of the Intel PT walk (insncache.h). */
#include "insncache.h"

#include <stdlib.h>

int ptd_insncache_init(struct ptd_insncache *c, unsigned bits)
{
	c->ent = NULL;
	c->blk = NULL;
	c->bits = 0;
	if (bits < 1 || bits > 24)
		return -1;
	/* calloc: pages are only touched as entries are used */
	c->ent = calloc((size_t)1 << bits, sizeof(*c->ent));
	c->blk = calloc((size_t)1 << bits, sizeof(*c->blk));
	c->bits = bits;
	return 0;
}

void ptd_insncache_fini(struct ptd_insncache *c)
{
	free(c->ent);
	free(c->blk);
	c->ent = NULL;
	c->blk = NULL;
}
