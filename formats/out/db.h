/* The row sink the database export (src/export.c) writes to: the tables
 * of perf's export scripts (export-to-sqlite.py, export-to-postgresql.py),
 * their rows given one at a time as column values.  Two backends:
 * formats/out/sqlite.c (a file) and formats/out/pg.c (a PostgreSQL
 * database); each keeps its own schema text (sqlite_schema.c,
 * pg_schema.c) with perf's table order, column order and meanings.
 *
 * A sink is all or nothing: rows go to a database nobody sees until
 * ptd_db_finish succeeds; ptd_db_abort (or a failed finish) leaves what
 * was there before. */
#ifndef PTD_OUT_DB_H
#define PTD_OUT_DB_H

#include <stdint.h>

#include "common/err.h"

enum ptd_db_table {
	PTD_DB_SELECTED_EVENTS, PTD_DB_MACHINES, PTD_DB_THREADS, PTD_DB_COMMS, PTD_DB_COMM_THREADS,
	PTD_DB_DSOS, PTD_DB_SYMBOLS, PTD_DB_BRANCH_TYPES, PTD_DB_SAMPLES, PTD_DB_CALL_PATHS,
	PTD_DB_CALLS, PTD_DB_PTWRITE, PTD_DB_CBR, PTD_DB_MWAIT, PTD_DB_PWRE, PTD_DB_EXSTOP,
	PTD_DB_PWRX, PTD_DB_CONTEXT_SWITCHES, PTD_DB_NTABLES
};

/* The export's backends (--export=KIND:TARGET). */
enum ptd_db_kind { PTD_DB_NONE, PTD_DB_SQLITE, PTD_DB_POSTGRESQL };

/* One column value of a row. */
struct ptd_db_val {
	char type;          /* 'i' integer, 'd' real, 's' text */
	int64_t i;
	double d;
	const char *s;
};

#define PTD_DB_I(v) ((struct ptd_db_val){ 'i', (int64_t)(v), 0, NULL })
#define PTD_DB_D(v) ((struct ptd_db_val){ 'd', 0, (double)(v), NULL })
#define PTD_DB_S(v) ((struct ptd_db_val){ 's', 0, 0, (v) })

struct ptd_db;

struct ptd_db_ops {
	/* one row of table t: ptd_db_columns(t) values */
	int (*row)(struct ptd_db *db, enum ptd_db_table t, const struct ptd_db_val *v,
		   struct ptd_err *err);
	/* the end: perf's trace_end (keys, indexes, has_calls, empty tables
	 * dropped), the database made visible; frees db whatever happens */
	int (*finish)(struct ptd_db *db, struct ptd_err *err);
	/* give up: nothing of this run is left; frees db */
	void (*abort)(struct ptd_db *db);
};

/* Every backend's handle starts with this. */
struct ptd_db {
	const struct ptd_db_ops *ops;
};

/* perf's name of table t, and its number of columns. */
const char *ptd_db_table_name(enum ptd_db_table t);
unsigned ptd_db_columns(enum ptd_db_table t);

/* Open the sink of kind for target (a file name, a libpq conninfo string):
 * -PTD_E_INVAL when the target exists and replace is 0 (or is malformed),
 * -PTD_E_UNSUPPORTED when this build lacks the backend, -PTD_E_IO when the
 * database fails (err says why).  quiet: no progress on stderr; writer:
 * SQLite's rows written on a thread of their own (db_thread.h). */
int ptd_db_open(struct ptd_db **out, enum ptd_db_kind kind, const char *target, int replace,
		int quiet, int writer, struct ptd_err *err);

static inline int ptd_db_row(struct ptd_db *db, enum ptd_db_table t, const struct ptd_db_val *v,
			     struct ptd_err *err)
{
	return db->ops->row(db, t, v, err);
}

static inline int ptd_db_finish(struct ptd_db *db, struct ptd_err *err)
{
	return db->ops->finish(db, err);
}

static inline void ptd_db_abort(struct ptd_db *db)
{
	if (db)
		db->ops->abort(db);
}

#endif
