/* The recorder's execution sources (tools/record): qemu's exec log and
 * ptrace single-stepping must report the same path.
 *
 * Each test program (tests/programs) runs under both sources with an empty
 * environment, the same argv[0] and no address randomization.  The whole
 * runs cannot be compared: libc's startup takes different paths under qemu
 * (cpuid answers differ, so ifunc choices and cache-size loops differ;
 * qemu 7.2 has no rseq, set_robust_list or clone3 and no vDSO), and thread
 * creation and joining depend on timing.  What is compared is each
 * program's own deterministic part: the events of one call of `run` (and
 * of `work` in every thread of the threads program), from the event that
 * enters the function to the return to its caller, with instruction
 * counts relative to the entering event.  These must be identical.  Then
 * facts each program knows about itself are checked, and invariants every
 * report must satisfy (order of callbacks, icounts, branch targets).
 *
 * Needs qemu-x86_64 and ptrace; what cannot run is skipped with the reason. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tap.h"
#include "tests/unit/progfacts.h"
#include "tests/unit/xrecord.h"
#include "tools/record/classify.h"

/* ---- checks reported through TAP ---- */

static void check_invariants(struct result *r, const char *what)
{
	char msg[256];
	size_t n = invariants(r, msg, sizeof(msg));

	ok(n == 0, "%s: callbacks in order, icounts increase, branches consistent", what);
	if (n)
		printf("#   %zu problems, first: %s\n", n, msg);
}

/* Every thread's events must walk through the program's code. */
static void check_path(struct result *r, const char *path, const char *what)
{
	char msg[300];
	size_t checked, skipped;
	int rc = walk_path(r, path, msg, sizeof(msg), &checked, &skipped);

	ok(rc == 0 && checked > 0, "%s: path walks through the code (%zu events, %zu in code not in the file)",
	   what, checked, skipped);
	if (rc)
		printf("#   %s\n", msg);
}

static int same_window(const struct ptd_vec *a, const struct ptd_vec *b, const char *what)
{
	size_t n = a->len < b->len ? a->len : b->len;

	for (size_t i = 0; i < n; i++) {
		const struct ptd_xev *x = ptd_vec_at(a, i), *y = ptd_vec_at(b, i);
		if (x->cls != y->cls || x->taken != y->taken || x->insn_len != y->insn_len ||
		    x->from != y->from || x->to != y->to || x->icount != y->icount) {
			ok(0, "%s: same path", what);
			printf("#   event %zu: qemu %s %d %#" PRIx64 "->%#" PRIx64 " ic %" PRIu64
			       ", ptrace %s %d %#" PRIx64 "->%#" PRIx64 " ic %" PRIu64 "\n", i,
			       ptd_xclass_name(x->cls), x->taken, x->from, x->to, x->icount,
			       ptd_xclass_name(y->cls), y->taken, y->from, y->to, y->icount);
			return 0;
		}
	}
	if (a->len != b->len) {
		ok(0, "%s: same path", what);
		printf("#   qemu %zu events, ptrace %zu\n", a->len, b->len);
		return 0;
	}
	ok(a->len > 0, "%s: same path (%zu events, %" PRIu64 " instructions)", what, a->len,
	   a->len ? ((struct ptd_xev *)ptd_vec_at(a, a->len - 1))->icount : 0);
	return 1;
}

/* ---- facts the programs know about themselves (progfacts.h) ---- */

enum { Q, P };   /* results[Q]: qemu, results[P]: ptrace */
static const char *const srcname[2] = { "qemu", "ptrace" };

static void fact_ok(int cond, const char *msg)
{
	ok(cond, "%s", msg);
}

/* Windows of `work` in every thread, ordered by length. */
static size_t work_windows(const struct result *r, const struct syms *s, struct ptd_vec w[4])
{
	size_t n = 0;

	for (size_t i = 0; i < r->starts.len && n < 4; i++) {
		const struct tstart *t = ptd_vec_at(&r->starts, i);
		if (window(r, t->tid, sym(s, "work"), s, &w[n]))
			n++;
	}
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && w[j].len < w[j - 1].len; j--) {
			struct ptd_vec t = w[j];
			w[j] = w[j - 1];
			w[j - 1] = t;
		}
	return n;
}

