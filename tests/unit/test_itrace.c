/* perf's --itrace options (src/itrace.h) against perf 6.1 itself.
 *
 * Each row is a sequence of perf script options and what perf did with
 * them, written down from running
 *   perf script -i testdata/record/loops.data --symfs testdata/record \
 *       OPTIONS -F event | sort | uniq -c
 * (perf 6.1.192; recursion-faults.data for call chains: the deepest chain
 * printed; -F ip,brstack for last branches: the most entries on a line).
 * `perf` below is that evidence: the events and counts it printed, or the
 * first line of its error (it then prints its usage and exits 129).  The
 * whole recording is 100174 instructions, 15265 branches, of which 227
 * calls and 222 returns, 3 psb and 1 cbr power events; no decoder errors.
 * `want` is the options that behaviour means (ptd_itrace_format), or the
 * message.  The live comparison with perf is tests/golden/itrace_errors.test. */
#include <stdlib.h>
#include <string.h>

#include "itrace.h"
#include "tests/tap.h"

struct row {
	const char *opt[3];   /* perf script options, in order; none: no option */
	int rc;               /* 0 or -PTD_E_* */
	const char *want;     /* ptd_itrace_format of the result, or the message */
	const char *perf;     /* what perf printed */
};

#define BAD(s) { { "--itrace=" s }, -PTD_E_INVAL, "Bad Instruction Tracing options '" s "'", \
		 "Bad Instruction Tracing options '" s "'" }

