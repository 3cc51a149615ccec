/* Runs of TNT bits for the Intel PT decoder's fast path
 * (pdec_params.walk_jcc): from a block start and the outcomes of the next
 * PDEC_JCC_MAX bits, the blocks walked one after the other, through
 * direct calls and jumps, each step ending in a conditional branch
 * followed as its outcome says or a return (a taken bit): to the call of
 * the run that pushed its address, or, ending the run, to one before it.
 * Cached by (dso file, file offset, outcomes), in a direct-mapped table,
 * as insncache.h caches single blocks (and with the same blocks: a run is
 * built from the block cache and fills it). */
#ifndef PTD_JCCRUN_H
#define PTD_JCCRUN_H

#include <stdint.h>

#include "decoders/intel-pt/pdec.h"
#include "decoders/intel-pt/pinsn.h"
#include "dsofiles.h"
#include "insncache.h"

struct ptd_jccrun {
	const void *file;       /* NULL: empty */
	uint64_t off;
	uint32_t outcomes;      /* PDEC_JCC_MAX bits, the first in the top one; 1: taken */
	uint64_t lo, hi;        /* file offsets of the first block start and the last
	                           branch: the map must hold [lo, hi] */
	struct pdec_jcc_run run;   /* addresses as file offsets */
};

struct ptd_jccruns {
	struct ptd_jccrun *e;   /* allocated at the first use */
	int no_mem;
};

#define PTD_JCCRUN_BITS 12   /* 4096 runs, 1.2 MB */

/* ptd_jccrun_get when the run is not cached yet: built in slot e */
const struct ptd_jccrun *ptd_jccrun_build(struct ptd_jccruns *r, struct ptd_jccrun *e,
					  struct ptd_insncache *ic, struct ptd_pinsn *pi,
					  const struct ptd_dsofile *f, uint64_t off, uint64_t begin,
					  uint64_t end, uint32_t outcomes);

/* The run from offset off of f, mapped over file offsets [begin, end),
 * for the outcomes given; NULL when none (no memory, or no step).  The
 * lookup inline: the decoder asks for a run at most TNT bits. */
static inline const struct ptd_jccrun *ptd_jccrun_get(struct ptd_jccruns *r,
						      struct ptd_insncache *ic,
						      struct ptd_pinsn *pi,
						      const struct ptd_dsofile *f, uint64_t off,
						      uint64_t begin, uint64_t end,
						      uint32_t outcomes)
{
	uint64_t h = (off + (uint64_t)(uintptr_t)f + ((uint64_t)outcomes << 40)) *
		     0x9e3779b97f4a7c15ULL;
	struct ptd_jccrun *e = r->e ? &r->e[h >> (64 - PTD_JCCRUN_BITS)] : NULL;

	if (e && e->file == f && e->off == off && e->outcomes == outcomes)
		return e->run.n ? e : NULL;
	return ptd_jccrun_build(r, e, ic, pi, f, off, begin, end, outcomes);
}

void ptd_jccruns_fini(struct ptd_jccruns *r);

#endif
