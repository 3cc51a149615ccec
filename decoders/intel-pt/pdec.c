/* The perf-semantics Intel PT decoder's walk (see pdec.h): a state machine
 * over packets that walks instructions between them and returns one state
 * per branch, instruction sample, event or error, as perf's does. */
#include "decoders/intel-pt/pdec_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hugemem.h"

#define MAX_LOOPS 100000

static const char *const err_msgs[PDEC_ERR_MAX] = {
	[PDEC_ERR_NOMEM]  = "Memory allocation failed",
	[PDEC_ERR_INTERN] = "Internal error",
	[PDEC_ERR_BADPKT] = "Bad packet",
	[PDEC_ERR_NODATA] = "No more data",
	[PDEC_ERR_NOINSN] = "Failed to get instruction",
	[PDEC_ERR_MISMAT] = "Trace doesn't match instruction",
	[PDEC_ERR_OVR]    = "Overflow packet",
	[PDEC_ERR_LOST]   = "Lost trace data",
	[PDEC_ERR_UNK]    = "Unknown error!",
	[PDEC_ERR_NELOOP] = "Never-ending loop (refer perf config intel-pt.max-loops)",
	[PDEC_ERR_EPTW]   = "Broken emulated ptwrite",
};

const char *ptd_pdec_strerror(int code)
{
	if (code < 1 || code >= PDEC_ERR_MAX)
		code = PDEC_ERR_UNK;
	return err_msgs[code];
}

int pdec_ext_err(int code)
{
	switch (code) {
	case -ENOMEM: return PDEC_ERR_NOMEM;
	case -ENOSYS: return PDEC_ERR_INTERN;
	case -EBADMSG: return PDEC_ERR_BADPKT;
	case -ENODATA: return PDEC_ERR_NODATA;
	case -EILSEQ: return PDEC_ERR_NOINSN;
	case -ENOENT: return PDEC_ERR_MISMAT;
	case -EOVERFLOW: return PDEC_ERR_OVR;
	case -ENOSPC: return PDEC_ERR_LOST;
	case -ELOOP: return PDEC_ERR_NELOOP;
	default: return PDEC_ERR_UNK;
	}
}

struct ptd_pdec *ptd_pdec_new(const struct pdec_params *params)
{
	struct ptd_pdec *d;

	if (!params->walk || !params->get_trace)
		return NULL;
	/* on cache lines of its own: the decoders of other queues are
	 * written on other threads (-j), and sharing a line with one at
	 * either end made W5-x12 up to half as slow again, as the heap's
	 * layout fell (one argument more or less) */
	d = aligned_alloc(64, (sizeof(*d) + 63) & ~(size_t)63);
	if (!d)
		return NULL;
	memset(d, 0, sizeof(*d));
	d->p = *params;
	if (!d->p.max_loops)
		d->p.max_loops = MAX_LOOPS;
	d->max_non_turbo_ratio_fp = d->p.max_non_turbo_ratio;
	if (!d->p.tsc_ctc_ratio_n)
		d->p.tsc_ctc_ratio_d = 0;
	if (d->p.tsc_ctc_ratio_d && !(d->p.tsc_ctc_ratio_n % d->p.tsc_ctc_ratio_d))
		d->tsc_ctc_mult = d->p.tsc_ctc_ratio_n / d->p.tsc_ctc_ratio_d;
	if (d->p.mtc_period > 15)
		d->p.mtc_period = 15;
	d->ctc_rem_mask = (1u << d->p.mtc_period) - 1;
	pdec_setup_period(d);
	d->seg.checking = d->p.seg_find && getenv("PTDECODE_DEBUG_SEG_CHECK");
	pdec_seg_init(d);
	if (d->p.seg_find &&
	    !(d->seg.hint = ptd_huge_zalloc(sizeof(*d->seg.hint) << PDEC_SEG_HINT_BITS))) {
		free(d);
		return NULL;
	}
	return d;
}

