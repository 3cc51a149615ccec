/* The export's tables and backends: see db.h. */
#include "db.h"

#include "db_thread.h"
#include "pg.h"
#include "sqlite.h"

static const struct {
	const char *name;
	unsigned ncols;
} tables[PTD_DB_NTABLES] = {
	[PTD_DB_SELECTED_EVENTS] = { "selected_events", 2 },
	[PTD_DB_MACHINES] = { "machines", 3 },
	[PTD_DB_THREADS] = { "threads", 5 },
	[PTD_DB_COMMS] = { "comms", 5 },
	[PTD_DB_COMM_THREADS] = { "comm_threads", 3 },
	[PTD_DB_DSOS] = { "dsos", 5 },
	[PTD_DB_SYMBOLS] = { "symbols", 6 },
	[PTD_DB_BRANCH_TYPES] = { "branch_types", 2 },
	[PTD_DB_SAMPLES] = { "samples", 25 },
	[PTD_DB_CALL_PATHS] = { "call_paths", 4 },
	[PTD_DB_CALLS] = { "calls", 14 },
	[PTD_DB_PTWRITE] = { "ptwrite", 3 },
	[PTD_DB_CBR] = { "cbr", 4 },
	[PTD_DB_MWAIT] = { "mwait", 3 },
	[PTD_DB_PWRE] = { "pwre", 4 },
	[PTD_DB_EXSTOP] = { "exstop", 2 },
	[PTD_DB_PWRX] = { "pwrx", 4 },
	[PTD_DB_CONTEXT_SWITCHES] = { "context_switches", 9 },
};

const char *ptd_db_table_name(enum ptd_db_table t)
{
	return (unsigned)t < PTD_DB_NTABLES ? tables[t].name : "?";
}

unsigned ptd_db_columns(enum ptd_db_table t)
{
	return (unsigned)t < PTD_DB_NTABLES ? tables[t].ncols : 0;
}

int ptd_db_open(struct ptd_db **out, enum ptd_db_kind kind, const char *target, int replace,
		int quiet, int writer, struct ptd_err *err)
{
	int rc;

	*out = NULL;
	switch (kind) {
	case PTD_DB_SQLITE:
		/* SQLite's inserts on the second core; PostgreSQL's server takes
		 * it already (its COPY of samples while the trace is decoded) */
		if (!(rc = ptd_sqlite_open(out, target, replace, err)) && writer)
			ptd_db_threaded(out);
		break;
	case PTD_DB_POSTGRESQL:
		rc = ptd_pg_open(out, target, replace, quiet, err);
		break;
	default:
		return ptd_err_set(err, PTD_E_INVAL, "no export database kind given");
	}
	return rc;
}
