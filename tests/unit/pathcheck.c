/* Reported paths against the code; see pathcheck.h. */
#include "tests/unit/pathcheck.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define MAX_RUN 1000000   /* longest straight-line stretch we walk */

void pathcheck_start(struct pathcheck *pc, uint64_t ip)
{
	pc->pos = ip;
	pc->icount = 0;
}

/* Walk straight-line code from pc->pos to `to` (not executing the
 * instruction at `to`).  Returns the number of instructions, -1 on a
 * problem, -2 when the code cannot be read. */
static long walk(struct pathcheck *pc, uint64_t to)
{
	uint64_t ip = pc->pos;
	long n = 0;

	while (ip != to) {
		struct ptd_insn in;

		if (n >= MAX_RUN || ptd_classify_at(pc->cls, ip, pc->read, pc->rctx, &in, NULL) < 0)
			return n >= MAX_RUN ? -1 : -2;
		if (in.cls != PTD_X_NONE || (in.flags & PTD_INSN_FAULT)) {
			snprintf(pc->msg, sizeof(pc->msg),
				 "%s at %#" PRIx64 " on the way from %#" PRIx64 " to %#" PRIx64,
				 ptd_xclass_name(in.cls), ip, pc->pos, to);
			return -1;
		}
		ip += in.len;
		n++;
	}
	return n;
}

static int fail(struct pathcheck *pc, const struct ptd_xev *ev, const char *why)
{
	if (!pc->msg[0])
		snprintf(pc->msg, sizeof(pc->msg), "%s %#" PRIx64 "->%#" PRIx64 " icount %" PRIu64 ": %s",
			 ptd_xclass_name(ev->cls), ev->from, ev->to, ev->icount, why);
	return -1;
}

int pathcheck_event(struct pathcheck *pc, const struct ptd_xev *ev)
{
	long n;
	uint64_t want;

	n = walk(pc, ev->from);
	if (n == -2) {
		pc->skipped++;
		pc->pos = ev->to;
		pc->icount = ev->icount;
		return 0;
	}
	if (n < 0)
		return fail(pc, ev, "no straight line to it");
	want = pc->icount + (uint64_t)n + (ev->cls == PTD_X_ASYNC ? 0 : 1);
	if (ev->icount != want) {
		char why[64];
		snprintf(why, sizeof(why), "icount should be %" PRIu64, want);
		return fail(pc, ev, why);
	}
	if (ev->cls != PTD_X_ASYNC) {
		struct ptd_insn in;
		int rc = ptd_classify_at(pc->cls, ev->from, pc->read, pc->rctx, &in, NULL);

		if (rc == -PTD_E_NOTFOUND) {
			pc->skipped++;
			pc->pos = ev->to;
			pc->icount = ev->icount;
			return 0;
		}
		if (rc < 0 || in.cls != ev->cls || in.len != ev->insn_len)
			return fail(pc, ev, "the instruction there is not of that class or length");
		if ((ev->cls == PTD_X_COND && ev->to != in.target && ev->to != ev->from + in.len) ||
		    ((ev->cls == PTD_X_JUMP || ev->cls == PTD_X_CALL) && ev->to != in.target))
			return fail(pc, ev, "not the branch's target");
		if (ev->cls == PTD_X_COND && ev->taken != (ev->to != ev->from + in.len))
			return fail(pc, ev, "taken flag");
	}
	pc->pos = ev->to;
	pc->icount = ev->icount;
	pc->checked++;
	return 0;
}

int pathcheck_end(struct pathcheck *pc, uint64_t icount, uint64_t last_ip)
{
	long n;
	struct ptd_xev ev = { .cls = PTD_X_NCLASS, .from = last_ip, .to = last_ip, .icount = icount };

	/* the last instruction is a system call (exit) or a branch whose
	 * outcome is not known: last_ip is after it or at it */
	n = walk(pc, last_ip);
	if (n == -2)
		return 0;
	if (n >= 0 && pc->icount + (uint64_t)n == icount)
		return 0;
	pc->msg[0] = '\0';
	{
		struct ptd_insn in;
		uint64_t ip = pc->pos;
		uint64_t k = 0;

		/* count to the end of the straight line and accept an end just
		 * after its final system call */
		while (k < MAX_RUN && ptd_classify_at(pc->cls, ip, pc->read, pc->rctx, &in, NULL) == 0) {
			k++;
			if (in.cls != PTD_X_NONE) {
				if (ip + in.len == last_ip && pc->icount + k == icount)
					return 0;
				break;
			}
			ip += in.len;
		}
	}
	return fail(pc, &ev, "thread end does not follow from the last event");
}