/* ---- driver ---- */

static int have[2] = { 1, 1 };
static char why_not[2][200];
static char progdir[4096];
static struct ptd_vec loops_window = PTD_VEC_INIT(sizeof(struct ptd_xev));
static struct syms loops_syms;

static void skip(const char *what, const char *why)
{
	tap_n++;
	printf("ok %d - %s # SKIP %s\n", tap_n, what, why);
}

/* Record prog under both sources; r[Q], r[P] are valid when have[] is. */
static int record_both(const char *prog, struct result r[2])
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", progdir, prog);
	for (int k = Q; k <= P; k++) {
		result_init(&r[k]);
		if (!have[k])
			continue;
		record(&r[k], path, k == Q);
		if (r[k].rc == -PTD_E_UNSUPPORTED && !r[k].evs.len) {
			have[k] = 0;
			snprintf(why_not[k], sizeof(why_not[k]), "%.190s", r[k].err.msg);
			continue;
		}
		ok(r[k].rc == 0, "%s runs %s", srcname[k], prog);
		if (r[k].rc)
			printf("#   %s\n", r[k].err.msg);
		printf("# %s %s: %" PRIu64 " instructions, %zu events in %.2f s (%.0f instructions/s)\n",
		       srcname[k], prog, r[k].insns, r[k].evs.len, r[k].secs,
		       r[k].secs > 0 ? (double)r[k].insns / r[k].secs : 0.0);
		check_invariants(&r[k], srcname[k]);
		if (!r[k].rc)
			check_path(&r[k], path, srcname[k]);
	}
	return 0;
}

/* Record prog under both sources, check the facts, and compare the paths
 * of run() (threads: of work() in each thread) unless compare is 0. */
static void program(const char *prog, const char *const names[],
		    void (*facts)(const struct result *, const struct syms *, const char *, fact_ok_fn),
		    int compare)
{
	struct result r[2];
	struct syms s;
	char path[4200];
	struct ptd_vec w[2] = { PTD_VEC_INIT(sizeof(struct ptd_xev)), PTD_VEC_INIT(sizeof(struct ptd_xev)) };

	snprintf(path, sizeof(path), "%s/%s", progdir, prog);
	if (load_syms(&s, path, names) < 0) {
		ok(0, "%s: built, with symbols", prog);
		return;
	}
	record_both(prog, r);
	for (int k = Q; k <= P; k++) {
		if (!have[k])
			skip(prog, why_not[k]);
		else if (r[k].rc == 0)
			facts(&r[k], &s, srcname[k], fact_ok);
	}
	if (have[Q] && have[P] && !r[Q].rc && !r[P].rc) {
		size_t same = 0;

		for (size_t i = 0; i < r[Q].maps.len; i++) {
			const struct mapping *m = ptd_vec_at(&r[Q].maps, i);
			for (size_t j = 0; j < r[P].maps.len; j++) {
				const struct mapping *n = ptd_vec_at(&r[P].maps, j);
				if (m->start == n->start && m->len == n->len && m->prot == n->prot &&
				    !strcmp(m->path, n->path)) {
					same++;
					break;
				}
			}
		}
		ok(!strcmp(r[Q].comm, r[P].comm) && r[Q].maps.len > 0 && same == r[Q].maps.len,
		   "%s: same comm (%s) and the program's mappings under both", prog, r[Q].comm);
	}
	if (!compare) {
		/* nothing to compare */
	} else if (have[Q] && have[P] && !r[Q].rc && !r[P].rc) {
		if (!strcmp(prog, "threads")) {
			struct ptd_vec qw[4], pw[4];
			size_t nq, np;
			int same = 1;

			for (int i = 0; i < 4; i++)
				qw[i] = pw[i] = (struct ptd_vec)PTD_VEC_INIT(sizeof(struct ptd_xev));
			nq = work_windows(&r[Q], &s, qw);
			np = work_windows(&r[P], &s, pw);
			ok(nq == 3 && np == 3, "threads: work() runs in 3 threads under both (%zu, %zu)", nq, np);
			for (size_t i = 0; i < nq && i < np && same; i++) {
				char what[64];
				snprintf(what, sizeof(what), "threads: work() window %zu", i);
				same = same_window(&qw[i], &pw[i], what);
			}
			for (int i = 0; i < 4; i++) {
				ptd_vec_fini(&qw[i]);
				ptd_vec_fini(&pw[i]);
			}
		} else {
			char what[64];

			snprintf(what, sizeof(what), "%s: run()", prog);
			window(&r[Q], main_tid(&r[Q]), sym(&s, "run"), &s, &w[Q]);
			window(&r[P], main_tid(&r[P]), sym(&s, "run"), &s, &w[P]);
			same_window(&w[Q], &w[P], what);
		}
	} else {
		skip("paths compared", !have[Q] ? why_not[Q] : !have[P] ? why_not[P] : "a source failed");
	}
	if (!strcmp(prog, "loops") && have[Q] && !r[Q].rc) {
		loops_syms = s;
		window(&r[Q], main_tid(&r[Q]), sym(&s, "run"), &s, &loops_window);
	}
	ptd_vec_fini(&w[Q]);
	ptd_vec_fini(&w[P]);
	result_fini(&r[Q]);
	result_fini(&r[P]);
}

