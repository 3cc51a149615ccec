/* Intel PT samples synthesized from decoder states as perf's
 * intel_pt_sample() makes them (see ptq.h). */
#include "ptq_priv.h"

#include <string.h>

#include "formats/perf/abi.h"

/* ---- synthesis ----------------------------------------------------------- */

static uint32_t insn_type(int op)
{
	switch (op) {
	case PDEC_OP_CALL: return PTD_IPF_BRANCH | PTD_IPF_CALL;
	case PDEC_OP_RET: return PTD_IPF_BRANCH | PTD_IPF_RETURN;
	case PDEC_OP_JCC: case PDEC_OP_LOOP: return PTD_IPF_BRANCH | PTD_IPF_CONDITIONAL;
	case PDEC_OP_JMP: return PTD_IPF_BRANCH;
	case PDEC_OP_IRET: return PTD_IPF_BRANCH | PTD_IPF_RETURN | PTD_IPF_INTERRUPT;
	case PDEC_OP_INT: return PTD_IPF_BRANCH | PTD_IPF_CALL | PTD_IPF_INTERRUPT;
	case PDEC_OP_SYSCALL: return PTD_IPF_BRANCH | PTD_IPF_CALL | PTD_IPF_SYSCALLRET;
	case PDEC_OP_SYSRET: return PTD_IPF_BRANCH | PTD_IPF_RETURN | PTD_IPF_SYSCALLRET;
	case PDEC_OP_VMENTRY: return PTD_IPF_BRANCH | PTD_IPF_CALL | PTD_IPF_VMENTRY;
	default: return 0;
	}
}

uint32_t ptd_ptq_kept_ops(uint32_t filter)
{
	uint32_t ops = 0;
	int op;

	for (op = PDEC_OP_OTHER; op <= PDEC_OP_VMENTRY; op++)
		if (insn_type(op) & filter)
			ops |= 1u << op;
	return ops;
}

void ptd_ptq_sample_flags(struct queue *pq)
{
	const struct ptd_pstate *st = pq->state;

	pq->insn_len = 0;
	if (st->flags & PDEC_ABORT_TX) {
		pq->flags = PTD_IPF_BRANCH | PTD_IPF_TX_ABORT;
	} else if (st->flags & PDEC_ASYNC) {
		if (!st->to_ip)
			pq->flags = PTD_IPF_BRANCH | PTD_IPF_ASYNC | PTD_IPF_TRACE_END;
		else if (st->from_nr && !st->to_nr)
			pq->flags = PTD_IPF_BRANCH | PTD_IPF_CALL | PTD_IPF_ASYNC | PTD_IPF_VMEXIT;
		else
			pq->flags = PTD_IPF_BRANCH | PTD_IPF_CALL | PTD_IPF_ASYNC | PTD_IPF_INTERRUPT;
	} else {
		pq->flags = st->from_ip ? insn_type(st->insn_op) : PTD_IPF_BRANCH | PTD_IPF_TRACE_BEGIN;
		if (st->flags & PDEC_IN_TX)
			pq->flags |= PTD_IPF_IN_TX;
		pq->insn_len = st->insn_len;
		memcpy(pq->insn, st->insn, sizeof(pq->insn));
	}
	if (st->type & PDEC_TRACE_BEGIN)
		pq->flags |= PTD_IPF_TRACE_BEGIN;
	if (st->type & PDEC_TRACE_END)
		pq->flags |= PTD_IPF_TRACE_END;
}

/* Hand s on; perf's initial skip (s[N]) counts samples, not errors. */
static int deliver(struct ptd_ptq *q, struct ptd_synth *s)
{
	int rc;

	if (q->skip && s->kind != PTD_SYN_ERROR) {
		q->skip--;
		return 0;
	}
	s->now = q->now;
	if (q->cfg->thread_stack && s->tid != -1)
		s->call_depth = (unsigned)ptd_tstack_depth(&q->stacks, s->tid);
	rc = q->fn(q->ctx, s);
	if (rc)
		q->stop = rc;
	return rc;
}

