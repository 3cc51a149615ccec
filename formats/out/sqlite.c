/* perf's SQLite export database: see sqlite.h. */
#include "sqlite.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sqlite_load.h"
#include "sqlite_schema.h"

struct ptd_sqlite {
	struct ptd_db base;
	sqlite3 *db;
	char *path, *tmp;
	int replace;
	sqlite3_stmt *ins[PTD_DB_NTABLES];
};

static int fail(struct ptd_sqlite *d, struct ptd_err *err, const char *what)
{
	return ptd_err_set(err, PTD_E_IO, "%s: %s: %s", d->path, what,
			   d->db ? sqlite3_errmsg(d->db) : "cannot open");
}

static int exec(struct ptd_sqlite *d, const char *sql, struct ptd_err *err)
{
	char *msg = NULL;

	if (sqlite3_exec(d->db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	ptd_err_set(err, PTD_E_IO, "%s: %.60s...: %s", d->path, sql, msg ? msg : "failed");
	sqlite3_free(msg);
	return -PTD_E_IO;
}

static void release(struct ptd_sqlite *d)
{
	size_t i;

	for (i = 0; i < PTD_DB_NTABLES; i++)
		sqlite3_finalize(d->ins[i]);
	sqlite3_close(d->db);
	free(d->path);
	free(d->tmp);
	free(d);
}

static void sq_abort(struct ptd_db *db)
{
	struct ptd_sqlite *d = (struct ptd_sqlite *)db;
	char *tmp;

	if (!d)
		return;
	tmp = d->tmp;
	d->tmp = NULL;
	release(d);
	unlink(tmp);
	free(tmp);
}

static int create(struct ptd_sqlite *d, struct ptd_err *err)
{
	char sql[2048];
	size_t i;
	int rc;

	if ((rc = exec(d, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN TRANSACTION", err)))
		return rc;
	for (i = 0; i < PTD_DB_NTABLES; i++) {
		const char *name = ptd_db_table_name((enum ptd_db_table)i);
		size_t n, k;

		snprintf(sql, sizeof(sql), "CREATE TABLE %s (%s)", name, ptd_sqlite_columns[i]);
		if ((rc = exec(d, sql, err)))
			return rc;
		n = (size_t)snprintf(sql, sizeof(sql), "INSERT INTO %s VALUES (?", name);
		for (k = 1; k < ptd_db_columns((enum ptd_db_table)i) && n + 4 < sizeof(sql); k++)
			n += (size_t)snprintf(sql + n, sizeof(sql) - n, ", ?");
		snprintf(sql + n, sizeof(sql) - n, ")");
		if (sqlite3_prepare_v2(d->db, sql, -1, &d->ins[i], NULL) != SQLITE_OK)
			return fail(d, err, "prepare");
	}
	for (i = 0; ptd_sqlite_views[i]; i++)
		if ((rc = exec(d, ptd_sqlite_views[i], err)))
			return rc;
	return 0;
}

static int sq_row(struct ptd_db *db, enum ptd_db_table t, const struct ptd_db_val *v,
		  struct ptd_err *err);
static int sq_finish(struct ptd_db *db, struct ptd_err *err);

static const struct ptd_db_ops sq_ops = { sq_row, sq_finish, sq_abort };

int ptd_sqlite_open(struct ptd_db **out, const char *path, int replace, struct ptd_err *err)
{
	struct ptd_sqlite *d;
	struct stat st;
	int fd, rc;

	*out = NULL;
	if ((rc = ptd_sq_load(err)))
		return rc;
	if (!replace && lstat(path, &st) == 0)
		return ptd_err_set(err, PTD_E_INVAL,
				   "%s already exists; give --export-replace to replace it", path);
	d = calloc(1, sizeof(*d));
	if (!d || !(d->path = strdup(path)) || !(d->tmp = malloc(strlen(path) + 9))) {
		if (d)
			free(d->path);
		free(d);
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	}
	sprintf(d->tmp, "%s.partial", path);
	d->base.ops = &sq_ops;
	d->replace = replace;
	/* the temporary file is ours alone: an old one is not overwritten */
	fd = open(d->tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0) {
		rc = ptd_err_set(err, PTD_E_IO, "%s: %s%s", d->tmp, strerror(errno),
				 errno == EEXIST ? " (another export is writing it, or one failed: "
				 "remove it)" : "");
		release(d);
		return rc;
	}
	close(fd);
	if (sqlite3_open_v2(d->tmp, &d->db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		rc = fail(d, err, "open");
		sq_abort(&d->base);
		return rc;
	}
	if ((rc = create(d, err))) {
		sq_abort(&d->base);
		return rc;
	}
	*out = &d->base;
	return 0;
}

static int sq_row(struct ptd_db *db, enum ptd_db_table t, const struct ptd_db_val *v,
		  struct ptd_err *err)
{
	struct ptd_sqlite *d = (struct ptd_sqlite *)db;
	sqlite3_stmt *st = d->ins[t];
	unsigned i, n = ptd_db_columns(t);
	int rc = SQLITE_OK;

	for (i = 0; i < n && rc == SQLITE_OK; i++) {
		if (v[i].type == 's')
			rc = sqlite3_bind_text(st, (int)i + 1, v[i].s ? v[i].s : "", -1, SQLITE_STATIC);
		else if (v[i].type == 'd')
			rc = sqlite3_bind_double(st, (int)i + 1, v[i].d);
		else
			rc = sqlite3_bind_int64(st, (int)i + 1, v[i].i);
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE)
		return fail(d, err, ptd_db_table_name(t));
	return 0;
}

/* 1 when table has no rows, 0 when it has, negative on error */
static int empty(struct ptd_sqlite *d, const char *table, struct ptd_err *err)
{
	char sql[128];
	sqlite3_stmt *st;
	int rc;

	snprintf(sql, sizeof(sql), "SELECT 1 FROM %s LIMIT 1", table);
	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK)
		return fail(d, err, table);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc == SQLITE_DONE)
		return 1;
	return fail(d, err, table);
}

static int drop(struct ptd_sqlite *d, const char *table, struct ptd_err *err)
{
	char sql[128];

	snprintf(sql, sizeof(sql), "DROP VIEW %s_view; DROP TABLE %s", table, table);
	return exec(d, sql, err);
}

/* perf's trace_end: indexes, has_calls, empty event tables dropped */
static int tidy(struct ptd_sqlite *d, struct ptd_err *err)
{
	static const char *const power[] = { "mwait", "pwre", "exstop", "pwrx" };
	size_t i;
	int rc, all = 1;

	if ((rc = exec(d, "CREATE INDEX pcpid_idx ON calls (parent_call_path_id); "
		       "CREATE INDEX pid_idx ON calls (parent_id); "
		       "ALTER TABLE comms ADD has_calls boolean; "
		       "UPDATE comms SET has_calls = 1 WHERE comms.id IN (SELECT DISTINCT comm_id FROM calls)",
		       err)))
		return rc;
	if ((rc = empty(d, "ptwrite", err)) < 0 || (rc && (rc = drop(d, "ptwrite", err))))
		return rc;
	for (i = 0; i < 4 && all; i++)
		if ((all = empty(d, power[i], err)) < 0)
			return all;
	if (all) {
		if ((rc = exec(d, "DROP VIEW power_events_view", err)))
			return rc;
		for (i = 0; i < 4; i++)
			if ((rc = drop(d, power[i], err)))
				return rc;
		if ((rc = empty(d, "cbr", err)) < 0 || (rc && (rc = drop(d, "cbr", err))))
			return rc;
	}
	if ((rc = empty(d, "context_switches", err)) < 0 ||
	    (rc && (rc = drop(d, "context_switches", err))))
		return rc;
	return 0;
}

static int sq_finish(struct ptd_db *db, struct ptd_err *err)
{
	struct ptd_sqlite *d = (struct ptd_sqlite *)db;
	size_t i;
	int rc;

	for (i = 0; i < PTD_DB_NTABLES; i++) {
		sqlite3_finalize(d->ins[i]);
		d->ins[i] = NULL;
	}
	if ((rc = tidy(d, err)) || (rc = exec(d, "END TRANSACTION", err))) {
		sq_abort(&d->base);
		return rc;
	}
	if (sqlite3_close(d->db) != SQLITE_OK) {
		rc = fail(d, err, "close");
		sq_abort(&d->base);
		return rc;
	}
	d->db = NULL;
	/* without replace, link() refuses a target that appeared meanwhile */
	if (d->replace ? rename(d->tmp, d->path) : link(d->tmp, d->path)) {
		rc = ptd_err_set(err, PTD_E_IO, "%s: %s%s", d->path, strerror(errno),
				 errno == EEXIST ? "; give --export-replace to replace it" : "");
		sq_abort(&d->base);
		return rc;
	}
	if (!d->replace)
		unlink(d->tmp);
	release(d);
	return 0;
}
