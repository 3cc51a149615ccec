/* Where an address is, as perf script resolves it: see resolve.h. */
#include "resolve.h"

#include <stdlib.h>
#include <string.h>

#include "srcline.h"
#include "symfile.h"

#define CACHE_BITS_FIRST 8   /* 256 entries, 14 KB */
#define CACHE_BITS 12        /* 4 Ki entries, 224 KB */

struct ptd_resolve_ent {
	const struct ptd_dsofile *f;   /* NULL: empty */
	uint64_t off;
	const char *sym;               /* NULL: no symbol there */
	uint64_t symoff;
	struct ptd_sym_info si;
};

void ptd_resolver_fini(struct ptd_resolver *r)
{
	free(r->cache);
	r->cache = NULL;
}

/* The symbol at offset off of f (its separate debug file's symbols placed
 * with the binary's headers): from the cache, or looked up and kept (in
 * *one when there is no cache).  The cache is emptied when the symbol
 * cache has dropped a table since it was filled; a lookup that drops one
 * itself leaves the change for the next call to see. */
static const struct ptd_resolve_ent *lookup(struct ptd_resolver *r, const struct ptd_dsofile *f,
					    uint64_t off, struct ptd_resolve_ent *one)
{
	struct ptd_resolve_ent *e = one;
	uint64_t gen = ptd_symcache_generation(r->syms);

	if ((!r->cache && !r->no_cache) ||
	    (r->cache_bits < CACHE_BITS && !r->no_grow && r->fills > ((size_t)1 << r->cache_bits))) {
		unsigned bits = r->cache ? CACHE_BITS : CACHE_BITS_FIRST;
		struct ptd_resolve_ent *c = calloc((size_t)1 << bits, sizeof(*c));

		if (c) {   /* a cache: the entries of the small one are dropped */
			free(r->cache);
			r->cache = c;
			r->cache_bits = bits;
			r->fills = 0;
			r->cache_gen = gen;
		} else {
			r->no_cache = !r->cache;
			r->no_grow = 1;
		}
	}
	if (r->cache) {
		uint64_t h = ((uint64_t)(uintptr_t)f ^ off) * 0x9e3779b97f4a7c15ULL;

		if (r->cache_gen != gen) {
			memset(r->cache, 0, sizeof(*r->cache) << r->cache_bits);
			r->cache_gen = gen;
		}
		e = &r->cache[h >> (64 - r->cache_bits)];
		if (e->f == f && e->off == off)
			return e;
		r->fills++;
	}
	memset(e, 0, sizeof(*e));
	if (ptd_symcache_lookup_info(r->syms, f->symfile,
				     f->path && strcmp(f->symfile, f->path) ? f->path : NULL, off,
				     &e->sym, &e->symoff, &e->si, NULL))
		e->sym = NULL;
	e->f = f;
	e->off = off;
	return e;
}

struct ptd_dsofile *ptd_resolve_file(struct ptd_resolver *r, const struct ptd_map *map)
{
	size_t i = ((uintptr_t)map->filename >> 4) & (PTD_RESOLVE_FILES - 1);

	if (!r->file_seen[i].file || map->filename != r->file_seen[i].fname) {
		r->file_seen[i].file = ptd_dsofiles_get(r->files, map);
		r->file_seen[i].fname = map->filename;
	}
	return r->file_seen[i].file;
}

const struct ptd_map *ptd_resolve(struct ptd_resolver *r, int32_t pid, uint64_t addr,
				  uint64_t now, struct ptd_script_loc *loc, struct ptd_sym_info *si)
{
	const struct ptd_map *map;
	struct ptd_dsofile *f;
	const struct ptd_resolve_ent *e;
	struct ptd_resolve_ent one;

	memset(loc, 0, sizeof(*loc));
	if (!addr)
		return NULL;
	map = ptd_machine_find_map_hint(r->m, pid, addr >= (1ULL << 63), addr, now, &r->maps);
	if (!map)
		return NULL;
	loc->dso = map->filename;
	loc->map = map;
	loc->map_off = addr - map->start + map->pgoff;
	f = ptd_resolve_file(r, map);
	if (f && !f->symfile_done) {
		char buf[4096];

		f->symfile_done = 1;
		if (!strcmp(map->filename, PTD_KERNEL_MAP_NAME) && ptd_dsofiles_kallsyms(r->files))
			f->symfile = strdup(ptd_dsofiles_kallsyms(r->files));
		else if (!ptd_symfile_find(r->syms, ptd_dsofiles_symfs(r->files),
				      ptd_dsofiles_buildid_dir(r->files), map->filename, f->path, f->data,
				      f->size, map->build_id, map->build_id_size, buf, sizeof(buf)))
			f->symfile = strdup(buf);
	}
	if (f && f->symfile && (e = lookup(r, f, ptd_map_sym_off(map, addr), &one))->sym) {
		loc->sym = e->sym;
		loc->symoff = e->symoff;
		if (si)
			*si = e->si;
	}
	return map;
}

const char *ptd_resolve_srcline(struct ptd_resolver *r, struct ptd_srcline *sl,
				const struct ptd_script_loc *loc)
{
	const struct ptd_map *map = loc->map;
	struct ptd_dsofile *f;
	const char *file = NULL;

	if (!map)
		return NULL;
	f = ptd_resolve_file(r, map);
	/* dso__name(): the symbols' file when it has a .symtab, else the
	 * recorded name; the runtime binary gives the text offset */
	if (f && f->symfile && ptd_symcache_full(r->syms, f->symfile) == 1)
		file = f->symfile;
	else
		file = map->filename;
	/* by file offset: a vmlinux's addresses are its file's */
	return ptd_srcline_get(sl, map->filename, file,
			       f && f->data ? f->path : f ? f->symfile : NULL, loc->map_off + map->file_adj);
}
