/* capstone loaded at run time: see cs_load.h. */
#define PTD_CS_LOAD_IMPL
#include "common/cs_load.h"

#include <pthread.h>
#include <stdio.h>

#include "common/dlsyms.h"

/* the soname of the capstone the program was built with (its API major) */
#define STR_(x) #x
#define STR(x) STR_(x)
#define SOVERSION STR(CS_API_MAJOR)

struct ptd_cs ptd_cs;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;

static void load(void)
{
	static const struct ptd_dlsym fns[] = {
#define F(f) PTD_DLSYM(struct ptd_cs, f, "cs_" #f)
		F(open), F(option), F(malloc), F(free), F(close), F(disasm_iter),
#undef F
	};
	char why[256];

	if (ptd_dlsyms("libcapstone.so." SOVERSION, fns, sizeof(fns) / sizeof(fns[0]), &ptd_cs,
		       why, sizeof(why)))
		fprintf(stderr, "ptdecode: cannot load capstone (Debian package libcapstone%s): %s\n",
			SOVERSION, why);
	else
		loaded = 1;
}

int ptd_cs_load(void)
{
	pthread_once(&once, load);
	return loaded ? 0 : -1;
}
