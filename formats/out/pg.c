/* perf's PostgreSQL export database: see pg.h. */
#define _GNU_SOURCE   /* fopencookie */
#include "pg.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pg_copy.h"
#include "pg_schema.h"
#include "pq_load.h"

#define MAXCOLS 25

struct ptd_pg {
	struct ptd_db base;
	PGconn *admin;                /* to the maintenance database */
	PGconn *conn;                 /* to the target */
	PQconninfoOption *opts;       /* the conninfo, parsed */
	char *dbname;
	int replace, created, progress;
	FILE *spool[PTD_DB_NTABLES];   /* samples': the COPY itself (begin_load) */
	uint64_t rows[PTD_DB_NTABLES];
	struct ptd_pg_col cols[PTD_DB_NTABLES][MAXCOLS];
};

/* libpq's message without its newline */
static int fail(struct ptd_pg *d, PGconn *c, const PGresult *r, const char *what,
		struct ptd_err *err)
{
	const char *msg = r ? PQresultErrorMessage(r) : c ? PQerrorMessage(c) : "";
	size_t n = strlen(msg);

	while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		n--;
	return ptd_err_set(err, PTD_E_IO, "PostgreSQL database \"%s\": %s: %.*s", d->dbname, what,
			   (int)(n > 400 ? 400 : n), msg);
}

static int exec(struct ptd_pg *d, PGconn *c, const char *sql, struct ptd_err *err)
{
	PGresult *r = PQexec(c, sql);
	int st = PQresultStatus(r), rc = 0;

	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		char what[80];

		snprintf(what, sizeof(what), "%.60s...", sql);
		rc = fail(d, c, r, what, err);
	}
	PQclear(r);
	return rc;
}

/* a connection with the conninfo's settings to database name */
static PGconn *connect_to(struct ptd_pg *d, const char *name)
{
	const char *kw[64], *val[64];
	size_t n = 0;
	PQconninfoOption *o;

	for (o = d->opts; o->keyword && n < 62; o++)
		if (o->val && strcmp(o->keyword, "dbname")) {
			kw[n] = o->keyword;
			val[n++] = o->val;
		}
	kw[n] = "dbname";
	val[n++] = name;
	kw[n] = val[n] = NULL;
	return PQconnectdbParams(kw, val, 0);
}

static void release(struct ptd_pg *d)
{
	size_t i;

	for (i = 0; i < PTD_DB_NTABLES; i++)
		if (d->spool[i])
			fclose(d->spool[i]);
	PQfinish(d->conn);
	PQfinish(d->admin);
	PQconninfoFree(d->opts);
	free(d->dbname);
	free(d);
}

static void pg_abort(struct ptd_db *db)
{
	struct ptd_pg *d = (struct ptd_pg *)db;
	struct ptd_err ignored;

	if (!d)
		return;
	/* closing the connection rolls the transaction back */
	PQfinish(d->conn);
	d->conn = NULL;
	if (d->created && d->admin) {
		char *id = PQescapeIdentifier(d->admin, d->dbname, strlen(d->dbname));
		char *sql = id ? malloc(strlen(id) + 16) : NULL;

		memset(&ignored, 0, sizeof(ignored));
		if (sql) {
			sprintf(sql, "DROP DATABASE %s", id);
			exec(d, d->admin, sql, &ignored);
		}
		free(sql);
		PQfreemem(id);
	}
	release(d);
}

/* the target database: refused when it exists (unless replace), else
 * created */
static int create_db(struct ptd_pg *d, struct ptd_err *err)
{
	const char *args[1] = { d->dbname };
	PGresult *r;
	char *id, *sql;
	int exists, rc;

	d->admin = connect_to(d, "postgres");
	if (PQstatus(d->admin) != CONNECTION_OK) {
		PGconn *t1 = connect_to(d, "template1");

		if (PQstatus(t1) != CONNECTION_OK) {
			PQfinish(t1);
			return fail(d, d->admin, NULL, "cannot connect to the server's \"postgres\" "
				    "database (to look for and create the database)", err);
		}
		PQfinish(d->admin);
		d->admin = t1;
	}
	r = PQexecParams(d->admin, "SELECT 1 FROM pg_database WHERE datname = $1", 1, NULL, args,
			 NULL, NULL, 0);
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		rc = fail(d, d->admin, r, "looking for it", err);
		PQclear(r);
		return rc;
	}
	exists = PQntuples(r) > 0;
	PQclear(r);
	if (exists)
		return d->replace ? 0 : ptd_err_set(err, PTD_E_INVAL, "PostgreSQL database \"%s\" "
						    "already exists; give --export-replace to replace "
						    "its tables", d->dbname);
	id = PQescapeIdentifier(d->admin, d->dbname, strlen(d->dbname));
	if (!id || !(sql = malloc(strlen(id) + 20))) {
		PQfreemem(id);
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	}
	sprintf(sql, "CREATE DATABASE %s", id);
	PQfreemem(id);
	rc = exec(d, d->admin, sql, err);
	free(sql);
	if (!rc)
		d->created = 1;
	return rc;
}