static const struct row rows[] = {
	/* perf script's defaults */
	{ { "--itrace" }, 0, "bcxwpoIefmtaM set no_sample period=1i g=16 l=64 s=0 q=0",
	  "psb=3 cbr=1 branches=227: as with no --itrace" },
	{ { "--itrace=" }, 0, "- set no_sample period=0i g=0 l=0 s=0 q=0", "no events" },
	{ { "--itrace= , " }, 0, "- set no_sample period=0i g=0 l=0 s=0 q=0", "no events, no error" },
	/* instructions and their period */
	{ { "--itrace=i" }, 0, "i set no_sample period=100000ns g=0 l=0 s=0 q=0",
	  "instructions=1, as i100us and i100000ns (i10us: 8, i1us: 106)" },
	{ { "--itrace=i10" }, 0, "i set no_sample period=10ns g=0 l=0 s=0 q=0",
	  "instructions=6278, as i10ns" },
	{ { "--itrace=i1000" }, 0, "i set no_sample period=1000ns g=0 l=0 s=0 q=0",
	  "instructions=106, as i1000ns and i1us" },
	{ { "--itrace=i1i" }, 0, "i set no_sample period=1i g=0 l=0 s=0 q=0", "instructions=100174" },
	{ { "--itrace=i10i" }, 0, "i set no_sample period=10i g=0 l=0 s=0 q=0", "instructions=10017" },
	{ { "--itrace=i0ns" }, 0, "i set no_sample period=0ns g=0 l=0 s=0 q=0",
	  "instructions=100174: period 0 is every instruction" },
	{ { "--itrace=i,,10,,i" }, 0, "i set no_sample period=10i g=0 l=0 s=0 q=0",
	  "instructions=10017, as i10i, 'i 10 i', 'i10 i'" },
	{ { "--itrace=i10 ,us" }, 0, "i set no_sample period=10000ns g=0 l=0 s=0 q=0",
	  "instructions=8, as i10us" },
	{ { "--itrace=i3t" }, 0, "i set no_sample period=3t g=0 l=0 s=0 q=0",
	  "instructions=50089 (i1t: 100174, i1: 50089: ticks, not ns)" },
	{ { "--itrace=i1ms" }, 0, "i set no_sample period=1000000ns g=0 l=0 s=0 q=0",
	  "no events (the trace is shorter than 1 ms), no error" },
	{ { "--itrace=i18446744073709551616ms" }, 0,
	  "i set no_sample period=18446744073708551616ns g=0 l=0 s=0 q=0",
	  "no events, no error (strtoull's ULLONG_MAX * 1000000, wrapped)" },
	{ { "--itrace=i10msb" }, 0, "ib set no_sample period=10000000ns g=0 l=0 s=0 q=0",
	  "branches=15265 and no instructions" },
	/* branches */
	{ { "--itrace=b" }, 0, "b set no_sample period=0i g=0 l=0 s=0 q=0", "branches=15265" },
	{ { "--itrace=c" }, 0, "bc set no_sample period=0i g=0 l=0 s=0 q=0", "branches=227" },
	{ { "--itrace=r" }, 0, "br set no_sample period=0i g=0 l=0 s=0 q=0", "branches=222" },
	{ { "--itrace=b c" }, 0, "bc set no_sample period=0i g=0 l=0 s=0 q=0",
	  "branches=227: c limits b's branches too" },
	{ { "--itrace=cr" }, 0, "bcr set no_sample period=0i g=0 l=0 s=0 q=0", "branches=449" },
	{ { "--itrace=cewp" }, 0, "bcwpe set no_sample period=0i g=0 l=0 s=0 q=0",
	  "psb=3 cbr=1 branches=227" },
	{ { "--itrace=ibxwpoIefmtaMqAZ" }, 0,
	  "ibxwpoIefmtaMAZ set no_sample period=100000ns g=0 l=0 s=0 q=1",
	  "psb=3 cbr=1 branches=17 instructions=89, no error" },
	{ { "--itrace=cewpqq" }, 0, "bcwpe set no_sample period=0i g=0 l=0 s=0 q=2",
	  "psb=3 cbr=1, no branches (cewpq: the same)" },
	/* call chains: the deepest chain perf printed */
	{ { "--itrace=i100ig4" }, 0, "ig set no_sample period=100i g=4 l=0 s=0 q=0", "depth 4" },
	{ { "--itrace=i100ig4g" }, 0, "ig set no_sample period=100i g=16 l=0 s=0 q=0",
	  "depth 16, as i100ig" },
	{ { "--itrace=i100ig4G" }, 0, "igG set no_sample period=100i g=16 l=0 s=0 q=0", "depth 16" },
	{ { "--itrace=i100ig 3" }, 0, "ig set no_sample period=100i g=3 l=0 s=0 q=0",
	  "depth 3, as i100ig,3" },
	{ { "--itrace=i100ig4294967298" }, 0, "ig set no_sample period=100i g=2 l=0 s=0 q=0",
	  "depth 2" },
	{ { "--itrace=i100ig1024" }, 0, "ig set no_sample period=100i g=1024 l=0 s=0 q=0",
	  "depth 1024" },
	/* last branches: the most brstack entries on a line */
	{ { "--itrace=i1000il" }, 0, "il set no_sample period=1000i g=0 l=64 s=0 q=0", "64 entries" },
	{ { "--itrace=i1000il4" }, 0, "il set no_sample period=1000i g=0 l=4 s=0 q=0", "4 entries" },
	{ { "--itrace=i1000iL3l5" }, 0, "ilL set no_sample period=1000i g=0 l=5 s=0 q=0",
	  "5 entries (i1000il4L: 64)" },
	{ { "--itrace=i1000il4294967297" }, 0, "il set no_sample period=1000i g=0 l=1 s=0 q=0",
	  "1 entry" },
	/* skip */
	{ { "--itrace=bs10" }, 0, "b set no_sample period=0i g=0 l=0 s=10 q=0", "branches=15255" },
	{ { "--itrace=bs 5" }, 0, "b set no_sample period=0i g=0 l=0 s=5 q=0", "branches=15260" },
	{ { "--itrace=bs\t4" }, 0, "b set no_sample period=0i g=0 l=0 s=4 q=0", "branches=15261" },
	{ { "--itrace=bs+3" }, 0, "b set no_sample period=0i g=0 l=0 s=3 q=0", "branches=15262" },
	{ { "--itrace=bs-1" }, 0, "b set no_sample period=0i g=0 l=0 s=18446744073709551615 q=0",
	  "no events" },
	{ { "--itrace=bs10s2" }, 0, "b set no_sample period=0i g=0 l=0 s=2 q=0", "branches=15263" },
	{ { "--itrace=bs99999999999999999999" }, 0,
	  "b set no_sample period=0i g=0 l=0 s=18446744073709551615 q=0", "no events" },
	/* error and log flags */
	{ { "--itrace=e+o-l" }, 0, "e set no_sample period=0i g=0 l=0 s=0 q=0 e=+o-l", "no error" },
	{ { "--itrace=e +o,e+ l" }, 0, "e set no_sample period=0i g=0 l=0 s=0 q=0 e=+lo-",
	  "no error" },
	{ { "--itrace=e+z" }, 0, "e set no_sample period=0i g=0 l=0 s=0 q=0 e=+z-",
	  "no error: any lowercase letter" },
	{ { "--itrace=d+e" }, 0, "d set no_sample period=0i g=0 l=0 s=0 q=0 d=+e- logsz=16384",
	  "an empty intel_pt.log (kept for errors; --itrace=d: 2963867 bytes)" },
	{ { "--itrace=d+o-a" }, 0, "d set no_sample period=0i g=0 l=0 s=0 q=0 d=+o-a",
	  "the log on stdout, no intel_pt.log" },
	/* repeated options accumulate */
	{ { "--itrace=b", "--insn-trace" }, 0, "ibe set no_sample period=0ns g=0 l=0 s=0 q=0",
	  "branches=15265 instructions=100174" },
	{ { "--insn-trace", "--itrace=b" }, 0, "ibe set no_sample period=100000ns g=0 l=0 s=0 q=0",
	  "branches=15265 instructions=1: the period is reset" },
	{ { "--itrace=i10i", "--itrace=" }, 0, "i set no_sample period=100000ns g=0 l=0 s=0 q=0",
	  "instructions=1" },
	{ { "--itrace=i10i", "--itrace" }, 0,
	  "ibcxwpoIefmtaM set no_sample period=1i g=16 l=64 s=0 q=0",
	  "psb=3 cbr=1 branches=227 instructions=100174" },
	{ { "--itrace=b", "--no-itrace" }, 0,
	  "b set no_sample dont_decode period=0i g=0 l=0 s=0 q=0", "no events" },
	{ { "--no-itrace" }, 0, "- set no_sample dont_decode period=0i g=0 l=0 s=0 q=0",
	  "no events" },
	/* the shortcuts */
	{ { "--insn-trace" }, 0, "ie set no_sample period=0ns g=0 l=0 s=0 q=0",
	  "instructions=100174" },
	{ { "--insn-trace=raw" }, 0, "ie set no_sample period=0ns g=0 l=0 s=0 q=0",
	  "instructions=100174" },
	{ { "--no-insn-trace" }, 0, "ie set no_sample period=0ns g=0 l=0 s=0 q=0",
	  "instructions=100174" },
	{ { "--call-trace=foo" }, 0, "bcwpe set no_sample period=0i g=0 l=0 s=0 q=0",
	  "psb=3 cbr=1 branches=227" },
	{ { "--call-ret-trace" }, 0, "bcrwpe set no_sample period=0i g=0 l=0 s=0 q=0",
	  "psb=3 cbr=1 branches=449" },
	{ { "--insn-trace=foo" }, -PTD_E_INVAL, "Only accept raw|disasm", "the same" },
	{ { "--insn-trace=RAW" }, -PTD_E_INVAL, "Only accept raw|disasm", "the same" },
	{ { "--insn-trace=disasm" }, -PTD_E_UNSUPPORTED, "Invalid field requested.", "the same" },
	/* errors: perf's first line */
	BAD("z"), BAD("T"), BAD("y"), BAD("E"), BAD("V"), BAD("B"),
	BAD("i10b"), BAD("i10 b"), BAD("i10,b"), BAD("i10m"), BAD("i10n"), BAD("i10u"),
	BAD("i10u s"), BAD("100us"), BAD("ms"), BAD("i0.5us"),
	BAD("g0"), BAD("g1025"), BAD("i100ig4294967296"), BAD("g-1"), BAD("l0"), BAD("l1025"),
	BAD("s"), BAD("s-"), BAD("sx"),
	BAD("e+"), BAD("e-"), BAD("e+O"), BAD("e+1"), BAD("e+o+"), BAD("d+"),
	BAD("\xc3\xa9"), BAD("b;c"), BAD("b\tc"), BAD("-b"), BAD("+b"),
	BAD("I10"), BAD("q10"), BAD("b10"),
	{ { "--itrace=i10i", "--itrace=b10" }, -PTD_E_INVAL,
	  "Bad Instruction Tracing options 'b10'", "the same: the failing string" },
};

