/* Call/return pairing: see callstack.h. */
#include "callstack.h"

#include <stdlib.h>
#include <string.h>

#include "common/u64map.h"
#include "formats/perf/abi.h"
#include "ptq.h"

enum { RP_NONE, RP_POSSIBLE, RP_DETECTED };   /* x86 retpoline detection */

struct node {
	struct ptd_cpath cp;
	struct node *hnext;
};

struct entry {
	uint64_t ret_addr, timestamp, ref;
	uint64_t branch_count, insn_count, cyc_count;
	uint64_t db_id;
	struct ptd_cpath *cp;
	uint8_t no_call, trace_end, non_call;
};

struct stack {
	struct entry *e;
	size_t cnt, cap;
	uint64_t trace_nr, branch_count, insn_count, cyc_count, last_time;
	uint64_t comm;
	int rstate;
	int32_t pid, tid, cpu;
};

struct ptd_callstack {
	uint64_t ks;                  /* kernel start */
	ptd_call_return_fn fn;
	ptd_cs_retpoline_fn retpoline;
	void *ctx;
	struct node root;
	struct node **buckets;        /* call paths by (parent, sym, ip) */
	size_t nbuckets, npaths;
	struct ptd_u64map stacks;     /* thread key -> struct stack * */
	uint64_t overflows;
};

struct ptd_callstack *ptd_callstack_new(uint64_t kernel_start, ptd_call_return_fn fn,
					ptd_cs_retpoline_fn retpoline, void *ctx)
{
	struct ptd_callstack *cs = calloc(1, sizeof(*cs));

	if (!cs)
		return NULL;
	cs->ks = kernel_start;
	cs->fn = fn;
	cs->retpoline = retpoline;
	cs->ctx = ctx;
	cs->nbuckets = 1024;
	cs->buckets = calloc(cs->nbuckets, sizeof(*cs->buckets));
	if (!cs->buckets) {
		free(cs);
		return NULL;
	}
	return cs;
}

void ptd_callstack_free(struct ptd_callstack *cs)
{
	size_t i = 0;
	uint64_t k;
	void *v;

	if (!cs)
		return;
	while (ptd_u64map_next(&cs->stacks, &i, &k, &v)) {
		free(((struct stack *)v)->e);
		free(v);
	}
	ptd_u64map_fini(&cs->stacks);
	for (i = 0; i < cs->nbuckets; i++) {
		struct node *n = cs->buckets[i], *next;

		for (; n; n = next) {
			next = n->hnext;
			free(n);
		}
	}
	free(cs->buckets);
	free(cs);
}

struct ptd_cpath *ptd_callstack_root(struct ptd_callstack *cs)
{
	return &cs->root.cp;
}

uint64_t ptd_callstack_overflows(const struct ptd_callstack *cs)
{
	return cs->overflows;
}

static size_t hash(const struct ptd_cpath *parent, uint64_t sym, uint64_t ip, size_t n)
{
	uint64_t h = (uint64_t)(uintptr_t)parent * 0x9e3779b97f4a7c15ULL;

	h ^= sym + 0x632be59bd9b4e019ULL + (h << 6) + (h >> 2);
	h ^= ip + 0x85ebca6b0b7e5a9dULL + (h << 6) + (h >> 2);
	h *= 0xff51afd7ed558ccdULL;
	return (size_t)(h ^ (h >> 33)) & (n - 1);
}

static int grow_buckets(struct ptd_callstack *cs)
{
	size_t n = cs->nbuckets * 2, i;
	struct node **b = calloc(n, sizeof(*b));

	if (!b)
		return -1;
	for (i = 0; i < cs->nbuckets; i++) {
		struct node *x = cs->buckets[i], *next;

		for (; x; x = next) {
			size_t h = hash(x->cp.parent, x->cp.sym, x->cp.ip, n);

			next = x->hnext;
			x->hnext = b[h];
			b[h] = x;
		}
	}
	free(cs->buckets);
	cs->buckets = b;
	cs->nbuckets = n;
	return 0;
}

