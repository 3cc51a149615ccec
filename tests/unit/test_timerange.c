/* perf script's --time ranges (src/timerange.c).  The expected values come
 * from perf 6.1 (what `perf script -v --time X` printed as "start time ...",
 * what its Intel PT decoding wrote to intel_pt.log as "range N: TSC time
 * interval", noted "perf printed") or from its source (the line quoted);
 * tests/golden/timerange.test checks many more strings against perf live. */
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "timerange.h"

/* the first/last sample time of a perf record -e cpu-clock recording (its
 * HEADER_SAMPLE_TIME), used with perf script -v for the percent cases */
#define F UINT64_C(11250870076596)
#define L UINT64_C(11251052709256)
#define S UINT64_C(1000000000)

struct want {
	const char *str;
	uint64_t first, last;
	int reltime;
	int ret;                     /* 0 or -PTD_E_INVAL */
	const char *msg;             /* on error */
	size_t n;
	struct ptd_timerange r[3];
};

static const struct want cases[] = {
	/* parse_nsec_time: "*ptime = time_sec * NSEC_PER_SEC + time_nsec;" */
	{ "1,2", 0, 0, 0, 0, NULL, 1, { { S, 2 * S } } },
	/* perf printed "start time 1500000000, end time 2000000000" and
	 * "start time 3000000000, end time 0" */
	{ "1.5,2 3,", 0, 0, 0, 0, NULL, 2, { { 3 * S / 2, 2 * S }, { 3 * S, 0 } } },
	{ ",2", 0, 0, 0, 0, NULL, 1, { { 0, 2 * S } } },
	{ "2,", 0, 0, 0, 0, NULL, 1, { { 2 * S, 0 } } },
	{ ",", 0, 0, 0, 0, NULL, 1, { { 0, 0 } } },
	/* strtoull: no digits is 0, the fraction is padded to 9 digits
	 * ("for (i = strlen(nsec_buf); i < 9; i++) nsec_buf[i] = '0';") */
	{ ".5,.", 0, 0, 0, 0, NULL, 1, { { S / 2, 0 } } },
	{ "1.000000001,1.123456789", 0, 0, 0, 0, NULL, 1, { { S + 1, S + 123456789 } } },
	{ "1.5,2. 5", 0, 0, 0, 0, NULL, 1, { { 3 * S / 2, 2 * S + 50000000 } } },
	/* strtoull("-1") is ULLONG_MAX; * NSEC_PER_SEC wraps */
	{ "-1,", 0, 0, 0, 0, NULL, 1, { { (uint64_t)0 - S, 0 } } },
	/* the STOP value ends at kernel-ctype white space (0xa0 too) */
	{ "1,2\2403,4", 0, 0, 0, 0, NULL, 2, { { S, 2 * S }, { 3 * S, 4 * S } } },
	{ "1,2 \t 3,4", 0, 0, 0, 0, NULL, 2, { { S, 2 * S }, { 3 * S, 4 * S } } },
	{ "1,1", 0, 0, 0, 0, NULL, 1, { { S, S } } },
	/* "if (!num) return -EINVAL;" (no comma) */
	{ "", 0, 0, 0, -PTD_E_INVAL, PTD_TIMERANGE_INVALID, 0, { { 0, 0 } } },
	{ "1", 0, 0, 0, -PTD_E_INVAL, PTD_TIMERANGE_INVALID, 0, { { 0, 0 } } },
	/* "if (rc == 0 && ptime->end && ptime->end < ptime->start)" */
	{ "2,1", 0, 0, 0, -PTD_E_INVAL, PTD_TIMERANGE_INVALID, 0, { { 0, 0 } } },
	/* "if (*p++ == ',') { rc = -EINVAL;" */
	{ "1,2,3", 0, 0, 0, -PTD_E_INVAL, PTD_TIMERANGE_INVALID, 0, { { 0, 0 } } },
	/* "if (strlen(++end) > 9) return -1;" */
	{ "1.1234567891,2", 0, 0, 0, -PTD_E_INVAL, PTD_TIMERANGE_INVALID, 0, { { 0, 0 } } },
	/* "if (ptime[i].end >= ptime[i + 1].start)" */
	{ "1,2 2,3", 0, 0, 0, -PTD_E_INVAL, PTD_TIMERANGE_INVALID, 0, { { 0, 0 } } },
	{ "1,2 ", 0, 0, 0, -PTD_E_INVAL, PTD_TIMERANGE_INVALID, 0, { { 0, 0 } } },
	{ "1 ,2", 0, 0, 0, -PTD_E_INVAL, PTD_TIMERANGE_INVALID, 0, { { 0, 0 } } },
	{ "1,2 \2403,4", 0, 0, 0, -PTD_E_INVAL, PTD_TIMERANGE_INVALID, 0, { { 0, 0 } } },

	/* percent: perf printed "start time 0: 11250888339862, end time 0:
	 * 11250906603127" and "start time 1: 11250924866394, end time 1:
	 * 11250943129659" */
	{ "10%-20%,30%-40%", F, L, 0, 0, NULL, 2,
	  { { 11250888339862, 11250906603127 }, { 11250924866394, 11250943129659 } } },
	{ "10%/2", F, L, 0, 0, NULL, 1, { { 11250888339862, 11250906603127 } } },
	/* "10%" is "10%/1": "ptime->start = start + round(start_pcnt * total);",
	 * "if (ptime->end > ptime->start && ptime->end != end) ptime->end -= 1;"
	 * (total 182632660, 10% of it 18263266) */
	{ "10%", F, L, 0, 0, NULL, 1, { { F, F + 18263266 - 1 } } },
	{ "0%-100%", F, L, 0, 0, NULL, 1, { { F, L } } },
	{ "%-%", F, L, 0, 0, NULL, 1, { { F, F } } },
	{ "20%-10%", F, L, 0, 0, NULL, 1, { { F + 36526532, F + 18263266 } } },
	/* split_start_end: "if (ostr == NULL || *ostr == '\0') return 0;" */
	{ ",10%-20%", F, L, 0, 0, NULL, 2, { { 0, 0 }, { 11250888339862, 11250906603127 } } },
	{ "10%-20%,", F, L, 0, 0, NULL, 1, { { 11250888339862, 11250906603127 } } },
	/* parse_percent reads up to the first '%' only */
	{ "10%x-20%y-30%", F, L, 0, 0, NULL, 1, { { 11250888339862, 11250906603127 } } },
	/* NaN passes "start_pcnt < 0.0 || start_pcnt > 1.0" */
	{ "nan%", F, L, 0, 0, NULL, 1, { { UINT64_C(1) << 63, UINT64_C(1) << 63 } } },
	/* "if (pcnt <= 0.0) return -1;" */
	{ "10%/0", F, L, 0, -PTD_E_INVAL, PTD_TIMERANGE_INVALID, 0, { { 0, 0 } } },
	/* one_percent_convert: "if (ostr + len - 1 != c) return -1;" */
	{ "10%,", F, L, 0, -PTD_E_INVAL, PTD_TIMERANGE_INVALID, 0, { { 0, 0 } } },
	{ "101%", F, L, 0, -PTD_E_INVAL, PTD_TIMERANGE_INVALID, 0, { { 0, 0 } } },
	{ "10%/1,20%-30%", F, L, 0, -PTD_E_INVAL, PTD_TIMERANGE_INVALID, 0, { { 0, 0 } } },
	/* perf 6.1 crashes on this one */
	{ "10%-20%,5%", F, L, 0, -PTD_E_INVAL, PTD_TIMERANGE_INVALID, 0, { { 0, 0 } } },
	/* "if (session->evlist->first_sample_time == 0 &&
	 *      session->evlist->last_sample_time == 0) {" */
	{ "10%", 0, 0, 0, -PTD_E_INVAL, PTD_TIMERANGE_HINT, 0, { { 0, 0 } } },
	{ "abc%", 0, 0, 0, -PTD_E_INVAL, PTD_TIMERANGE_HINT, 0, { { 0, 0 } } },
	{ "0%-100%", 0, 1000, 0, 0, NULL, 1, { { 0, 1000 } } },

	/* --reltime: "ptime_range[i].start += session->evlist->first_sample_time;"
	 * and the same for .end */
	{ "1,2", 0, 0, 1, -PTD_E_INVAL, PTD_TIMERANGE_HINT, 0, { { 0, 0 } } },
	{ "0.01,0.02", F, L, 1, 0, NULL, 1, { { F + S / 100, F + S / 50 } } },
	{ "0.01,", F, L, 1, 0, NULL, 1, { { F + S / 100, F } } },
	{ "0%-100%", F, L, 1, 0, NULL, 1, { { 2 * F, L + F } } },
	{ "2,1", F, L, 1, -PTD_E_INVAL, PTD_TIMERANGE_INVALID, 0, { { 0, 0 } } },
};

