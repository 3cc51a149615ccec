/* The recorder's qemu source on AArch64 programs: the test programs of
 * tests/programs built for AArch64 (NAME-a64, static, non-PIE) run under
 * qemu-aarch64.
 *
 * ptrace cannot run AArch64 code here, so there is no second source to
 * compare with; the proof is the code itself: every thread's reported
 * path must walk through the executable's instructions (straight-line
 * code between events, the instruction counts, each event's class and
 * target; tests/unit/pathcheck.h), including qemu's sigreturn trampoline
 * (reported as [vdso]), with no event left unchecked.  Then the facts each
 * program knows about itself (tests/unit/progfacts.h, as for x86-64), the
 * callback invariants, the reported mappings, the trampoline's use, and,
 * on blockends-a64, that the walker's blocks end where qemu's do.
 *
 * Needs the programs (configure's aarch64-linux-gnu-gcc) and qemu-aarch64;
 * what cannot run is skipped with the reason. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/tap.h"
#include "tests/unit/progfacts.h"
#include "tests/unit/xrecord.h"
#include "tools/record/classify.h"
#include "tools/record/elfimage.h"
#include "tools/record/exec_qemu.h"

static char progdir[4096];
static char no_qemu[200];    /* why qemu-aarch64 cannot run, once known */

static void skip(const char *what, const char *why)
{
	tap_n++;
	printf("ok %d - %s # SKIP %s\n", tap_n, what, why);
}

static void fact_ok(int cond, const char *msg)
{
	ok(cond, "%s", msg);
}

/* The reported mapping named name, or NULL. */
static const struct mapping *find_map(const struct result *r, const char *name)
{
	for (size_t i = 0; i < r->maps.len; i++) {
		const struct mapping *m = ptd_vec_at(&r->maps, i);
		if (!strcmp(m->path, name))
			return m;
	}
	return NULL;
}

/* The executable's code segments are the mappings reported for it, with
 * its name as comm; qemu's trampoline page is reported as [vdso]. */
static void check_maps(const struct result *r, const char *path, const char *prog)
{
	struct ptd_elfimage *img = NULL;
	struct ptd_err err = {0};
	char comm[16];
	size_t same = 0, n = 0;
	const struct mapping *v = find_map(r, "[vdso]");

	snprintf(comm, sizeof(comm), "%.15s", prog);   /* as the kernel truncates */
	if (ptd_elfimage_open(&img, path, &err) < 0) {
		ok(0, "%s: mappings (%s)", prog, err.msg);
		return;
	}
	n = ptd_elfimage_nmaps(img);
	for (size_t i = 0; i < n; i++) {
		const struct ptd_xmap *x = ptd_elfimage_map(img, i);
		for (size_t j = 0; j < r->maps.len; j++) {
			const struct mapping *m = ptd_vec_at(&r->maps, j);
			if (m->start == x->start && m->len == x->len && m->prot == x->prot &&
			    !strcmp(m->path, ptd_elfimage_path(img)))
				same++;
		}
	}
	ok(!strcmp(r->comm, comm) && n > 0 && same == n && v && v->len == 4096 && r->maps.len == n + 1,
	   "%s: comm %s, the executable's %zu code mappings and qemu's trampoline page as [vdso]", prog,
	   r->comm, n);
	ptd_elfimage_free(img);
}

/* Events into and out of the trampoline: handler returns to its start,
 * rt_sigreturns from its second instruction, as many of each as the
 * handlers that returned: want (at least want when more may come). */
