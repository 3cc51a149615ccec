/* SQLite loaded at run time: see sqlite_load.h. */
#define PTD_SQ_LOAD_IMPL
#include "sqlite_load.h"

#include "common/dlsyms.h"

struct ptd_sq ptd_sq;

int ptd_sq_load(struct ptd_err *err)
{
	static const struct ptd_dlsym fns[] = {
#define F(f) PTD_DLSYM(struct ptd_sq, f, "sqlite3_" #f)
		F(open_v2), F(close), F(errmsg), F(exec), F(free), F(prepare_v2), F(finalize),
		F(step), F(reset), F(clear_bindings), F(bind_text), F(bind_int64), F(bind_double),
#undef F
	};
	static int loaded;
	char why[256];

	if (loaded)
		return 0;
	if (ptd_dlsyms("libsqlite3.so.0", fns, sizeof(fns) / sizeof(fns[0]), &ptd_sq, why,
		       sizeof(why)))
		return ptd_err_set(err, PTD_E_UNSUPPORTED,
				   "--export=sqlite: cannot load SQLite (Debian package libsqlite3-0): %s",
				   why);
	loaded = 1;
	return 0;
}
