/* Per-thread call stacks: see tstack.h. */
#include "tstack.h"

#include <stdlib.h>
#include <string.h>

#include "formats/perf/abi.h"


struct entry {
	uint64_t ret_addr;
	int trace_end;
	size_t below;   /* index + 1 of the next entry down with this ret_addr, 0: none */
};

/* A return pops to the topmost entry with its address.  `top` finds that
 * entry at once (ret_addr -> index + 1), so a return costs what it pops
 * and not the depth of the stack: a hostile trace that returns again and
 * again to addresses not on a deep stack must not cost depth per return. */
struct ptd_tstack {
	struct entry *e;
	size_t cnt, cap;
	struct ptd_u64map top;
	uint64_t trace_nr;
	struct ptd_tstack_br *br;   /* ring of br_sz: br[br_pos] is the newest */
	size_t br_pos, br_nr;
};

void ptd_tstacks_init(struct ptd_tstacks *t)
{
	memset(t, 0, sizeof(*t));
}

void ptd_tstacks_fini(struct ptd_tstacks *t)
{
	size_t i = 0;
	uint64_t k;
	void *v;

	while (ptd_u64map_next(&t->by_tid, &i, &k, &v)) {
		free(((struct ptd_tstack *)v)->e);
		free(((struct ptd_tstack *)v)->br);
		ptd_u64map_fini(&((struct ptd_tstack *)v)->top);
		free(v);
	}
	ptd_u64map_fini(&t->by_tid);
}

static void empty(struct ptd_tstack *ts)
{
	ts->cnt = 0;
	ptd_u64map_fini(&ts->top);
}

/* Index entry i as the topmost with its address.  Returns 0, or -1 when
 * out of memory (then the stack is emptied, as perf discards it). */
static int link_top(struct ptd_tstack *ts, size_t i)
{
	ts->e[i].below = (size_t)(uintptr_t)ptd_u64map_get(&ts->top, ts->e[i].ret_addr);
	if (ptd_u64map_put(&ts->top, ts->e[i].ret_addr, (void *)(uintptr_t)(i + 1))) {
		empty(ts);
		return -1;
	}
	return 0;
}

/* Drop the entries from n up. */
static void cut(struct ptd_tstack *ts, size_t n)
{
	while (ts->cnt > n) {
		struct entry *e = &ts->e[--ts->cnt];

		if (e->below)
			ptd_u64map_put(&ts->top, e->ret_addr, (void *)(uintptr_t)e->below);
		else
			ptd_u64map_del(&ts->top, e->ret_addr);
	}
}

static int push(struct ptd_tstack *ts, uint64_t ret_addr, int trace_end)
{
	size_t i;

	if (ts->cnt == ts->cap) {
		size_t cap = ts->cap ? ts->cap * 2 : 64;
		struct entry *e;

		if (cap > PTD_TSTACK_MAX) {
			memmove(ts->e, ts->e + ts->cnt / 2, (ts->cnt - ts->cnt / 2) * sizeof(*ts->e));
			ts->cnt -= ts->cnt / 2;
			ptd_u64map_fini(&ts->top);
			for (i = 0; i < ts->cnt; i++)
				if (link_top(ts, i))
					return -1;
		} else {
			e = realloc(ts->e, cap * sizeof(*e));
			if (!e) {
				empty(ts);   /* perf discards the stack */
				return -1;
			}
			ts->e = e;
			ts->cap = cap;
		}
	}
	ts->e[ts->cnt].trace_end = trace_end;
	ts->e[ts->cnt].ret_addr = ret_addr;
	if (link_top(ts, ts->cnt))
		return -1;
	ts->cnt++;
	return 0;
}

static void pop(struct ptd_tstack *ts, uint64_t ret_addr)
{
	size_t i = (size_t)(uintptr_t)ptd_u64map_get(&ts->top, ret_addr);

	if (i)
		cut(ts, i - 1);
}

static void pop_trace_end(struct ptd_tstack *ts)
{
	size_t i = ts->cnt;

	while (i && ts->e[i - 1].trace_end)
		i--;
	cut(ts, i);
}