static void check_tramp(const struct result *r, const char *prog, unsigned want, int at_least)
{
	const struct mapping *v = find_map(r, "[vdso]");
	unsigned in = 0, out = 0, other = 0;

	for (size_t i = 0; v && i < r->evs.len; i++) {
		const struct ptd_xev *ev = &((const struct rec *)ptd_vec_at(&r->evs, i))->ev;
		int from = ev->from >= v->start && ev->from < v->start + v->len;
		int to = ev->to >= v->start && ev->to < v->start + v->len;

		if (to && !from && ev->cls == PTD_X_RET && ev->to == v->start)
			in++;
		else if (from && !to && ev->cls == PTD_X_SYSCALL && ev->from == v->start + 4)
			out++;
		else if (from || to)
			other++;
	}
	ok(v && (at_least ? in >= want : in == want) && out == in && other == 0,
	   "%s: %s%u handler returns into qemu's trampoline, as many rt_sigreturns out of it "
	   "(%u, %u, %u other)", prog, at_least ? "at least " : "", want, in, out, other);
}

/* blockends-a64: one thread, no signal; its loop runs 3 times.  Every
 * block qemu ended must be one the walker decoded, except those after
 * yield and wfe (single-threaded only): 6 early ends, no asynchronous
 * transfer, and every instruction counted. */
static void check_blockends(const struct result *r, const struct syms *s)
{
	uint64_t n = s->size[0] / 4, icount = 0;
	unsigned async = count_events(r, s, PTD_X_ASYNC, NULL, NULL, 0);
	unsigned taken = 0, not = 0;

	for (size_t i = 0; i < r->evs.len; i++) {
		const struct ptd_xev *ev = &((const struct rec *)ptd_vec_at(&r->evs, i))->ev;
		if (ev->cls == PTD_X_COND)
			ev->taken ? taken++ : not++;
	}
	if (r->ends.len)
		icount = ((const struct tend *)ptd_vec_at(&r->ends, 0))->icount;
	/* _start: mov, the loop (n - 4 instructions), mov, mov, svc */
	ok(async == 0 && taken == 2 && not == 1 && icount == 1 + 3 * (n - 4) + 3,
	   "blockends: no asynchronous transfer, the loop branch taken 2 / not 1, %" PRIu64
	   " instructions (%u, %u/%u, %" PRIu64 ")", 1 + 3 * (n - 4) + 3, async, taken, not, icount);
	ok(r->splits == 6, "blockends: qemu ended blocks early only after yield and wfe (%" PRIu64
	   " early ends, want 6)", r->splits);
}

/* Run one program and check it; facts may be NULL. */
static void program(const char *name, const char *const names[],
		    void (*facts)(const struct result *, const struct syms *, const char *, fact_ok_fn),
		    unsigned tramp_returns, int at_least)
{
	char prog[64], path[4200], why[300];
	struct result r;
	struct syms s;
	size_t checked, skipped;
	int rc;

	snprintf(prog, sizeof(prog), "%s-a64", name);
	snprintf(path, sizeof(path), "%s/%s", progdir, prog);
	if (access(path, R_OK) != 0) {
		snprintf(why, sizeof(why), "%s not built (configure found no aarch64-linux-gnu-gcc)", prog);
		skip(prog, why);
		return;
	}
	if (no_qemu[0]) {
		skip(prog, no_qemu);
		return;
	}
	if (load_syms(&s, path, names) < 0) {
		ok(0, "%s: built, with symbols", prog);
		return;
	}
	record(&r, path, 1);
	if (r.rc == -PTD_E_UNSUPPORTED && !r.evs.len) {
		snprintf(no_qemu, sizeof(no_qemu), "%.190s", r.err.msg);
		skip(prog, no_qemu);
		result_fini(&r);
		return;
	}
	ok(r.rc == 0, "qemu-aarch64 runs %s", prog);
	if (r.rc)
		printf("#   %s\n", r.err.msg);
	printf("# %s: %" PRIu64 " instructions, %zu events, %zu threads in %.2f s (%.0f instructions/s), "
	       "%" PRIu64 " early block ends\n", prog, r.insns, r.evs.len, r.starts.len, r.secs,
	       r.secs > 0 ? (double)r.insns / r.secs : 0.0, r.splits);
	{
		char msg[256];
		size_t n = invariants(&r, msg, sizeof(msg));

		ok(n == 0, "%s: callbacks in order, icounts increase, branches consistent", prog);
		if (n)
			printf("#   %zu problems, first: %s\n", n, msg);
	}
	rc = walk_path(&r, path, why, sizeof(why), &checked, &skipped);
	ok(rc == 0 && checked > 0 && skipped == 0,
	   "%s: path walks through the code (%zu events checked, %zu not)", prog, checked, skipped);
	if (rc)
		printf("#   %s\n", why);
	check_maps(&r, path, prog);
	if (facts)
		facts(&r, &s, "qemu-aarch64", fact_ok);
	check_tramp(&r, prog, tramp_returns, at_least);
	if (!strcmp(name, "blockends"))
		check_blockends(&r, &s);
	result_fini(&r);
}

