/* The export's threads, comms and context switches, as perf's
 * db-export.c numbers and writes them (see export.h). */
#include "export_priv.h"

#include <string.h>

/* the idle task's comm, as perf registers it */
static const struct ptd_comm swapper = { 0, 0, "swapper" };

static const struct ptd_thread *thread_of(const struct ptd_export *x, int32_t tid)
{
	return ptd_machine_thread(x->m, tid);
}

/* A thread's comms present at time now: *first (oldest) and *n; swapper
 * for the idle task. */
static const struct ptd_comm *comm_list(const struct ptd_export *x, int32_t pid, int32_t tid,
					uint64_t now, size_t *n)
{
	const struct ptd_thread *t = thread_of(x, tid);
	size_t i;

	*n = 0;
	if (!t || !t->comms.len) {
		if (!pid && !tid) {
			*n = 1;
			return &swapper;
		}
		return NULL;
	}
	for (i = 0; i < t->comms.len; i++)
		if (((const struct ptd_comm *)ptd_vec_at(&t->comms, i))->time <= now)
			*n = i + 1;
	if (!*n)
		*n = 1;   /* all later: the first */
	return ptd_vec_at(&t->comms, 0);
}

/* perf's thread__comm (the newest) or thread__exec_comm: the index in the
 * thread's list, -1 when none */
static long pick_comm(const struct ptd_export *x, int32_t pid, int32_t tid, uint64_t now, int exec)
{
	size_t n, i;
	const struct ptd_comm *c = comm_list(x, pid, tid, now, &n);

	if (!c)
		return -1;
	if (!exec)
		return (long)n - 1;
	for (i = n; i--;)
		if (c[i].exec)
			return (long)i;
	/* a first comm without a time may be the parent's (a synthesized fork) */
	if (n >= 2 && !c[0].time && pid == tid)
		return 1;
	return 0;
}

static uint64_t comm_key(int32_t tid, long idx)
{
	return (uint64_t)(uint32_t)tid << 32 | (uint32_t)idx;
}

static int export_comm(struct ptd_export *x, int32_t pid, int32_t tid, long idx, uint64_t thread_id,
		       uint64_t *id, int *created)
{
	const struct ptd_comm *c;
	struct ptd_db_val v[5];
	size_t n;
	uint64_t key = comm_key(tid, idx);

	*created = 0;
	*id = ptd_export_id(ptd_u64map_get(&x->comms, key));
	if (*id)
		return 0;
	c = comm_list(x, pid, tid, UINT64_MAX, &n) + idx;
	*id = ++x->last[ID_COMM];
	if (ptd_u64map_put(&x->comms, key, (void *)(uintptr_t)*id))
		return ptd_export_nomem(x);
	*created = 1;
	v[0] = PTD_DB_I(*id);
	v[1] = PTD_DB_S(c->comm);
	v[2] = PTD_DB_I(thread_id);
	v[3] = PTD_DB_I(c->time);
	v[4] = PTD_DB_I(c->exec);
	return ptd_export_row(x, PTD_DB_COMMS, v);
}

static int comm_thread(struct ptd_export *x, uint64_t comm_id, uint64_t thread_id)
{
	struct ptd_db_val v[3] = { PTD_DB_I(++x->last[ID_COMM_THREAD]), PTD_DB_I(comm_id),
				   PTD_DB_I(thread_id) };

	return ptd_export_row(x, PTD_DB_COMM_THREADS, v);
}

static int export_thread(struct ptd_export *x, int32_t pid, int32_t tid, uint64_t main_id,
			 uint64_t *id, int *created)
{
	struct ptd_db_val v[5];

	*created = 0;
	*id = ptd_export_id(ptd_u64map_get(&x->threads, (uint32_t)tid));
	if (*id)
		return 0;
	*id = ++x->last[ID_THREAD];
	if (ptd_u64map_put(&x->threads, (uint32_t)tid, (void *)(uintptr_t)*id))
		return ptd_export_nomem(x);
	*created = 1;
	v[0] = PTD_DB_I(*id);
	v[1] = PTD_DB_I(1);
	v[2] = PTD_DB_I(pid == tid ? *id : main_id);   /* the process's main thread */
	v[3] = PTD_DB_I(pid);
	v[4] = PTD_DB_I(tid);
	return ptd_export_row(x, PTD_DB_THREADS, v);
}

