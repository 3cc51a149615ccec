/* timerange_check: perf script's --time ranges (src/timerange.h), for
 * tests/golden/timerange.test.
 *
 *   timerange_check [-R] [-f FIRST] [-l LAST] [-c SHIFT,MULT,ZERO] [-k] STRING
 *
 * Parses STRING as `perf script --time STRING` would (-R: with --reltime;
 * FIRST/LAST: the file's first and last sample time in ns, default 0 0 as
 * in a file without HEADER_SAMPLE_TIME) and prints one "START END" line per
 * range (ns).  With -c it then prints the TSC ranges for that conversion in
 * the words of perf's intel_pt.log ("range N: perf time interval: ..." and
 * "range N: TSC time interval: ...").  With -k it instead reads the output
 * of `perf script -F time --ns` (all samples) on standard input and prints
 * the lines of the samples the ranges keep; with -R too, each time made
 * relative to the first kept one, as perf script --reltime prints it.
 *
 * On a bad string prints the error as perf does and exits with perf's
 * status (234); 1 for a usage error or a TSC conversion perf would not
 * finish. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "timerange.h"

static uint64_t num(const char *s)
{
	return strtoull(s, NULL, 0);
}

static int keep_lines(const struct ptd_timerange *r, size_t n, int reltime)
{
	char line[256];
	unsigned long long sec, nsec;
	uint64_t t, t0 = 0;
	int have0 = 0;

	while (fgets(line, sizeof(line), stdin)) {
		if (sscanf(line, "%llu.%llu:", &sec, &nsec) != 2)
			continue;
		t = sec * 1000000000ULL + nsec;
		if (ptd_timerange_skip(r, n, t))
			continue;
		if (!reltime) {
			fputs(line, stdout);
			continue;
		}
		if (!have0) {
			t0 = t;
			have0 = 1;
		}
		t -= t0;
		printf("%5" PRIu64 ".%09" PRIu64 ": \n", t / 1000000000, t % 1000000000);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct ptd_timerange *r, *tsc;
	struct ptd_time_conv tc;
	struct ptd_err err;
	uint64_t first = 0, last = 0;
	int c, reltime = 0, keep = 0, have_tc = 0;
	unsigned long long shift, mult, zero;
	size_t n, i;

	memset(&tc, 0, sizeof(tc));
	while ((c = getopt(argc, argv, "Rf:l:c:k")) != -1) {
		switch (c) {
		case 'R': reltime = 1; break;
		case 'f': first = num(optarg); break;
		case 'l': last = num(optarg); break;
		case 'k': keep = 1; break;
		case 'c':
			if (sscanf(optarg, "%llu,%llu,%llu", &shift, &mult, &zero) != 3)
				goto usage;
			tc.time_shift = (uint16_t)shift;
			tc.time_mult = (uint32_t)mult;
			tc.time_zero = zero;
			tc.cap_user_time_zero = 1;
			have_tc = 1;
			break;
		default:
			goto usage;
		}
	}
	if (optind + 1 != argc)
		goto usage;
	ptd_err_clear(&err);
	if (ptd_timerange_parse(argv[optind], first, last, reltime, &r, &n, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return err.code == PTD_E_INVAL ? PTD_TIMERANGE_PERF_EXIT : 1;
	}
	if (keep) {
		c = keep_lines(r, n, reltime);
		free(r);
		return c;
	}
	for (i = 0; i < n; i++)
		printf("%" PRIu64 " %" PRIu64 "\n", r[i].start, r[i].end);
	if (have_tc) {
		tsc = calloc(n, sizeof(*tsc));
		if (!tsc || ptd_timerange_to_tsc(r, n, &tc, tsc, &err) < 0) {
			fprintf(stderr, "%s\n", tsc ? err.msg : "out of memory");
			free(tsc);
			free(r);
			return 1;
		}
		for (i = 0; i < n; i++) {
			printf("range %zu: perf time interval: %" PRIu64 " to %" PRIu64 "\n",
			       i, r[i].start, r[i].end);
			printf("range %zu: TSC time interval: %#" PRIx64 " to %#" PRIx64 "\n",
			       i, tsc[i].start, tsc[i].end);
		}
		free(tsc);
	}
	free(r);
	return 0;
usage:
	fprintf(stderr, "usage: timerange_check [-R] [-f FIRST] [-l LAST] "
		"[-c SHIFT,MULT,ZERO] [-k] STRING\n");
	return 1;
}