void ptd_pdec_free(struct ptd_pdec *d)
{
	if (!d)
		return;
	if (d->chains_again && getenv("PTDECODE_DEBUG_CHAINS"))
		fprintf(stderr, "ptdecode: %llu long TNT packets taken again as one of the last two chains, %llu of them in a row\n",
			(unsigned long long)d->chains_again, (unsigned long long)d->chains_row);
	pdec_seg_fini(d);
	free(d->stack);
	free(d);
}

/* ---- small helpers ------------------------------------------------------ */

static uint64_t calc_ip(const struct pdec_pkt *pkt, uint64_t last_ip)
{
	uint64_t ip;

	switch (pkt->count) {
	case 1: return (last_ip & 0xffffffffffff0000ULL) | pkt->payload;
	case 2: return (last_ip & 0xffffffff00000000ULL) | pkt->payload;
	case 3:
		ip = pkt->payload;
		if (ip & 0x800000000000ULL)
			ip |= 0xffff000000000000ULL;
		return ip;
	case 4: return (last_ip & 0xffff000000000000ULL) | pkt->payload;
	case 6: return pkt->payload;
	default: return 0;
	}
}

void pdec_set_last_ip(struct ptd_pdec *d)
{
	d->last_ip = calc_ip(&d->packet, d->last_ip);
	d->have_last_ip = true;
}

void pdec_set_ip(struct ptd_pdec *d)
{
	pdec_set_last_ip(d);
	d->ip = d->last_ip;
}

bool pdec_have_ip(const struct ptd_pdec *d)
{
	return d->packet.count &&
	       (d->have_last_ip || d->packet.count == 3 || d->packet.count == 6);
}

void pdec_update_nr(struct ptd_pdec *d) { d->next_nr = (int)(d->pip_payload & 1); }
void pdec_set_nr(struct ptd_pdec *d) { d->nr = (int)(d->pip_payload & 1); d->next_nr = d->nr; }

/* The return stack twice as large */
static int stack_grow(struct ptd_pdec *d)
{
	size_t cap = d->stack_cap ? d->stack_cap * 2 : 64;
	uint64_t *s;

	/* on lines of its own too (64 entries or more: 512 bytes) */
	s = aligned_alloc(64, cap * sizeof(*s));
	if (!s)
		return -ENOMEM;
	if (d->stack_n)
		memcpy(s, d->stack, d->stack_n * sizeof(*s));
	free(d->stack);
	d->stack = s;
	d->stack_cap = cap;
	return 0;
}

/* push() on a full stack */
static __attribute__((noinline)) int push_full(struct ptd_pdec *d, uint64_t ret)
{
	int err;

	if (d->stack_cap * 2 > PDEC_STACK_MAX) {
		/* drop the oldest half: a deeper stack only feeds compression */
		memmove(d->stack, d->stack + d->stack_n / 2,
			(d->stack_n - d->stack_n / 2) * sizeof(*d->stack));
		d->stack_n -= d->stack_n / 2;
	} else if ((err = stack_grow(d))) {
		return err;
	}
	d->stack[d->stack_n++] = ret;
	return 0;
}

int pdec_stack_reserve(struct ptd_pdec *d, size_t n)
{
	int err;

	while (d->stack_cap - d->stack_n < n)
		if ((err = stack_grow(d)))
			return err;
	return 0;
}

static inline int push(struct ptd_pdec *d, uint64_t ret)
{
	if (d->stack_n == d->stack_cap)
		return push_full(d, ret);
	d->stack[d->stack_n++] = ret;
	return 0;
}

static uint64_t pop(struct ptd_pdec *d)
{
	d->seg.popped = true;
	if (d->stack_n <= d->seg.low) {   /* an entry from before the segment */
		if (!d->stack_n)
			d->seg.under = true;
		else
			d->seg.low = d->stack_n - 1;
	}
	return d->stack_n ? d->stack[--d->stack_n] : 0;
}