/* the string with control and non-ASCII bytes escaped, for descriptions */
static const char *shown(const char *str)
{
	static char buf[128];
	size_t o = 0;

	for (; *str && o + 5 < sizeof(buf); str++) {
		unsigned char c = (unsigned char)*str;

		if (c < 0x20 || c >= 0x7f)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "\\%03o", c);
		else
			buf[o++] = (char)c;
	}
	buf[o] = '\0';
	return buf;
}

static void test_parse(void)
{
	struct ptd_timerange *r;
	struct ptd_err err;
	size_t i, j, n;
	int ret;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct want *w = &cases[i];
		int same;

		ptd_err_clear(&err);
		ret = ptd_timerange_parse(w->str, w->first, w->last, w->reltime, &r, &n, &err);
		if (w->ret) {
			ok(ret == w->ret && !r && !n && !strcmp(err.msg, w->msg),
			   "'%s'%s refused: %.*s", shown(w->str), w->reltime ? " (reltime)" : "",
			   (int)strcspn(err.msg, "\n"), err.msg);
			continue;
		}
		same = ret == 0 && n == w->n;
		for (j = 0; same && j < n; j++)
			same = r[j].start == w->r[j].start && r[j].end == w->r[j].end;
		ok(same, "'%s'%s: %zu range(s)", shown(w->str), w->reltime ? " (reltime)" : "", w->n);
		for (j = 0; !same && ret == 0 && j < n; j++)
			printf("#   got %" PRIu64 " %" PRIu64 "\n", r[j].start, r[j].end);
		free(r);
	}
	ret = ptd_timerange_parse(NULL, 0, 0, 0, &r, &n, &err);
	ok(ret == 0 && !r && n == 0, "no --time: no ranges");
}

