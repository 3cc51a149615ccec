/* An export database whose rows are written on a thread of their own.
 *
 * The decode makes the rows; SQLite's inserts take most of an export's
 * time on one thread.  ptd_db_threaded() puts a backend behind a queue:
 * row() copies the row into a block of 256 KB, and a writer thread hands
 * full blocks' rows to the backend in the order they came, so that both
 * run at once on two cores.
 * At most 4 blocks (about 1 MB) are in flight; the decode waits for the
 * writer beyond that.  The backend is called from one thread at a time:
 * rows from the writer, then finish() or abort() from the caller once the
 * writer is done. */
#ifndef PTD_OUT_DB_THREAD_H
#define PTD_OUT_DB_THREAD_H

#include "db.h"

/* *db wrapped, or left as it is when no thread can be started (or no
 * memory).  A backend's error on a row is returned by a later row() or
 * by finish(), with the backend's message. */
void ptd_db_threaded(struct ptd_db **db);

#endif
