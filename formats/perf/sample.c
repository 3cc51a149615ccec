#include "formats/perf/sample.h"

#include <string.h>

#include "formats/perf/abi.h"
#include "formats/perf/cursor.h"

#define SAMPLE_FAIL(what) \
	return ptd_err_set(err, PTD_E_FORMAT, "SAMPLE: %s runs past the record end (size %zu)", what, size)

/* Read `n` u64 words whose count comes from the record; refuses counts that
 * cannot fit rather than multiplying into an overflow. */
static const uint8_t *take_words(struct ptd_cursor *c, uint64_t n)
{
	if (n > ptd_cur_left(c) / 8) {
		c->bad = 1;
		return NULL;
	}
	return ptd_cur_take(c, (size_t)n * 8);
}

static size_t read_format_size(uint64_t rf, struct ptd_cursor *c)
{
	size_t entry = 8 + ((rf & PTD_FORMAT_ID) ? 8 : 0) + ((rf & PTD_FORMAT_LOST) ? 8 : 0);
	size_t fixed = ((rf & PTD_FORMAT_TOTAL_TIME_ENABLED) ? 8 : 0) +
		       ((rf & PTD_FORMAT_TOTAL_TIME_RUNNING) ? 8 : 0);

	if (rf & PTD_FORMAT_GROUP) {
		uint64_t nr;

		if (ptd_cur_left(c) < 8)
			return (size_t)-1;
		nr = ptd_load_u64(c->p + c->pos);
		if (nr > ptd_cur_left(c) / entry)
			return (size_t)-1;
		return 8 + fixed + (size_t)nr * entry;
	}
	return fixed + entry;
}

int ptd_sample_parse(const struct ptd_evsel *ev, const uint8_t *rec, size_t size,
		     struct ptd_sample *s, struct ptd_err *err)
{
	uint64_t st = ev->sample_type;
	struct ptd_cursor c;

	memset(s, 0, sizeof(*s));
	s->type = st;
	s->pid = s->tid = (uint32_t)-1;
	s->cpu = (uint32_t)-1;
	if (size < 8)
		SAMPLE_FAIL("header");
	ptd_cur_init(&c, rec + 8, size - 8);

	if (st & PTD_SAMPLE_IDENTIFIER)
		s->id = ptd_cur_u64(&c);
	if (st & PTD_SAMPLE_IP)
		s->ip = ptd_cur_u64(&c);
	if (st & PTD_SAMPLE_TID) {
		s->pid = ptd_cur_u32(&c);
		s->tid = ptd_cur_u32(&c);
	}
	if (st & PTD_SAMPLE_TIME)
		s->time = ptd_cur_u64(&c);
	if (st & PTD_SAMPLE_ADDR)
		s->addr = ptd_cur_u64(&c);
	if (st & PTD_SAMPLE_ID)
		s->id = ptd_cur_u64(&c);
	if (st & PTD_SAMPLE_STREAM_ID)
		s->stream_id = ptd_cur_u64(&c);
	if (st & PTD_SAMPLE_CPU) {
		s->cpu = ptd_cur_u32(&c);
		ptd_cur_u32(&c);
	}
	if (st & PTD_SAMPLE_PERIOD)
		s->period = ptd_cur_u64(&c);
	if (c.bad)
		SAMPLE_FAIL("fixed fields");
	if (st & PTD_SAMPLE_READ) {
		size_t n = read_format_size(ev->read_format, &c);

		if (n == (size_t)-1 || !(s->read = ptd_cur_take(&c, n)))
			SAMPLE_FAIL("read values");
		s->read_size = n;
	}
	if (st & PTD_SAMPLE_CALLCHAIN) {
		s->nr_callchain = ptd_cur_u64(&c);
		s->callchain = take_words(&c, s->nr_callchain);
		if (c.bad)
			SAMPLE_FAIL("callchain");
	}
	if (st & PTD_SAMPLE_RAW) {
		s->raw_size = ptd_cur_u32(&c);
		s->raw = ptd_cur_take(&c, s->raw_size);
		if (c.bad)
			SAMPLE_FAIL("raw data");
		/* u32 size + data is padded to a u64 boundary */
		ptd_cur_take(&c, (8 - ((4 + (size_t)s->raw_size) & 7)) & 7);
		if (c.bad)
			SAMPLE_FAIL("raw data padding");
	}
	if (st & PTD_SAMPLE_BRANCH_STACK) {
		s->nr_branch = ptd_cur_u64(&c);
		if (ev->branch_sample_type & PTD_BRANCH_HW_INDEX) {
			s->has_hw_idx = 1;
			s->hw_idx = ptd_cur_u64(&c);
		}
		if (s->nr_branch > ptd_cur_left(&c) / 24)
			SAMPLE_FAIL("branch stack");
		s->branches = ptd_cur_take(&c, (size_t)s->nr_branch * 24);
		if (c.bad)
			SAMPLE_FAIL("branch stack");
	}
	if (st & PTD_SAMPLE_REGS_USER) {
		s->user_regs_abi = ptd_cur_u64(&c);
		if (s->user_regs_abi) {
			s->nr_user_regs = (size_t)__builtin_popcountll(ev->sample_regs_user);
			s->user_regs = take_words(&c, s->nr_user_regs);
		}
		if (c.bad)
			SAMPLE_FAIL("user registers");
	}
	if (st & PTD_SAMPLE_STACK_USER) {
		s->user_stack_size = ptd_cur_u64(&c);
		if (s->user_stack_size) {
			if (s->user_stack_size > ptd_cur_left(&c))
				SAMPLE_FAIL("user stack");
			s->user_stack = ptd_cur_take(&c, (size_t)s->user_stack_size);
			s->user_stack_dyn_size = ptd_cur_u64(&c);
		}
		if (c.bad)
			SAMPLE_FAIL("user stack");
	}
	if (st & (PTD_SAMPLE_WEIGHT | PTD_SAMPLE_WEIGHT_STRUCT))
		s->weight = ptd_cur_u64(&c);
	if (st & PTD_SAMPLE_DATA_SRC)
		s->data_src = ptd_cur_u64(&c);
	if (st & PTD_SAMPLE_TRANSACTION)
		s->transaction = ptd_cur_u64(&c);
	if (c.bad)
		SAMPLE_FAIL("weight/data_src/transaction");
	if (st & PTD_SAMPLE_REGS_INTR) {
		s->intr_regs_abi = ptd_cur_u64(&c);
		if (s->intr_regs_abi) {
			s->nr_intr_regs = (size_t)__builtin_popcountll(ev->sample_regs_intr);
			s->intr_regs = take_words(&c, s->nr_intr_regs);
		}
		if (c.bad)
			SAMPLE_FAIL("interrupt registers");
	}
	if (st & PTD_SAMPLE_PHYS_ADDR)
		s->phys_addr = ptd_cur_u64(&c);
	if (st & PTD_SAMPLE_CGROUP)
		s->cgroup = ptd_cur_u64(&c);
	if (st & PTD_SAMPLE_DATA_PAGE_SIZE)
		s->data_page_size = ptd_cur_u64(&c);
	if (st & PTD_SAMPLE_CODE_PAGE_SIZE)
		s->code_page_size = ptd_cur_u64(&c);
	if (c.bad)
		SAMPLE_FAIL("phys_addr/cgroup/page sizes");
	if (st & PTD_SAMPLE_AUX) {
		s->aux_size = ptd_cur_u64(&c);
		if (s->aux_size > ptd_cur_left(&c))
			SAMPLE_FAIL("aux sample");
		s->aux = ptd_cur_take(&c, (size_t)s->aux_size);
	}
	return 0;
}
