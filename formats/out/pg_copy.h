/* Rows in PostgreSQL's COPY text format (the PostgreSQL export's spool
 * files, formats/out/pg.c): a column's value as its type takes it.
 *
 * Strings come from the perf.data (comm, dso and symbol names): a
 * backslash, tab, newline, carriage return or other control byte is
 * escaped; bytes that are not UTF-8 become U+FFFD (the database's client
 * encoding is UTF8); a string longer than its varchar(N) is cut at N
 * characters (perf's column sizes: comm 16, symbol names 2048, ...).
 * Integer columns take the value modulo 2^32 (integer) as perf's 32-bit
 * fields do, reals are truncated to integers (Python's int()), booleans
 * are t/f. */
#ifndef PTD_OUT_PG_COPY_H
#define PTD_OUT_PG_COPY_H

#include <stdio.h>

#include "db.h"

enum ptd_pg_type { PTD_PG_BIGINT, PTD_PG_INTEGER, PTD_PG_BOOLEAN, PTD_PG_TEXT };

struct ptd_pg_col {
	enum ptd_pg_type type;
	unsigned maxlen;        /* PTD_PG_TEXT: varchar's N in characters, 0 no limit */
};

/* The columns of a CREATE TABLE column list ("id bigint NOT NULL, name
 * varchar(80), ..."): up to max of them into cols.  Returns their number,
 * or -1 when a type is none of bigint, integer, boolean, varchar(N). */
int ptd_pg_parse_columns(const char *list, struct ptd_pg_col *cols, unsigned max);

/* One string as a COPY text field (no delimiter). */
void ptd_pg_copy_text(FILE *f, const char *s, unsigned maxlen);

/* One row of n columns, tab-separated, newline-ended. */
void ptd_pg_copy_row(FILE *f, const struct ptd_pg_col *cols, unsigned n, const struct ptd_db_val *v);

#endif
