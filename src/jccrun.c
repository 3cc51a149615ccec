/* Runs of conditional branches (jccrun.h). */
#include "jccrun.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/hugemem.h"

/* The block from off to its branch, which starts before end: from the
 * block cache, else walked as the Intel PT walk walks it (ptq.c), and
 * cached.  Its instructions are decoded afresh, not through the
 * instruction cache: a block is decoded once, and filling that cache
 * cost more (its lines touched all over) than it saved the walk's
 * instruction steps; those that cannot be branches by their length
 * only.  0, or -1 when the code cannot be read or leaves
 * [.., end). */
static int block(struct ptd_insncache *ic, struct ptd_pinsn *pi, const struct ptd_dsofile *f,
		 uint64_t off, uint64_t end, struct ptd_insncache_blk *out)
{
	struct ptd_insncache_blk *be = ptd_insncache_block(ic, f, off);
	struct pdec_insn insn;
	uint64_t o = off;
	uint32_t cnt = 0;
	unsigned n;

	if (be && be->file == f && be->off == off) {
		*out = *be;
		return 0;
	}
	for (;;) {
		if (o >= end || o >= f->size || cnt == UINT32_MAX || o - off > UINT32_MAX)
			return -1;
		if ((n = ptd_pinsn_plain_len(f->data + o, f->size - o, f->is_64_bit))) {
			cnt++;
			o += n;
			continue;
		}
		if (ptd_pinsn_decode(pi, f->data + o, f->size - o, o, f->is_64_bit, &insn))
			return -1;
		cnt++;
		if (insn.branch != PDEC_BR_NO_BRANCH)
			break;
		o += insn.length;
	}
	out->file = f;
	out->off = off;
	out->insn_cnt = cnt;
	out->to_branch = (uint32_t)(o - off);
	out->insn = insn;
	if (be) {
		*be = *out;
		ptd_insncache_filled(ic);
	}
	return 0;
}

/* Record the step just ended, leaving at o. */
static void end_step(struct pdec_jcc_run *run, unsigned i, uint64_t cnt, uint64_t o,
		     unsigned uncond, unsigned kind, unsigned nops)
{
	run->insn_cnt[i] = (uint32_t)cnt;
	run->ip[i] = o;
	run->uncond[i] = (uint8_t)uncond;
	run->kind[i] = (uint8_t)kind;
	run->nops[i] = (uint8_t)nops;
	if (uncond)
		run->plain = 0;
}

/* The first empty run of set s; PTD_JCCRUN_WAYS when it is full */
static unsigned empty_way(const struct ptd_jccrun *s)
{
	unsigned w;

	for (w = 0; w < PTD_JCCRUN_WAYS && s[w].file; w++)
		;
	return w;
}

/* The larger table, the runs taken over (into their sets' first empty
 * ways: the new sets are no fuller); the old one kept (its runs may be
 * lent).  Without memory, the old one stays, and is tried again after as
 * many fills. */
static void grow(struct ptd_jccruns *r)
{
	struct ptd_jccrun *e = ptd_huge_zalloc(((size_t)1 << PTD_JCCRUN_BITS) * sizeof(*e)), *s;
	size_t i, n = (size_t)1 << r->bits;
	unsigned w;

	if (!e) {
		r->fills = 0;
		return;
	}
	r->old = r->e;
	r->e = e;
	r->bits = PTD_JCCRUN_BITS;
	for (i = 0; i < n; i++) {
		if (!r->old[i].file)
			continue;
		s = ptd_jccrun_set(r, r->old[i].file, r->old[i].off, r->old[i].outcomes,
				   r->old[i].ret);
		if ((w = empty_way(s)) < PTD_JCCRUN_WAYS) {
			s[w] = r->old[i];
			s->mru = (uint8_t)w;
		}
	}
}

/* The run of set s to build a new one in: an empty one, else the one used
 * longest ago (of two: the one not used last) */
_Static_assert(PTD_JCCRUN_WAYS == 2, "victim: the mru byte tells two ways apart");
static struct ptd_jccrun *victim(struct ptd_jccrun *s)
{
	unsigned w = empty_way(s);

	if (w == PTD_JCCRUN_WAYS)
		w = !s->mru;
	s->mru = (uint8_t)w;
	return &s[w];
}

