/* libzstd loaded at run time: see zstd_load.h. */
#include "config.h"

#ifdef HAVE_ZSTD

#define PTD_ZSTD_LOAD_IMPL
#include "formats/perf/zstd_load.h"

#include "common/dlsyms.h"

struct ptd_zstd ptd_zstd;

static const struct ptd_dlsym fns[] = {
#define F(f) PTD_DLSYM(struct ptd_zstd, f, "ZSTD_" #f)
	F(createDStream), F(initDStream), F(freeDStream), F(decompressStream), F(isError),
	F(getErrorName),
#undef F
};

static struct ptd_dllib lib = PTD_DLLIB("libzstd.so.1", fns, &ptd_zstd,
					"libzstd (Debian package libzstd1)", 0);

int ptd_zstd_load(struct ptd_err *err)
{
	if (ptd_dllib_load(&lib))
		return ptd_err_set(err, PTD_E_UNSUPPORTED,
				   "compressed records: cannot load %s: %s", lib.what, lib.why);
	return 0;
}

#endif
