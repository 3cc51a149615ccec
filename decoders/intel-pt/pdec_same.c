/* Comparing two decoders' states, for decoding one trace on two
 * threads (pdec.h: ptd_pdec_same; src/ptq_split.c). */
#include "decoders/intel-pt/pdec_priv.h"

#include <stdlib.h>
#include <string.h>

#include "common/hugemem.h"

struct ptd_pdec *ptd_pdec_new_like(const struct ptd_pdec *d, void *ctx)
{
	struct pdec_params p = d->p;

	p.ctx = ctx;
	return ptd_pdec_new(&p);
}

void ptd_pdec_continue_at(struct ptd_pdec *d, uint64_t pos, uint64_t trace_nr)
{
	d->pos = pos;
	d->first_trace_nr = trace_nr;
}

uint64_t ptd_pdec_pos(const struct ptd_pdec *d)
{
	return d->pos;
}

struct ptd_pdec *ptd_pdec_snapshot(const struct ptd_pdec *d)
{
	struct ptd_pdec *s = ptd_huge_zalloc(sizeof(*s));

	if (!s)
		return NULL;
	memcpy(s, d, sizeof(*s));
	s->stack = NULL;
	s->stack_cap = 0;
	if (d->stack_n) {
		if (!(s->stack = malloc(d->stack_n * sizeof(*s->stack)))) {
			ptd_huge_free(s);
			return NULL;
		}
		memcpy(s->stack, d->stack, d->stack_n * sizeof(*s->stack));
		s->stack_cap = d->stack_n;
	}
	return s;
}

void ptd_pdec_snapshot_free(struct ptd_pdec *s)
{
	if (!s)
		return;
	free(s->stack);
	ptd_huge_free(s);
}

static bool same_memo(const struct pdec_memo *a, const struct pdec_memo *b)
{
	return a->pkt.type == b->pkt.type && a->pkt.count == b->pkt.count &&
	       a->pkt.payload == b->pkt.payload && a->off == b->off && a->size == b->size;
}

void pdec_same_unread(struct ptd_pdec *t, const struct ptd_pdec *b)
{
	t->stack = b->stack;
	t->stack_cap = b->stack_cap;
	/* when runs of TNT bits are tried again: the same states either way */
	t->jcc_wait = b->jcc_wait;
	t->jcc_backoff = b->jcc_backoff;
	/* the chains last taken, and a count of the path taken */
	memcpy(t->chain_seen, b->chain_seen, sizeof(t->chain_seen));
	t->chain_next = b->chain_next;
	t->chains_again = b->chains_again;
	t->chains_row = b->chains_row;
	/* the check for loops that take no packets sets its ip at the second
	 * direct jump in a row, before it reads it at the third */
	if (t->no_progress <= 1) {
		t->stuck_ip = b->stuck_ip;
		t->stuck_ip_prd = b->stuck_ip_prd;
		t->stuck_ip_cnt = b->stuck_ip_cnt;
	}
}

uint64_t ptd_pdec_loose_reads(const struct ptd_pdec *d, unsigned which)
{
	return which == PDEC_LOOSE_CYC ? d->cyc_reads : d->est_reads;
}