static void test_skip(void)
{
	const struct ptd_timerange one = { 10, 20 }, from = { 10, 0 }, upto = { 0, 20 };
	const struct ptd_timerange two[] = { { 10, 20 }, { 30, 0 } };
	const struct ptd_timerange rel = { F + S / 100, F };

	/* "if ((!ptime_buf) || (timestamp == 0) || (num == 0)) return false;" */
	ok(!ptd_timerange_skip(NULL, 0, 5) && !ptd_timerange_skip(&one, 0, 5), "no ranges: kept");
	ok(!ptd_timerange_skip(&one, 1, 0) && !ptd_timerange_skip(two, 2, 0), "time 0: kept");
	/* "(ptime->start && timestamp < ptime->start) ||
	 *  (ptime->end && timestamp > ptime->end)" */
	ok(ptd_timerange_skip(&one, 1, 9) && !ptd_timerange_skip(&one, 1, 10) &&
	   !ptd_timerange_skip(&one, 1, 20) && ptd_timerange_skip(&one, 1, 21),
	   "both ends inclusive");
	ok(ptd_timerange_skip(&from, 1, 9) && !ptd_timerange_skip(&from, 1, UINT64_MAX),
	   "open end");
	ok(!ptd_timerange_skip(&upto, 1, 1) && ptd_timerange_skip(&upto, 1, 21), "open start");
	/* "if (timestamp >= ptime->start && (timestamp <= ptime->end || !ptime->end))" */
	ok(ptd_timerange_skip(two, 2, 5) && !ptd_timerange_skip(two, 2, 15) &&
	   ptd_timerange_skip(two, 2, 25) && !ptd_timerange_skip(two, 2, 30) &&
	   !ptd_timerange_skip(two, 2, UINT64_MAX), "two ranges");
	ok(ptd_timerange_skip(&rel, 1, F) && ptd_timerange_skip(&rel, 1, F + S / 100),
	   "--reltime '0.01,' keeps nothing");
}

static struct ptd_time_conv conv(unsigned shift, uint32_t mult, uint64_t zero)
{
	struct ptd_time_conv tc;

	memset(&tc, 0, sizeof(tc));
	tc.time_shift = (uint16_t)shift;
	tc.time_mult = mult;
	tc.time_zero = zero;
	tc.cap_user_time_zero = 1;
	return tc;
}

struct tsc_want {
	unsigned shift;
	uint32_t mult;
	uint64_t zero, ns_start, ns_end, tsc_start, tsc_end;
};

/* perf printed these in intel_pt.log (the recording's conversion, and
 * copies of it with AUXTRACE_INFO's time_shift/time_mult/time_zero set) */
