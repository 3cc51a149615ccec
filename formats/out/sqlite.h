/* The SQLite database perf's scripts/python/export-to-sqlite.py writes
 * ("all" columns, with calls): its tables, its views (calls_view,
 * samples_view, ...; what exported-sql-viewer.py reads), its indexes and
 * the has_calls column it adds to comms at the end.  doc/formats.md lists
 * the schema.  A row sink of db.h.
 *
 * The database is written to a temporary file next to the target (NAME +
 * ".partial") in one transaction with prepared statements, then moved into
 * place: an existing target is replaced only when asked (replace), and a
 * failed run leaves no database behind. */
#ifndef PTD_OUT_SQLITE_H
#define PTD_OUT_SQLITE_H

#include "db.h"

/* Create the database for path: -PTD_E_INVAL when path exists and replace
 * is 0, -PTD_E_IO when SQLite fails, -PTD_E_UNSUPPORTED in a build without
 * SQLite (err says why). */
int ptd_sqlite_open(struct ptd_db **out, const char *path, int replace, struct ptd_err *err);

#endif
