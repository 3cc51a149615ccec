/* A library loaded at run time (dlopen) instead of linked, for those only
 * some runs need: its functions go into a table of pointers, which the
 * code calls under the library's own names through macros (pq_load.h,
 * cs_load.h, dw_load.h, sqlite_load.h). */
#ifndef PTD_COMMON_DLSYMS_H
#define PTD_COMMON_DLSYMS_H

#include <stddef.h>

struct ptd_dlsym {
	const char *name;
	size_t off;               /* of its pointer in the table */
};

/* The table's pointer named f, for the library's function name */
#define PTD_DLSYM(type, f, name) { name, offsetof(type, f) }

/* dlopen soname and set each function's pointer in table.  Returns 0, or
 * -1 with the reason in why (the library is then closed again). */
int ptd_dlsyms(const char *soname, const struct ptd_dlsym *fns, size_t n, void *table,
	       char *why, size_t whysz);

#endif
