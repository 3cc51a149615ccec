/* A library loaded at run time (dlopen) instead of linked, for those only
 * some runs need: its functions go into a table of pointers, which the
 * code calls under the library's own names through macros (pq_load.h,
 * sqlite_load.h, cs_load.h, dw_load.h).
 *
 * The static program (configure --enable-static-ptdecode: fullprog.h)
 * is built from these files with PTD_LINKED_LIBS defined.  It loads
 * nothing: capstone, libzstd, libdw and libelf are linked with it, and
 * their tables hold the functions linked (PTD_DLLIB_LINKED); the others
 * (libipt, SQLite, libpq, OpenCSD) are not there, and ptdecode-full, the
 * program that loads them, runs in its place where they are needed. */
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
	/* the static program: the functions linked with it, in fns' order;
	 * NULL for a library it does not have */
	void *const *linked;
};

#define PTD_DLLIB(soname, fns, table, what, warn) \
	{ soname, fns, sizeof(fns) / sizeof((fns)[0]), table, what, warn, \
	  PTHREAD_MUTEX_INITIALIZER, 0, "", NULL, NULL }
#define PTD_DLLIB_AT(locate, fns, table, what, warn) \
	{ NULL, fns, sizeof(fns) / sizeof((fns)[0]), table, what, warn, \
	  PTHREAD_MUTEX_INITIALIZER, 0, "", locate, NULL }
/* A loader's table of the library's functions, fns, and in the static
 * program linked (below), both from FNS(F, T): a list of F(T, the table's
 * field, the library's function) for the table's type T */
#define PTD_DLSYM_ENTRY(T, f, name) { #name, offsetof(T, f) },
#define PTD_DLSYM_LINKED(T, f, name) (void *)name,
#ifdef PTD_LINKED_LIBS
#define PTD_DLSYMS(T, FNS) \
	static const struct ptd_dlsym fns[] = { FNS(PTD_DLSYM_ENTRY, T) }; \
	static void *const linked[] = { FNS(PTD_DLSYM_LINKED, T) }
#else
#define PTD_DLSYMS(T, FNS) static const struct ptd_dlsym fns[] = { FNS(PTD_DLSYM_ENTRY, T) }
#endif

/* A library the static program links: linked, an array of its functions
 * in fns' order, which only PTD_LINKED_LIBS builds define (the others
 * name it without using it) */
#ifdef PTD_LINKED_LIBS
#define PTD_DLLIB_LINKED(soname, fns, linked, table, what, warn) \
	{ soname, fns, sizeof(fns) / sizeof((fns)[0]), table, what, warn, \
	  PTHREAD_MUTEX_INITIALIZER, 0, "", NULL, linked }
#else
#define PTD_DLLIB_LINKED(soname, fns, linked, table, what, warn) \
	PTD_DLLIB(soname, fns, table, what, warn)
#endif

/* 1 in the static program (its libraries linked, ptdecode-full for the
 * rest), 0 in a program that loads them */
int ptd_dl_linked(void);

/* Load the library and set each function's pointer in its table, once
 * whichever thread asks first: 0, or -1 with the reason in lib->why
 * (the library is then closed again, and not tried again). */
int ptd_dllib_load(struct ptd_dllib *lib);

#endif
