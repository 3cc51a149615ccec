/* libzstd loaded at run time: see zstd_load.h. */
#include "config.h"

#ifdef HAVE_ZSTD

#define PTD_ZSTD_LOAD_IMPL
#include "formats/perf/zstd_load.h"

#include "common/dlsyms.h"

struct ptd_zstd ptd_zstd;

/* its functions: F(T, the table's field, the library's name) */
#define FNS(F, T) \
	F(T, createDStream, ZSTD_createDStream) F(T, initDStream, ZSTD_initDStream) \
	F(T, freeDStream, ZSTD_freeDStream) \
	F(T, decompressStream, ZSTD_decompressStream) F(T, isError, ZSTD_isError) \
	F(T, getErrorName, ZSTD_getErrorName)

PTD_DLSYMS(struct ptd_zstd, FNS);

static struct ptd_dllib lib = PTD_DLLIB_LINKED("libzstd.so.1", fns, linked, &ptd_zstd,
					"libzstd (Debian package libzstd1)", 0);

int ptd_zstd_load(struct ptd_err *err)
{
	if (ptd_dllib_load(&lib))
		return ptd_err_set(err, PTD_E_UNSUPPORTED,
				   "compressed records: cannot load %s: %s", lib.what, lib.why);
	return 0;
}

#endif
