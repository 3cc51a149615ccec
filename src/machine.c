#include "machine.h"

#include <stdlib.h>
#include <string.h>

#define MAX_THREADS (1u << 22)
#define MAX_MAPS_PER_PROCESS (1u << 22)
#define MAX_COMMS_PER_THREAD (1u << 16)

void ptd_machine_init(struct ptd_machine *m)
{
	memset(m, 0, sizeof(*m));
	m->strings.elsize = sizeof(char *);
	m->threads.limit = MAX_THREADS;
	m->procs.limit = MAX_THREADS;
}

void ptd_machine_fini(struct ptd_machine *m)
{
	size_t i = 0;
	uint64_t k;
	void *v;

	while (ptd_u64map_next(&m->threads, &i, &k, &v)) {
		ptd_vec_fini(&((struct ptd_thread *)v)->comms);
		free(v);
	}
	i = 0;
	while (ptd_u64map_next(&m->procs, &i, &k, &v)) {
		ptd_vec_fini(&((struct ptd_process *)v)->maps);
		free(v);
	}
	ptd_u64map_fini(&m->threads);
	ptd_u64map_fini(&m->procs);
	for (i = 0; i < m->strings.len; i++)
		free(*(char **)ptd_vec_at(&m->strings, i));
	ptd_vec_fini(&m->strings);
}

static const char *keep_string(struct ptd_machine *m, const char *s)
{
	char **slot, *copy = strdup(s);

	if (!copy)
		return NULL;
	slot = ptd_vec_push(&m->strings);
	if (!slot) {
		free(copy);
		return NULL;
	}
	*slot = copy;
	return copy;
}

static uint64_t key(int32_t id)
{
	return (uint64_t)(uint32_t)id;
}

struct ptd_thread *ptd_machine_thread(const struct ptd_machine *m, int32_t tid)
{
	return ptd_u64map_get(&m->threads, key(tid));
}

static struct ptd_thread *get_thread(struct ptd_machine *m, int32_t pid, int32_t tid)
{
	struct ptd_thread *t = ptd_machine_thread(m, tid);

	if (t) {
		if (t->pid == -1 && pid != -1)
			t->pid = pid;
		return t;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	t->ppid = -1;
	t->comms.elsize = sizeof(struct ptd_comm);
	t->comms.limit = MAX_COMMS_PER_THREAD;
	if (ptd_u64map_put(&m->threads, key(tid), t)) {
		free(t);
		return NULL;
	}
	return t;
}

static struct ptd_process *get_process(struct ptd_machine *m, int32_t pid)
{
	struct ptd_process *p = ptd_u64map_get(&m->procs, key(pid));

