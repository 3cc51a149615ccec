/* perf's export-to-postgresql.py schema (pg_schema.c). */
#ifndef PTD_OUT_PG_SCHEMA_H
#define PTD_OUT_PG_SCHEMA_H

#include "db.h"

/* each table's CREATE TABLE column list (db.h's order) */
extern const char *const ptd_pg_columns[PTD_DB_NTABLES];
/* CREATE VIEW statements, NULL-terminated */
extern const char *const ptd_pg_views[];
/* what perf's trace_end adds after the rows: primary keys, foreign keys,
 * the calls' indexes, comms.has_calls; NULL-terminated */
extern const char *const ptd_pg_keys[];

#endif
