/* --export=sqlite:FILE, --export=postgresql:CONNINFO: the main job's
 * samples into perf's export database (export.h, formats/out/db.h)
 * instead of printing them. */
#ifndef PTD_EXPORT_RUN_H
#define PTD_EXPORT_RUN_H

#include "common/err.h"
#include "formats/out/db.h"
#include "formats/out/script.h"
#include "ptq.h"
#include "resolve.h"
#include "session.h"

struct ptd_export_run;

/* Open the database (db.h's ptd_db_open: sqlite.h's and pg.h's rules for
 * one that exists).  Returns 0, -PTD_E_INVAL (it exists), -PTD_E_UNSUPPORTED
 * (no such backend in this build), -PTD_E_IO.  writer: SQLite's rows
 * written on a thread of their own. */
int ptd_export_run_open(struct ptd_export_run **out, enum ptd_db_kind kind, const char *target,
			int replace, int quiet, int writer, struct ptd_err *err);
/* Keep what the export needs of a record as the session reads it (the
 * context switches).  Returns 0 or -PTD_E_NOMEM. */
int ptd_export_run_note(struct ptd_export_run *x, const struct ptd_event *ev);
/* Before the first sample: the session has been read; files are the
 * binaries the samples are resolved with (borrowed). */
int ptd_export_run_begin(struct ptd_export_run *x, const struct ptd_machine *m,
			 struct ptd_dsofiles *files, int quiet, struct ptd_err *err);
/* One sample of event ev, its addresses resolved with rv. */
int ptd_export_run_sample(struct ptd_export_run *x, struct ptd_resolver *rv,
			  const struct ptd_synth *sy, const struct ptd_script_evsel *ev,
			  struct ptd_err *err);
/* The end: context switches, the calls still open, the database moved
 * into place.  Returns 0 or an error (the database is then removed). */
int ptd_export_run_end(struct ptd_export_run *x, struct ptd_err *err);
/* Free; a database not ended is removed.  NULL-safe. */
void ptd_export_run_free(struct ptd_export_run *x);

#endif