/* One perf script option, as perf's option parser hands it over. */
static int apply(struct ptd_itrace *o, const char *opt, struct ptd_err *err)
{
	const char *eq = strchr(opt, '=');
	const char *val = eq ? eq + 1 : NULL;
	size_t n = eq ? (size_t)(eq - opt) : strlen(opt);

#define IS(name) (n == strlen(name) && !strncmp(opt, name, n))
	if (IS("--itrace"))
		return ptd_itrace_parse(o, val, err);
	if (IS("--no-itrace")) {
		ptd_itrace_unset(o);
		return 0;
	}
	if (IS("--insn-trace") || IS("--no-insn-trace"))
		return ptd_itrace_shortcut(o, PTD_ITRACE_INSN_TRACE, val, NULL, err);
	if (IS("--call-trace"))
		return ptd_itrace_shortcut(o, PTD_ITRACE_CALL_TRACE, val, NULL, err);
	if (IS("--call-ret-trace"))
		return ptd_itrace_shortcut(o, PTD_ITRACE_CALL_RET_TRACE, val, NULL, err);
#undef IS
	abort();
}

static const char *show(const struct ptd_itrace *o)
{
	static char buf[512];

	ptd_itrace_format(o, buf, sizeof(buf));
	return buf;
}

/* Random strings over the grammar's characters: never a crash (under the
 * sanitizers), and a result in range. */
