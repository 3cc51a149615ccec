/* SQLite, loaded when an SQLite export starts (dlopen) instead of linked,
 * as libpq is (pq_load.h): only the export needs it, and loading it costs
 * every other run more than half a millisecond.  sqlite.c calls it
 * through these pointers under SQLite's own names (the macros below). */
#ifndef PTD_OUT_SQLITE_LOAD_H
#define PTD_OUT_SQLITE_LOAD_H

#include <sqlite3.h>

#include "common/err.h"

struct ptd_sq {
#define F(f) __typeof__(sqlite3_##f) *f
	F(open_v2); F(close); F(errmsg); F(exec); F(free); F(prepare_v2); F(finalize);
	F(step); F(reset); F(clear_bindings); F(bind_text); F(bind_int64); F(bind_double);
#undef F
};

extern struct ptd_sq ptd_sq;

/* Load SQLite (once); -PTD_E_UNSUPPORTED with the reason when it cannot. */
int ptd_sq_load(struct ptd_err *err);

#ifndef PTD_SQ_LOAD_IMPL
#define sqlite3_open_v2 ptd_sq.open_v2
#define sqlite3_close ptd_sq.close
#define sqlite3_errmsg ptd_sq.errmsg
#define sqlite3_exec ptd_sq.exec
#define sqlite3_free ptd_sq.free
#define sqlite3_prepare_v2 ptd_sq.prepare_v2
#define sqlite3_finalize ptd_sq.finalize
#define sqlite3_step ptd_sq.step
#define sqlite3_reset ptd_sq.reset
#define sqlite3_clear_bindings ptd_sq.clear_bindings
#define sqlite3_bind_text ptd_sq.bind_text
#define sqlite3_bind_int64 ptd_sq.bind_int64
#define sqlite3_bind_double ptd_sq.bind_double
#endif

#endif
