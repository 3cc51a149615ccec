/* libdw loaded at run time: see dw_load.h. */
#include "config.h"

#ifdef HAVE_LIBDW

#define PTD_DW_LOAD_IMPL
#include "dw_load.h"

#include <pthread.h>
#include <stdio.h>

#include "common/dlsyms.h"

struct ptd_dw ptd_dw;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;

static void load(void)
{
	static const struct ptd_dlsym fns[] = {
#define F(f) PTD_DLSYM(struct ptd_dw, f, "dwarf_" #f)
		F(begin_elf), F(end), F(addrdie), F(nextcu), F(offdie), F(haspc), F(cu_info),
		F(attr), F(formstring), F(getsrclines), F(onesrcline), F(line_file), F(filesrc),
		F(linesrc), F(lineaddr), F(lineno), F(lineendsequence),
#undef F
	};
	char why[256];

	if (ptd_dlsyms("libdw.so.1", fns, sizeof(fns) / sizeof(fns[0]), &ptd_dw, why, sizeof(why)))
		fprintf(stderr, "ptdecode: cannot load libdw (Debian package libdw1), so no source "
			"lines: %s\n", why);
	else
		loaded = 1;
}

int ptd_dw_load(void)
{
	pthread_once(&once, load);
	return loaded ? 0 : -1;
}

#endif