static void random_strings(void)
{
	static const char alpha[] = "ibcrxwpoIedfmtaMgGlLsqAZ0123456789 ,+-unmsTz\t";
	unsigned int seed = 12345, i, j, bad = 0, errors = 0;
	struct ptd_itrace o;
	struct ptd_err err;
	char s[24];

	for (i = 0; i < 200000; i++) {
		size_t len;

		seed = seed * 1103515245u + 12345u;
		len = (seed >> 16) % (sizeof(s) - 1);
		for (j = 0; j < len; j++) {
			seed = seed * 1103515245u + 12345u;
			s[j] = alpha[(seed >> 16) % (sizeof(alpha) - 1)];
		}
		s[len] = '\0';
		ptd_itrace_init(&o);
		if (ptd_itrace_parse(&o, s, &err)) {
			errors++;
			continue;
		}
		if ((o.callchain || o.add_callchain) &&
		    (o.callchain_sz < 1 || o.callchain_sz > PTD_ITRACE_MAX_CALLCHAIN_SZ))
			bad++;
		if ((o.last_branch || o.add_last_branch) &&
		    (o.last_branch_sz < 1 || o.last_branch_sz > PTD_ITRACE_MAX_LAST_BRANCH_SZ))
			bad++;
		if (o.instructions && o.period_type > PTD_ITRACE_PERIOD_NANOSECS)
			bad++;
	}
	ok(!bad && errors > 1000 && errors < 200000,
	   "200000 random strings: sizes and period types in range (%u refused)", errors);
}