/* perf's call_path__findnew: the child of parent for sym (ip when no sym) */
static struct ptd_cpath *findnew(struct ptd_callstack *cs, struct ptd_cpath *parent, uint64_t sym,
				 uint64_t ip)
{
	int in_kernel = ip >= cs->ks;
	struct node *x;
	size_t h;

	if (sym)
		ip = 0;
	h = hash(parent, sym, ip, cs->nbuckets);
	for (x = cs->buckets[h]; x; x = x->hnext)
		if (x->cp.parent == parent && x->cp.sym == sym && x->cp.ip == ip)
			return &x->cp;
	if (cs->npaths >= PTD_CALLPATH_MAX)
		return NULL;
	if (cs->npaths >= cs->nbuckets && grow_buckets(cs) == 0)
		h = hash(parent, sym, ip, cs->nbuckets);
	x = calloc(1, sizeof(*x));
	if (!x)
		return NULL;
	x->cp.parent = parent;
	x->cp.sym = sym;
	x->cp.ip = ip;
	x->cp.in_kernel = in_kernel;
	x->hnext = cs->buckets[h];
	cs->buckets[h] = x;
	cs->npaths++;
	return &x->cp;
}

/* perf's thread_stack__call_return: entry idx ends */
static int call_return(struct ptd_callstack *cs, struct stack *ts, size_t idx, uint64_t timestamp,
		       uint64_t ref, int no_return)
{
	struct entry *e = &ts->e[idx];
	struct ptd_call_return cr;

	memset(&cr, 0, sizeof(cr));
	cr.pid = ts->pid;
	cr.tid = ts->tid;
	cr.cpu = ts->cpu;
	cr.comm = ts->comm;
	cr.cp = e->cp;
	cr.call_time = e->timestamp;
	cr.return_time = timestamp;
	cr.branch_count = ts->branch_count - e->branch_count;
	cr.insn_count = ts->insn_count - e->insn_count;
	cr.cyc_count = ts->cyc_count - e->cyc_count;
	cr.db_id = e->db_id;
	cr.call_ref = e->ref;
	cr.return_ref = ref;
	if (e->no_call)
		cr.flags |= PTD_CR_NO_CALL;
	if (no_return)
		cr.flags |= PTD_CR_NO_RETURN;
	if (e->non_call)
		cr.flags |= PTD_CR_NON_CALL;
	return cs->fn(cs->ctx, &cr, idx ? &ts->e[idx - 1].db_id : NULL);
}

/* perf's __thread_stack__flush: every entry ends, unreturned */
static int flush(struct ptd_callstack *cs, struct stack *ts)
{
	int rc;

	while (ts->cnt) {
		ts->cnt--;
		if ((rc = call_return(cs, ts, ts->cnt, ts->last_time, 0, 1))) {
			ts->cnt = 0;
			return rc;
		}
	}
	return 0;
}

static int push(struct ptd_callstack *cs, struct stack *ts, uint64_t ret_addr, uint64_t timestamp,
		uint64_t ref, struct ptd_cpath *cp, int no_call, int trace_end)
{
	struct entry *e;
	int rc;

	if (!cp)
		return -1;
	if (ts->cnt == ts->cap) {
		size_t cap = ts->cap ? ts->cap * 2 : 64;

		if (cap > PTD_CALLSTACK_MAX) {
			cs->overflows++;
			if ((rc = flush(cs, ts)))
				return rc;
		} else {
			e = realloc(ts->e, cap * sizeof(*e));
			if (!e)
				return -1;
			ts->e = e;
			ts->cap = cap;
		}
	}
	e = &ts->e[ts->cnt++];
	memset(e, 0, sizeof(*e));
	e->ret_addr = ret_addr;
	e->timestamp = timestamp;
	e->ref = ref;
	e->branch_count = ts->branch_count;
	e->insn_count = ts->insn_count;
	e->cyc_count = ts->cyc_count;
	e->cp = cp;
	e->no_call = (uint8_t)!!no_call;
	e->trace_end = (uint8_t)!!trace_end;
	return 0;
}

