/* The call views' aggregation on inputs built by hand: the folded stacks
 * (formats/out/folded.c) follow stackcollapse.py's rules (its source:
 * comm spaces to '_', ';' in names to ':', None to "[unknown]", outermost
 * first, sorted, counted), the latency report (src/latency.c) the rules
 * doc/formats.md gives (complete calls only, nearest-rank percentiles,
 * power-of-two buckets).  perf's scripts on real recordings are the
 * oracle in tests/golden/views.test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callstack.h"
#include "formats/out/folded.h"
#include "latency.h"
#include "tests/tap.h"

/* what a printer wrote to a temporary file */
static char *printed(int (*fn)(void *, FILE *), void *obj)
{
	static char buf[8192];
	FILE *f = tmpfile();
	size_t n;

	if (!f)
		return NULL;
	if (fn(obj, f)) {
		fclose(f);
		return NULL;
	}
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static int print_folded(void *o, FILE *f) { return ptd_folded_print(o, f); }
static int print_latency(void *o, FILE *f) { return ptd_latency_print(o, f); }

static void test_folded(void)
{
	struct ptd_folded *f = ptd_folded_new();
	const char *a[] = { "leaf", "mid", "main" };
	const char *b[] = { NULL, "a;b", "main" };
	const char *out;

	ok(f != NULL, "folded: created");
	ok(!ptd_folded_add(f, "my prog", a, 3), "folded: add");
	ok(!ptd_folded_add(f, "my prog", a, 3), "folded: add the same stack");
	ok(!ptd_folded_add(f, "my prog", a, 2), "folded: add a shorter one");
	ok(!ptd_folded_add(f, NULL, b, 3), "folded: add one without comm and symbol");
	ok(!ptd_folded_add(f, "x", a, 0), "folded: add an empty chain");
	out = printed(print_folded, f);
	is_str(out, "[unknown];main;a:b;[unknown] 1\n"
		    "my_prog;main;mid;leaf 2\n"
		    "my_prog;mid;leaf 1\n"
		    "x 1\n", "folded: escaped, outermost first, counted, sorted");
	ptd_folded_free(f);
}

static void test_latency(void)
{
	struct ptd_latency *l = ptd_latency_new("f");
	uint64_t d;
	const char *out;

	ok(l != NULL, "latency: created");
	for (d = 1; d <= 10; d++)
		ptd_latency_add(l, "f", 1000, 1000 + d * 100, d == 5 ? PTD_CR_NON_CALL : 0);
	ptd_latency_add(l, "f", 0, 99999, PTD_CR_NO_RETURN);   /* not counted */
	ptd_latency_add(l, "g", 0, 7, 0);                       /* another symbol */
	ptd_latency_add(l, NULL, 0, 7, 0);
	out = printed(print_latency, l);
	/* 100..1000: p50 the 5th (500), p90 the 9th, p99 and p99.9 the 10th;
	 * buckets [64,127]: 100; [128,255]: 200; [256,511]: 300 400 500;
	 * [512,1023]: 600..1000; bars 40 * count / 5 */
	is_str(out, "latency of f: 10 calls (and 1 without their call or return, not counted)\n"
		    "min 100 ns, avg 550.0 ns, max 1000 ns\n"
		    "p50 500 ns, p90 900 ns, p99 1000 ns, p99.9 1000 ns\n"
		    "                  ns : count      distribution\n"
		    "           64 -> 127 : 1          |********                                |\n"
		    "          128 -> 255 : 1          |********                                |\n"
		    "          256 -> 511 : 3          |************************                |\n"
		    "         512 -> 1023 : 5          |****************************************|\n",
	       "latency: counts, percentiles and histogram");
	ptd_latency_free(l);
	l = ptd_latency_new("none");
	out = printed(print_latency, l);
	is_str(out, "latency of none: 0 calls\n", "latency: a symbol never called");
	ptd_latency_free(l);
}

int main(void)
{
	test_folded();
	test_latency();
	return done_testing();
}
