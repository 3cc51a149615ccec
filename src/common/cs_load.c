/* capstone loaded at run time: see cs_load.h. */
#define PTD_CS_LOAD_IMPL
#include "common/cs_load.h"

#include "common/dlsyms.h"

/* the soname of the capstone the program was built with (its API major) */
#define STR_(x) #x
#define STR(x) STR_(x)
#define SOVERSION STR(CS_API_MAJOR)

struct ptd_cs ptd_cs;

static const struct ptd_dlsym fns[] = {
#define F(f) PTD_DLSYM(struct ptd_cs, f, "cs_" #f)
	F(open), F(option), F(malloc), F(free), F(close), F(disasm_iter),
#undef F
};

static struct ptd_dllib lib = PTD_DLLIB("libcapstone.so." SOVERSION, fns, &ptd_cs,
					"capstone (Debian package libcapstone" SOVERSION ")", 1);

int ptd_cs_load(void)
{
	return ptd_dllib_load(&lib);
}
