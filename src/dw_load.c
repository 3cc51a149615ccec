/* libdw loaded at run time: see dw_load.h. */
#include "config.h"

#ifdef HAVE_LIBDW

#define PTD_DW_LOAD_IMPL
#include "dw_load.h"

#include "common/dlsyms.h"

struct ptd_dw ptd_dw;

/* its functions: F(T, the table's field, the library's name) */
#define FNS(F, T) \
	F(T, begin_elf, dwarf_begin_elf) F(T, end, dwarf_end) \
	F(T, addrdie, dwarf_addrdie) F(T, nextcu, dwarf_nextcu) \
	F(T, offdie, dwarf_offdie) F(T, haspc, dwarf_haspc) \
	F(T, cu_info, dwarf_cu_info) F(T, attr, dwarf_attr) \
	F(T, formstring, dwarf_formstring) F(T, getsrclines, dwarf_getsrclines) \
	F(T, onesrcline, dwarf_onesrcline) F(T, line_file, dwarf_line_file) \
	F(T, filesrc, dwarf_filesrc) F(T, linesrc, dwarf_linesrc) \
	F(T, lineaddr, dwarf_lineaddr) F(T, lineno, dwarf_lineno) \
	F(T, lineendsequence, dwarf_lineendsequence)

PTD_DLSYMS(struct ptd_dw, FNS);

static struct ptd_dllib lib = PTD_DLLIB_LINKED("libdw.so.1", fns, linked, &ptd_dw,
					"libdw (Debian package libdw1), so no source lines", 1);

int ptd_dw_load(void)
{
	return ptd_dllib_load(&lib);
}

#endif
