/* The SQLite database perf's scripts/python/export-to-sqlite.py writes
 * ("all" columns, with calls): its tables, its views (calls_view,
 * samples_view, ...; what exported-sql-viewer.py reads), its indexes and
 * the has_calls column it adds to comms at the end.  doc/formats.md lists
 * the schema.
 *
 * The database is written to a temporary file next to the target (NAME +
 * ".partial") in one transaction with prepared statements, then moved into
 * place: an existing target is replaced only when asked (replace), and a
 * failed run leaves no database behind. */
#ifndef PTD_OUT_SQLITE_H
#define PTD_OUT_SQLITE_H

#include <stdint.h>

#include "common/err.h"

enum ptd_db_table {
	PTD_DB_SELECTED_EVENTS, PTD_DB_MACHINES, PTD_DB_THREADS, PTD_DB_COMMS, PTD_DB_COMM_THREADS,
	PTD_DB_DSOS, PTD_DB_SYMBOLS, PTD_DB_BRANCH_TYPES, PTD_DB_SAMPLES, PTD_DB_CALL_PATHS,
	PTD_DB_CALLS, PTD_DB_PTWRITE, PTD_DB_CBR, PTD_DB_MWAIT, PTD_DB_PWRE, PTD_DB_EXSTOP,
	PTD_DB_PWRX, PTD_DB_CONTEXT_SWITCHES, PTD_DB_NTABLES
};

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

struct ptd_sqlite;

/* Columns of a table (the number of values ptd_sqlite_row takes). */
unsigned ptd_sqlite_columns(enum ptd_db_table t);

/* Create the database for path: -PTD_E_INVAL when path exists and replace
 * is 0, -PTD_E_IO when SQLite fails (err says why). */
int ptd_sqlite_open(struct ptd_sqlite **out, const char *path, int replace, struct ptd_err *err);

/* Insert one row of table t (ptd_sqlite_columns(t) values). */
int ptd_sqlite_row(struct ptd_sqlite *db, enum ptd_db_table t, const struct ptd_db_val *v,
		   struct ptd_err *err);

/* Commit, add the indexes and has_calls, drop the tables perf's script
 * drops when empty, and move the file into place.  Frees db. */
int ptd_sqlite_finish(struct ptd_sqlite *db, struct ptd_err *err);

/* Give up: remove the temporary file.  Frees db; NULL-safe. */
void ptd_sqlite_abort(struct ptd_sqlite *db);

#endif
