/* perf's export-to-sqlite.py schema (sqlite_schema.c). */
#ifndef PTD_OUT_SQLITE_SCHEMA_H
#define PTD_OUT_SQLITE_SCHEMA_H

#include "sqlite.h"

/* each table's CREATE TABLE column list (db.h's order) */
extern const char *const ptd_sqlite_columns[PTD_DB_NTABLES];
/* CREATE VIEW statements, NULL-terminated */
extern const char *const ptd_sqlite_views[];

#endif