int ptd_tstack_event(struct ptd_tstacks *t, int32_t tid, uint32_t flags, uint64_t from_ip,
		     uint64_t to_ip, unsigned insn_len, uint64_t trace_nr)
{
	struct ptd_tstack *ts = ptd_u64map_get(&t->by_tid, (uint64_t)(int64_t)tid);

	if (!ts) {
		ts = calloc(1, sizeof(*ts));
		if (ts && t->br_sz)
			ts->br = calloc(t->br_sz, sizeof(*ts->br));
		if (!ts || (t->br_sz && !ts->br) ||
		    ptd_u64map_put(&t->by_tid, (uint64_t)(int64_t)tid, ts)) {
			if (ts)
				free(ts->br);
			free(ts);
			return -1;
		}
		ts->trace_nr = trace_nr;
	}
	if (trace_nr != ts->trace_nr) {
		if (ts->trace_nr) {
			empty(ts);
			ts->br_pos = ts->br_nr = 0;
		}
		ts->trace_nr = trace_nr;
	}
	if (t->br_sz) {
		struct ptd_tstack_br *be;

		ts->br_pos = (ts->br_pos ? ts->br_pos : t->br_sz) - 1;
		be = &ts->br[ts->br_pos];
		be->from = from_ip;
		be->to = to_ip;
		be->abort = !!(flags & PTD_IPF_TX_ABORT);
		be->in_tx = !!(flags & PTD_IPF_IN_TX);
		if (ts->br_nr < t->br_sz)
			ts->br_nr++;
	}
	if (t->no_callstack)
		return 0;
	if (flags & PTD_IPF_CALL) {
		uint64_t ret_addr;

		if (!to_ip)
			return 0;
		ret_addr = from_ip + insn_len;
		if (ret_addr == to_ip)
			return 0;   /* zero-length calls */
		return push(ts, ret_addr, !!(flags & PTD_IPF_TRACE_END));
	} else if (flags & PTD_IPF_TRACE_BEGIN) {
		pop(ts, to_ip);
		pop_trace_end(ts);
	} else if ((flags & PTD_IPF_RETURN) && from_ip) {
		pop(ts, to_ip);
	}
	return 0;
}

size_t ptd_tstack_sample(const struct ptd_tstacks *t, int32_t tid, uint64_t ip, uint64_t *ips,
			 size_t sz, uint64_t kernel_start)
{
	const struct ptd_tstack *ts = ptd_u64map_get(&t->by_tid, (uint64_t)(int64_t)tid);
	size_t n = 0, i, j;
	int last;

	if (!sz)
		return 0;
	ips[n++] = ip;
	if (!ts)
		return n;
	/* perf's chain has sz + 1 slots: a context marker, ip, then the
	 * return addresses with a marker where they cross between kernel and
	 * user space (one that would take the last slot ends the chain) */
	last = ip >= kernel_start;
	for (i = 2, j = 1; i < sz + 1 && j <= ts->cnt; i++, j++) {
		uint64_t ret = ts->e[ts->cnt - j].ret_addr;

		if ((ret >= kernel_start) != last) {
			if (i >= sz)
				break;
			i++;
			last = !last;
		}
		ips[n++] = ret;
	}
	return n;
}

size_t ptd_tstack_br_sample(const struct ptd_tstacks *t, int32_t tid, struct ptd_tstack_br *dst,
			    size_t sz)
{
	const struct ptd_tstack *ts = ptd_u64map_get(&t->by_tid, (uint64_t)(int64_t)tid);
	size_t n, i;

	if (!ts || !ts->br)
		return 0;
	n = ts->br_nr < sz ? ts->br_nr : sz;
	for (i = 0; i < n; i++)
		dst[i] = ts->br[(ts->br_pos + i) % t->br_sz];
	return n;
}

size_t ptd_tstack_depth(const struct ptd_tstacks *t, int32_t tid)
{
	const struct ptd_tstack *ts = ptd_u64map_get(&t->by_tid, (uint64_t)(int64_t)tid);

	return ts ? ts->cnt : 0;
}
