/* capstone loaded at run time: see cs_load.h. */
#define PTD_CS_LOAD_IMPL
#include "common/cs_load.h"

#include "common/dlsyms.h"

/* the soname of the capstone the program was built with (its API major) */
#define STR_(x) #x
#define STR(x) STR_(x)
#define SOVERSION STR(CS_API_MAJOR)

struct ptd_cs ptd_cs;

/* its functions: F(T, the table's field, the library's name) */
#define FNS(F, T) \
	F(T, open, cs_open) F(T, option, cs_option) F(T, malloc, cs_malloc) \
	F(T, free, cs_free) F(T, close, cs_close) F(T, disasm_iter, cs_disasm_iter)

PTD_DLSYMS(struct ptd_cs, FNS);

static struct ptd_dllib lib = PTD_DLLIB_LINKED("libcapstone.so." SOVERSION, fns, linked, &ptd_cs,
					"capstone (Debian package libcapstone" SOVERSION ")", 1);

int ptd_cs_load(void)
{
	return ptd_dllib_load(&lib);
}
