/* Branch samples to calls for the call views (see callfeed.h). */
#include "callfeed.h"

#include <stdlib.h>
#include <string.h>

#include "common/u64map.h"
#include "common/vec.h"

#define KERNEL_START (1ULL << 63)

/* One symbol key. */
struct fsym {
	const char *file;             /* the map's, owned by the machine */
	uint64_t start;               /* file offset: the symbol's start, or the unknown address */
	int unknown;
	char *name;                   /* owned */
	int retpoline;
	uint64_t key;                 /* its place in syms, + 1 */
	struct fsym *next;            /* same hash */
};

struct ptd_callfeed {
	const struct ptd_machine *m;
	struct ptd_callstack *cs;
	ptd_callfeed_fn fn;
	void *ctx;
	struct ptd_u64map byhash;     /* hash -> struct fsym * chain */
	struct ptd_vec syms;          /* struct fsym *, by key - 1 */
	uint64_t nbranch;             /* the branches' references (the pairing compares them) */
};

static int is_retpoline(void *ctx, uint64_t sym)
{
	struct ptd_callfeed *f = ctx;

	return sym && sym <= f->syms.len && (*(struct fsym **)ptd_vec_at(&f->syms, sym - 1))->retpoline;
}

static int on_call(void *ctx, const struct ptd_call_return *cr, uint64_t *parent_db_id)
{
	struct ptd_callfeed *f = ctx;
	struct ptd_callfeed_call c;
	const struct fsym *s = NULL;

	(void)parent_db_id;
	if (cr->cp->sym && cr->cp->sym <= f->syms.len)
		s = *(struct fsym **)ptd_vec_at(&f->syms, cr->cp->sym - 1);
	c.cr = cr;
	c.name = s ? s->name : NULL;
	c.dso = s ? s->file : NULL;
	c.ip = cr->cp->ip;
	return f->fn(f->ctx, &c);
}

struct ptd_callfeed *ptd_callfeed_new(const struct ptd_machine *m, ptd_callfeed_fn fn, void *ctx)
{
	struct ptd_callfeed *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->m = m;
	f->fn = fn;
	f->ctx = ctx;
	f->syms = (struct ptd_vec)PTD_VEC_INIT(sizeof(struct fsym *));
	if (!(f->cs = ptd_callstack_new(KERNEL_START, on_call, is_retpoline, f))) {
		free(f);
		return NULL;
	}
	return f;
}

void ptd_callfeed_free(struct ptd_callfeed *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->syms.len; i++) {
		struct fsym *s = *(struct fsym **)ptd_vec_at(&f->syms, i);

		free(s->name);
		free(s);
	}
	ptd_vec_fini(&f->syms);
	ptd_u64map_fini(&f->byhash);
	ptd_callstack_free(f->cs);
	free(f);
}

/* The key of the symbol at addr (0: in no map); *at_start: addr is where
 * the symbol begins (an unknown symbol always).  -1 when out of memory. */
static int64_t sym_key(struct ptd_callfeed *f, struct ptd_resolver *rv, const struct ptd_synth *sy,
		       uint64_t addr, int *at_start)
{
	struct ptd_script_loc loc;
	struct ptd_sym_info si;
	const struct ptd_map *map;
	struct fsym *first, *s, **slot;
	uint64_t off, start, h;
	int unknown;

	*at_start = 0;
	memset(&si, 0, sizeof(si));
	if (!(map = ptd_resolve(rv, sy->pid, addr, sy->now, &loc, &si)))
		return 0;
	off = ptd_map_sym_off(map, addr);
	unknown = !loc.sym;
	start = unknown ? off : si.start;
	*at_start = off == start;
	h = ptd_u64map_str_key(map->filename) * 31 + start * 2 + (uint64_t)unknown;
	first = ptd_u64map_get(&f->byhash, h);
	for (s = first; s; s = s->next)
		if (s->start == start && s->unknown == unknown && !strcmp(s->file, map->filename))
			goto found;
	if (!(s = calloc(1, sizeof(*s))) || !(s->name = strdup(unknown ? "unknown" : loc.sym))) {
		free(s);
		return -1;
	}
	s->file = map->filename;
	s->start = start;
	s->unknown = unknown;
	s->retpoline = !strncmp(s->name, "__x86_indirect_thunk_", 21) ||
		       !strcmp(s->name, "__indirect_thunk_start");
	s->next = first;
	if (!(slot = ptd_vec_push(&f->syms)) || ptd_u64map_put(&f->byhash, h, s)) {
		if (slot)
			f->syms.len--;
		free(s->name);
		free(s);
		return -1;
	}
	*slot = s;
	s->key = f->syms.len;
found:
	return (int64_t)s->key;
}

/* perf's exec comm of a process at now, as the export picks it
 * (export_threads.c): the index of the newest exec comm among those
 * present, the second when the first is a synthesized fork's without a
 * time, else the first; + 1.  0 for a thread without comms. */
static uint64_t comm_key(const struct ptd_machine *m, int32_t pid, uint64_t now)
{
	const struct ptd_thread *t = pid != -1 ? ptd_machine_thread(m, pid) : NULL;
	const struct ptd_comm *c;
	size_t i, n = 1;

	if (!t || !t->comms.len)
		return 0;
	c = ptd_vec_at(&t->comms, 0);
	for (i = 0; i < t->comms.len; i++)
		if (c[i].time <= now)
			n = i + 1;
	for (i = n; i--;)
		if (c[i].exec)
			return i + 1;
	return n >= 2 && !c[0].time ? 2 : 1;
}

int ptd_callfeed_branch(struct ptd_callfeed *f, struct ptd_resolver *rv, const struct ptd_synth *sy)
{
	struct ptd_cs_branch b;
	int64_t from, to;
	int at_start;

	if ((from = sym_key(f, rv, sy, sy->ip, &at_start)) < 0 ||
	    (to = sym_key(f, rv, sy, sy->addr, &at_start)) < 0)
		return -1;
	ptd_cs_branch_from(&b, sy);
	b.comm = comm_key(f->m, sy->pid, sy->now);
	b.ref = ++f->nbranch;
	b.from_sym = (uint64_t)from;
	b.to_sym = (uint64_t)to;
	b.to_sym_start = to && at_start;
	return ptd_callstack_branch(f->cs, &b);
}

int ptd_callfeed_finish(struct ptd_callfeed *f)
{
	return ptd_callstack_flush_all(f->cs);
}