static int pg_row(struct ptd_db *db, enum ptd_db_table t, const struct ptd_db_val *v,
		  struct ptd_err *err);
static int pg_finish(struct ptd_db *db, struct ptd_err *err);
static int begin_load(struct ptd_pg *d, struct ptd_err *err);

static const struct ptd_db_ops pg_ops = { pg_row, pg_finish, pg_abort };

int ptd_pg_open(struct ptd_db **out, const char *conninfo, int replace, int quiet,
		struct ptd_err *err)
{
	struct ptd_pg *d;
	int bare = !strchr(conninfo, '=') && !strstr(conninfo, "://"), rc;
	char *msg = NULL;
	const char *name = bare ? conninfo : NULL;
	PQconninfoOption *o;
	size_t i;

	*out = NULL;
	if ((rc = ptd_pq_load(err)))
		return rc;
	d = calloc(1, sizeof(*d));
	if (!d)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	d->base.ops = &pg_ops;
	d->replace = replace;
	d->progress = !quiet && isatty(STDERR_FILENO);
	if (!(d->opts = PQconninfoParse(bare ? "" : conninfo, &msg))) {
		rc = ptd_err_set(err, PTD_E_INVAL, "--export=postgresql:%s: %s", conninfo,
				 msg ? msg : "out of memory");
		PQfreemem(msg);
		release(d);
		return rc;
	}
	for (o = d->opts; o->keyword && !name; o++)
		if (!strcmp(o->keyword, "dbname"))
			name = o->val;
	if (!name || !*name) {
		release(d);
		return ptd_err_set(err, PTD_E_INVAL, "--export=postgresql:%s names no database "
				   "(give dbname=NAME)", conninfo);
	}
	if (!(d->dbname = strdup(name))) {
		release(d);
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	}
	for (i = 0; i < PTD_DB_NTABLES; i++)
		if (ptd_pg_parse_columns(ptd_pg_columns[i], d->cols[i], MAXCOLS) !=
		    (int)ptd_db_columns((enum ptd_db_table)i)) {
			release(d);
			return ptd_err_set(err, PTD_E_INVAL, "PostgreSQL schema of %s: bad columns",
					   ptd_db_table_name((enum ptd_db_table)i));
		}
	if ((rc = create_db(d, err))) {
		pg_abort(&d->base);
		return rc;
	}
	d->conn = connect_to(d, d->dbname);
	if (PQstatus(d->conn) != CONNECTION_OK) {
		rc = fail(d, d->conn, NULL, "cannot connect", err);
		pg_abort(&d->base);
		return rc;
	}
	if ((rc = exec(d, d->conn, "SET client_min_messages TO WARNING; "
		       "SET client_encoding TO 'UTF8'", err)) ||
	    (rc = begin_load(d, err))) {
		pg_abort(&d->base);
		return rc;
	}
	*out = &d->base;
	return 0;
}

/* an unlinked temporary file */
static FILE *spool_file(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	FILE *f;
	int fd;

	if (!dir || !*dir || strlen(dir) > sizeof(path) - 32)
		dir = "/tmp";
	snprintf(path, sizeof(path), "%s/ptdecode-pg.XXXXXX", dir);
	if ((fd = mkstemp(path)) < 0)
		return NULL;
	unlink(path);
	if (!(f = fdopen(fd, "w+")))
		close(fd);
	return f;
}

static int pg_row(struct ptd_db *db, enum ptd_db_table t, const struct ptd_db_val *v,
		  struct ptd_err *err)
{
	struct ptd_pg *d = (struct ptd_pg *)db;

	if (!d->spool[t] && !(d->spool[t] = spool_file()))
		return ptd_err_set(err, PTD_E_IO, "a temporary file for the PostgreSQL export "
				   "(TMPDIR): %s", strerror(errno));
	ptd_pg_copy_row(d->spool[t], d->cols[t], ptd_db_columns(t), v);
	d->rows[t]++;
	/* the server gone while samples' rows stream: no use decoding on */
	if (t == PTD_DB_SAMPLES && ferror(d->spool[t]))
		return fail(d, d->conn, NULL, "COPY samples FROM STDIN", err);
	return 0;
}

