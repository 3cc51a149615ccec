/* SQLite loaded at run time: see sqlite_load.h. */
#define PTD_SQ_LOAD_IMPL
#include "sqlite_load.h"

#include "common/dlsyms.h"

struct ptd_sq ptd_sq;

static const struct ptd_dlsym fns[] = {
#define F(f) PTD_DLSYM(struct ptd_sq, f, "sqlite3_" #f)
	F(open_v2), F(close), F(errmsg), F(exec), F(free), F(prepare_v2), F(finalize),
	F(step), F(reset), F(clear_bindings), F(bind_text), F(bind_int64), F(bind_double),
#undef F
};

static struct ptd_dllib lib = PTD_DLLIB("libsqlite3.so.0", fns, &ptd_sq,
					"SQLite (Debian package libsqlite3-0)", 0);

int ptd_sq_load(struct ptd_err *err)
{
	if (ptd_dllib_load(&lib))
		return ptd_err_set(err, PTD_E_UNSUPPORTED,
				   "--export=sqlite: cannot load %s: %s", lib.what, lib.why);
	return 0;
}
