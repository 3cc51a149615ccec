/* The export's writer thread (formats/out/db_thread.c) in front of a
 * backend that records what it is given: the oracle is the rows the test
 * made, which the backend must receive all, whole and in order (integers,
 * doubles, strings, NULL strings, strings longer than a block), then
 * finish() once; a row the backend refuses makes a later row() or
 * finish() fail with the backend's message, and the backend is aborted;
 * abort() drops what the writer has not written and aborts the backend. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "formats/out/db.h"
#include "formats/out/db_thread.h"
#include "tests/tap.h"
#include "xorshift.h"

struct rec {
	struct ptd_db base;
	uint64_t rows, bad;        /* rows received; wrong ones */
	uint64_t fail_at;          /* refuse this row (0: none) */
	int finished, aborted;
	uint64_t seed;             /* the test's sequence, replayed */
};

/* row k of the test: its table and values (strings in buf) */
static enum ptd_db_table make_row(uint64_t *s, uint64_t k, struct ptd_db_val *v, char *buf,
				  size_t bufsz)
{
	enum ptd_db_table t = (enum ptd_db_table)(xorshift64(s) % PTD_DB_NTABLES);
	unsigned i, n = ptd_db_columns(t);

	for (i = 0; i < n; i++) {
		uint64_t r = xorshift64(s);

		switch (r % 4) {
		case 0:
			v[i] = PTD_DB_I((int64_t)r);
			break;
		case 1:
			v[i] = PTD_DB_D((double)(r >> 11) / 3.0);
			break;
		case 2:
			v[i] = PTD_DB_S(NULL);
			break;
		default: {
			/* now and then longer than a block (256 KB) */
			size_t len = k % 5000 == 7 && i == 0 ? 300000 : r % 40;

			memset(buf, 'a' + (int)(r % 26), len);
			buf[len] = 0;
			v[i] = PTD_DB_S(buf);
			buf += len + 1;
			bufsz -= len + 1;
			break;
		}
		}
	}
	return t;
}

static char want_buf[600000];

static int rec_row(struct ptd_db *db, enum ptd_db_table t, const struct ptd_db_val *v,
		   struct ptd_err *err)
{
	struct rec *r = (struct rec *)db;
	struct ptd_db_val w[32];
	enum ptd_db_table wt = make_row(&r->seed, r->rows, w, want_buf, sizeof(want_buf));
	unsigned i, n = ptd_db_columns(t);
	int same = t == wt;

	r->rows++;
	for (i = 0; same && i < n; i++)
		same = v[i].type == w[i].type &&
		       (v[i].type == 'i' ? v[i].i == w[i].i :
			v[i].type == 'd' ? v[i].d == w[i].d :
			(!v[i].s && !w[i].s) || (v[i].s && w[i].s && !strcmp(v[i].s, w[i].s)));
	r->bad += !same;
	if (r->rows == r->fail_at)
		return ptd_err_set(err, PTD_E_IO, "row %llu refused", (unsigned long long)r->rows);
	return 0;
}

static int rec_finish(struct ptd_db *db, struct ptd_err *err)
{
	(void)err;
	((struct rec *)db)->finished++;
	return 0;
}

static void rec_abort(struct ptd_db *db)
{
	((struct rec *)db)->aborted++;
}

static const struct ptd_db_ops rec_ops = { rec_row, rec_finish, rec_abort };

static char row_buf[600000];

/* n rows through a writer in front of r; the first error's return */
static int run(struct rec *r, struct ptd_db **db, uint64_t n, struct ptd_err *err)
{
	struct ptd_db_val v[32];
	uint64_t s = 0x9e3779b97f4a7c15ULL, k;
	int rc;

	r->base.ops = &rec_ops;
	r->seed = s;
	*db = &r->base;
	ptd_db_threaded(db);
	for (k = 0; k < n; k++) {
		enum ptd_db_table t = make_row(&s, k, v, row_buf, sizeof(row_buf));

		if ((rc = ptd_db_row(*db, t, v, err)))
			return rc;
	}
	return 0;
}

int main(void)
{
	struct rec r;
	struct ptd_db *db;
	struct ptd_err err;
	int rc;

	plan(9);

	memset(&r, 0, sizeof(r));
	rc = run(&r, &db, 200000, &err);
	ok(db != &r.base, "the backend is behind a writer thread");
	rc = rc ? rc : ptd_db_finish(db, &err);
	ok(!rc && r.rows == 200000 && !r.bad,
	   "200000 rows (some longer than a block) reach the backend whole and in order (%llu, %llu wrong)",
	   (unsigned long long)r.rows, (unsigned long long)r.bad);
	ok(r.finished == 1 && !r.aborted, "then the backend's finish, once");

	memset(&r, 0, sizeof(r));
	r.fail_at = 1000;
	ptd_err_clear(&err);
	rc = run(&r, &db, 300000, &err);
	if (!rc)
		rc = ptd_db_finish(db, &err);
	else
		ptd_db_abort(db);
	ok(rc == -PTD_E_IO && strstr(err.msg, "row 1000 refused"),
	   "a row the backend refuses fails the export with its message (%d: %s)", rc, err.msg);
	ok(r.rows == 1000 && !r.bad, "no row after the refused one reaches the backend (%llu)",
	   (unsigned long long)r.rows);
	ok(r.aborted == 1 && !r.finished, "the backend is aborted, not finished");

	memset(&r, 0, sizeof(r));
	rc = run(&r, &db, 50000, &err);
	ptd_db_abort(db);
	ok(!rc && r.aborted == 1 && !r.finished, "abort: the backend is aborted");
	ok(r.rows <= 50000 && !r.bad, "abort: what reached the backend was in order (%llu rows)",
	   (unsigned long long)r.rows);

	memset(&r, 0, sizeof(r));
	rc = run(&r, &db, 0, &err);
	rc = rc ? rc : ptd_db_finish(db, &err);
	ok(!rc && !r.rows && r.finished == 1, "no rows: finish all the same");
	return done_testing();
}
