/* libdw loaded at run time: see dw_load.h. */
#include "config.h"

#ifdef HAVE_LIBDW

#define PTD_DW_LOAD_IMPL
#include "dw_load.h"

#include "common/dlsyms.h"

struct ptd_dw ptd_dw;

static const struct ptd_dlsym fns[] = {
#define F(f) PTD_DLSYM(struct ptd_dw, f, "dwarf_" #f)
	F(begin_elf), F(end), F(addrdie), F(nextcu), F(offdie), F(haspc), F(cu_info),
	F(attr), F(formstring), F(getsrclines), F(onesrcline), F(line_file), F(filesrc),
	F(linesrc), F(lineaddr), F(lineno), F(lineendsequence),
#undef F
};

static struct ptd_dllib lib = PTD_DLLIB("libdw.so.1", fns, &ptd_dw,
					"libdw (Debian package libdw1), so no source lines", 1);

int ptd_dw_load(void)
{
	return ptd_dllib_load(&lib);
}

#endif
