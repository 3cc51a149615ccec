/* Branch samples from instruction ranges: see rangesynth.h. */
#include "config.h"

#include <string.h>

#include "formats/perf/abi.h"
#include "rangesynth.h"

enum { RS_EMPTY, RS_RANGE, RS_DISCONT };

void ptd_rangesynth_init(struct ptd_rangesynth *rs, const struct ptd_image *image,
			 ptd_rs_emit_fn emit, void *ctx)
{
	memset(rs, 0, sizeof(*rs));
	rs->image = image;
	rs->emit = emit;
	rs->ctx = ctx;
}

static uint32_t range_flags(const struct ptd_trace_sample *s)
{
	switch (s->iclass) {
	case PTD_INSN_CALL:
		return PTD_IPF_BRANCH | PTD_IPF_CALL;
	case PTD_INSN_RETURN:
		return PTD_IPF_BRANCH | PTD_IPF_RETURN;
	case PTD_INSN_JUMP:
	case PTD_INSN_COND_JUMP:
		/* an indirect branch without link is taken for a return, as perf does */
		if (s->flags & PTD_SF_INDIRECT)
			return PTD_IPF_BRANCH | PTD_IPF_RETURN;
		return PTD_IPF_BRANCH | ((s->flags & PTD_SF_COND) ? PTD_IPF_CONDITIONAL : 0);
	default:
		return 0;
	}
}

static int is_branch(const struct ptd_trace_sample *s)
{
	return s->iclass == PTD_INSN_CALL || s->iclass == PTD_INSN_RETURN || s->iclass == PTD_INSN_JUMP ||
	       s->iclass == PTD_INSN_COND_JUMP || s->iclass == PTD_INSN_FAR_RETURN;
}

/* Is the instruction just before addr (in isa) an SVC? */
static int svc_before(const struct ptd_rangesynth *rs, uint64_t addr, uint8_t isa)
{
	uint8_t b[4];
	uint32_t insn;

	if (!rs->image)
		return 0;
	if (isa == PTD_ISA_T32) {
		if (addr < 2 || ptd_image_read(rs->image, b, 2, addr - 2, 0) != 2)
			return 0;
		return b[1] == 0xdf;                        /* SVC #imm8 */
	}
	if (addr < 4 || ptd_image_read(rs->image, b, 4, addr - 4, 0) != 4)
		return 0;
	insn = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	if (isa == PTD_ISA_A64)
		return (insn & 0xffe0001fu) == 0xd4000001u;   /* SVC #imm16 */
	if (isa == PTD_ISA_A32)
		return (insn & 0x0f000000u) == 0x0f000000u && (insn & 0xf0000000u) != 0xf0000000u;
	return 0;
}

static int emit(struct ptd_rangesynth *rs, const struct ptd_trace_sample *at, uint64_t ip,
		uint64_t addr, uint32_t flags)
{
	struct ptd_rs_branch b;

	b.ip = ip;
	b.addr = addr;
	b.flags = flags;
	b.cpu = at->cpu;
	b.chan = at->chan;
	b.has_tsc = !!(at->flags & PTD_SF_TIME);
	b.tsc = at->tsc;
	return rs->emit(rs->ctx, &b);
}

/* The exception's flags (perf's cs_etm__is_syscall, _is_async_exception,
 * _is_sync_exception). */
static uint32_t exception_flags(const struct ptd_rangesynth *rs, const struct ptd_rs_chan *c,
				const struct ptd_trace_sample *s)
{
	uint32_t n = s->u.exception.number;
	int have_prev = c->type == RS_RANGE;
	int v4 = !s->u.exception.etmv3;
	const uint32_t call = PTD_IPF_BRANCH | PTD_IPF_CALL;

	if (!v4) {
		if (n == 10)
			return call | PTD_IPF_SYSCALLRET;
		if (n == 1 || n == 4 || n == 8 || n == 14 || n == 15)
			return call | PTD_IPF_ASYNC | PTD_IPF_INTERRUPT;
		if (n == 2 || n == 3 || n == 5 || n == 9 || n == 11 || n == 12 || n == 13)
			return call | PTD_IPF_INTERRUPT;
		return 0;
	}
	if (n == 2 && have_prev && svc_before(rs, c->prev.to_ip + c->prev.size, c->prev.u.range.isa))
		return call | PTD_IPF_SYSCALLRET;
	if (n == 0 || n == 1 || n == 4 || n == 6 || n == 7 || n == 14 || n == 15)
		return call | PTD_IPF_ASYNC | PTD_IPF_INTERRUPT;
	if (n == 2 || n == 3 || n == 10 || n == 11 || n == 12 || (n > 15 && n <= 31))
		return call | PTD_IPF_INTERRUPT;
	return 0;
}

int ptd_rangesynth_add(struct ptd_rangesynth *rs, const struct ptd_trace_sample *s)
{
	struct ptd_rs_chan *c = &rs->chan[s->chan & 0x7f];
	int rc = 0;

	if (s->kind == PTD_TS_RANGE) {
		uint32_t f = range_flags(s);

		if (c->type == RS_DISCONT) {
			c->prev_flags |= PTD_IPF_BRANCH | PTD_IPF_TRACE_BEGIN;
			rc = emit(rs, s, 0, s->ip, c->prev_flags);
		} else if (c->type == RS_RANGE) {
			if (c->prev_flags == (PTD_IPF_BRANCH | PTD_IPF_RETURN | PTD_IPF_INTERRUPT) &&
			    svc_before(rs, s->ip, s->u.range.isa))
				c->prev_flags = PTD_IPF_BRANCH | PTD_IPF_RETURN | PTD_IPF_SYSCALLRET;
			if (c->prev_taken)
				rc = emit(rs, s, c->prev.to_ip, s->ip, c->prev_flags);
		}
		c->type = RS_RANGE;
		c->prev = *s;
		c->prev_flags = f;
		c->prev_taken = is_branch(s) && !(s->flags & PTD_SF_NOT_TAKEN);
		return rc;
	}
	if (s->kind == PTD_TS_EVENT && (s->event == PTD_EV_EXCEPTION || s->event == PTD_EV_EXCEPTION_RET)) {
		if (c->type != RS_RANGE)
			return 0;
		c->prev_taken = 1;
		if (s->event == PTD_EV_EXCEPTION)
			c->prev_flags = exception_flags(rs, c, s);
		else
			c->prev_flags = PTD_IPF_BRANCH | PTD_IPF_RETURN | PTD_IPF_INTERRUPT;
		return 0;
	}
	if ((s->kind == PTD_TS_EVENT && (s->event == PTD_EV_ENABLED || s->event == PTD_EV_OVERFLOW ||
					 s->event == PTD_EV_END_OF_TRACE)) ||
	    s->kind == PTD_TS_GAP) {
		if (c->type == RS_RANGE)
			rc = emit(rs, s, c->prev.to_ip, 0, c->prev_flags | PTD_IPF_BRANCH | PTD_IPF_TRACE_END);
		c->type = RS_DISCONT;
		c->prev_flags = 0;
		return rc;
	}
	return 0;
}