/* perf's db_export__threads: *thread_id, and *comm_id the process's exec
 * comm (0: none) */
int ptd_export_threads(struct ptd_export *x, int32_t pid, int32_t tid, uint64_t now,
		       uint64_t *thread_id, uint64_t *comm_id)
{
	uint64_t main_id = 0, cid;
	int has_main, created, rc, new_thread;
	long idx;

	*comm_id = 0;
	has_main = pid == tid || (pid != -1 && thread_of(x, pid));
	if (has_main) {
		if ((rc = export_thread(x, pid, pid, 0, &main_id, &created)))
			return rc;
		if ((idx = pick_comm(x, pid, pid, now, 1)) >= 0) {
			if ((rc = export_comm(x, pid, pid, idx, main_id, comm_id, &created)))
				return rc;
			if (created && (rc = comm_thread(x, *comm_id, main_id)))
				return rc;
		}
	}
	*thread_id = main_id;
	if (pid != tid || !has_main) {
		if ((rc = export_thread(x, pid, tid, main_id, thread_id, &new_thread)))
			return rc;
		if (new_thread && *comm_id && (rc = comm_thread(x, *comm_id, *thread_id)))
			return rc;
	}
	if ((idx = pick_comm(x, pid, tid, now, 0)) >= 0)
		return export_comm(x, pid, tid, idx, *thread_id, &cid, &created);
	return 0;
}

int ptd_export_machine(struct ptd_export *x)
{
	struct ptd_db_val v[3] = { PTD_DB_I(1), PTD_DB_I(-1), PTD_DB_S("") };   /* the host */

	if (x->machine_done)
		return 0;
	x->machine_done = 1;
	return ptd_export_row(x, PTD_DB_MACHINES, v);
}

/* perf's db_export__pid_tid: the thread's id (0: unknown) */
static int switch_thread(struct ptd_export *x, int32_t pid, int32_t tid, uint64_t time,
			 uint64_t *id, uint64_t *comm_id, int *idle)
{
	const struct ptd_thread *t = thread_of(x, tid);

	*id = *comm_id = 0;
	*idle = !pid && !tid;
	if (tid == -1 || (!t && !*idle) || (t && !t->comms.len))
		return 0;
	return ptd_export_threads(x, pid, tid, time, id, comm_id);
}

int ptd_export_switch(struct ptd_export *x, int out, int preempt, uint64_t time, int32_t cpu,
		      int32_t pid, int32_t tid, int32_t np_pid, int32_t np_tid, struct ptd_err *err)
{
	uint64_t a = 0, b = 0, ca = 0, cb = 0;
	int idle_a = 0, idle_b = 0, rc;
	struct ptd_db_val v[9];

	x->err = err;
	if ((rc = ptd_export_machine(x)))
		return rc;
	if ((rc = switch_thread(x, pid, tid, time, &a, &ca, &idle_a)))
		return rc;
	if (np_tid != -1 && (rc = switch_thread(x, np_pid, np_tid, time, &b, &cb, &idle_b)))
		return rc;
	if ((!a || idle_a) && (!b || idle_b))
		return 0;
	v[0] = PTD_DB_I(++x->last[ID_SWITCH]);
	v[1] = PTD_DB_I(1);
	v[2] = PTD_DB_I(time);
	v[3] = PTD_DB_I(cpu);
	v[4] = PTD_DB_I(out ? a : b);
	v[5] = PTD_DB_I(out ? ca : cb);
	v[6] = PTD_DB_I(out ? b : a);
	v[7] = PTD_DB_I(out ? cb : ca);
	v[8] = PTD_DB_I(out | (out && preempt) << 1);
	return ptd_export_row(x, PTD_DB_CONTEXT_SWITCHES, v);
}