const struct ptd_jccrun *ptd_jccrun_build(struct ptd_jccruns *r, struct ptd_jccrun *s,
					  struct ptd_insncache *ic, struct ptd_pinsn *pi,
					  const struct ptd_dsofile *f, uint64_t off, uint64_t begin,
					  uint64_t end, uint32_t outcomes, uint64_t ret)
{
	struct ptd_insncache_blk b;
	struct ptd_jccrun *e;
	struct pdec_jcc_run *run;
	uint64_t o = off, cnt = 0, br, next, calls[PDEC_JCC_OPS];
	unsigned i = 0, uncond = 0, nops = 0, ncalls = 0;

	if (!s) {
		/* the table, at the first use */
		if (r->no_mem ||
		    !(r->e = ptd_huge_zalloc(((size_t)1 << PTD_JCCRUN_BITS_FIRST) * sizeof(*r->e)))) {
			r->no_mem = 1;
			return NULL;
		}
		r->bits = PTD_JCCRUN_BITS_FIRST;
		return ptd_jccrun_get(r, ic, pi, f, off, begin, end, outcomes, 0, 0);
	}
	if (++r->fills > (size_t)1 << r->bits && r->bits < PTD_JCCRUN_BITS)
		grow(r);   /* s is the old table's, filled all the same */
	e = victim(s);
	e->file = f;
	e->off = off;
	e->outcomes = outcomes;
	e->ret = ret;
	e->lo = e->hi = off;
	run = &e->run;
	run->pops = 0;
	run->plain = 1;
	run->mid_out = 0;
	while (i < PDEC_JCC_MAX) {
		int taken = !!(outcomes & (1u << (PDEC_JCC_MAX - 1 - i)));

		if (o < begin || block(ic, pi, f, o, end, &b))
			break;
		br = o + b.to_branch;
		next = br + b.insn.length;
		cnt += b.insn_cnt;
		if (cnt > UINT32_MAX)
			break;
		if (o < e->lo)
			e->lo = o;
		if (br > e->hi)
			e->hi = br;
		if (b.insn.branch == PDEC_BR_CONDITIONAL) {
			o = taken ? next + (uint64_t)(int64_t)b.insn.rel : next;
			end_step(run, i++, cnt, o, uncond, PDEC_RUN_JCC, nops);
			uncond = 0;
		} else if (b.insn.branch == PDEC_BR_UNCONDITIONAL) {
			/* a direct call or jump: a state that takes no bit */
			if (++uncond > PDEC_JCC_UNCOND)
				break;
			if (b.insn.op == PDEC_OP_CALL && b.insn.rel) {
				if (nops == PDEC_JCC_OPS)
					break;
				run->push[nops++] = next;
				calls[ncalls++] = next;
			}
			o = next + (uint64_t)(int64_t)b.insn.rel;
		} else if (b.insn.op == PDEC_OP_RET && taken) {
			if (nops == PDEC_JCC_OPS)
				break;
			run->pops |= (uint16_t)(1u << nops++);
			if (!ncalls) {
				/* to a call before the run: the top of the
				 * return stack, the first time when it is known */
				if (!ret || run->mid_out) {
					end_step(run, i++, cnt, 0, uncond, PDEC_RUN_RET_OUT, nops);
					break;
				}
				run->mid_out = 1;
				o = ret;
			} else {
				o = calls[--ncalls];
			}
			end_step(run, i++, cnt, o, uncond, PDEC_RUN_RET, nops);
			uncond = 0;
		} else {
			break;
		}
	}
	run->n = (uint8_t)i;
	if (nops)
		run->plain = 0;
	run->first_ret = run->uncond_from = (uint8_t)i;
	while (i--) {
		if (run->kind[i] != PDEC_RUN_JCC)
			run->first_ret = (uint8_t)i;
		if (i && run->uncond[i])
			run->uncond_from = (uint8_t)i;
	}
	return run->n ? e : NULL;
}

const struct ptd_jccrun *ptd_jccrun_get(struct ptd_jccruns *r, struct ptd_insncache *ic,
					struct ptd_pinsn *pi, const struct ptd_dsofile *f,
					uint64_t off, uint64_t begin, uint64_t end,
					uint32_t outcomes, unsigned count, uint64_t ret)
{
	struct ptd_jccrun *s, *e;
	const struct ptd_jccrun *run;

	if (ptd_jccrun_find(r, f, off, begin, end, outcomes, count, ret, &run))
		return run;
	s = ptd_jccrun_set(r, f, off, outcomes, 0);
	if (!s || !(e = ptd_jccrun_in(s, f, off, outcomes, 0))) {
		/* the run from off built, then asked for again: where it is
		 * now (the table may have been made, or grown), and with the
		 * one going on at ret */
		if (!ptd_jccrun_build(r, s, ic, pi, f, off, begin, end, outcomes, 0))
			return NULL;
		return ptd_jccrun_get(r, ic, pi, f, off, begin, end, outcomes, count, ret);
	}
	/* the run from off is cached (and the set's last used: the one going
	 * on at ret does not take its place), the one going on at ret is not */
	return ptd_jccrun_build(r, ptd_jccrun_set(r, f, off, outcomes, ret), ic, pi, f, off, begin,
				end, outcomes, ret) ?: e;
}

void ptd_jccruns_fini(struct ptd_jccruns *r)
{
	if (r->chains_taken && getenv("PTDECODE_DEBUG_CHAINS"))
		fprintf(stderr, "ptdecode: %zu long TNT packets taken as chains of runs\n",
			r->chains_taken);
	ptd_huge_free(r->e);
	ptd_huge_free(r->old);
	ptd_huge_free(r->chains);
	ptd_huge_free(r->segs);
	ptd_huge_free(r->seg_tags);
	r->e = r->old = NULL;
	r->chains = NULL;
	r->segs = NULL;
	r->seg_tags = NULL;
}
