/* perf's export-to-postgresql.py schema (pg_schema.c). */
#ifndef PTD_OUT_PG_SCHEMA_H
#define PTD_OUT_PG_SCHEMA_H

#include "db.h"

/* each table's CREATE TABLE column list (db.h's order) */
extern const char *const ptd_pg_columns[PTD_DB_NTABLES];
/* CREATE VIEW statements, NULL-terminated */
extern const char *const ptd_pg_views[];
/* what perf's trace_end adds after the rows: primary keys, foreign keys,
 * the calls' indexes, comms.has_calls; NULL-terminated.  The foreign keys
 * of samples and calls are added NOT VALID, and checked by ptd_pg_checks
 * once the load is committed. */
extern const char *const ptd_pg_keys[];
/* the checks (VALIDATE CONSTRAINT) of samples' foreign keys, then of
 * calls': each string one query of several statements.  Each check is a
 * scan of its table; the two take no lock the other waits for (SHARE
 * UPDATE EXCLUSIVE on their own table, ROW SHARE on the others), so they
 * can run at once, on two connections. */
extern const char *const ptd_pg_checks[2];

#endif
