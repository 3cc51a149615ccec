/* libelf loaded at run time: see elf_load.h. */
#include "config.h"

#ifdef HAVE_LIBDW

#define PTD_ELF_LOAD_IMPL
#include "elf_load.h"

#include "common/dlsyms.h"

struct ptd_elf ptd_elf;

static const struct ptd_dlsym fns[] = {
#define F(f) PTD_DLSYM(struct ptd_elf, f, "elf_" #f)
#define G(f) PTD_DLSYM(struct ptd_elf, g_##f, "gelf_" #f)
	F(version), F(begin), F(end), F(kind), F(nextscn), F(ndxscn), F(getdata),
	F(getshdrstrndx), F(strptr), G(getshdr), G(fsize), G(getsym),
#undef F
#undef G
};

static struct ptd_dllib lib = PTD_DLLIB("libelf.so.1", fns, &ptd_elf,
					"libelf (Debian package libelf1), so no source lines", 1);

int ptd_elf_load(void)
{
	return ptd_dllib_load(&lib);
}

#endif
