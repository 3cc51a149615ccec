/* The PostgreSQL export in a build without libpq: every open fails. */
#include "pg.h"

#include <stddef.h>

int ptd_pg_open(struct ptd_db **out, const char *conninfo, int replace, int quiet,
		struct ptd_err *err)
{
	(void)replace, (void)quiet;
	*out = NULL;
	return ptd_err_set(err, PTD_E_UNSUPPORTED, "--export=postgresql:%s: this build of ptdecode "
			   "has no PostgreSQL client library (configured without libpq)", conninfo);
}
