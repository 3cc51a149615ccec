/* Runs of TNT bits for the Intel PT decoder's fast path
 * (pdec_params.walk_jcc): from a block start and the outcomes of the next
 * PDEC_JCC_MAX bits, the blocks walked one after the other, through
 * direct calls and jumps, each step ending in a conditional branch
 * followed as its outcome says or a return (a taken bit): to the call of
 * the run that pushed its address, or, ending the run, to one before it.
 * Cached by (dso file, file offset, outcomes), in a direct-mapped table,
 * as insncache.h caches single blocks (and with the same blocks: a run is
 * built from the block cache and fills it).  A run that ends in a return
 * to a call before it, with bits left, has a second entry keyed by the
 * return address too (the top of the return stack, in the same map): the
 * run goes on from there (mid_out), where the decoder would look up
 * another. */
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
	uint64_t ret;           /* 0; or the file offset a return out of the run goes
	                           on from (run.mid_out) */
	uint64_t lo, hi;        /* file offsets of the first block start and the last
	                           branch: the map must hold [lo, hi] */
	struct pdec_jcc_run run;   /* addresses as file offsets */
};

struct ptd_jccruns {
	struct ptd_jccrun *e;   /* allocated at the first use: 2^bits runs */
	unsigned bits;
	size_t fills;
	struct ptd_jccrun *old; /* the table before it grew, kept to the end (runs lent) */
	int no_mem;
	struct ptd_jccchain *chains;   /* jccchain.h: NULL until the first chain */
	size_t chains_taken;           /* said at the end with PTDECODE_DEBUG_CHAINS */
	struct pdec_segent *segs;      /* segcache.h: NULL until the first segment, */
	unsigned seg_bits;             /* then 2^seg_bits sets (PTD_SEGCACHE_WAYS) */
	size_t seg_fills;
};

/* The table starts at 2^PTD_JCCRUN_BITS_FIRST runs and grows to
 * 2^PTD_JCCRUN_BITS once filled more times than it has entries (as
 * insncache.h's tables do) */
#define PTD_JCCRUN_BITS_FIRST 10   /* 1 Ki runs, 0.3 MB */
#define PTD_JCCRUN_BITS 12         /* 4 Ki runs, 1.2 MB */

/* A run not cached yet, built in slot e (ret: as ptd_jccrun.ret) */
const struct ptd_jccrun *ptd_jccrun_build(struct ptd_jccruns *r, struct ptd_jccrun *e,
					  struct ptd_insncache *ic, struct ptd_pinsn *pi,
					  const struct ptd_dsofile *f, uint64_t off, uint64_t begin,
					  uint64_t end, uint32_t outcomes, uint64_t ret);

static inline struct ptd_jccrun *ptd_jccrun_slot(struct ptd_jccruns *r,
						 const struct ptd_dsofile *f, uint64_t off,
						 uint32_t outcomes, uint64_t ret)
{
	uint64_t h = (off + (uint64_t)(uintptr_t)f + ((uint64_t)outcomes << 40) +
		      ret * 0xff51afd7ed558ccdULL) * 0x9e3779b97f4a7c15ULL;

	return r->e ? &r->e[h >> (64 - r->bits)] : NULL;
}

/* Does slot e hold the run of that key? */
static inline int ptd_jccrun_is(const struct ptd_jccrun *e, const struct ptd_dsofile *f,
				uint64_t off, uint32_t outcomes, uint64_t ret)
{
	return e->file == f && e->off == off && e->outcomes == outcomes && e->ret == ret;
}

/* The run from offset off of f, mapped over file offsets [begin, end),
 * for the outcomes given; NULL when none (no memory, or no step).  ret:
 * 0, or the file offset of the return address on top of the return stack,
 * for a run that goes on there (when in [begin, end)) where it would end
 * in a return out of it before count bits.  Built when not cached. */
const struct ptd_jccrun *ptd_jccrun_get(struct ptd_jccruns *r, struct ptd_insncache *ic,
					struct ptd_pinsn *pi, const struct ptd_dsofile *f,
					uint64_t off, uint64_t begin, uint64_t end,
					uint32_t outcomes, unsigned count, uint64_t ret);

/* ptd_jccrun_get's answer where it needs no run built, inline (the
 * decoder asks for a run at most TNT packets): 1 with *out that answer,
 * 0 when a run would be built. */
static inline int ptd_jccrun_find(struct ptd_jccruns *r, const struct ptd_dsofile *f,
				  uint64_t off, uint64_t begin, uint64_t end, uint32_t outcomes,
				  unsigned count, uint64_t ret, const struct ptd_jccrun **out)
{
	struct ptd_jccrun *e = ptd_jccrun_slot(r, f, off, outcomes, 0), *e2;
	unsigned n;

	if (!e || !ptd_jccrun_is(e, f, off, outcomes, 0))
		return 0;
	*out = (n = e->run.n) ? e : NULL;
	if (!n || n >= count || n == PDEC_JCC_MAX || e->run.kind[n - 1] != PDEC_RUN_RET_OUT ||
	    !ret || ret < begin || ret >= end)
		return 1;
	/* the run that goes on from the return address; the plain one when
	 * both would take the same slot */
	if (!(e2 = ptd_jccrun_slot(r, f, off, outcomes, ret)) || e2 == e)
		return 1;
	if (!ptd_jccrun_is(e2, f, off, outcomes, ret))
		return 0;
	if (e2->run.n)
		*out = e2;
	return 1;
}

void ptd_jccruns_fini(struct ptd_jccruns *r);

#endif