int pdec_run_stack(struct ptd_pdec *d, const struct pdec_jcc_run *run, uint64_t base,
		   unsigned nops)
{
	unsigned i;
	int err;

	for (i = 0; i < nops; i++) {
		if (run->pops & (1u << i))
			d->ret_addr = pop(d);
		else if ((err = push(d, base + run->push[i])))
			return err;
	}
	return 0;
}

void pdec_clear_stack(struct ptd_pdec *d)
{
	d->stack_n = 0;
}

int pdec_bug(struct ptd_pdec *d)
{
	d->pkt_state = ST_NO_PSB;
	return -ENOSYS;
}

int pdec_overflow(struct ptd_pdec *d)
{
	d->tx_flags = 0;
	pdec_set_nr(d);
	d->timestamp_insn_cnt = 0;
	d->pkt_state = ST_IN_SYNC;
	d->state.from_ip = d->ip;
	d->ip = 0;
	d->pge = false;
	d->set_fup_tx_flags = d->set_fup_ptw = d->set_fup_mwait = false;
	d->set_fup_pwre = d->set_fup_exstop = d->set_fup_mode_exec = false;
	d->overflow = true;
	return -EOVERFLOW;
}

/* ---- walking instructions ----------------------------------------------- */

/* walk's answer where it gives none (an error) */
static const struct pdec_insn no_insn = { .op = PDEC_OP_OTHER };

/* Walk to the next branch (or to_ip, or the next sample).  Returns
 * PDEC_RETURN with a state ready, 0 at a branch for the caller to resolve,
 * -EAGAIN at to_ip, or an error. */
static int walk_insn(struct ptd_pdec *d, const struct pdec_insn **insnp, uint64_t to_ip)
{
	const struct pdec_insn *insn = &no_insn;
	uint64_t max_insn_cnt, insn_cnt = 0;
	int err;

	d->mtc_insn = true;
	max_insn_cnt = pdec_next_sample(d);
	err = d->p.walk(d->p.ctx, &insn, &insn_cnt, &d->ip, to_ip, max_insn_cnt);
	*insnp = err ? &no_insn : insn;
	d->tot_insn_cnt += insn_cnt;
	d->timestamp_insn_cnt += insn_cnt;
	d->sample_insn_cnt += insn_cnt;
	d->period_insn_cnt += insn_cnt;
	if (err) {
		d->no_progress = 0;
		d->pkt_state = ST_NO_IP;
		return err == -ENOENT ? -ENOLINK : -EILSEQ;
	}
	if (to_ip && d->ip == to_ip) {
		err = -EAGAIN;
		goto out;
	}
	if (max_insn_cnt && insn_cnt >= max_insn_cnt)
		pdec_sample_insn(d);
	if (insn->branch == PDEC_BR_NO_BRANCH) {
		d->state.type = PDEC_INSTRUCTION;
		d->state.from_ip = d->ip;
		d->state.to_ip = 0;
		d->ip += insn->length;
		err = PDEC_RETURN;
		goto out;
	}
	if (insn->op == PDEC_OP_CALL) {
		/* zero-length calls (call next instruction) are not returns' partners */
		if (insn->branch != PDEC_BR_UNCONDITIONAL || insn->rel) {
			err = push(d, d->ip + insn->length);
			if (err)
				goto out;
		}
	} else if (insn->op == PDEC_OP_RET) {
		d->ret_addr = pop(d);
	}
	if (insn->branch == PDEC_BR_UNCONDITIONAL) {
		int cnt = d->no_progress++;

		d->state.from_ip = d->ip;
		d->ip += insn->length + (int64_t)insn->rel;
		d->state.to_ip = d->ip;
		err = PDEC_RETURN;
		/* stuck in a loop that consumes no packets? */
		if (cnt) {
			if (cnt == 1) {
				d->stuck_ip = d->state.to_ip;
				d->stuck_ip_prd = 1;
				d->stuck_ip_cnt = 1;
			} else if (cnt > d->p.max_loops || d->state.to_ip == d->stuck_ip) {
				d->pkt_state = ST_ERR_RESYNC;
				err = -ELOOP;
				goto out;
			} else if (!--d->stuck_ip_cnt) {
				d->stuck_ip_prd += 1;
				d->stuck_ip_cnt = d->stuck_ip_prd;
				d->stuck_ip = d->state.to_ip;
			}
		}
		goto out_no_progress;
	}
out:
	d->no_progress = 0;
out_no_progress:
	d->state.insn_op = insn->op;
	d->state.insn_len = insn->length;
	memcpy(d->state.insn, insn->buf, PDEC_INSN_BUF_SZ);
	if (d->tx_flags & PDEC_IN_TX)
		d->state.flags |= PDEC_IN_TX;
	return err;
}

