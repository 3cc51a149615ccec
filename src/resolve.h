/* Where an address of a traced process is, as perf script resolves it:
 * the map it is in at that time, the map's file (found under --symfs or in
 * the build-id cache, its separate debug file when there is one) and the
 * symbol there. */
#ifndef PTD_RESOLVE_H
#define PTD_RESOLVE_H

#include <stdint.h>

#include "dsofiles.h"
#include "formats/out/script.h"
#include "machine.h"
#include "symbols.h"

#define PTD_RESOLVE_FILES 16   /* the files of map names kept (a power of 2) */

struct ptd_resolver {
	const struct ptd_machine *m;
	struct ptd_dsofiles *files;
	struct ptd_symcache *syms;
	/* private: the files of the last maps' names, by the name's address
	 * (the machine keeps its names for its lifetime: the same pointer is
	 * the same name; a branch's two ends are often in two files, which
	 * one entry made it look up again and again); zero them before the
	 * first lookup */
	struct {
		const char *fname;
		struct ptd_dsofile *file;
	} file_seen[PTD_RESOLVE_FILES];
	/* symbols found by (file, offset): the same addresses come back again
	 * and again (loops); allocated at the first lookup, small, and larger
	 * once filled more times than it has entries (a page of memory new to
	 * the process is dear: a run with few samples touches few) */
	struct ptd_resolve_ent *cache;
	unsigned cache_bits;        /* 2^cache_bits entries */
	size_t fills;               /* entries filled since it was allocated */
	uint64_t cache_gen;         /* the symbol cache's generation it holds */
	int no_cache;               /* no memory for it: look each up */
	int no_grow;                /* no memory for the larger one */
	struct ptd_map_hint maps;   /* the last maps found */
};

/* Free what the lookups allocated (the cache); the rest is borrowed. */
void ptd_resolver_fini(struct ptd_resolver *r);

/* The file of map (ptd_dsofiles_get), or NULL. */
struct ptd_dsofile *ptd_resolve_file(struct ptd_resolver *r, const struct ptd_map *map);

/* Where addr is at time now in process pid: *loc filled (unknowns NULL;
 * names borrowed from the symbol cache until its next lookup), and the
 * symbol's extent into *si when wanted and found; returns its map, or NULL. */
const struct ptd_map *ptd_resolve(struct ptd_resolver *r, int32_t pid, uint64_t addr,
				  uint64_t now, struct ptd_script_loc *loc, struct ptd_sym_info *si);

/* -F srcline for loc (filled by ptd_resolve): the text perf prints, or
 * NULL (srcline.h). */
struct ptd_srcline;
const char *ptd_resolve_srcline(struct ptd_resolver *r, struct ptd_srcline *sl,
				const struct ptd_script_loc *loc);

#endif
