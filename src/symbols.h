/* Symbols of a user-space ELF file (a dso), resolved the way perf script
 * prints them (-F sym,symoff: "name+0xoff").
 *
 * Addresses.  Lookups take a FILE OFFSET in the dso, which is what perf
 * resolves against for user-space samples: offset = ip - map.start +
 * map.pgoff for the map (struct ptd_map) the ip falls in.  Symbols are
 * moved to file offsets as perf moves them: st_value - (p_vaddr - p_offset)
 * of the PT_LOAD segment containing st_value (else of the symbol's
 * section).  ptd_symtab_vaddr_to_offset converts a link-time virtual
 * address (what nm and readelf show; also the runtime ip of a non-PIE
 * executable) with the same rule.
 *
 * Rules (perf 6.1's util/symbol-elf.c dso__load_sym and util/symbol.c):
 *  - .symtab (SHT_SYMTAB) when there is one, then .dynsym (SHT_DYNSYM)
 *    into the same set; only .dynsym when there is no .symtab;
 *  - kept: FUNC / GNU_IFUNC and OBJECT symbols with a name and a defined
 *    section; NOTYPE "labels" with a name, not ABS, not hidden/internal,
 *    in a section whose name contains "text" or "data"; never SHN_ABS,
 *    never in a section without SHF_ALLOC, never ARM mapping symbols
 *    ($a $d $t $x); ARM thumb functions lose bit 0;
 *  - after each table: symbols are sorted by start (equal starts: order
 *    of insertion); a symbol of size 0 then ends where the next one starts
 *    (the last one at its start rounded up to 4 KiB, plus 4 KiB); then of
 *    symbols with equal starts one survives: nonzero size, then not weak,
 *    then global, then fewer leading underscores, then the longer name,
 *    then the first;
 *  - then perf's "NAME@plt" symbols, one per .rela.plt / .rel.plt entry,
 *    in .plt (from the runtime binary's .dynsym), with no fix-up;
 *  - an offset belongs to the symbol that contains it ([start, end), or
 *    its start when it has no size).  Where symbols overlap (the PLT
 *    symbols inside a stretched _init), perf's answer is the first symbol
 *    on its red-black tree's search path: symtree.h rebuilds that tree.
 * Not done: C++/Rust demangling, kernel and module symbols.
 *
 * Input is untrusted: every header, table and name is checked against the
 * file; a damaged file gives -PTD_E_FORMAT / -PTD_E_TRUNCATED. */
#ifndef PTD_SYMBOLS_H
#define PTD_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"

/* Limits on one file: symbols read, bytes of one symbol or string table. */
#define PTD_SYMTAB_MAX_SYMS   (1u << 24)
#define PTD_SYMTAB_MAX_BYTES  (256u << 20)

struct ptd_symtab;

/* Read the symbols of the ELF file at path.  On success *out is a new table
 * owned by the caller (ptd_symtab_free); a file without symbols gives an
 * empty table.  Returns 0 or -PTD_E_IO / _FORMAT / _TRUNCATED /
 * _UNSUPPORTED (big-endian, not ELF) / _LIMIT / _NOMEM. */
int ptd_symtab_load(const char *path, struct ptd_symtab **out, struct ptd_err *err);
void ptd_symtab_free(struct ptd_symtab *t);

/* As ptd_symtab_load, but the symbols of path (a separate debug file) are
 * moved to file offsets with the PT_LOAD segments of runtime (the binary it
 * describes), as perf does.  runtime NULL: path's own. */
int ptd_symtab_load_with(const char *path, const char *runtime, struct ptd_symtab **out,
			 struct ptd_err *err);

/* 1 when path is a readable ELF file with a symbol table section
 * (SHT_SYMTAB), from its headers only, as perf's symsrc__init decides
 * which file has a .symtab; 0 otherwise. */
int ptd_symtab_has_symtab(const char *path);

/* Symbols kept after the duplicate passes, PLT symbols included. */
size_t ptd_symtab_count(const struct ptd_symtab *t);
/* 1 when the symbols come from .symtab, 0 when only from .dynsym (or none). */
int ptd_symtab_full(const struct ptd_symtab *t);

/* Bytes the table holds (for the cache's bound). */
size_t ptd_symtab_bytes(const struct ptd_symtab *t);

/* The symbol at file offset `off`: *name (borrowed from the table) and
 * *symoff = off - symbol start.  Returns 0 or -PTD_E_NOTFOUND (perf prints
 * "[unknown]"), or -PTD_E_NOMEM: where symbols overlap, the table builds
 * perf's tree of them at the first lookup there. */
int ptd_symtab_lookup(struct ptd_symtab *t, uint64_t off, const char **name,
		      uint64_t *symoff);

/* A symbol's extent and binding (STB_LOCAL 0, STB_GLOBAL 1, STB_WEAK 2). */
struct ptd_sym_info {
	uint64_t start, end;        /* file offsets, [start, end) */
	int bind;
};