/* The instruction at a FUP sampled with the FUP's event. */
static void sample_fup_insn(struct ptd_pdec *d)
{
	const struct pdec_insn *insn;
	uint64_t insn_cnt = 0;

	d->state.insn_op = PDEC_OP_OTHER;
	d->state.insn_len = 0;
	if (!d->p.branch_enable || !d->pge || d->p.quick || d->ip != d->last_ip)
		return;
	d->mtc_insn = true;
	if (pdec_next_sample(d) != 1)
		return;
	if (d->p.walk(d->p.ctx, &insn, &insn_cnt, &d->ip, 0, 1))
		return;
	if (insn->branch != PDEC_BR_NO_BRANCH)
		return;
	d->tot_insn_cnt += insn_cnt;
	d->timestamp_insn_cnt += insn_cnt;
	d->sample_insn_cnt += insn_cnt;
	d->period_insn_cnt += insn_cnt;
	pdec_sample_insn(d);
	d->ip += insn->length;
}

/* Events bound to a FUP.  Returns true when the state reports one. */
bool pdec_fup_event(struct ptd_pdec *d, bool no_tip)
{
	uint32_t type = d->state.type;
	bool sample_insn = false, ret = false;

	d->state.type &= ~PDEC_BRANCH;
	d->state.insn_op = PDEC_OP_OTHER;
	d->state.insn_len = 0;
	if (d->set_fup_mode_exec) {
		d->set_fup_mode_exec = false;
		sample_insn = no_tip;
		ret = true;
	}
	if (d->set_fup_tx_flags) {
		d->set_fup_tx_flags = false;
		d->tx_flags = d->fup_tx_flags;
		d->state.type |= PDEC_TRANSACTION;
		if (d->fup_tx_flags & PDEC_ABORT_TX)
			d->state.type |= PDEC_BRANCH;
		d->state.flags = d->fup_tx_flags;
		ret = true;
	}
	if (d->set_fup_ptw) {
		d->set_fup_ptw = false;
		d->state.type |= PDEC_PTW;
		d->state.flags |= PDEC_FUP_IP;
		d->state.ptw_payload = d->fup_ptw_payload;
		ret = true;
	}
	if (d->set_fup_mwait) {
		d->set_fup_mwait = false;
		d->state.type |= PDEC_MWAIT_OP;
		d->state.mwait_payload = d->fup_mwait_payload;
		ret = true;
	}
	if (d->set_fup_pwre) {
		d->set_fup_pwre = false;
		d->state.type |= PDEC_PWR_ENTRY;
		d->state.pwre_payload = d->fup_pwre_payload;
		ret = true;
	}
	if (d->set_fup_exstop) {
		d->set_fup_exstop = false;
		d->state.type |= PDEC_EX_STOP;
		d->state.flags |= PDEC_FUP_IP;
		ret = true;
	}
	if (d->overflow) {
		d->overflow = false;
		if (!ret && !d->pge) {
			if (d->p.quick) {
				d->state.type = 0;
				d->pkt_state = ST_RESAMPLE;
			}
			d->pge = true;
			d->state.type |= PDEC_BRANCH | PDEC_TRACE_BEGIN;
			d->state.from_ip = 0;
			d->state.to_ip = d->ip;
			return true;
		}
	}
	if (ret) {
		d->state.from_ip = d->ip;
		d->state.to_ip = 0;
		if (sample_insn)
			sample_fup_insn(d);
	} else {
		d->state.type = type;
	}
	return ret;
}

