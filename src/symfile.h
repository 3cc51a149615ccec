/* Which file a dso's symbols are read from, chosen as perf chooses it
 * (util/symbol.c dso__load, dso__read_binary_type_filename): the first of
 * these that has a .symtab, else the binary itself (its .dynsym):
 *   the .gnu_debuglink file (next to the binary, in .debug/ there, under
 *   /usr/lib/debug/DIR), the build-id cache (BUILDID_DIR/.build-id/xx/rest
 *   /elf and /debug), /usr/lib/debug/PATH.debug, /usr/lib/debug/PATH,
 *   /usr/lib/debug/.build-id/xx/rest.debug.
 * The build id is the map's (MMAP2 with a build id), else the binary's
 * NT_GNU_BUILD_ID note.  Paths under /usr/lib/debug get the --symfs prefix. */
#ifndef PTD_SYMFILE_H
#define PTD_SYMFILE_H

#include <stddef.h>
#include <stdint.h>

#include "symbols.h"

/* The NT_GNU_BUILD_ID of the (little-endian) ELF image data[0, size) into
 * id, its first 20 bytes as perf keeps them; returns their number, or 0
 * when there is none.  Bounds-checked. */
size_t ptd_elf_build_id(const uint8_t *data, uint64_t size, uint8_t id[20]);

/* The file offset of virtual address vaddr in the (little-endian) ELF
 * image data[0, size), by its PT_LOAD program headers: 0 and *off, or -1
 * when no segment's file bytes hold it.  Bounds-checked. */
int ptd_elf_vaddr_offset(const uint8_t *data, uint64_t size, uint64_t vaddr, uint64_t *off);

/* perf's dso__load_kcore: of the PT_LOAD segments of the kcore ELF image
 * data[0, size) that perf maps (readable, min(p_memsz, p_filesz) bytes),
 * the one that becomes the kernel's map: the smallest that holds addr
 * (_stext, when has_addr), else the last one.  0 with its *vaddr, *len
 * and file offset *off, or -1 when there is none. */
int ptd_kcore_segment(const uint8_t *data, uint64_t size, int has_addr, uint64_t addr,
		      uint64_t *vaddr, uint64_t *len, uint64_t *off);

/* The symbol file for the dso recorded as `name` whose local copy is
 * `binary` (mapped at data, size; binary may be NULL when not found).
 * Writes the chosen path into out (n bytes); returns 0, or -1 when no file
 * is known. */
int ptd_symfile_find(struct ptd_symcache *c, const char *symfs, const char *buildid_dir,
		     const char *name, const char *binary, const uint8_t *data, uint64_t size,
		     const uint8_t *map_bid, size_t map_bid_len, char *out, size_t n);

#endif
