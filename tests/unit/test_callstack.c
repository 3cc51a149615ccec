/* Call/return pairing (src/callstack.c) on branch sequences built by hand
 * for the cases the committed recordings do not reach (longjmp, returns
 * without calls, tail calls, trace end and begin, trace breaks, exec, the
 * idle task, retpolines); the expectations are perf's documented rules
 * (util/thread-stack.c, doc/formats.md), worked out by hand.  The common
 * paths are checked against perf's own database in
 * tests/golden/export_sqlite.test. */
#include "callstack.h"

#include <stdlib.h>
#include <string.h>

#include "formats/perf/abi.h"
#include "tests/tap.h"

/* symbols: 1 main at 0x1000, 2 f at 0x2000, 3 g at 0x3000, 4 h at 0x4000,
 * 5 a retpoline thunk at 0x5000 */
#define MAIN 1
#define F 2
#define G 3
#define H 4
#define THUNK 5

struct got {
	uint64_t sym, parent_sym, call_time, return_time, branches, call_ref, return_ref;
	uint32_t flags;
	int32_t tid, cpu;
	unsigned depth;
	uint64_t id, parent_id;
};

static struct got rows[64];
static size_t nrows;
static uint64_t last_id;

static int record(void *ctx, const struct ptd_call_return *cr, uint64_t *parent_db_id)
{
	struct got *g = &rows[nrows < 64 ? nrows++ : 63];
	const struct ptd_cpath *p;

	(void)ctx;
	memset(g, 0, sizeof(*g));
	g->sym = cr->cp->sym;
	g->parent_sym = cr->cp->parent ? cr->cp->parent->sym : 99;
	g->call_time = cr->call_time;
	g->return_time = cr->return_time;
	g->branches = cr->branch_count;
	g->call_ref = cr->call_ref;
	g->return_ref = cr->return_ref;
	g->flags = cr->flags;
	g->tid = cr->tid;
	g->cpu = cr->cpu;
	for (p = cr->cp; p->parent; p = p->parent)
		g->depth++;
	g->id = cr->db_id ? cr->db_id : ++last_id;
	if (parent_db_id) {
		if (!*parent_db_id)
			*parent_db_id = ++last_id;
		g->parent_id = *parent_db_id;
	}
	return 0;
}

static int thunk(void *ctx, uint64_t sym)
{
	(void)ctx;
	return sym == THUNK;
}

static uint64_t sym_of(uint64_t a)
{
	return a >= 0x1000 && a < 0x6000 ? a >> 12 : 0;
}

static uint64_t ref;

/* one branch of thread 1 (pid 1) at time t */
static void br(struct ptd_callstack *cs, uint64_t t, uint32_t flags, uint64_t ip, uint64_t addr)
{
	struct ptd_cs_branch b;

	memset(&b, 0, sizeof(b));
	b.pid = b.tid = 1;
	b.comm = 7;
	b.time = t;
	b.ip = ip;
	b.addr = addr;
	b.flags = flags | PTD_IPF_BRANCH;
	b.insn_len = 5;
	b.trace_nr = 1;
	b.ref = ++ref;
	b.from_sym = sym_of(ip);
	b.to_sym = sym_of(addr);
	b.to_sym_start = addr && !(addr & 0xfff);
	if (ptd_callstack_branch(cs, &b))
		ok(0, "branch at %" PRIu64 " processed", t);
}

static struct ptd_callstack *fresh(void)
{
	nrows = 0;
	last_id = 0;
	ref = 0;
	return ptd_callstack_new(1ULL << 63, record, thunk, NULL);
}

#define ROW(i, s, fl, ct, rt) (nrows > (i) && rows[i].sym == (s) && rows[i].flags == (fl) && \
			       rows[i].call_time == (ct) && rows[i].return_time == (rt))