static void prep(struct ptd_ptq *q, struct queue *pq, struct ptd_synth *s, int kind)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->pid = pq->pid;
	s->tid = pq->tid;
	s->cpu = pq->cpu;
	s->time = ptd_ptq_time(q, pq->timestamp);
	s->ip = pq->state->from_ip;
	s->addr = pq->state->to_ip;
	s->period = 1;
	s->flags = pq->flags;
	s->insn_len = pq->insn_len;
	memcpy(s->insn, pq->insn, sizeof(s->insn));
	s->trace_pos = pq->state->psb_offset;
	s->tot_insn = pq->state->tot_insn_cnt;
}

static int synth_branch(struct ptd_ptq *q, struct queue *pq)
{
	struct ptd_synth s;

	if (q->conf.branches_filter && !(q->conf.branches_filter & pq->flags))
		return 0;
	prep(q, pq, &s, PTD_SYN_BRANCH);
	s.trace_nr = pq->state->trace_nr;
	s.buf_nr = pq->state->buf_nr;
	if (pq->sample_ipc)
		s.cyc_cnt = pq->ipc_cyc_cnt - pq->last_br_cyc_cnt;
	if (s.cyc_cnt) {
		s.insn_cnt = pq->ipc_insn_cnt - pq->last_br_insn_cnt;
		pq->last_br_insn_cnt = pq->ipc_insn_cnt;
		pq->last_br_cyc_cnt = pq->ipc_cyc_cnt;
	}
	return deliver(q, &s);
}

/* perf's intel_pt_prep_sample: the call chain (g) and the last branches
 * (l) of the sample's thread. */
static void add_stacks(struct ptd_ptq *q, struct queue *pq, struct ptd_synth *s)
{
	if (q->cfg->callchain && q->chain) {
		s->callchain = q->chain;
		s->callchain_nr = ptd_tstack_sample(&q->stacks, pq->tid, s->ip, q->chain,
						    q->cfg->callchain_sz, KERNEL_START);
	}
	if (q->cfg->last_branch && q->br) {
		s->brstack = q->br;
		s->brstack_nr = ptd_tstack_br_sample(&q->stacks, pq->tid, q->br, q->cfg->last_branch_sz);
	}
}

static int synth_insn(struct ptd_ptq *q, struct queue *pq)
{
	struct ptd_synth s;

	prep(q, pq, &s, PTD_SYN_INSN);
	add_stacks(q, pq, &s);
	s.period = q->cfg->quick ? 1 : pq->state->tot_insn_cnt - pq->last_insn_cnt;
	if (pq->sample_ipc)
		s.cyc_cnt = pq->ipc_cyc_cnt - pq->last_in_cyc_cnt;
	if (s.cyc_cnt) {
		s.insn_cnt = pq->ipc_insn_cnt - pq->last_in_insn_cnt;
		pq->last_in_insn_cnt = pq->ipc_insn_cnt;
		pq->last_in_cyc_cnt = pq->ipc_cyc_cnt;
	}
	pq->last_insn_cnt = pq->state->tot_insn_cnt;
	return deliver(q, &s);
}

