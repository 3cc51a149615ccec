/* The SQLite export in a build without SQLite: every open fails. */
#include "sqlite.h"

#include <stddef.h>

unsigned ptd_sqlite_columns(enum ptd_db_table t)
{
	(void)t;
	return 0;
}

int ptd_sqlite_open(struct ptd_sqlite **out, const char *path, int replace, struct ptd_err *err)
{
	(void)replace;
	*out = NULL;
	return ptd_err_set(err, PTD_E_UNSUPPORTED,
			   "%s: this build of ptdecode has no SQLite (configured without sqlite3)", path);
}

int ptd_sqlite_row(struct ptd_sqlite *db, enum ptd_db_table t, const struct ptd_db_val *v,
		   struct ptd_err *err)
{
	(void)db, (void)t, (void)v;
	return ptd_err_set(err, PTD_E_UNSUPPORTED, "no SQLite");
}

int ptd_sqlite_finish(struct ptd_sqlite *db, struct ptd_err *err)
{
	(void)db;
	return ptd_err_set(err, PTD_E_UNSUPPORTED, "no SQLite");
}

void ptd_sqlite_abort(struct ptd_sqlite *db)
{
	(void)db;
}
