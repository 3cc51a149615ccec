/* Facts of the test programs; see progfacts.h. */
#include "tests/unit/progfacts.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

/* Format a message and report it. */
static void check(fact_ok_fn ok, int cond, const char *fmt, ...)
{
	char msg[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ok(cond, msg);
}

int32_t main_tid(const struct result *r)
{
	return r->starts.len ? ((const struct tstart *)ptd_vec_at(&r->starts, 0))->tid : -1;
}

unsigned count_events(const struct result *r, const struct syms *s, int cls, const char *fsym,
		      const char *tsym, int outside)
{
	int32_t tid = main_tid(r);
	unsigned n = 0;

	for (size_t i = 0; i < r->evs.len; i++) {
		const struct rec *e = ptd_vec_at(&r->evs, i);
		const struct ptd_xev *ev = &e->ev;

		if (e->tid != tid || (cls >= 0 && ev->cls != cls))
			continue;
		if (fsym && !in_sym(s, fsym, ev->from))
			continue;
		if (tsym && tsym[0] == '=' ? ev->to != sym(s, tsym + 1) : tsym && !in_sym(s, tsym, ev->to))
			continue;
		if (outside && tsym && in_sym(s, tsym[0] == '=' ? tsym + 1 : tsym, ev->from))
			continue;
		n++;
	}
	return n;
}

void facts_loops(const struct result *r, const struct syms *s, const char *src, fact_ok_fn ok)
{
	uint64_t from[3] = {0};
	unsigned taken[3] = {0}, not[3] = {0}, k = 0;
	int32_t tid = main_tid(r);

	for (size_t i = 0; i < r->evs.len; i++) {
		const struct rec *e = ptd_vec_at(&r->evs, i);
		unsigned j;

		if (e->tid != tid || e->ev.cls != PTD_X_COND || !in_sym(s, "count_down", e->ev.from))
			continue;
		for (j = 0; j < k && from[j] != e->ev.from; j++)
			;
		if (j == k && k < 3)
			from[k++] = e->ev.from;
		if (j < 3)
			e->ev.taken ? taken[j]++ : not[j]++;
	}
	check(ok, k == 2 && ((taken[0] == 9980 && not[0] == 20 && taken[1] == 0 && not[1] == 10000) ||
			     (taken[1] == 9980 && not[1] == 20 && taken[0] == 0 && not[0] == 10000)),
	      "%s loops: count_down's jnz (b.ne) taken 9980 / not 20, je (b.eq) never taken (10000)", src);
	if (k >= 2)
		printf("#   %u branches: %u/%u, %u/%u\n", k, taken[0], not[0], taken[1], not[1]);
}

void facts_recursion(const struct result *r, const struct syms *s, const char *src, fact_ok_fn ok)
{
	unsigned calls = count_events(r, s, PTD_X_CALL, NULL, "=depth", 0);
	unsigned rets = count_events(r, s, PTD_X_RET, "depth", NULL, 0);

	check(ok, calls == 2001 && rets == 2001,
	      "%s recursion: 2001 calls of depth() and 2001 returns (%u, %u)", src, calls, rets);
	calls = count_events(r, s, PTD_X_CALL, NULL, "=fib", 0);
	check(ok, calls == 1973, "%s recursion: fib(15) is 1973 calls (%u)", src, calls);
}

void facts_indirect(const struct result *r, const struct syms *s, const char *src, fact_ok_fn ok)
{
	static const char *const ops[] = { "op_add", "op_sub", "op_mul", "op_xor", "op_and", "op_or" };
	unsigned icalls = 0, ijumps = count_events(r, s, PTD_X_IJUMP, "dispatch", NULL, 0);

	for (int i = 0; i < 6; i++) {
		char eq[16];
		snprintf(eq, sizeof(eq), "=%s", ops[i]);
		icalls += count_events(r, s, PTD_X_ICALL, "run", eq, 0);
	}
	check(ok, icalls == 600, "%s indirect: 600 indirect calls through the table (%u)", src, icalls);
	check(ok, ijumps == 600, "%s indirect: 600 jump-table jumps in dispatch (%u)", src, ijumps);
}

void facts_longjmp(const struct result *r, const struct syms *s, const char *src, fact_ok_fn ok)
{
	unsigned n = count_events(r, s, PTD_X_IJUMP, NULL, "run", 1);

	check(ok, n == 4, "%s longjmp: 4 indirect jumps from libc's __longjmp into run (%u)", src, n);
}

void facts_signals(const struct result *r, const struct syms *s, const char *src, fact_ok_fn ok)
{
	unsigned usr1 = count_events(r, s, PTD_X_SYSCALL, NULL, "=on_usr1", 0);
	unsigned alrm = count_events(r, s, PTD_X_SYSCALL, NULL, "=on_alrm", 0);
	unsigned async = count_events(r, s, PTD_X_ASYNC, NULL, NULL, 0);
	unsigned ill = count_events(r, s, PTD_X_ASYNC, "do_trap", "=on_ill", 0);

	check(ok, usr1 == 1 && alrm == 1,
	      "%s signals: SIGUSR1 and SIGALRM handlers entered on return from a system call (%u, %u)",
	      src, usr1, alrm);
	check(ok, async == 1 && ill == 1,
	      "%s signals: one PTD_X_ASYNC, from the ud2 (udf) in do_trap to on_ill (%u, %u)", src, async, ill);
}

void facts_sigalrm(const struct result *r, const struct syms *s, const char *src, fact_ok_fn ok)
{
	unsigned async = count_events(r, s, PTD_X_ASYNC, NULL, NULL, 0);
	unsigned tick = count_events(r, s, PTD_X_ASYNC, NULL, "=on_tick", 0);
	unsigned sys = count_events(r, s, PTD_X_SYSCALL, NULL, "=on_tick", 0);

	check(ok, tick + sys >= 20 && async == tick && async > 0,
	      "%s sigalrm: at least 20 ticks, %u of them asynchronous transfers to on_tick", src, tick);
	if (r->guessed || tick + sys < 20 || async != tick)
		printf("#   %u async, %u to on_tick, %u on syscall return, %" PRIu64 " guessed\n",
		       async, tick, sys, r->guessed);
	check(ok, r->guessed == 0, "%s sigalrm: no interrupted branch had to be guessed (%" PRIu64
	      " resolved when the handler returned)", src, r->deferred);
}

void facts_threads(const struct result *r, const struct syms *s, const char *src, fact_ok_fn ok)
{
	int ok_creator = 1;

	for (size_t i = 1; i < r->starts.len; i++) {
		const struct tstart *t = ptd_vec_at(&r->starts, i);
		ok_creator &= t->ppid == t->pid && t->ptid != 0 && t->tid != t->pid;
	}
	check(ok, r->starts.len == 4 && ok_creator, "%s threads: 4 threads started, 3 by the process (%zu)",
	      src, r->starts.len);
	(void)s;
}