int ptd_ptq_synth_error(struct ptd_ptq *q, int code, int32_t cpu, int32_t pid, int32_t tid,
			uint64_t ip, uint64_t time, uint64_t pos)
{
	struct ptd_synth s;

	if ((code == PDEC_ERR_OVR && q->cfg->no_overflow_errors) ||
	    (code == PDEC_ERR_LOST && q->cfg->no_lost_errors))
		return 0;
	memset(&s, 0, sizeof(s));
	s.kind = PTD_SYN_ERROR;
	s.err_code = code;
	s.err_msg = ptd_pdec_strerror(code);
	s.cpu = cpu;
	s.pid = pid;
	s.tid = tid;
	s.ip = ip;
	s.time = time;
	s.trace_pos = pos;
	return deliver(q, &s);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

/* perf's intel_pt_prep_p_sample: no ip, no "trace begin" flags. */
static void prep_p(struct ptd_ptq *q, struct queue *pq, struct ptd_synth *s, int kind)
{
	prep(q, pq, s, kind);
	add_stacks(q, pq, s);
	if (!s->ip)
		s->flags = 0;
}

/* The power events of a state, in perf's order. */
static int synth_pwr(struct ptd_ptq *q, struct queue *pq)
{
	static const struct { uint32_t bit; int kind; } evs[] = {
		{ PDEC_MWAIT_OP, PTD_SYN_MWAIT }, { PDEC_PWR_ENTRY, PTD_SYN_PWRE },
		{ PDEC_EX_STOP, PTD_SYN_EXSTOP }, { PDEC_PWR_EXIT, PTD_SYN_PWRX },
	};
	const struct ptd_pstate *st = pq->state;
	struct ptd_synth s;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		if (!(st->type & evs[i].bit))
			continue;
		prep_p(q, pq, &s, evs[i].kind);
		s.raw_size = 12;
		switch (evs[i].kind) {
		case PTD_SYN_MWAIT: put_le64(s.raw + 4, st->mwait_payload); break;
		case PTD_SYN_PWRE: put_le64(s.raw + 4, st->pwre_payload); break;
		case PTD_SYN_PWRX: put_le64(s.raw + 4, st->pwrx_payload); break;
		default:
			put_le32(s.raw, !!(st->flags & PDEC_FUP_IP));
			s.raw_size = 4;
			break;
		}
		if ((rc = deliver(q, &s)))
			return rc;
	}
	return 0;
}

/* perf's intel_pt_sample: the samples of one decoder state. */
int ptd_ptq_sample(struct ptd_ptq *q, struct queue *pq)
{
	const struct ptd_pstate *st = pq->state;
	struct ptd_synth s;
	int rc;

	if (!pq->have_sample)
		return 0;
	pq->have_sample = 0;
	pq->ipc_insn_cnt = st->tot_insn_cnt;
	pq->ipc_cyc_cnt = st->tot_cyc_cnt;
	pq->sample_ipc = !!(st->flags & PDEC_SAMPLE_IPC);
	if (q->cfg->pwr_events) {
		if (st->type & PDEC_PSB_EVT) {
			prep_p(q, pq, &s, PTD_SYN_PSB);
			s.flags = 0;
			put_le64(s.raw + 4, st->psb_offset);
			s.raw_size = 12;
			if ((rc = deliver(q, &s)))
				return rc;
		}
		if (st->cbr != pq->cbr_seen) {
			prep_p(q, pq, &s, PTD_SYN_CBR);
			put_le32(s.raw, (uint32_t)(uint16_t)st->cbr_payload | q->conf.max_non_turbo_ratio << 16);
			put_le32(s.raw + 4, (uint32_t)((st->cbr & 0xff) * q->conf.cbr2khz));
			s.raw_size = 12;
			pq->cbr_seen = st->cbr;
			if ((rc = deliver(q, &s)))
				return rc;
		}
	}
	if (q->cfg->pwr_events && (st->type & PDEC_PWR_EVT) && (rc = synth_pwr(q, pq)))
		return rc;
	if (q->cfg->instructions && (st->type & PDEC_INSTRUCTION) && (rc = synth_insn(q, pq)))
		return rc;
	if (q->cfg->transactions && (st->type & PDEC_TRANSACTION)) {
		prep(q, pq, &s, PTD_SYN_TRANSACTION);
		add_stacks(q, pq, &s);
		if ((rc = deliver(q, &s)))
			return rc;
	}
	if (q->cfg->ptwrites && (st->type & PDEC_PTW)) {
		prep_p(q, pq, &s, PTD_SYN_PTWRITE);
		put_le32(s.raw, !!(st->flags & PDEC_FUP_IP));
		put_le64(s.raw + 4, st->ptw_payload);
		s.raw_size = 12;
		if ((rc = deliver(q, &s)))
			return rc;
	}
	if (!(st->type & PDEC_BRANCH))
		return 0;
	if ((q->cfg->thread_stack || q->cfg->last_branch) && pq->tid != -1 &&
	    ptd_tstack_event(&q->stacks, pq->tid, pq->flags, st->from_ip, st->to_ip, pq->insn_len,
			     st->trace_nr))
		return -1;
	if (q->cfg->branches || q->cfg->calls || q->cfg->returns)
		return synth_branch(q, pq);
	return 0;
}

