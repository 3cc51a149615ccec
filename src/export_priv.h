/* The export's shared state (export.c: samples, dsos, symbols, calls;
 * export_threads.c: threads, comms, context switches). */
#ifndef PTD_EXPORT_PRIV_H
#define PTD_EXPORT_PRIV_H

#include "callstack.h"
#include "common/u64map.h"
#include "common/vec.h"
#include "export.h"

struct xdso {
	uint64_t id;
	const char *name;             /* the map's, owned by the machine */
	struct ptd_u64map syms;       /* symbol start -> id */
	struct ptd_u64map unknown;    /* address -> id of its "unknown" symbol */
	struct xdso *next;            /* same name hash */
};

enum { ID_EVSEL, ID_THREAD, ID_COMM, ID_COMM_THREAD, ID_DSO, ID_SYMBOL, ID_SAMPLE, ID_CALL_PATH,
       ID_CALL, ID_SWITCH, ID_N };

struct ptd_export {
	struct ptd_db *db;
	const struct ptd_machine *m;
	struct ptd_callstack *cs;
	struct ptd_err *err;          /* of the call in progress (for the call/return callback) */
	uint64_t last[ID_N];          /* the last id given of each kind */
	int machine_done;
	struct ptd_u64map evsels;     /* evsel pointer -> id */
	struct ptd_u64map threads;    /* tid -> id */
	struct ptd_u64map comms;      /* comm key -> id */
	struct ptd_u64map dsos;       /* name hash -> struct xdso * */
	struct ptd_vec retpoline;     /* uint8_t by symbol id */
	ptd_export_buildid_fn buildid;
	ptd_export_long_name_fn long_name;
	void *files_ctx;
	int progress;
	uint64_t last_ms;
};

static inline int ptd_export_row(struct ptd_export *x, enum ptd_db_table t,
				 const struct ptd_db_val *v)
{
	return ptd_db_row(x->db, t, v, x->err);
}

static inline uint64_t ptd_export_id(void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static inline int ptd_export_nomem(struct ptd_export *x)
{
	return ptd_err_set(x->err, PTD_E_NOMEM, "out of memory");
}

/* export_threads.c */
/* the machine's row, once */
int ptd_export_machine(struct ptd_export *x);
/* perf's db_export__threads: *thread_id, and *comm_id the process's exec
 * comm (0: none), at perf time now */
int ptd_export_threads(struct ptd_export *x, int32_t pid, int32_t tid, uint64_t now,
		       uint64_t *thread_id, uint64_t *comm_id);

#endif
