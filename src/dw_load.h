/* libdw, loaded when a source line is first asked for (dlopen) instead of
 * linked: loading libdw with the compression libraries it brings costs
 * every run about a millisecond, and only -F srcline and the exports'
 * source lines need it.  srcline_a2l.c includes this header after
 * libdw.h and calls libdw under its own names (the macros below), having
 * called ptd_dw_load() first. */
#ifndef PTD_DW_LOAD_H
#define PTD_DW_LOAD_H

#include <elfutils/libdw.h>

struct ptd_dw {
#define F(f) __typeof__(dwarf_##f) *f
	F(begin_elf); F(end); F(addrdie); F(nextcu); F(offdie); F(haspc); F(cu_info);
	F(attr); F(formstring); F(getsrclines); F(onesrcline); F(line_file); F(filesrc);
	F(linesrc); F(lineaddr); F(lineno); F(lineendsequence);
#undef F
};

extern struct ptd_dw ptd_dw;

/* Load libdw (once, whichever thread asks first): 0, or -1 when it cannot
 * be loaded, which is reported on stderr once. */
int ptd_dw_load(void);

#ifndef PTD_DW_LOAD_IMPL
#define dwarf_begin_elf ptd_dw.begin_elf
#define dwarf_end ptd_dw.end
#define dwarf_addrdie ptd_dw.addrdie
#define dwarf_nextcu ptd_dw.nextcu
#define dwarf_offdie ptd_dw.offdie
#define dwarf_haspc ptd_dw.haspc
#define dwarf_cu_info ptd_dw.cu_info
#define dwarf_attr ptd_dw.attr
#define dwarf_formstring ptd_dw.formstring
#define dwarf_getsrclines ptd_dw.getsrclines
#define dwarf_onesrcline ptd_dw.onesrcline
#define dwarf_line_file ptd_dw.line_file
#define dwarf_filesrc ptd_dw.filesrc
#define dwarf_linesrc ptd_dw.linesrc
#define dwarf_lineaddr ptd_dw.lineaddr
#define dwarf_lineno ptd_dw.lineno
#define dwarf_lineendsequence ptd_dw.lineendsequence
#endif

#endif
