/* The SQLite export in a build without SQLite: every open fails. */
#include "sqlite.h"

#include <stddef.h>

int ptd_sqlite_open(struct ptd_db **out, const char *path, int replace, struct ptd_err *err)
{
	(void)replace;
	*out = NULL;
	return ptd_err_set(err, PTD_E_UNSUPPORTED,
			   "%s: this build of ptdecode has no SQLite (configured without sqlite3)", path);
}