int main(void)
{
	struct ptd_itrace o, r;
	struct ptd_itrace_shortcut_fx fx;
	struct ptd_err err;
	size_t i, k;
	char small[8];
	int rc;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *w = &rows[i];
		char desc[200];

		ptd_itrace_init(&o);
		ptd_err_clear(&err);
		rc = 0;
		for (k = 0; k < 3 && w->opt[k] && !rc; k++)
			rc = apply(&o, w->opt[k], &err);
		snprintf(desc, sizeof(desc), "%s%s%s%s%s (perf: %s)", w->opt[0],
			 w->opt[1] ? " " : "", w->opt[1] ? w->opt[1] : "",
			 w->opt[2] ? " " : "", w->opt[2] ? w->opt[2] : "", w->perf);
		for (k = 0; desc[k]; k++)
			if (desc[k] == '\t' || desc[k] == '#')
				desc[k] = '_';
		if (rc != w->rc) {
			ok(0, "%s", desc);
			printf("#   rc %d, want %d (%s; %s)\n", rc, w->rc, err.msg, show(&o));
			continue;
		}
		is_str(rc ? err.msg : show(&o), w->want, "%s", desc);
	}

	/* no --itrace at all: what Intel PT decoding gets */
	ptd_itrace_default(&o);
	is_str(show(&o), "bcxwpoIefmtaM period=1i g=16 l=64 s=0 q=0",
	       "no --itrace (perf: psb=3 cbr=1 branches=227, as --itrace and --itrace=cewp)");
	ptd_itrace_init(&o);
	o.thread_stack = 1;
	ptd_itrace_resolve(&o, &r);
	is_str(show(&r), "bcxwpoIefmtaM thread_stack period=1i g=16 l=64 s=0 q=0",
	       "no --itrace, -F +callindent: thread_stack kept");
	ptd_itrace_init(&o);
	ptd_itrace_parse(&o, "i10i", &err);
	ptd_itrace_resolve(&o, &r);
	ok(!memcmp(&o, &r, sizeof(o)), "--itrace given: resolved options are a copy");
	/* perf report (default_no_sample 0): perf report --stdio -i loops.data
	 * shows 1 instructions, 1 cbr, 3 psb samples and no branches */
	memset(&o, 0, sizeof(o));
	ptd_itrace_resolve(&o, &r);
	is_str(show(&r), "ixwpoIefmtaMgG period=100000ns g=16 l=64 s=0 q=0",
	       "perf report's default: i with call chains, no branches");
	o.inject = 1;
	ptd_itrace_resolve(&o, &r);
	is_str(show(&r), "ibxwpoIefmtaM period=100000ns g=16 l=64 s=0 q=0",
	       "perf inject's default: ibxwpe and the rest");
	memset(&o, 0, sizeof(o));
	ptd_itrace_parse(&o, NULL, &err);
	is_str(show(&o), "ibxwpoIefmtaM set period=100000ns g=16 l=64 s=0 q=0",
	       "perf report --itrace: ibxwpe and the rest");

	/* d+e takes the configured log size, and again on a later d */
	ptd_itrace_init(&o);
	o.debug_log_buffer_size = 4096;
	ok(!ptd_itrace_parse(&o, "d+e", &err) && o.log_on_error_size == 4096,
	   "d+e: itrace.debug-log-buffer-size");
	o.debug_log_buffer_size = 0;
	ok(!ptd_itrace_parse(&o, "d", &err) && o.log_on_error_size == 16384,
	   "a later d with the +e kept: the default size");

	/* the shortcuts' other effects */
	ptd_itrace_init(&o);
	ok(!ptd_itrace_shortcut(&o, PTD_ITRACE_INSN_TRACE, "", &fx, &err) &&
	   !strcmp(fx.itrace, "i0nse") && !strcmp(fx.fields, "+insn,-event,-period") &&
	   fx.nanosecs && !fx.pad_output_len_dso, "--insn-trace=: i0nse, +insn,-event,-period, --ns");
	ok(!ptd_itrace_shortcut(&o, PTD_ITRACE_CALL_TRACE, NULL, &fx, &err) &&
	   !strcmp(fx.itrace, "cewp") && !strcmp(fx.fields, "-ip,-addr,-event,-period,+callindent") &&
	   fx.nanosecs && fx.pad_output_len_dso == 50, "--call-trace: cewp, its fields, dso width 50");
	ok(!ptd_itrace_shortcut(&o, PTD_ITRACE_CALL_RET_TRACE, NULL, &fx, &err) &&
	   !strcmp(fx.itrace, "crewp") &&
	   !strcmp(fx.fields, "-ip,-addr,-event,-period,+callindent,+flags") &&
	   fx.nanosecs && !fx.pad_output_len_dso, "--call-ret-trace: crewp, +flags");
	ptd_itrace_init(&o);
	ok(ptd_itrace_shortcut(&o, PTD_ITRACE_INSN_TRACE, "disasm", &fx, &err) == -PTD_E_UNSUPPORTED &&
	   !o.set && !o.instructions, "--insn-trace=disasm leaves the options alone");

	/* the description is truncated like snprintf */
	ptd_itrace_init(&o);
	rc = ptd_itrace_format(&o, small, sizeof(small));
	ok(rc == (int)strlen("- no_sample period=0i g=0 l=0 s=0 q=0") && !strcmp(small, "- no_sa"),
	   "format truncates and returns the length needed");

	random_strings();
	return done_testing();
}