static struct ptd_cpath *top_cp(struct ptd_callstack *cs, const struct stack *ts)
{
	return ts->cnt ? ts->e[ts->cnt - 1].cp : &cs->root.cp;
}

/* perf's thread_stack__pop_cp: 1 when nothing matched */
static int pop_cp(struct ptd_callstack *cs, struct stack *ts, const struct ptd_cs_branch *b)
{
	size_t i;
	int rc;

	if (!ts->cnt)
		return 1;
	if (ts->cnt == 1 && ts->e[0].cp->sym == b->from_sym)
		return call_return(cs, ts, --ts->cnt, b->time, b->ref, 0);
	if (ts->e[ts->cnt - 1].ret_addr == b->addr && !ts->e[ts->cnt - 1].non_call)
		return call_return(cs, ts, --ts->cnt, b->time, b->ref, 0);
	for (i = ts->cnt - 1; i--;) {
		if (ts->e[i].ret_addr != b->addr || ts->e[i].non_call)
			continue;
		while (ts->cnt > i + 1)
			if ((rc = call_return(cs, ts, --ts->cnt, b->time, b->ref, 1)))
				return rc;
		return call_return(cs, ts, --ts->cnt, b->time, b->ref, 0);
	}
	return 1;
}

/* perf's thread_stack__bottom */
static int bottom(struct ptd_callstack *cs, struct stack *ts, const struct ptd_cs_branch *b)
{
	uint64_t ip, sym;

	if (b->ip) {
		ip = b->ip;
		sym = b->from_sym;
	} else if (b->addr) {
		ip = b->addr;
		sym = b->to_sym;
	} else {
		return 0;
	}
	return push(cs, ts, ip, b->time, b->ref, findnew(cs, &cs->root.cp, sym, ip), 1, 0);
}

/* perf's thread_stack__pop_ks: back to user space, kernel entries end */
static int pop_ks(struct ptd_callstack *cs, struct stack *ts, const struct ptd_cs_branch *b)
{
	int rc;

	while (ts->cnt && ts->e[ts->cnt - 1].cp->in_kernel)
		if ((rc = call_return(cs, ts, --ts->cnt, b->time, b->ref, 1)))
			return rc;
	return 0;
}

/* perf's thread_stack__no_call_return: a return that matches no call */
static int no_call_return(struct ptd_callstack *cs, struct stack *ts, const struct ptd_cs_branch *b)
{
	struct ptd_cpath *root = &cs->root.cp, *parent, *cp;
	int rc;

	if (b->ip >= cs->ks && b->addr < cs->ks) {
		if ((rc = pop_ks(cs, ts, b)))
			return rc;
		if (!ts->cnt)
			return push(cs, ts, 0, b->time, b->ref, findnew(cs, root, b->to_sym, b->addr), 1, 0);
	} else if (ts->cnt && ts->e[ts->cnt - 1].cp->in_kernel && b->ip < cs->ks) {
		if ((rc = pop_ks(cs, ts, b)))
			return rc;
	}
	parent = ts->cnt ? ts->e[ts->cnt - 1].cp : root;
	if (parent->sym == b->from_sym) {
		/* at the bottom: the call was before the trace began */
		if (ts->cnt == 1 && (rc = call_return(cs, ts, --ts->cnt, b->time, b->ref, 0)))
			return rc;
		if (!ts->cnt)
			return push(cs, ts, b->addr, b->time, b->ref,
				    findnew(cs, root, b->to_sym, b->addr), 1, 0);
		/* a return used as a jump (retpoline): push 'to' */
		if ((rc = push(cs, ts, 0, b->time, b->ref, findnew(cs, parent, b->to_sym, b->addr), 1, 0)))
			return rc;
		ts->e[ts->cnt - 1].non_call = 1;
		return 0;
	}
	/* parent has not returned: push 'to', then push and pop 'from' */
	cp = findnew(cs, parent, b->to_sym, b->addr);
	if ((rc = push(cs, ts, b->addr, b->time, b->ref, cp, 1, 0)))
		return rc;
	if ((rc = push(cs, ts, b->ip, b->time, b->ref, findnew(cs, cp, b->from_sym, b->ip), 1, 0)))
		return rc;
	return call_return(cs, ts, --ts->cnt, b->time, b->ref, 0);
}

