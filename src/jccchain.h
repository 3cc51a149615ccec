/* Chains of runs for the Intel PT decoder's fast path
 * (pdec_params.jcc_chain): what the plain runs of a long TNT packet's
 * bits leave, from a block start, cached by (map, file offset, the bits)
 * for a chain whose runs were all found in that map.  Loop-heavy code
 * sends the same long packets from the same places again and again: one
 * lookup then takes the place of one a run (and of the steps between).
 * Maps live as long as the session, and the walk finds a map only where
 * and when it holds, so the map stands for the code of its range.  A
 * direct-mapped table in the runs' set (jccrun.h), allocated at the
 * first chain, in the caches' huge pages (common/hugemem.h: calloc'd, its
 * 48 KB were 12 page faults of the heap's). */
#ifndef PTD_JCCCHAIN_H
#define PTD_JCCCHAIN_H

#include <stdint.h>

#include "decoders/intel-pt/pdec.h"
#include "jccrun.h"

struct ptd_jccchain {
	const void *map;        /* NULL: empty */
	uint64_t off;
	uint64_t payload;       /* the bits, the next in bit 63, and their count */
	unsigned count;
	struct pdec_jcc_chain chain;   /* its ip a file offset */
};

#define PTD_JCCCHAIN_BITS 10    /* 1 Ki chains, 48 KB */

static inline struct ptd_jccchain *ptd_jccchain_slot(const struct ptd_jccruns *r, const void *map,
						     uint64_t off, uint64_t payload, unsigned count)
{
	uint64_t h = (off + (uint64_t)(uintptr_t)map + count + payload * 0xff51afd7ed558ccdULL) *
		     0x9e3779b97f4a7c15ULL;

	return r->chains ? &r->chains[h >> (64 - PTD_JCCCHAIN_BITS)] : NULL;
}

/* The chain from offset off in map for those bits; NULL when none */
static inline const struct ptd_jccchain *ptd_jccchain_find(const struct ptd_jccruns *r,
							   const void *map, uint64_t off,
							   uint64_t payload, unsigned count)
{
	const struct ptd_jccchain *e = ptd_jccchain_slot(r, map, off, payload, count);

	return e && e->map == map && e->off == off && e->payload == payload && e->count == count ?
	       e : NULL;
}

/* Cache chain c (its ip a file offset) from off in map for those bits */
void ptd_jccchain_put(struct ptd_jccruns *r, const void *map, uint64_t off, uint64_t payload,
		      unsigned count, const struct pdec_jcc_chain *c);

#endif