/* ptd_symtab_lookup, and the symbol's extent into *info. */
int ptd_symtab_lookup_info(struct ptd_symtab *t, uint64_t off, const char **name,
			   uint64_t *symoff, struct ptd_sym_info *info);

/* The first symbol (in address order) named name: its extent.  Returns 0
 * or -PTD_E_NOTFOUND. */
int ptd_symtab_find(const struct ptd_symtab *t, const char *name, struct ptd_sym_info *info);

/* Link-time virtual address -> file offset through the first PT_LOAD that
 * contains it.  Returns 0 or -PTD_E_NOTFOUND. */
int ptd_symtab_vaddr_to_offset(const struct ptd_symtab *t, uint64_t vaddr, uint64_t *off);

/* A kallsyms file ("ADDR TYPE NAME" lines, perf --kallsyms) as perf 6.1
 * loads it for the kernel (kallsyms.c): its T, W, D and B symbols by
 * address, ends and duplicates fixed up as perf does for kallsyms, module
 * symbols ("NAME\t[MOD]") dropped.  Returns 0 and *out, or -PTD_E_IO,
 * -PTD_E_NOMEM. */
int ptd_symtab_load_kallsyms(const char *path, struct ptd_symtab **out, struct ptd_err *err);

/* Of a kallsyms table: its _text and _stext (perf's
 * kallsyms__get_function_start), how many kernel symbols it keeps, the
 * first one's start and the last one's end (perf's kernel map after
 * map__fixup_start/end).  0, or -1 when t is not a kallsyms table. */
struct ptd_kallsyms_info {
	int has_text, has_stext;
	uint64_t text, stext;
	size_t nsyms;
	uint64_t first, end;
};
int ptd_symtab_kallsyms_info(const struct ptd_symtab *t, struct ptd_kallsyms_info *ki);

/* A cache of loaded tables by path, owned by the caller.  It holds at most
 * max_files tables and max_bytes of them (0: 64 files, 512 MiB), dropping
 * the least recently used; a table larger than max_bytes alone is still
 * loaded and kept until the next load.  Failed loads are remembered too
 * (the same error again, without rereading the file). */
struct ptd_symcache;

struct ptd_symcache *ptd_symcache_new(size_t max_files, size_t max_bytes);  /* NULL: no memory */
void ptd_symcache_free(struct ptd_symcache *c);
/* Changes whenever a table is dropped (names from earlier lookups may be
 * gone then). */
uint64_t ptd_symcache_generation(const struct ptd_symcache *c);

/* ptd_symtab_lookup on path's table, loading it on first use.  *name is
 * borrowed: valid until the next call on the cache or its free.  Returns 0,
 * -PTD_E_NOTFOUND, or the load's error (err says which file). */
int ptd_symcache_lookup(struct ptd_symcache *c, const char *path, uint64_t off,
			const char **name, uint64_t *symoff, struct ptd_err *err);

/* The symbol of symfile (a separate debug file) at file offset off of the
 * binary it describes, symbols placed with the binary's program headers
 * (ptd_symtab_load_with); binary NULL: symfile's own, as
 * ptd_symcache_lookup.  As ptd_symcache_lookup otherwise. */
int ptd_symcache_lookup_debug(struct ptd_symcache *c, const char *symfile, const char *binary,
			      uint64_t off, const char **name, uint64_t *symoff, struct ptd_err *err);

/* ptd_symcache_lookup_debug with the symbol's extent into *info (NULL: not wanted). */
int ptd_symcache_lookup_info(struct ptd_symcache *c, const char *symfile, const char *binary,
			     uint64_t off, const char **name, uint64_t *symoff,
			     struct ptd_sym_info *info, struct ptd_err *err);

/* 1 when path has a .symtab (ptd_symtab_has_symtab, remembered per
 * path); 0 otherwise (missing, unreadable, only .dynsym).  Returns
 * -PTD_E_NOMEM when out of memory. */
int ptd_symcache_full(struct ptd_symcache *c, const char *path);

/* Load path as a kallsyms file (ptd_symtab_load_kallsyms) rather than an
 * ELF file from now on.  0, or -PTD_E_NOMEM. */
int ptd_symcache_set_kallsyms(struct ptd_symcache *c, const char *path);

/* ptd_symtab_kallsyms_info of the kallsyms file's table, loading it on
 * first use; -1 also when it does not load. */
int ptd_symcache_kallsyms_info(struct ptd_symcache *c, struct ptd_kallsyms_info *ki);

/* ptd_symtab_vaddr_to_offset on path's table, loading it on first use. */
int ptd_symcache_vaddr_to_offset(struct ptd_symcache *c, const char *path, uint64_t vaddr,
				 uint64_t *off, struct ptd_err *err);

#endif