static int nop_start(void *ctx, int32_t pid, int32_t tid, int32_t ppid, int32_t ptid, uint64_t ip)
{
	return 0;
}

static int nop_event(void *ctx, int32_t tid, const struct ptd_xev *ev)
{
	return 0;
}

static int nop_end(void *ctx, int32_t tid, uint64_t icount, uint64_t last_ip)
{
	return 0;
}

static int nop_mmap(void *ctx, int32_t pid, int32_t tid, const struct ptd_xmap *m)
{
	return 0;
}

static int nop_comm(void *ctx, int32_t pid, int32_t tid, const char *comm)
{
	return 0;
}

/* Without opts->arches asking for AArch64 the source refuses it (the
 * Intel PT recorder, ptd_exec_qemu's user, encodes x86-64 only). */
static void default_refuses(void)
{
	struct ptd_xsink sink = { NULL, nop_start, nop_event, nop_end, nop_mmap, nop_comm };
	struct ptd_err err = {0};
	char path[4200];
	const char *argv[] = { path, NULL };
	int rc;

	snprintf(path, sizeof(path), "%s/loops-a64", progdir);
	if (access(path, R_OK) != 0) {
		skip("default options refuse AArch64", "loops-a64 not built");
		return;
	}
	rc = ptd_exec_qemu(argv, &sink, &err);
	ok(rc == -PTD_E_UNSUPPORTED, "ptd_exec_qemu's defaults refuse an AArch64 program (%s)", err.msg);
}

int main(void)
{
	static const char *const loops[] = { "run", "count_down", "nested", "main", NULL };
	static const char *const recursion[] = { "run", "depth", "fib", "ack", NULL };
	static const char *const indirect[] = { "run", "dispatch", "op_add", "op_sub", "op_mul", "op_xor",
						"op_and", "op_or", NULL };
	static const char *const longjmp_[] = { "run", "level1", "level2", "level3", NULL };
	static const char *const signals[] = { "run", "on_usr1", "on_alrm", "on_ill", "do_trap", NULL };
	static const char *const threads[] = { "run", "work", NULL };
	static const char *const sigalrm[] = { "run", "rec", "on_tick", NULL };
	static const char *const blockends[] = { "_start", NULL };
	const char *top = getenv("top_builddir");
	double t0 = now();

	if (!top || !*top)
		top = ".";
	snprintf(progdir, sizeof(progdir), "%s/tests/programs", top);
	{
		char *abs = realpath(progdir, NULL);
		if (abs) {
			snprintf(progdir, sizeof(progdir), "%s", abs);
			free(abs);
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	program("loops", loops, facts_loops, 0, 0);
	program("recursion", recursion, facts_recursion, 0, 0);
	program("indirect", indirect, facts_indirect, 0, 0);
	program("longjmp", longjmp_, facts_longjmp, 0, 0);
	/* on_usr1 and on_alrm return; on_ill leaves with siglongjmp */
	program("signals", signals, facts_signals, 2, 0);
	program("threads", threads, facts_threads, 0, 0);
	program("sigalrm", sigalrm, facts_sigalrm, 20, 1);
	program("blockends", blockends, NULL, 0, 0);
	default_refuses();
	printf("# all AArch64 programs in %.1f s\n", now() - t0);
	return done_testing();
}