int pdec_walk_fup(struct ptd_pdec *d)
{
	const struct pdec_insn *insn;
	uint64_t ip = d->last_ip;
	int err;

	for (;;) {
		err = walk_insn(d, &insn, ip);
		if (err == PDEC_RETURN)
			return 0;
		if (err == -EAGAIN ||
		    (d->p.fup_with_nlip && !err && insn->branch == PDEC_BR_INDIRECT &&
		     ip == d->ip + insn->length)) {
			bool no_tip = d->pkt_state != ST_FUP;

			d->pkt_state = ST_IN_SYNC;
			if (pdec_fup_event(d, no_tip) && no_tip)
				return 0;
			return -EAGAIN;
		}
		d->set_fup_tx_flags = false;
		if (err)
			return err;
		if (insn->branch == PDEC_BR_INDIRECT || insn->branch == PDEC_BR_CONDITIONAL) {
			d->pkt_state = ST_ERR_RESYNC;
			return -ENOENT;
		}
		return pdec_bug(d);
	}
}

static int walk_tip_state(struct ptd_pdec *d)
{
	const struct pdec_insn *insn;
	int err;

	err = walk_insn(d, &insn, 0);
	if (err == PDEC_RETURN && d->p.pgd_ip && d->pkt_state == ST_TIP_PGD &&
	    (d->state.type & PDEC_BRANCH) && d->p.pgd_ip(d->p.ctx, d->state.to_ip)) {
		/* an unconditional branch leaving the filter regions */
		d->no_progress = 0;
		d->pge = false;
		d->continuous_period = false;
		d->pkt_state = ST_IN_SYNC;
		d->state.type |= PDEC_TRACE_END;
		pdec_update_nr(d);
		return 0;
	}
	if (err == PDEC_RETURN)
		return 0;
	if (err)
		return err;
	pdec_update_nr(d);
	if (insn->branch == PDEC_BR_INDIRECT) {
		if (d->pkt_state == ST_TIP_PGD) {
			d->pge = false;
			d->continuous_period = false;
			d->state.type |= PDEC_TRACE_END;
		}
		d->pkt_state = ST_IN_SYNC;
		d->state.from_ip = d->ip;
		if (d->packet.count == 0) {
			d->state.to_ip = 0;
		} else {
			d->state.to_ip = d->last_ip;
			d->ip = d->last_ip;
		}
		return 0;
	}
	if (insn->branch == PDEC_BR_CONDITIONAL) {
		uint64_t to_ip = d->ip + insn->length + (uint64_t)(int64_t)insn->rel;

		if (d->p.pgd_ip && d->pkt_state == ST_TIP_PGD && d->p.pgd_ip(d->p.ctx, to_ip)) {
			/* a conditional branch leaving the filter regions */
			d->pge = false;
			d->continuous_period = false;
			d->pkt_state = ST_IN_SYNC;
			d->ip = to_ip;
			d->state.from_ip = d->ip;
			d->state.to_ip = to_ip;
			d->state.type |= PDEC_TRACE_END;
			return 0;
		}
		d->pkt_state = ST_ERR_RESYNC;
		return -ENOENT;
	}
	return pdec_bug(d);
}