/* COPY table t FROM STDIN: its spool file */
static int copy_table(struct ptd_pg *d, enum ptd_db_table t, struct ptd_err *err)
{
	const char *name = ptd_db_table_name(t);
	FILE *f = d->spool[t];
	char sql[96], buf[65536];
	PGresult *r;
	size_t n;
	int rc = 0;

	if (!f)
		return 0;
	if (fflush(f) || ferror(f) || fseek(f, 0, SEEK_SET))
		return ptd_err_set(err, PTD_E_IO, "the PostgreSQL export's temporary file of %s: %s",
				   name, strerror(errno));
	if (d->progress)
		fprintf(stderr, "\r\033[Kcopying %s (%llu rows) to PostgreSQL", name,
			(unsigned long long)d->rows[t]);
	snprintf(sql, sizeof(sql), "COPY %s FROM STDIN", name);
	r = PQexec(d->conn, sql);
	if (PQresultStatus(r) != PGRES_COPY_IN) {
		rc = fail(d, d->conn, r, sql, err);
		PQclear(r);
		return rc;
	}
	PQclear(r);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (PQputCopyData(d->conn, buf, (int)n) != 1)
			break;
	if (ferror(f))
		PQputCopyEnd(d->conn, "reading the temporary file failed");
	else if (PQputCopyEnd(d->conn, n ? "sending failed" : NULL) != 1)
		return fail(d, d->conn, NULL, sql, err);
	while ((r = PQgetResult(d->conn))) {
		if (!rc && PQresultStatus(r) != PGRES_COMMAND_OK)
			rc = fail(d, d->conn, r, sql, err);
		PQclear(r);
	}
	return rc;
}

static int drop(struct ptd_pg *d, const char *table, struct ptd_err *err)
{
	char sql[128];

	snprintf(sql, sizeof(sql), "DROP VIEW %s_view; DROP TABLE %s", table, table);
	return exec(d, d->conn, sql, err);
}

/* the tables perf's trace_end drops when they are empty */
static int tidy(struct ptd_pg *d, struct ptd_err *err)
{
	static const enum ptd_db_table power[] = { PTD_DB_MWAIT, PTD_DB_PWRE, PTD_DB_EXSTOP, PTD_DB_PWRX };
	size_t i;
	int rc;

	if (!d->rows[PTD_DB_PTWRITE] && (rc = drop(d, "ptwrite", err)))
		return rc;
	for (i = 0; i < 4; i++)
		if (d->rows[power[i]])
			break;
	if (i == 4) {
		if ((rc = exec(d, d->conn, "DROP VIEW power_events_view", err)))
			return rc;
		for (i = 0; i < 4; i++)
			if ((rc = drop(d, ptd_db_table_name(power[i]), err)))
				return rc;
		if (!d->rows[PTD_DB_CBR] && (rc = drop(d, "cbr", err)))
			return rc;
	}
	if (!d->rows[PTD_DB_CONTEXT_SWITCHES] && (rc = drop(d, "context_switches", err)))
		return rc;
	return 0;
}

/* COPY data of samples as stdio writes it (fopencookie) */
static ssize_t copy_write(void *cookie, const char *buf, size_t n)
{
	struct ptd_pg *d = cookie;

	if (!d->conn || n > INT_MAX || PQputCopyData(d->conn, buf, (int)n) != 1)
		return -1;
	return (ssize_t)n;
}

/* The transaction begun, the schema made, and COPY samples FROM STDIN
 * started: samples' rows go to the server as they are made, which parses
 * and stores them while the trace is decoded (on another core), instead
 * of from a temporary file after it; the other tables' rows are spooled
 * (one COPY at a time on a connection). */
