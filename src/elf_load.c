/* libelf loaded at run time: see elf_load.h. */
#include "config.h"

#ifdef HAVE_LIBDW

#define PTD_ELF_LOAD_IMPL
#include "elf_load.h"

#include "common/dlsyms.h"

struct ptd_elf ptd_elf;

/* its functions: F(T, the table's field, the library's name) */
#define FNS(F, T) \
	F(T, version, elf_version) F(T, begin, elf_begin) F(T, end, elf_end) \
	F(T, kind, elf_kind) F(T, nextscn, elf_nextscn) F(T, ndxscn, elf_ndxscn) \
	F(T, getdata, elf_getdata) F(T, getshdrstrndx, elf_getshdrstrndx) \
	F(T, strptr, elf_strptr) F(T, g_getshdr, gelf_getshdr) \
	F(T, g_fsize, gelf_fsize) F(T, g_getsym, gelf_getsym)

PTD_DLSYMS(struct ptd_elf, FNS);

static struct ptd_dllib lib = PTD_DLLIB_LINKED("libelf.so.1", fns, linked, &ptd_elf,
					"libelf (Debian package libelf1), so no source lines", 1);

int ptd_elf_load(void)
{
	return ptd_dllib_load(&lib);
}

#endif
