/* Runs of TNT bits for the Intel PT decoder's fast path
 * (pdec_params.walk_jcc): from a block start and the outcomes of the next
 * PDEC_JCC_MAX bits, the blocks walked one after the other, through
 * direct calls and jumps, each step ending in a conditional branch
 * followed as its outcome says or a return (a taken bit): to the call of
 * the run that pushed its address, or, ending the run, to one before it.
 * Cached by (dso file, file offset, outcomes), in a table of sets of
 * PTD_JCCRUN_WAYS runs, the one used longest ago replaced (a direct-mapped
 * table, as insncache.h caches single blocks, built a third of W3's runs
 * again after another took their slot); a run is built from the block
 * cache and fills it.  A run that ends in a return
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
	uint8_t mru;            /* in a set's first run: the way used last */
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
	uint8_t *seg_tags;             /* then 2^seg_bits sets (PTD_SEGCACHE_WAYS); */
	                               /* their entries' tags, then each set's count
	                                  of segments put in a way (segcache.c) */
	unsigned seg_bits;
	size_t seg_fills;
};

/* The table starts at 2^PTD_JCCRUN_BITS_FIRST runs and grows to
 * 2^PTD_JCCRUN_BITS once filled more times than it has entries (as
 * insncache.h's tables do) */
#define PTD_JCCRUN_BITS_FIRST 10   /* 1 Ki runs, 0.3 MB */
#define PTD_JCCRUN_BITS 12         /* 4 Ki runs, 1.2 MB */
#define PTD_JCCRUN_WAYS 2          /* runs in a set */

/* A run not cached yet, built in set s (ret: as ptd_jccrun.ret) */
const struct ptd_jccrun *ptd_jccrun_build(struct ptd_jccruns *r, struct ptd_jccrun *s,
					  struct ptd_insncache *ic, struct ptd_pinsn *pi,
					  const struct ptd_dsofile *f, uint64_t off, uint64_t begin,
					  uint64_t end, uint32_t outcomes, uint64_t ret);

/* The set of that key: its first run */
static inline struct ptd_jccrun *ptd_jccrun_set(struct ptd_jccruns *r,
						const struct ptd_dsofile *f, uint64_t off,
						uint32_t outcomes, uint64_t ret)
{
	uint64_t h = (off + (uint64_t)(uintptr_t)f + ((uint64_t)outcomes << 40) +
		      ret * 0xff51afd7ed558ccdULL) * 0x9e3779b97f4a7c15ULL;

	return r->e ? &r->e[(h >> (64 - r->bits)) & ~(uint64_t)(PTD_JCCRUN_WAYS - 1)] : NULL;
}

/* Does run e hold the run of that key? */
static inline int ptd_jccrun_is(const struct ptd_jccrun *e, const struct ptd_dsofile *f,
				uint64_t off, uint32_t outcomes, uint64_t ret)
{
	return e->file == f && e->off == off && e->outcomes == outcomes && e->ret == ret;
}

/* The run of that key in set s, noted as the set's last used; NULL when
 * not cached */
static inline struct ptd_jccrun *ptd_jccrun_in(struct ptd_jccrun *s, const struct ptd_dsofile *f,
					       uint64_t off, uint32_t outcomes, uint64_t ret)
{
	unsigned i;

	for (i = 0; i < PTD_JCCRUN_WAYS; i++)
		if (ptd_jccrun_is(&s[i], f, off, outcomes, ret)) {
			if (s->mru != i)
				s->mru = (uint8_t)i;
			return &s[i];
		}
	return NULL;
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
	struct ptd_jccrun *s = ptd_jccrun_set(r, f, off, outcomes, 0), *e;
	unsigned n;

	if (!s || !(e = ptd_jccrun_in(s, f, off, outcomes, 0)))
		return 0;
	*out = (n = e->run.n) ? e : NULL;
	if (!n || n >= count || n == PDEC_JCC_MAX || e->run.kind[n - 1] != PDEC_RUN_RET_OUT ||
	    !ret || ret < begin || ret >= end)
		return 1;
	/* the run that goes on from the return address */
	if (!(e = ptd_jccrun_in(ptd_jccrun_set(r, f, off, outcomes, ret), f, off, outcomes, ret)))
		return 0;
	if (e->run.n)
		*out = e;
	return 1;
}

void ptd_jccruns_fini(struct ptd_jccruns *r);

#endif