/* perf's thread_stack__x86_retpoline */
static int x86_retpoline(struct ptd_callstack *cs, struct stack *ts, const struct ptd_cs_branch *b)
{
	uint64_t sym = ts->e[ts->cnt - 1].cp->sym;
	struct ptd_cpath *cp;

	if (sym && cs->retpoline(cs->ctx, sym)) {
		ts->cnt -= 1;
		sym = ts->e[ts->cnt - 2].cp->sym;
		if (sym && sym == b->to_sym && !b->to_sym_start) {
			ts->cnt -= 1;   /* back into the middle of the caller: a jump */
			return 0;
		}
	} else if (sym && sym == b->to_sym) {
		ts->cnt -= 1;
		return 0;
	}
	cp = findnew(cs, ts->e[ts->cnt - 2].cp, b->to_sym, b->addr);
	if (!cp)
		return -1;
	ts->e[ts->cnt - 1].cp = cp;
	return 0;
}

static uint64_t stack_key(const struct ptd_cs_branch *b)
{
	if (!b->pid && !b->tid)
		return (1ULL << 40) | (uint32_t)(b->cpu < 0 ? 0 : b->cpu);   /* the idle task: per CPU */
	return (uint32_t)b->tid;
}

static struct stack *get_stack(struct ptd_callstack *cs, const struct ptd_cs_branch *b, int *created)
{
	uint64_t key = stack_key(b);
	struct stack *ts = ptd_u64map_get(&cs->stacks, key);

	*created = 0;
	if (ts)
		return ts;
	ts = calloc(1, sizeof(*ts));
	if (!ts)
		return NULL;
	ts->comm = b->comm;
	ts->rstate = cs->retpoline ? RP_POSSIBLE : RP_NONE;
	ts->pid = b->pid;
	ts->tid = b->tid;
	ts->cpu = key >> 40 ? b->cpu : -1;
	if (ptd_u64map_put(&cs->stacks, key, ts)) {
		free(ts);
		return NULL;
	}
	*created = 1;
	return ts;
}

/* a call, a jump to a symbol start: perf's thread_stack__process branches */
static int on_call(struct ptd_callstack *cs, struct stack *ts, const struct ptd_cs_branch *b,
		   int rstate)
{
	uint64_t ret_addr;
	int rc;

	if (!b->ip || !b->addr)
		return 0;
	ret_addr = b->ip + b->insn_len;
	if (ret_addr == b->addr)
		return 0;   /* zero-length calls are not calls */
	rc = push(cs, ts, ret_addr, b->time, b->ref, findnew(cs, top_cp(cs, ts), b->to_sym, b->addr),
		  0, b->flags & PTD_IPF_TRACE_END);
	if (!rc && rstate == RP_POSSIBLE && b->to_sym && b->from_sym == b->to_sym && !b->to_sym_start)
		ts->rstate = RP_DETECTED;
	return rc;
}

