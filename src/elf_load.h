/* libelf, loaded when srcline_a2l.c first opens a binary (dlopen) instead
 * of linked: only source lines need it (symbols are read without it,
 * symbols.c), and loading it with the libz it brings costs every run page
 * faults and relocations (doc/performance.md, the twentieth round).
 * srcline_a2l.c includes this header after gelf.h and calls libelf under
 * its own names (the macros below), having called ptd_elf_load() first. */
#ifndef PTD_ELF_LOAD_H
#define PTD_ELF_LOAD_H

#include <gelf.h>

struct ptd_elf {
#define F(f) __typeof__(elf_##f) *f
#define G(f) __typeof__(gelf_##f) *g_##f
	F(version); F(begin); F(end); F(kind); F(nextscn); F(ndxscn); F(getdata);
	F(getshdrstrndx); F(strptr); G(getshdr); G(fsize); G(getsym);
#undef F
#undef G
};

extern struct ptd_elf ptd_elf;

/* Load libelf (once, whichever thread asks first): 0, or -1 when it
 * cannot be loaded, which is reported on stderr once. */
int ptd_elf_load(void);

#ifndef PTD_ELF_LOAD_IMPL
#define elf_version ptd_elf.version
#define elf_begin ptd_elf.begin
#define elf_end ptd_elf.end
#define elf_kind ptd_elf.kind
#define elf_nextscn ptd_elf.nextscn
#define elf_ndxscn ptd_elf.ndxscn
#define elf_getdata ptd_elf.getdata
#define elf_getshdrstrndx ptd_elf.getshdrstrndx
#define elf_strptr ptd_elf.strptr
#define gelf_getshdr ptd_elf.g_getshdr
#define gelf_fsize ptd_elf.g_fsize
#define gelf_getsym ptd_elf.g_getsym
#endif

#endif
