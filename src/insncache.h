/* Caches of decoded code for the Intel PT walk, keyed by (dso file,
 * file offset): the files are read-only mappings kept until the end
 * (dsofiles.h), so the code at (file, offset) always decodes alike,
 * whatever the process or address the file is mapped at.
 * - instructions: the result of ptd_pinsn_decode() at (file, offset);
 * - blocks: from (file, offset), the walk to the next branch: the
 *   instructions walked (the branch included), the bytes before the
 *   branch, and the branch (as perf's intel_pt_cache does).
 * Both are direct-mapped: a colliding entry is replaced.  Failed decodes
 * are not cached. */
#ifndef PTD_INSNCACHE_H
#define PTD_INSNCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "decoders/intel-pt/pdec.h"

struct ptd_insncache_ent {
	const void *file;       /* NULL: empty */
	uint64_t off;
	struct pdec_insn insn;
};

struct ptd_insncache_blk {
	const void *file;       /* NULL: empty */
	uint64_t off;
	uint32_t insn_cnt;      /* instructions to the branch, the branch included */
	uint32_t to_branch;     /* bytes from off to the branch */
	struct pdec_insn insn;  /* the branch */
};

struct ptd_insncache {
	struct ptd_insncache_ent *ent;
	struct ptd_insncache_blk *blk;
	unsigned bits, max_bits;
	size_t fills;           /* entries filled in the two tables */
	struct ptd_insncache_ent *old_ent;   /* the tables before they grew, kept to */
	struct ptd_insncache_blk *old_blk;   /* the end: their entries may be lent */
};

/* 2^bits entries in each table, growing to 2^max_bits once they have
 * been filled more times than they have entries: the kernel clears every
 * page a table touches (its hash touches them all), which costs a small
 * trace more than the misses of the smaller tables.  0, or -1 when the
 * sizes are out of range (1 <= bits <= max_bits <= 24). */
int ptd_insncache_init(struct ptd_insncache *c, unsigned bits, unsigned max_bits);
void ptd_insncache_fini(struct ptd_insncache *c);

/* The larger tables, the entries taken over (once; without memory the
 * tables stay as they are) */
void ptd_insncache_grow(struct ptd_insncache *c);

/* Call after filling an entry (of either table). */
static inline void ptd_insncache_filled(struct ptd_insncache *c)
{
	if (++c->fills > (size_t)1 << c->bits && c->bits < c->max_bits)
		ptd_insncache_grow(c);
}

/* The entry for (file, off): check ->file and ->off for a hit, else fill
 * it after a successful decode.  NULL when the table could not be
 * allocated (then decode without caching). */
static inline struct ptd_insncache_ent *ptd_insncache_slot(struct ptd_insncache *c,
							   const void *file, uint64_t off)
{
	uint64_t h = (off + (uint64_t)(uintptr_t)file) * 0x9e3779b97f4a7c15ULL;

	if (!c->ent)
		return NULL;
	return &c->ent[h >> (64 - c->bits)];
}

/* The same for the block starting at (file, off). */
static inline struct ptd_insncache_blk *ptd_insncache_block(struct ptd_insncache *c,
							    const void *file, uint64_t off)
{
	uint64_t h = (off + (uint64_t)(uintptr_t)file) * 0x9e3779b97f4a7c15ULL;

	if (!c->blk)
		return NULL;
	return &c->blk[h >> (64 - c->bits)];
}

#endif
