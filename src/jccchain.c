/* Chains of runs (jccchain.h). */
#include "jccchain.h"

#include "common/hugemem.h"

#include <stdlib.h>

void ptd_jccchain_put(struct ptd_jccruns *r, const void *map, uint64_t off, uint64_t payload,
		      unsigned count, const struct pdec_jcc_chain *c)
{
	struct ptd_jccchain *e;

	if (!r->chains &&
	    !(r->chains = ptd_huge_zalloc(((size_t)1 << PTD_JCCCHAIN_BITS) * sizeof(*r->chains))))
		return;   /* decoded run by run, as without the table */
	e = ptd_jccchain_slot(r, map, off, payload, count);
	e->map = map;
	e->off = off;
	e->payload = payload;
	e->count = count;
	e->chain = *c;
}