/* The states a consumer skipping plain branches (skip_bound) would skip
 * are skipped here, as pdec_walk_tnt skips those of its bits: the direct
 * calls and jumps on the way, and the indirect branch itself, which
 * leaves the packet used up (PDEC_SKIPPED: read on, as after that state). */
int pdec_walk_tip(struct ptd_pdec *d)
{
	int err;

	for (;;) {
		err = walk_tip_state(d);
		if (err || !d->skip_bound || !pdec_skip_state(d))
			return err;
		if (d->pkt_state == ST_IN_SYNC)
			return PDEC_SKIPPED;
	}
}

/* After the state of a taken bit (or a compressed return): 0 to return
 * it; when it is skipped, -EAGAIN while the packet has bits left (walk
 * on), PDEC_SKIPPED when it is used up. */
static int next_bit(struct ptd_pdec *d)
{
	if (!d->skip_bound || !pdec_skip_state(d))
		return 0;
	return d->tnt.count ? -EAGAIN : PDEC_SKIPPED;
}

int pdec_walk_tnt(struct ptd_pdec *d)
{
	const struct pdec_insn *insn;
	int err;

	for (;;) {
		if (d->skip_bound && d->tnt.count > 1) {
			if (d->jcc_wait)
				d->jcc_wait--;
			else if ((err = pdec_jcc_run(d)))
				return err;
		}
		err = walk_insn(d, &insn, 0);
		if (err == PDEC_RETURN) {
			if (d->skip_bound && pdec_skip_state(d))
				continue;   /* an unconditional branch: the packet is as it was */
			return 0;
		}
		if (err)
			return err;
		if (insn->op == PDEC_OP_RET) {
			if (!d->p.return_compression || !d->ret_addr ||
			    !(d->tnt.payload & (1ULL << 63))) {
				d->pkt_state = ST_ERR_RESYNC;
				return -ENOENT;
			}
			d->tnt.count -= 1;
			d->pkt_state = d->tnt.count ? ST_TNT_CONT : ST_IN_SYNC;
			d->tnt.payload <<= 1;
			d->state.from_ip = d->ip;
			d->ip = d->ret_addr;
			d->state.to_ip = d->ip;
			if ((err = next_bit(d)) == -EAGAIN)
				continue;
			return err;
		}
		if (insn->branch == PDEC_BR_INDIRECT) {
			/* a deferred TIP */
			err = pdec_get_next_packet(d);
			if (err)
				return err;
			if (d->packet.type != PK_TIP || d->packet.count == 0) {
				d->pkt_state = ST_ERR_RESYNC;
				d->pkt_step = 0;
				return -ENOENT;
			}
			pdec_set_last_ip(d);
			d->state.from_ip = d->ip;
			d->state.to_ip = d->last_ip;
			d->ip = d->last_ip;
			pdec_update_nr(d);
			return 0;
		}
		if (insn->branch == PDEC_BR_CONDITIONAL) {
			d->tnt.count -= 1;
			d->pkt_state = d->tnt.count ? ST_TNT_CONT : ST_IN_SYNC;
			if (d->tnt.payload & (1ULL << 63)) {
				d->tnt.payload <<= 1;
				d->state.from_ip = d->ip;
				d->ip += insn->length + (int64_t)insn->rel;
				d->state.to_ip = d->ip;
				if ((err = next_bit(d)) == -EAGAIN)
					continue;
				return err;
			}
			/* not taken: an instruction sample if one is due */
			if (d->state.type & PDEC_INSTRUCTION) {
				d->tnt.payload <<= 1;
				d->state.type = PDEC_INSTRUCTION;
				d->state.from_ip = d->ip;
				d->state.to_ip = 0;
				d->ip += insn->length;
				return 0;
			}
			d->sample_cyc = false;
			d->ip += insn->length;
			if (!d->tnt.count) {
				pdec_update_sample_time(d);
				return -EAGAIN;
			}
			d->tnt.payload <<= 1;
			continue;
		}
		return pdec_bug(d);
	}
}