bool ptd_pdec_same(const struct ptd_pdec *a, const struct ptd_pdec *b, bool cycles,
		   uint64_t *insn_delta, uint64_t *cyc_delta, unsigned *loose)
{
	uint64_t di = a->tot_insn_cnt - b->tot_insn_cnt, dc = 0;
	bool period_cnt = a->p.period_type != PDEC_PERIOD_INSTRUCTIONS;
	bool cyc = a->have_cyc && b->have_cyc;
	struct ptd_pdec *t;
	unsigned i;
	bool same;

	if (cycles && cyc)
		dc = a->tot_cyc_cnt - b->tot_cyc_cnt;
	if (a->stack_n != b->stack_n || a->memo_n - a->memo_i != b->memo_n - b->memo_i ||
	    a->state.tot_insn_cnt - b->state.tot_insn_cnt != di ||
	    (period_cnt && a->period_insn_cnt - b->period_insn_cnt != di) ||
	    (cycles && (a->sample_tot_cyc_cnt - b->sample_tot_cyc_cnt != dc ||
			a->state.tot_cyc_cnt - b->state.tot_cyc_cnt != dc ||
			a->state.cycles - b->state.cycles != dc)))
		return false;
	if (a->stack_n && memcmp(a->stack, b->stack, a->stack_n * sizeof(*a->stack)))
		return false;
	/* the packets a look-ahead parsed that are still to be taken */
	for (i = 0; a->memo_i + i < a->memo_n; i++)
		if (!same_memo(&a->memo[a->memo_i + i], &b->memo[b->memo_i + i]))
			return false;
	if (!(t = malloc(sizeof(*t))))
		return false;
	memcpy(t, a, sizeof(*t));
	/* what may differ: where things are, and the counts compared above
	 * (the period's count of instructions only counts up but with
	 * instruction periods) */
	pdec_same_unread(t, b);
	t->p = b->p;
	t->buf = b->buf;
	memcpy(t->memo, b->memo, sizeof(t->memo));
	t->memo_i = b->memo_i;
	t->memo_n = b->memo_n;
	t->tot_insn_cnt = b->tot_insn_cnt;
	t->state.tot_insn_cnt = b->state.tot_insn_cnt;
	if (period_cnt)
		t->period_insn_cnt = b->period_insn_cnt;
	/* the cycle counts, which only make cycle counts: with CYC packets
	 * counted up from them (the estimate's references unread), else
	 * estimated (compared, and the estimate's references loose) */
	if (!cycles || cyc) {
		t->tot_cyc_cnt = b->tot_cyc_cnt;
		t->sample_tot_cyc_cnt = b->sample_tot_cyc_cnt;
		t->state.tot_cyc_cnt = b->state.tot_cyc_cnt;
		t->state.cycles = b->state.cycles;
		t->cyc_cnt_timestamp = b->cyc_cnt_timestamp;   /* unread, or not needed */
		t->base_cyc_cnt = b->base_cyc_cnt;
	}
	*loose = t->cyc_cnt_timestamp != b->cyc_cnt_timestamp || t->base_cyc_cnt != b->base_cyc_cnt ?
		 PDEC_LOOSE_EST : 0;
	t->cyc_cnt_timestamp = b->cyc_cnt_timestamp;
	t->base_cyc_cnt = b->base_cyc_cnt;
	/* the last call's skipping, which the next call starts afresh */
	t->skip_bound = b->skip_bound;
	t->skip_kernel_start = b->skip_kernel_start;
	t->skipped_timestamp = b->skipped_timestamp;
	t->n_skipped_ts = b->n_skipped_ts;
	memcpy(t->skipped_ts, b->skipped_ts, sizeof(t->skipped_ts));
	t->state.skipped_timestamp = b->state.skipped_timestamp;
	t->state.n_skipped_ts = b->state.n_skipped_ts;
	memcpy(t->state.skipped_ts, b->state.skipped_ts, sizeof(t->state.skipped_ts));
	t->seg = b->seg;   /* where segments are noted and taken */
	t->cyc_reads = b->cyc_reads;
	t->est_reads = b->est_reads;
	/* the references of the time of CYC packets, read only where
	 * cyc_reads counts */
	if (t->cyc_ref_timestamp != b->cyc_ref_timestamp || t->cycle_cnt != b->cycle_cnt ||
	    memcmp(&t->calc_cyc_to_tsc, &b->calc_cyc_to_tsc, sizeof(double)) ||
	    t->have_calc_cyc_to_tsc != b->have_calc_cyc_to_tsc)
		*loose |= PDEC_LOOSE_CYC;
	t->cyc_ref_timestamp = b->cyc_ref_timestamp;
	t->cycle_cnt = b->cycle_cnt;
	t->calc_cyc_to_tsc = b->calc_cyc_to_tsc;
	t->have_calc_cyc_to_tsc = b->have_calc_cyc_to_tsc;
	same = !memcmp(t, b, sizeof(*t));
	free(t);
	if (same) {
		*insn_delta = di;
		*cyc_delta = dc;
	}
	return same;
}
