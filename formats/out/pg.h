/* The PostgreSQL database perf's scripts/python/export-to-postgresql.py
 * writes ("all" columns, with calls): its tables, views, primary and
 * foreign keys, the calls' indexes and has_calls (pg_schema.c,
 * doc/formats.md).  A row sink of db.h.
 *
 * conninfo is a libpq connection string ("dbname=NAME host=/tmp ...", or
 * a postgresql:// URI); a bare NAME (no '=', no "://") is dbname=NAME, as
 * perf's script takes a database name.  Its dbname is the database
 * written: the other settings (and libpq's PG* environment) reach the
 * server, where the "postgres" database (else "template1") is used to
 * look for it and create it (CREATE DATABASE, as perf's script does).
 *
 * Rows are spooled to unlinked temporary files (in $TMPDIR, else /tmp),
 * one per table, in COPY text format; at the end one transaction drops
 * the tables and views of perf's schema that are there (--export-replace),
 * creates them, COPYs every table FROM STDIN, adds the keys and commits.
 * A database that exists is refused unless replace; a failed run rolls
 * back (the old tables stay) and drops the database if it created it. */
#ifndef PTD_OUT_PG_H
#define PTD_OUT_PG_H

#include "db.h"

int ptd_pg_open(struct ptd_db **out, const char *conninfo, int replace, int quiet,
		struct ptd_err *err);

#endif