static int begin_load(struct ptd_pg *d, struct ptd_err *err)
{
	static const cookie_io_functions_t io = { .write = copy_write };
	char sql[2048];
	PGresult *r;
	size_t i;
	int rc;

	if ((rc = exec(d, d->conn, "BEGIN", err)))
		return rc;
	if (d->replace && !d->created) {
		/* what perf's schema has there: its views, then its tables */
		for (i = 0; ptd_pg_views[i]; i++) {
			const char *v = ptd_pg_views[i] + strlen("CREATE VIEW ");

			snprintf(sql, sizeof(sql), "DROP VIEW IF EXISTS %.*s CASCADE",
				 (int)strcspn(v, " "), v);
			if ((rc = exec(d, d->conn, sql, err)))
				return rc;
		}
		for (i = 0; i < PTD_DB_NTABLES; i++) {
			snprintf(sql, sizeof(sql), "DROP TABLE IF EXISTS %s CASCADE",
				 ptd_db_table_name((enum ptd_db_table)i));
			if ((rc = exec(d, d->conn, sql, err)))
				return rc;
		}
	}
	for (i = 0; i < PTD_DB_NTABLES; i++) {
		snprintf(sql, sizeof(sql), "CREATE TABLE %s (%s)", ptd_db_table_name((enum ptd_db_table)i),
			 ptd_pg_columns[i]);
		if ((rc = exec(d, d->conn, sql, err)))
			return rc;
	}
	for (i = 0; ptd_pg_views[i]; i++)
		if ((rc = exec(d, d->conn, ptd_pg_views[i], err)))
			return rc;
	/* its key first: the index is built as the rows come */
	if ((rc = exec(d, d->conn, "ALTER TABLE samples ADD PRIMARY KEY (id)", err)))
		return rc;
	r = PQexec(d->conn, "COPY samples FROM STDIN");
	if (PQresultStatus(r) != PGRES_COPY_IN) {
		rc = fail(d, d->conn, r, "COPY samples FROM STDIN", err);
		PQclear(r);
		return rc;
	}
	PQclear(r);
	if (!(d->spool[PTD_DB_SAMPLES] = fopencookie(d, "w", io)))
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	setvbuf(d->spool[PTD_DB_SAMPLES], NULL, _IOFBF, 65536);
	return 0;
}

/* COPY samples ended: the rest of its rows sent, and the server's answer */
static int end_copy(struct ptd_pg *d, struct ptd_err *err)
{
	FILE *f = d->spool[PTD_DB_SAMPLES];
	PGresult *r;
	int bad, rc = 0;

	d->spool[PTD_DB_SAMPLES] = NULL;
	bad = fflush(f) != 0 || ferror(f);
	fclose(f);
	if (PQputCopyEnd(d->conn, bad ? "sending the rows failed" : NULL) != 1)
		return fail(d, d->conn, NULL, "COPY samples FROM STDIN", err);
	while ((r = PQgetResult(d->conn))) {
		if (!rc && PQresultStatus(r) != PGRES_COMMAND_OK)
			rc = fail(d, d->conn, r, "COPY samples FROM STDIN", err);
		PQclear(r);
	}
	return rc;
}

/* everything in one transaction (begun by begin_load) but the checks of
 * the large tables' foreign keys (check_keys): should one fail, a
 * database created is dropped (pg_abort), one replaced keeps its new rows
 * with keys NOT VALID */
static int load(struct ptd_pg *d, struct ptd_err *err)
{
	size_t i;
	int rc;

	if ((rc = end_copy(d, err)))
		return rc;
	for (i = 0; i < PTD_DB_NTABLES; i++)
		if ((rc = copy_table(d, (enum ptd_db_table)i, err)))
			return rc;
	if (d->progress)
		fputs("\r\033[Kadding keys and indexes in PostgreSQL", stderr);
	for (i = 0; ptd_pg_keys[i]; i++)
		if ((rc = exec(d, d->conn, ptd_pg_keys[i], err)))
			return rc;
	if ((rc = tidy(d, err)))
		return rc;
	return exec(d, d->conn, "COMMIT", err);
}

/* The foreign keys of samples and calls checked (ptd_pg_checks), calls'
 * on a second connection at the same time as samples' on the first: the
 * two scans took half of the time after the rows were copied.  On one
 * connection, one after the other, when a second one cannot be had. */
static int check_keys(struct ptd_pg *d, struct ptd_err *err)
{
	PGconn *c2;
	PGresult *r;
	int rc, rc2 = 0;

	if (d->progress)
		fputs("\r\033[Kchecking foreign keys in PostgreSQL", stderr);
	c2 = connect_to(d, d->dbname);
	if (PQstatus(c2) != CONNECTION_OK || !PQsendQuery(c2, ptd_pg_checks[1])) {
		PQfinish(c2);
		c2 = NULL;
	}
	rc = exec(d, d->conn, ptd_pg_checks[0], err);
	if (!c2)
		return rc ? rc : exec(d, d->conn, ptd_pg_checks[1], err);
	while ((r = PQgetResult(c2))) {
		if (!rc && !rc2 && PQresultStatus(r) != PGRES_COMMAND_OK)
			rc2 = fail(d, c2, r, "checking the foreign keys of calls", err);
		PQclear(r);
	}
	PQfinish(c2);
	return rc ? rc : rc2;
}

static int pg_finish(struct ptd_db *db, struct ptd_err *err)
{
	struct ptd_pg *d = (struct ptd_pg *)db;
	int rc = load(d, err);

	if (!rc)
		rc = check_keys(d, err);

	if (d->progress)
		fputs("\r\033[K", stderr);
	if (rc) {
		pg_abort(db);
		return rc;
	}
	release(d);
	return 0;
}