int main(void)
{
	struct ptd_callstack *cs;
	struct ptd_cs_branch b;

	/* calls and returns; the bottom function ends at the end, unreturned */
	cs = fresh();
	br(cs, 10, PTD_IPF_CONDITIONAL, 0x1004, 0x1008);      /* in main: main at the bottom */
	br(cs, 11, PTD_IPF_CALL, 0x1010, 0x2000);             /* main calls f */
	br(cs, 12, PTD_IPF_CALL, 0x2010, 0x3000);             /* f calls g */
	br(cs, 13, PTD_IPF_RETURN, 0x3020, 0x2015);           /* g returns */
	br(cs, 14, PTD_IPF_RETURN, 0x2020, 0x1015);           /* f returns */
	ok(nrows == 2 && ROW(0, G, 0, 12, 13) && ROW(1, F, 0, 11, 14), "g then f return, flags 0");
	ok(rows[0].depth == 3 && rows[0].parent_sym == F && rows[1].parent_sym == MAIN,
	   "call paths main/f/g (depth %u)", rows[0].depth);
	ok(rows[0].parent_id == rows[1].id, "g's parent is f's call (ids %" PRIu64 ", %" PRIu64 ")",
	   rows[0].parent_id, rows[1].id);
	ok(rows[0].call_ref == 3 && rows[0].return_ref == 4 && rows[0].branches == 1,
	   "g: call and return samples 3 and 4, one branch");
	ok(rows[1].branches == 3, "f: 3 branches (%" PRIu64 ")", rows[1].branches);
	ptd_callstack_flush_all(cs);
	ok(nrows == 3 && ROW(2, MAIN, PTD_CR_NO_CALL | PTD_CR_NO_RETURN, 10, 14) && rows[2].return_ref == 0,
	   "the end: main ends as no call / no return at the last branch time");
	ptd_callstack_free(cs);

	/* longjmp: g returns straight to main, f ends unreturned */
	cs = fresh();
	br(cs, 10, PTD_IPF_CALL, 0x1010, 0x2000);
	br(cs, 11, PTD_IPF_CALL, 0x2010, 0x3000);
	br(cs, 12, PTD_IPF_RETURN, 0x3020, 0x1015);
	ok(nrows == 2 && ROW(0, G, PTD_CR_NO_RETURN, 11, 12) && ROW(1, F, 0, 10, 12),
	   "longjmp: g no return, f returns");
	ptd_callstack_free(cs);

	/* a return whose call was not seen, at the bottom: that function ends
	 * (no call); a return below the bottom: the caller is pushed, from
	 * pushed and popped at once */
	cs = fresh();
	br(cs, 10, PTD_IPF_RETURN, 0x3020, 0x2015);           /* g returns to f: g was the bottom */
	ok(nrows == 1 && ROW(0, G, PTD_CR_NO_CALL, 10, 10), "bottom return: g no call");
	br(cs, 11, PTD_IPF_CALL, 0x2030, 0x3000);             /* f (bottom now) calls g */
	br(cs, 12, PTD_IPF_RETURN, 0x3020, 0x2035);
	br(cs, 13, PTD_IPF_RETURN, 0x2040, 0x1015);           /* f returns to main */
	ok(nrows == 3 && ROW(1, G, 0, 11, 12) && ROW(2, F, PTD_CR_NO_CALL, 11, 13),
	   "then f, the new bottom, returns (no call)");
	br(cs, 14, PTD_IPF_RETURN, 0x1040, 0x4015);           /* main returns into h */
	ok(nrows == 4 && ROW(3, MAIN, PTD_CR_NO_CALL, 14, 14), "main, pushed as the bottom, returns at once (no call)");
	ptd_callstack_flush_all(cs);
	ok(nrows == 4, "nothing is left at the end (the target of a bottom return is not pushed)");
	ptd_callstack_free(cs);

	cs = fresh();
	br(cs, 10, PTD_IPF_CALL, 0x1010, 0x2000);             /* main calls f */
	br(cs, 11, PTD_IPF_RETURN, 0x3020, 0x4015);           /* g (never called) returns into h */
	ok(nrows == 1 && ROW(0, G, PTD_CR_NO_CALL, 11, 11) && rows[0].parent_sym == H &&
	   rows[0].depth == 4, "return matching nothing: g under h under f, ended at once");
	ptd_callstack_free(cs);

	/* a tail call (a jump to another function's start): ends with the
	 * return past it as "jump" (no return + non call) */
	cs = fresh();
	br(cs, 10, PTD_IPF_CALL, 0x1010, 0x2000);
	br(cs, 11, 0, 0x2010, 0x4000);                        /* f jumps to h */
	br(cs, 12, PTD_IPF_RETURN, 0x4020, 0x1015);           /* h returns to main */
	ok(nrows == 2 && ROW(0, H, PTD_CR_NO_RETURN | PTD_CR_NON_CALL, 11, 12) && ROW(1, F, 0, 10, 12),
	   "tail call: h is a jump (flags 6), f returns");
	br(cs, 13, 0, 0x1020, 0x1030);                        /* a jump inside main: nothing */
	ok(nrows == 2, "a jump within a function is no call");
	ptd_callstack_free(cs);

	/* trace end while f runs, trace begin: the marker entry ends */
	cs = fresh();
	br(cs, 10, PTD_IPF_CALL, 0x1010, 0x2000);
	br(cs, 11, PTD_IPF_TRACE_END, 0x2010, 0);
	br(cs, 12, PTD_IPF_TRACE_BEGIN, 0, 0x2010);
	ok(nrows == 1 && ROW(0, 0, 0, 11, 12) && rows[0].parent_sym == F, "trace end / begin marker");
	br(cs, 13, PTD_IPF_RETURN, 0x2020, 0x1015);
	ok(nrows == 2 && ROW(1, F, 0, 10, 13), "then f returns");
	ptd_callstack_free(cs);

	/* a break in the trace (new trace number): everything ends, unreturned */
	cs = fresh();
	br(cs, 10, PTD_IPF_CALL, 0x1010, 0x2000);
	br(cs, 11, PTD_IPF_CONDITIONAL, 0x2004, 0x2008);      /* sets the stack's trace number */
	memset(&b, 0, sizeof(b));
	b.pid = b.tid = 1;
	b.comm = 7;
	b.time = 20;
	b.ip = 0x3000;
	b.addr = 0x3004;
	b.flags = PTD_IPF_BRANCH;
	b.trace_nr = 2;
	b.from_sym = b.to_sym = G;
	ptd_callstack_branch(cs, &b);
	ok(nrows == 2 && ROW(0, F, PTD_CR_NO_RETURN, 10, 11) &&
	   ROW(1, MAIN, PTD_CR_NO_CALL | PTD_CR_NO_RETURN, 10, 11), "trace break flushes at the last time");
	/* an exec (the main thread's comm changes) flushes too */
	b.trace_nr = 2;
	b.comm = 8;
	b.time = 21;
	ptd_callstack_branch(cs, &b);
	ok(nrows == 3 && ROW(2, G, PTD_CR_NO_CALL | PTD_CR_NO_RETURN, 20, 20), "exec flushes");
	ptd_callstack_free(cs);

	/* the idle task has a stack per CPU */
	cs = fresh();
	memset(&b, 0, sizeof(b));
	b.flags = PTD_IPF_BRANCH | PTD_IPF_CALL;
	b.insn_len = 5;
	b.ip = 0x1010;
	b.addr = 0x2000;
	b.from_sym = MAIN;
	b.to_sym = F;
	b.to_sym_start = 1;
	b.cpu = 0;
	b.time = 1;
	ptd_callstack_branch(cs, &b);
	b.cpu = 1;
	b.ip = 0x3010;
	b.from_sym = G;
	b.time = 2;
	ptd_callstack_branch(cs, &b);
	ptd_callstack_flush_all(cs);
	ok(nrows == 4 && rows[0].cpu != rows[2].cpu && rows[0].depth + rows[1].depth == 3,
	   "idle task: one stack per CPU (%zu calls)", nrows);
	ptd_callstack_free(cs);

	/* an x86 retpoline: a call into the middle of the thunk marks it; the
	 * thunk's "return" to the real target replaces the thunk entry */
	cs = fresh();
	br(cs, 10, PTD_IPF_CALL, 0x1010, 0x2000);             /* main calls f */
	br(cs, 11, PTD_IPF_CALL, 0x2010, 0x5000);             /* f calls the thunk */
	br(cs, 12, PTD_IPF_CALL, 0x5000, 0x5010);             /* the thunk's inner call */
	br(cs, 13, PTD_IPF_RETURN, 0x5020, 0x4000);           /* its ret: to the target h */
	br(cs, 14, PTD_IPF_RETURN, 0x4020, 0x2015);           /* h returns to f */
	ok(nrows == 1 && ROW(0, H, 0, 11, 14) && rows[0].parent_sym == F,
	   "retpoline: the call is f -> h (%zu calls, sym %" PRIu64 ")", nrows, nrows ? rows[0].sym : 0);
	ptd_callstack_free(cs);
	return done_testing();
}