/* loops built dynamically: ptrace only; its run() must match the static
 * build's under qemu, symbol by symbol. */
static void dynamic(void)
{
	static const char *const names[] = { "run", "count_down", "nested", "main", NULL };
	char path[4200];
	struct result r;
	struct syms s;
	struct ptd_vec w = PTD_VEC_INIT(sizeof(struct ptd_xev));
	int vdso = 0, libc = 0;

	snprintf(path, sizeof(path), "%s/loops-dyn", progdir);
	if (load_syms(&s, path, names) < 0) {
		ok(0, "loops-dyn: built, with symbols");
		return;
	}
	if (have[Q]) {
		record(&r, path, 1);
		ok(r.rc == -PTD_E_UNSUPPORTED, "qemu refuses a dynamically linked program (%s)", r.err.msg);
		result_fini(&r);
	}
	if (!have[P]) {
		skip("loops-dyn under ptrace", why_not[P]);
		return;
	}
	record(&r, path, 0);
	ok(r.rc == 0, "ptrace runs loops-dyn");
	if (r.rc)
		printf("#   %s\n", r.err.msg);
	printf("# ptrace loops-dyn: %" PRIu64 " instructions in %.2f s (%.0f instructions/s)\n", r.insns,
	       r.secs, r.secs > 0 ? (double)r.insns / r.secs : 0.0);
	check_invariants(&r, "ptrace loops-dyn");
	check_path(&r, path, "ptrace loops-dyn");
	for (size_t i = 0; i < r.maps.len; i++) {
		const struct mapping *m = ptd_vec_at(&r.maps, i);
		vdso |= !strcmp(m->path, "[vdso]");
		libc |= strstr(m->path, "/libc.so") != NULL;
	}
	ok(vdso && libc, "ptrace loops-dyn: libc and [vdso] mappings reported");
	facts_loops(&r, &s, "ptrace (dynamic)", fact_ok);
	window(&r, main_tid(&r), sym(&s, "run"), &s, &w);
	if (loops_window.len)
		same_window(&loops_window, &w, "loops-dyn run() under ptrace vs static loops under qemu");
	else
		skip("loops-dyn vs loops", "no qemu window of the static loops");
	ptd_vec_fini(&w);
	result_fini(&r);
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
	program("loops", loops, facts_loops, 1);
	program("recursion", recursion, facts_recursion, 1);
	program("indirect", indirect, facts_indirect, 1);
	program("longjmp", longjmp_, facts_longjmp, 1);
	program("signals", signals, facts_signals, 1);
	program("threads", threads, facts_threads, 1);
	program("sigalrm", sigalrm, facts_sigalrm, 0);
	dynamic();
	printf("# all sources and programs in %.1f s\n", now() - t0);
	ptd_vec_fini(&loops_window);
	return done_testing();
}
