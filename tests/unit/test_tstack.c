/* src/tstack.c: per-thread call stacks against a plain model of perf's
 * thread_stack__event (push at a call, pop to the topmost matching return
 * address by scanning, trace begin pops calls made before the trace ended,
 * a new trace number empties the stack, the oldest half dropped when full). */
#include <stdlib.h>
#include <string.h>

#include "formats/perf/abi.h"
#include "tests/tap.h"
#include "tstack.h"

struct model {
	uint64_t *ret;
	int *end;
	size_t cnt;
	uint64_t trace_nr;
};

static void m_push(struct model *m, uint64_t ret, int end)
{
	if (m->cnt == PTD_TSTACK_MAX) {
		memmove(m->ret, m->ret + m->cnt / 2, (m->cnt - m->cnt / 2) * sizeof(*m->ret));
		memmove(m->end, m->end + m->cnt / 2, (m->cnt - m->cnt / 2) * sizeof(*m->end));
		m->cnt -= m->cnt / 2;
	}
	m->ret[m->cnt] = ret;
	m->end[m->cnt++] = end;
}

static void m_pop(struct model *m, uint64_t ret)
{
	size_t i;

	for (i = m->cnt; i;)
		if (m->ret[--i] == ret) {
			m->cnt = i;
			return;
		}
}

static void m_event(struct model *m, uint32_t flags, uint64_t from, uint64_t to, unsigned len,
		    uint64_t trace_nr)
{
	if (trace_nr != m->trace_nr) {
		if (m->trace_nr)
			m->cnt = 0;
		m->trace_nr = trace_nr;
	}
	if (flags & PTD_IPF_CALL) {
		if (to && from + len != to)
			m_push(m, from + len, !!(flags & PTD_IPF_TRACE_END));
	} else if (flags & PTD_IPF_TRACE_BEGIN) {
		m_pop(m, to);
		while (m->cnt && m->end[m->cnt - 1])
			m->cnt--;
	} else if ((flags & PTD_IPF_RETURN) && from) {
		m_pop(m, to);
	}
}

/* the stack of tid 7 equals the model's, innermost first */
static int same(const struct ptd_tstacks *t, const struct model *m)
{
	static uint64_t ips[65];
	size_t n, i;

	if (ptd_tstack_depth(t, 7) != m->cnt)
		return 0;
	n = ptd_tstack_sample(t, 7, 0, ips, 65, 1ULL << 63);
	for (i = 1; i < n; i++)
		if (ips[i] != m->ret[m->cnt - i])
			return 0;
	return n == (m->cnt < 64 ? m->cnt : 64) + 1;
}

int main(void)
{
	struct ptd_tstacks t;
	struct model m = { 0 };
	size_t i, bad = 0, maxdepth = 0;
	uint64_t nr = 1;

	m.ret = malloc(PTD_TSTACK_MAX * sizeof(*m.ret));
	m.end = malloc(PTD_TSTACK_MAX * sizeof(*m.end));
	if (!m.ret || !m.end)
		return 1;

	/* random calls and returns over 40 addresses: many equal return
	 * addresses on the stack, returns that match nothing, trace breaks */
	ptd_tstacks_init(&t);
	srand(11);
	for (i = 0; i < 300000; i++) {
		int r = rand() % 100;
		uint64_t from = 0x1000 + (uint64_t)(rand() % 40) * 16, to = 0x1000 + (uint64_t)(rand() % 40) * 16 + 5;
		uint32_t flags;

		if (r < 1)
			nr++;
		flags = r < 55 ? PTD_IPF_CALL : r < 95 ? PTD_IPF_RETURN : r < 97 ? PTD_IPF_TRACE_BEGIN
			: PTD_IPF_CALL | PTD_IPF_TRACE_END;
		if (flags & PTD_IPF_RETURN && r % 2)
			to = from + 5;   /* sometimes the top's address */
		if (ptd_tstack_event(&t, 7, flags, from, to, 5, nr))
			bad++;
		m_event(&m, flags, from, to, 5, nr);
		if (m.cnt > maxdepth)
			maxdepth = m.cnt;
		if (!same(&t, &m))
			bad++;
	}
	ok(!bad, "300000 random calls, returns and breaks: the stack is the model's (%zu wrong, depth up to %zu)",
	   bad, maxdepth);
	ptd_tstacks_fini(&t);

	/* deeper than the limit: the oldest half goes, returns still match */
	ptd_tstacks_init(&t);
	m.cnt = 0;
	m.trace_nr = 0;
	bad = 0;
	for (i = 0; i < PTD_TSTACK_MAX + 1000; i++) {
		uint64_t from = 0x100000 + (uint64_t)(i % 3000) * 8;

		bad += ptd_tstack_event(&t, 7, PTD_IPF_CALL, from, 0x9000, 5, 1) != 0;
		m_event(&m, PTD_IPF_CALL, from, 0x9000, 5, 1);
	}
	bad += !same(&t, &m);
	for (i = 0; i < 5000; i++) {
		/* mostly the top's address, now and then one up to 3000 deep,
		 * or one that is not on the stack */
		uint64_t to = i % 50 ? (m.cnt ? m.ret[m.cnt - 1] : 1)
			: i % 100 ? 0x100000 + (uint64_t)((i * 7) % 3000) * 8 + 5 : 0x777;

		ptd_tstack_event(&t, 7, PTD_IPF_RETURN, 0x9000, to, 1, 1);
		m_event(&m, PTD_IPF_RETURN, 0x9000, to, 1, 1);
		bad += !same(&t, &m);
	}
	ok(!bad, "%u calls then 5000 returns: the stack is the model's (%zu wrong, depth %zu)",
	   PTD_TSTACK_MAX + 1000, bad, m.cnt);
	ptd_tstacks_fini(&t);
	free(m.ret);
	free(m.end);
	return done_testing();
}
