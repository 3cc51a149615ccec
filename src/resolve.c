/* Where an address is, as perf script resolves it: see resolve.h. */
#include "resolve.h"

#include <stdlib.h>
#include <string.h>

#include "srcline.h"
#include "symfile.h"

struct ptd_dsofile *ptd_resolve_file(struct ptd_resolver *r, const struct ptd_map *map)
{
	if (!r->last_file || map->filename != r->last_fname) {
		r->last_file = ptd_dsofiles_get(r->files, map);
		r->last_fname = map->filename;
	}
	return r->last_file;
}

const struct ptd_map *ptd_resolve(struct ptd_resolver *r, int32_t pid, uint64_t addr,
				  uint64_t now, struct ptd_script_loc *loc, struct ptd_sym_info *si)
{
	const struct ptd_map *map;
	struct ptd_dsofile *f;
	const char *name;
	uint64_t symoff;

	memset(loc, 0, sizeof(*loc));
	if (!addr)
		return NULL;
	map = ptd_machine_find_map(r->m, pid, addr >= (1ULL << 63), addr, now);
	if (!map)
		return NULL;
	loc->dso = map->filename;
	loc->map = map;
	loc->map_off = addr - map->start + map->pgoff;
	f = ptd_resolve_file(r, map);
	if (f && !f->symfile_done) {
		char buf[4096];

		f->symfile_done = 1;
		if (!ptd_symfile_find(r->syms, ptd_dsofiles_symfs(r->files),
				      ptd_dsofiles_buildid_dir(r->files), map->filename, f->path, f->data,
				      f->size, map->build_id, map->build_id_size, buf, sizeof(buf)))
			f->symfile = strdup(buf);
	}
	/* a separate debug file's symbols are placed with the binary's headers */
	if (f && f->symfile &&
	    !ptd_symcache_lookup_info(r->syms, f->symfile,
				      f->path && strcmp(f->symfile, f->path) ? f->path : NULL,
				      addr - map->start + map->pgoff, &name, &symoff, si, NULL)) {
		loc->sym = name;
		loc->symoff = symoff;
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
	return ptd_srcline_get(sl, map->filename, file,
			       f && f->data ? f->path : f ? f->symfile : NULL, loc->map_off);
}