	if (p)
		return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	p->maps.elsize = sizeof(struct ptd_map);
	p->maps.limit = MAX_MAPS_PER_PROCESS;
	if (ptd_u64map_put(&m->procs, key(pid), p)) {
		free(p);
		return NULL;
	}
	return p;
}

int ptd_machine_comm(struct ptd_machine *m, int32_t pid, int32_t tid, const char *comm,
		     int exec, uint64_t time)
{
	struct ptd_thread *t = get_thread(m, pid, tid);
	struct ptd_comm *c;

	if (!t)
		return -PTD_E_NOMEM;
	c = ptd_vec_push(&t->comms);
	if (!c)
		return -PTD_E_LIMIT;
	c->time = time;
	c->exec = exec;
	c->comm = keep_string(m, comm);
	return c->comm ? 0 : -PTD_E_NOMEM;
}

int ptd_machine_fork(struct ptd_machine *m, int32_t pid, int32_t ppid, int32_t tid,
		     int32_t ptid, uint64_t time)
{
	struct ptd_thread *parent = ptd_machine_thread(m, ptid);
	struct ptd_thread *t = get_thread(m, pid, tid);
	struct ptd_process *pp, *cp;
	const char *comm;
	size_t i, n;

	if (!t)
		return -PTD_E_NOMEM;
	t->ppid = ppid;
	t->start_time = time;
	/* The child starts with its parent's comm as of the fork.  Records
	 * are taken in file order, which is not time order across CPUs: a
	 * later COMM of the child may already be there, so this is added by
	 * time, not only when the child has none. */
	comm = parent && parent != t ? ptd_machine_comm_at(m, ptid, time) : NULL;
	if (comm) {
		int rc = ptd_machine_comm(m, pid, tid, comm, 0, time);

		if (rc)
			return rc;
	}
	if (pid == ppid)
		return 0;       /* a new thread shares its process's maps */
	/* a new process starts with a copy of the maps its parent had then */
	pp = ptd_u64map_get(&m->procs, key(ppid));
	if (!pp || !pp->maps.len)
		return 0;
	cp = get_process(m, pid);
	if (!cp)
		return -PTD_E_NOMEM;
	n = pp->maps.len;
	for (i = 0; i < n; i++) {
		struct ptd_map *src = ptd_vec_at(&pp->maps, i), *d;

		if (src->time > time)
			continue;
		d = ptd_vec_push(&cp->maps);
		if (!d)
			return -PTD_E_LIMIT;
		*d = *(struct ptd_map *)ptd_vec_at(&pp->maps, i);
		d->time = time;     /* present from the child's start */
		d->seq = 0;         /* older than any map of the child's own */
	}
	return 0;
}

int ptd_machine_exit(struct ptd_machine *m, int32_t pid, int32_t tid, uint64_t time)
{
	struct ptd_thread *t = get_thread(m, pid, tid);

	if (!t)
		return -PTD_E_NOMEM;
	t->exit_time = time;
	return 0;
}

int ptd_machine_mmap(struct ptd_machine *m, int32_t pid, int32_t tid,
		     const struct ptd_map *map)
{
	struct ptd_process *p = get_process(m, pid);
	struct ptd_map *d;

	(void)tid;
	if (!p)
		return -PTD_E_NOMEM;
	d = ptd_vec_push(&p->maps);
	if (!d)
		return -PTD_E_LIMIT;
	*d = *map;
	d->seq = ++m->seq;
	d->filename = keep_string(m, map->filename ? map->filename : "");
	m->nr_maps++;
	return d->filename ? 0 : -PTD_E_NOMEM;
}

static const char *thread_comm_at(const struct ptd_thread *t, uint64_t time)
{
	const struct ptd_comm *best = NULL;
	size_t i;

	if (!t || !t->comms.len)
		return NULL;
	for (i = 0; i < t->comms.len; i++) {
		const struct ptd_comm *c = ptd_vec_at(&t->comms, i);

		if (c->time <= time && (!best || c->time >= best->time))
			best = c;
	}
	if (!best) {
		/* all later: the earliest one */
		for (i = 0; i < t->comms.len; i++) {
			const struct ptd_comm *c = ptd_vec_at(&t->comms, i);

			if (!best || c->time < best->time)
				best = c;
		}
	}
	return best->comm;
}

const char *ptd_machine_comm_at(const struct ptd_machine *m, int32_t tid, uint64_t time)
{
	return thread_comm_at(ptd_machine_thread(m, tid), time);
}

const char *ptd_machine_sample_comm(const struct ptd_machine *m, int32_t tid, uint64_t time)
{
	const struct ptd_thread *t = tid != -1 ? ptd_machine_thread(m, tid) : NULL;

	return t ? thread_comm_at(t, time) : tid == 0 ? "swapper" : NULL;
}

/* The map of p containing addr at time; *from and *until (when wanted)
 * bound the times the answer holds for: the latest arrival of any of p's
 * maps at or before time, the first after it. */
static const struct ptd_map *search(const struct ptd_process *p, uint64_t addr, uint64_t time,
				    uint64_t *from, uint64_t *until)
{
	const struct ptd_map *best = NULL;
	size_t i;

	if (!p)
		return NULL;
	for (i = 0; i < p->maps.len; i++) {
		const struct ptd_map *mp = ptd_vec_at(&p->maps, i);

		if (from && mp->time > time && mp->time < *until)
			*until = mp->time;
		if (from && mp->time <= time && mp->time > *from)
			*from = mp->time;
		if (addr < mp->start || addr >= mp->end || mp->time > time)
			continue;
		if (!best || mp->time > best->time ||
		    (mp->time == best->time && mp->seq > best->seq))
			best = mp;
	}
	return best;
}

const struct ptd_map *ptd_machine_find_map(const struct ptd_machine *m, int32_t pid,
					   int kernel, uint64_t addr, uint64_t time)
{
	return search(ptd_u64map_get(&m->procs, key(kernel ? PTD_KERNEL_PID : pid)), addr, time,
		      NULL, NULL);
}

const struct ptd_map *ptd_machine_find_map_hints(const struct ptd_machine *m, int32_t pid,
						 int kernel, uint64_t addr, uint64_t time,
						 struct ptd_map_hint *h)
{
	uint64_t k = key(kernel ? PTD_KERNEL_PID : pid), from = 0, until = UINT64_MAX;
	const struct ptd_map *mp;
	unsigned i;

	for (i = 0; i < PTD_MAP_HINTS; i++) {
		mp = h->e[i].map;
		if (mp && h->e[i].key == k && addr >= mp->start && addr < mp->end &&
		    time >= h->e[i].from && time < h->e[i].until) {
			h->last = i;
			return mp;
		}
	}
	mp = search(ptd_u64map_get(&m->procs, k), addr, time, &from, &until);
	if (mp) {
		i = h->next++ % PTD_MAP_HINTS;
		h->e[i].map = mp;
		h->e[i].key = k;
		h->e[i].from = from;
		h->e[i].until = until;
		h->last = i;
	}
	return mp;
}
