/* Libraries loaded at run time: see dlsyms.h. */
#include "common/dlsyms.h"

#include <dlfcn.h>
#include <stdio.h>

int ptd_dlsyms(const char *soname, const struct ptd_dlsym *fns, size_t n, void *table,
	       char *why, size_t whysz)
{
	void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	size_t i;

	if (!lib) {
		snprintf(why, whysz, "%s", dlerror());
		return -1;
	}
	for (i = 0; i < n; i++) {
		void *p = dlsym(lib, fns[i].name);

		if (!p) {
			snprintf(why, whysz, "%s has no %s", soname, fns[i].name);
			dlclose(lib);
			return -1;
		}
		/* POSIX: a function's address converts to and from void * */
		*(void **)((char *)table + fns[i].off) = p;
	}
	return 0;
}
