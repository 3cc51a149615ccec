/* A library loaded at run time (dlopen) instead of linked, for those only
 * some runs need: its functions go into a table of pointers, which the
 * code calls under the library's own names through macros (pq_load.h,
 * sqlite_load.h, cs_load.h, dw_load.h). */
#ifndef PTD_COMMON_DLSYMS_H
#define PTD_COMMON_DLSYMS_H

#include <pthread.h>
#include <stddef.h>

struct ptd_dlsym {
	const char *name;
	size_t off;               /* of its pointer in the table */
};

/* The table's pointer named f, for the library's function name */
#define PTD_DLSYM(type, f, name) { name, offsetof(type, f) }

struct ptd_dllib {
	const char *soname;       /* NULL: the file locate() names */
	const struct ptd_dlsym *fns;
	size_t n;
	void *table;
	const char *what;         /* for messages: "capstone (Debian package ...)" */
	int warn;                 /* a failure is said once on stderr */
	pthread_mutex_t lock;
	int state;                /* 0 not tried, 1 loaded, -1 failed */
	char why[256];            /* the failure's reason */
	/* for a library of the program's own, not on the loader's path: 0
	 * with the file to open in buf, or -1 with the reason it must not be
	 * opened (each NUL-terminated) */
	int (*locate)(char *buf, size_t size);
};

#define PTD_DLLIB(soname, fns, table, what, warn) \
	{ soname, fns, sizeof(fns) / sizeof((fns)[0]), table, what, warn, \
	  PTHREAD_MUTEX_INITIALIZER, 0, "", NULL }
#define PTD_DLLIB_AT(locate, fns, table, what, warn) \
	{ NULL, fns, sizeof(fns) / sizeof((fns)[0]), table, what, warn, \
	  PTHREAD_MUTEX_INITIALIZER, 0, "", locate }

/* Load the library and set each function's pointer in its table, once
 * whichever thread asks first: 0, or -1 with the reason in lib->why
 * (the library is then closed again, and not tried again). */
int ptd_dllib_load(struct ptd_dllib *lib);

#endif
