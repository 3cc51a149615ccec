/* OpenCSD loaded at run time: see ocsd_load.h. */
#define PTD_OCSD_LOAD_IMPL
#include "decoders/cs-etm/ocsd_load.h"

#ifndef PTD_LINKED_LIBS
#include <dlfcn.h>
#endif
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/dlsyms.h"

#ifndef PTD_PKGLIBDIR
#define PTD_PKGLIBDIR "/usr/local/lib/ptdecode"
#endif

/* the library holding the function p0fix.cpp repairs */
#define OCSD_SONAME "libopencsd.so.1"

struct ptd_ocsd ptd_ocsd;

static const struct ptd_dlsym fns[] = {
#define F(f) PTD_DLSYM(struct ptd_ocsd, f, "ocsd_" #f)
	F(create_dcd_tree), F(destroy_dcd_tree), F(dt_create_decoder), F(dt_process_data),
	F(dt_set_gen_elem_outfn), F(dt_add_callback_trcid_mem_acc), F(err_str),
#undef F
	PTD_DLSYM(struct ptd_ocsd, p0fix_active, "csetm_p0fix_active"),
};

/* The module beside the program when there is one, else the installed
 * one; none when OpenCSD is loaded already (linked with the program),
 * as its calls would then not bind to the module's repair. */
static int locate(char *buf, size_t size)
{
#ifdef PTD_LINKED_LIBS
	/* the static program loads nothing (src/fullprog.h) */
	snprintf(buf, size, "not in this static program (ptdecode-full has it)");
	return -1;
#else
	void *h = dlopen(OCSD_SONAME, RTLD_LAZY | RTLD_NOLOAD);
	ssize_t n;
	char *slash;

	if (h) {
		dlclose(h);
		snprintf(buf, size, "%s is loaded already, without %s's repair", OCSD_SONAME,
			 PTD_OCSD_MODULE);
		return -1;
	}
	n = readlink("/proc/self/exe", buf, size);
	if (n > 0 && (size_t)n < size) {
		buf[n] = '\0';
		slash = strrchr(buf, '/');
		if (slash && (size_t)(slash + 1 - buf) + sizeof(PTD_OCSD_MODULE) <= size) {
			memcpy(slash + 1, PTD_OCSD_MODULE, sizeof(PTD_OCSD_MODULE));
			if (!access(buf, F_OK))
				return 0;
		}
	}
	snprintf(buf, size, "%s/%s", PTD_PKGLIBDIR, PTD_OCSD_MODULE);
	return 0;
#endif
}

static struct ptd_dllib lib = PTD_DLLIB_AT(locate, fns, &ptd_ocsd,
					   "OpenCSD (Debian package libopencsd1) through " PTD_OCSD_MODULE,
					   0);

int ptd_ocsd_load(struct ptd_err *err)
{
	if (ptd_dllib_load(&lib))
		return ptd_err_set(err, PTD_E_UNSUPPORTED, "cs-etm: cannot load %s: %s", lib.what,
				   lib.why);
	return 0;
}
