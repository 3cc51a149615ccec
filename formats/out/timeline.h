/* --timeline=FILE: the calls as a Chrome trace-event JSON file (the
 * "JSON Object Format" of the Trace Event Format, which Perfetto and
 * chrome://tracing open), written as the calls end:
 *  - one complete event ("ph":"X") per call: name the symbol, ts and dur
 *    in microseconds (perf time, nanosecond digits kept), pid and tid,
 *    args dso, flags (no_call, no_return, jump) and insns;
 *  - metadata events ("ph":"M") process_name and thread_name with the
 *    comm, written when a thread is first seen and when its comm changes;
 *  - one instant event ("ph":"i", thread scope) per trace error: a gap,
 *    named "trace error", args code and message.
 * Events are in the order calls end (callees before their callers). */
#ifndef PTD_FORMATS_OUT_TIMELINE_H
#define PTD_FORMATS_OUT_TIMELINE_H

#include <stdint.h>

#include "common/err.h"

struct ptd_timeline;

/* Create path (replacing it) and write the header.  Returns 0 or -PTD_E_IO
 * / -PTD_E_NOMEM. */
int ptd_timeline_open(struct ptd_timeline **out, const char *path, struct ptd_err *err);

/* The thread's comm (NULL: unknown) before its events: metadata when it
 * is new or changed (comm strings compared by address: the machine's).
 * Returns 0, or -1 when out of memory. */
int ptd_timeline_thread(struct ptd_timeline *t, int32_t pid, int32_t tid, const char *comm,
			const char *process_comm);

/* One call: name (NULL: no symbol, named by ip), dso (NULL: none), flags
 * PTD_CR_*. */
void ptd_timeline_call(struct ptd_timeline *t, int32_t pid, int32_t tid, const char *name,
		       uint64_t ip, const char *dso, uint64_t call_time, uint64_t return_time,
		       uint32_t flags, uint64_t insns);

/* A trace error at time. */
void ptd_timeline_error(struct ptd_timeline *t, int32_t pid, int32_t tid, int32_t cpu,
			uint64_t time, int code, const char *msg);

/* Write the end and close.  Returns 0, or -PTD_E_IO (the file is removed). */
int ptd_timeline_close(struct ptd_timeline *t, struct ptd_err *err);

/* Free; a file not closed is removed.  NULL-safe. */
void ptd_timeline_free(struct ptd_timeline *t);

#endif
