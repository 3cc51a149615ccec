/* perf's export-to-sqlite.py schema (sqlite_schema.c). */
#ifndef PTD_OUT_SQLITE_SCHEMA_H
#define PTD_OUT_SQLITE_SCHEMA_H

#include "sqlite.h"

struct ptd_sqlite_table {
	const char *name;
	unsigned ncols;
	const char *columns;   /* the CREATE TABLE column list */
};

extern const struct ptd_sqlite_table ptd_sqlite_tables[PTD_DB_NTABLES];
/* CREATE VIEW statements, NULL-terminated */
extern const char *const ptd_sqlite_views[];

#endif