static int on_return(struct ptd_callstack *cs, struct stack *ts, const struct ptd_cs_branch *b,
		     int rstate)
{
	int rc;

	if (!b->addr) {
		if (!(b->flags & (PTD_IPF_SYSCALLRET | PTD_IPF_INTERRUPT)))
			return 0;
		return pop_ks(cs, ts, b);
	}
	if (!b->ip)
		return 0;
	if (rstate == RP_DETECTED && ts->cnt > 2 && ts->e[ts->cnt - 1].ret_addr != b->addr)
		return x86_retpoline(cs, ts, b);
	rc = pop_cp(cs, ts, b);
	if (rc > 0)
		rc = no_call_return(cs, ts, b);
	return rc;
}

int ptd_callstack_branch(struct ptd_callstack *cs, const struct ptd_cs_branch *b)
{
	struct stack *ts;
	int created, rstate, rc;

	ts = get_stack(cs, b, &created);
	if (!ts)
		return -1;
	/* perf's thread_stack__set_trace_nr, before the branch is processed */
	if (!created && b->trace_nr != ts->trace_nr) {
		if (ts->trace_nr && (rc = flush(cs, ts)))
			return rc;
		ts->trace_nr = b->trace_nr;
	}
	rstate = ts->rstate;
	if (rstate == RP_DETECTED)
		ts->rstate = RP_POSSIBLE;
	/* an exec: the main thread's stack is flushed */
	if (ts->comm != b->comm && b->pid == b->tid) {
		if ((rc = flush(cs, ts)))
			return rc;
		ts->comm = b->comm;
	}
	if (!ts->cnt && (rc = bottom(cs, ts, b)))
		return rc;
	ts->branch_count += 1;
	ts->insn_count += b->insn_cnt;
	ts->cyc_count += b->cyc_cnt;
	ts->last_time = b->time;

	if (b->flags & PTD_IPF_CALL)
		return on_call(cs, ts, b, rstate);
	if (b->flags & PTD_IPF_RETURN)
		return on_return(cs, ts, b, rstate);
	if (b->flags & PTD_IPF_TRACE_BEGIN) {
		/* a call made as the trace ended has returned */
		if (ts->cnt && ts->e[ts->cnt - 1].trace_end)
			return call_return(cs, ts, --ts->cnt, b->time, b->ref, 0);
		return 0;
	}
	if (b->flags & PTD_IPF_TRACE_END) {
		/* no point in a trace end marker at the bottom of the stack */
		if (!ts->cnt || (ts->cnt == 1 && ts->e[0].ref == b->ref))
			return 0;
		return push(cs, ts, b->ip + b->insn_len, b->time, b->ref,
			    findnew(cs, ts->e[ts->cnt - 1].cp, 0, 0), 0, 1);
	}
	if ((b->flags & PTD_IPF_BRANCH) && b->from_sym != b->to_sym && b->to_sym && b->to_sym_start) {
		/* a jump to another function's start: a call made a jump */
		if ((rc = push(cs, ts, 0, b->time, b->ref,
			       findnew(cs, top_cp(cs, ts), b->to_sym, b->addr), 0, 0)))
			return rc;
		ts->e[ts->cnt - 1].non_call = 1;
	}
	return 0;
}

int ptd_callstack_flush_all(struct ptd_callstack *cs)
{
	size_t i = 0;
	uint64_t k;
	void *v;
	int rc;

	while (ptd_u64map_next(&cs->stacks, &i, &k, &v))
		if ((rc = flush(cs, v)))
			return rc;
	return 0;
}

void ptd_cs_branch_from(struct ptd_cs_branch *b, const struct ptd_synth *sy)
{
	memset(b, 0, sizeof(*b));
	b->pid = sy->pid;
	b->tid = sy->tid;
	b->cpu = sy->cpu;
	b->time = sy->time;
	b->ip = sy->ip;
	b->addr = sy->addr;
	b->flags = sy->flags;
	b->insn_len = sy->insn_len;
	b->insn_cnt = sy->insn_cnt;
	b->cyc_cnt = sy->cyc_cnt;
	b->trace_nr = sy->trace_nr;
}