static const struct tsc_want tscs[] = {
	{ 31, 1073741824, 1000000, 2000001000500, 2000001100000, 0x3a3529443e8, 0x3a352974d41 },
	{ 31, 1073741824, 1000000, 1000001, 1000002, 0x2, 0x5 },
	{ 31, 633437444, 1000000, 2000001000500, 2000001100000, 0x62ab017514a, 0x62ab01c76fa },
	{ 31, 633437444, 1000000, S / 2, S / 2, 0x64d57dcc, 0x64d57dce },
	{ 10, 5000, 0, 2000001000500, 2000001100000, 0x5f5e132067, 0x5f5e137000 },
	{ 10, 5000, 0, 3000 * S, 3000 * S + 1, 0x8f0d180000, 0x8f0d180000 },
	{ 32, 1431655765, UINT64_C(18000000000000000000), 2000001000500, 2000001100000,
	  0x12997b8fbf8da82c, 0x12997b8fbf923632 },
	{ 0, 1, 12345, 2000001000500, 2000001100000, 0x1d1a95933fb, 0x1d1a95ab8a7 },
	{ 31, 2147483649u, 999, 2000001000500, 2000001100000, 0x1d1a9595caa, 0x1d1a95ae156 },
	/* 2^20 ticks a ns: perf steps through a million of them */
	{ 20, 1, 0, 2000001000500, 2000001100000, 0x1d1a959643400000, 0x1d1a95ae8e0fffff },
};

static void test_tsc(void)
{
	struct ptd_time_conv tc = conv(31, 1073741824, 1000000), tc0 = conv(31, 0, 0);
	const struct ptd_timerange r[] = { { 0, 1000000 }, { 2000001000500, 0 } };
	struct ptd_timerange t[2];
	struct ptd_err err;
	uint64_t v, ns;
	size_t i;
	int good;

	for (i = 0; i < sizeof(tscs) / sizeof(tscs[0]); i++) {
		const struct tsc_want *w = &tscs[i];
		uint64_t s = 0, e = 0;

		tc = conv(w->shift, w->mult, w->zero);
		int rs = ptd_timerange_tsc_start(w->ns_start, &tc, &s);
		int re = ptd_timerange_tsc_end(w->ns_end, &tc, &e);

		ok(!rs && !re && s == w->tsc_start && e == w->tsc_end,
		   "shift %u mult %u zero %" PRIu64 ": %" PRIu64 "..%" PRIu64 " -> %#" PRIx64
		   "..%#" PRIx64, w->shift, w->mult, w->zero, w->ns_start, w->ns_end, s, e);
	}
	/* intel_pt_tsc_start: "Find least TSC which converts to ns or later";
	 * intel_pt_tsc_end: "Find greatest TSC which converts to ns or earlier" */
	tc = conv(31, 633437444, 1000000);
	good = 1;
	for (ns = 2 * S; ns < 2 * S + 2000; ns += 7) {
		good &= !ptd_timerange_tsc_start(ns, &tc, &v) && ptd_tsc_to_perf_time(v, &tc) >= ns &&
			ptd_tsc_to_perf_time(v - 1, &tc) < ns;
		good &= !ptd_timerange_tsc_end(ns, &tc, &v) && ptd_tsc_to_perf_time(v, &tc) <= ns &&
			ptd_tsc_to_perf_time(v + 1, &tc) > ns;
	}
	ok(good, "least TSC at or after / greatest at or before, over 2000 ns");

	/* perf printed "range 0: TSC time interval: 0 to 0x1" for ",0.001" */
	tc = conv(31, 1073741824, 1000000);
	ok(!ptd_timerange_to_tsc(r, 2, &tc, t, &err) && t[0].start == 0 && t[0].end == 1 &&
	   t[1].start == 0x3a3529443e8 && t[1].end == 0, "ranges: 0 stays open");
	/* perf 6.1 never finished "--time 0.001," (start == time_zero) */
	ok(ptd_timerange_tsc_start(1000000, &tc, &v) == -PTD_E_INVAL, "start at time_zero: refused");
	ok(ptd_timerange_tsc_end(100000, &tc, &v) == -PTD_E_INVAL, "end before time_zero: refused");
	ok(ptd_timerange_to_tsc(&r[1], 1, &tc0, t, &err) == -PTD_E_INVAL &&
	   strstr(err.msg, "would not finish"), "no time_mult: refused (%s)", err.msg);
}

int main(void)
{
	test_parse();
	test_skip();
	test_tsc();
	return done_testing();
}
