/* libzstd, loaded when the first compressed record comes (dlopen) instead
 * of linked: only recordings made with perf record -z need it, and
 * loading a library costs every run page faults and relocations
 * (doc/performance.md, the twentieth round).  decomp.c calls it through
 * these pointers under zstd's own names (the macros below). */
#ifndef PTD_PERF_ZSTD_LOAD_H
#define PTD_PERF_ZSTD_LOAD_H

#include <zstd.h>

#include "common/err.h"

struct ptd_zstd {
#define F(f) __typeof__(ZSTD_##f) *f
	F(createDStream); F(initDStream); F(freeDStream); F(decompressStream); F(isError);
	F(getErrorName);
#undef F
};

extern struct ptd_zstd ptd_zstd;

/* Load libzstd (once, whichever thread asks first): 0, or
 * -PTD_E_UNSUPPORTED with the reason when it cannot be loaded. */
int ptd_zstd_load(struct ptd_err *err);

#ifndef PTD_ZSTD_LOAD_IMPL
#define ZSTD_createDStream ptd_zstd.createDStream
#define ZSTD_initDStream ptd_zstd.initDStream
#define ZSTD_freeDStream ptd_zstd.freeDStream
#define ZSTD_decompressStream ptd_zstd.decompressStream
#define ZSTD_isError ptd_zstd.isError
#define ZSTD_getErrorName ptd_zstd.getErrorName
#endif

#endif
