/* The samples perf's cs-etm.c synthesizes from one packet of a range
 * queue (rangeq_priv.h): instruction samples every period instructions,
 * branch samples from rangesynth.c, error samples. */
#include "config.h"

#include <string.h>

#include "formats/perf/abi.h"
#include "rangeq_priv.h"

static void synth_init(struct rq *q, struct ptd_synth *sy, int kind, int32_t cpu)
{
	memset(sy, 0, sizeof(*sy));
	sy->kind = kind;
	sy->pid = q->cur_chan->pid;
	sy->tid = q->cur_chan->tid;
	sy->cpu = cpu;
	sy->time = q->time;
	sy->now = q->now;
	sy->period = 1;
	sy->no_tstack = 1;   /* perf's cs-etm keeps no thread stacks */
}

static int deliver(struct rq *q, const struct ptd_synth *sy)
{
	int rc = q->fn(q->ctx, sy);

	if (rc && !q->rc)
		q->rc = rc;
	return rc;
}

/* perf's cs_etm__copy_insn: the instruction at ip, 4 bytes (T32: 2 or 4 as
 * its first halfword says), read from the code (zeros when it cannot be);
 * none for isa PTD_ISA_UNKNOWN (perf's discontinuity packet) */
static void copy_insn(struct rq *q, struct ptd_synth *sy, uint8_t isa)
{
	if (isa == PTD_ISA_UNKNOWN)
		return;
	sy->insn_len = 4;
	if (isa == PTD_ISA_T32 && ptd_image_read(q->im, sy->insn, 2, sy->ip, 0) == 2 &&
	    (sy->insn[1] & 0xf8) < 0xe8)
		sy->insn_len = 2;
	if (ptd_image_read(q->im, sy->insn, sy->insn_len, sy->ip, 0) != sy->insn_len)
		memset(sy->insn, 0, sizeof(sy->insn));
}

static int send_branch(struct rq *q, const struct ptd_rs_branch *b, uint8_t isa)
{
	struct ptd_synth sy;

	synth_init(q, &sy, PTD_SYN_BRANCH, b->cpu);
	sy.ip = b->ip;
	sy.addr = b->addr;
	sy.flags = b->flags;
	copy_insn(q, &sy, isa);
	return deliver(q, &sy);
}

/* rangesynth's branches; isa: that of the range they leave (perf's
 * prev_packet), none for a trace start */
int ptd_rq_on_branch(void *ctx, const struct ptd_rs_branch *b)
{
	struct rq *q = ctx;
	const struct ptd_rs_chan *c = &q->cur->rs.chan[b->chan & 0x7f];
	uint8_t isa = (b->flags & PTD_IPF_TRACE_BEGIN) ? PTD_ISA_UNKNOWN : c->prev.u.range.isa;

	if (q->holding) {
		q->in_flags = b->flags;
		q->in_given = 1;
	}
	if (!q->cfg->branches)
		return 0;
	if (q->holding && q->npending < RQ_PENDING) {
		q->pending_isa[q->npending] = isa;
		q->pending[q->npending++] = *b;
		return 0;
	}
	return send_branch(q, b, isa);
}

/* perf's cs_etm__instr_addr: the address of instruction k of range r
 * (T32 instructions are 2 or 4 bytes: read them; 2 when unreadable, as
 * perf).  *ck / *ca: instruction *ck is at *ca, a cursor that only moves
 * forward (k never decreases within a range). */
static uint64_t insn_addr(struct rq *q, const struct ptd_trace_sample *r, uint64_t k,
			  uint64_t *ck, uint64_t *ca)
{
	uint8_t hw[2];

	if (r->u.range.isa != PTD_ISA_T32)
		return r->ip + 4 * k;
	for (; *ck < k; ++*ck) {
		if (ptd_image_read(q->im, hw, 2, *ca, 0) < 2)
			*ca += 2;
		else
			*ca += (hw[1] & 0xf8) >= 0xe8 ? 4 : 2;
	}
	return *ca;
}

/* perf's cs_etm__sample for a range: its instruction samples */
static int insn_samples(struct rq *q, const struct ptd_trace_sample *r, uint32_t flags)
{
	uint64_t *acc = &q->cur->period_insns[r->chan & 0x7f];
	uint64_t period = q->cfg->period, prev = *acc, offset, ck = 0, ca = r->ip;
	struct ptd_synth sy;

	*acc += r->insn_count;
	if (*acc < period)
		return 0;
	offset = period - prev;
	while (*acc >= period) {
		synth_init(q, &sy, PTD_SYN_INSN, r->cpu);
		sy.ip = insn_addr(q, r, offset - 1, &ck, &ca);
		sy.period = period;
		sy.flags = flags;
		copy_insn(q, &sy, r->u.range.isa);
		if (deliver(q, &sy))
			return -1;
		offset += period;
		*acc -= period;
	}
	return 0;
}

static int error_sample(struct rq *q, const struct ptd_trace_sample *t)
{
	struct ptd_synth sy;

	synth_init(q, &sy, PTD_SYN_ERROR, t->cpu);
	sy.err_code = 9;    /* perf's "unknown" */
	sy.err_msg = t->err.msg;
	sy.ip = (t->flags & PTD_SF_IP_SUPPRESSED) ? 0 : t->ip;
	sy.trace_pos = t->offset;
	return deliver(q, &sy);
}

/* One backend sample through perf's rules. */
int ptd_rq_synth(struct rq *q, const struct ptd_trace_sample *t)
{
	struct ptd_rangesynth *rs = &q->cur->rs;
	uint32_t prev_flags;
	unsigned i;
	int rc;

	if (t->kind == PTD_TS_GAP && q->cfg->errors && error_sample(q, t))
		return -1;
	if (t->kind != PTD_TS_RANGE || !q->cfg->instructions)
		return ptd_rangesynth_add(rs, t) ? -1 : 0;
	/* the flags of perf's prev_packet: those of the branch into the range,
	 * or the previous range's when it was not left by a branch */
	prev_flags = rs->chan[t->chan & 0x7f].prev_flags;
	q->holding = 1;
	q->in_given = 0;
	q->npending = 0;
	rc = ptd_rangesynth_add(rs, t);
	q->holding = 0;
	if (rc)
		return -1;
	if (insn_samples(q, t, q->in_given ? q->in_flags : prev_flags))
		return -1;
	for (i = 0; i < q->npending; i++)
		if (send_branch(q, &q->pending[i], q->pending_isa[i]))
			return -1;
	q->npending = 0;
	return 0;
}
