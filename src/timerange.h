/* perf script's --time option: the ranges of perf time to keep, parsed with
 * perf 6.1's rules and messages (tools/perf util/time-utils.c
 * perf_time__parse_for_ranges_reltime, perf_time__ranges_skip_sample), and
 * the TSC ranges perf's Intel PT decoding derives from them (util/intel-pt.c
 * intel_pt_setup_time_ranges, intel_pt_tsc_start, intel_pt_tsc_end).  A pure
 * library: no I/O; errors come back in a struct ptd_err.
 *
 * The string.  If it contains a '%' anywhere it is a percent string, else
 * an absolute one.
 *
 * Absolute: "START,STOP", several separated by white space ("1,2 3,4";
 * the number of ranges is the number of commas).  Each side is empty (open
 * end) or SEC[.FRAC]: SEC as strtoull reads it in base 10 (leading white
 * space and a sign allowed, "-1" wraps, overflow is ULLONG_MAX, no digits
 * is 0: ".5" and "." are valid), then nothing or '.', then FRAC of at most 9
 * characters, padded with '0' to 9 and read by strtoull the same way (so
 * " 5" and "+5" are .5 s).  The value is SEC * 1e9 + FRAC, wrapping.  A
 * string without a comma is invalid.  A range whose STOP is set and below
 * START is invalid; so are ranges that touch or overlap (STOP of one >=
 * START of the next, an open STOP counting as 0), so only the first range
 * can have an open START and only the last an open STOP.  After the first
 * comma of a range white space may follow; the STOP value then runs to the
 * next white space character and must not contain a comma; the next range
 * may begin with more white space (which strtoull skips).  White space for
 * this split is perf's kernel-style isspace: \t \n \v \f \r, ' ' and also
 * byte 0xa0, which strtoull does not skip, so 0xa0 works only as the one
 * character right after a STOP.  No white space may end the string.
 *
 * Percent (needs the first and last sample time: perf's HEADER_SAMPLE_TIME
 * feature; with both 0 the HINT error below).  Comma-separated pieces, a
 * trailing comma ignored.  If the whole string has a '/', every piece is
 * "P%/N": the N-th slice of P% (N by strtol, nothing may follow; P must be
 * > 0).  Else if it has a '-', every piece is "P%-Q%"; an EMPTY piece here
 * is a range {0, 0} that keeps everything (",10%-20%" keeps all samples).
 * Else the string must be one "P%" with '%' its last character: the first
 * slice, "P%/1".  P is read by strtod (C locale: "1e1", "0x10", "inf",
 * "nan", leading white space; the empty string is 0) up to the first '%';
 * whatever follows that '%' up to the '/' or '-' is ignored ("10%x-20%y" is
 * "10%-20%").  Slices: start = first + round(s * (last - first)) and end
 * likewise, in double arithmetic; fractions outside [0, 1] are invalid
 * (NaN passes, and converts as x86-64 does: 1 << 63); then end -= 1 when
 * end > start and end != last.  Percent ranges may overlap or be empty
 * ("20%-10%").  A valid "P%" piece without a '-' in dash mode ("10%-20%,5%")
 * makes perf 6.1 crash (SIGSEGV); here it is "Invalid time string".
 *
 * --reltime (reltime != 0): also needs the first/last sample time (HINT
 * otherwise); after parsing, first is added to START and to STOP of every
 * range, open ones included: "0.5," becomes [first+0.5s, first] and keeps
 * nothing, and percent ranges (already absolute) move by first again.
 *
 * Errors, as perf script prints them on stderr before exiting with status
 * 234 (-EINVAL): "Invalid time string", or the three-line HINT (without
 * the final newline). */
#ifndef PTD_TIMERANGE_H
#define PTD_TIMERANGE_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "tsc.h"

/* one range of perf time in ns (or of TSC ticks); 0 = open at that side */
struct ptd_timerange {
	uint64_t start, end;
};

#define PTD_TIMERANGE_INVALID "Invalid time string"
#define PTD_TIMERANGE_HINT \
	"HINT: no first/last sample time found in perf data.\n" \
	"Please use latest perf binary to execute 'perf record'\n" \
	"(if '--buildid-all' is enabled, please set '--timestamp-boundary')."
/* perf script's exit status after either message */
#define PTD_TIMERANGE_PERF_EXIT 234

/* Parse the --time string `str` (NULL: no option, *n = 0).  first/last:
 * the file's first and last sample time (0, 0 when it has none).  On
 * success *out is a malloc'ed array of *n >= 1 ranges (free() it), in the
 * string's order.  Returns 0, -PTD_E_INVAL with perf's message in err, or
 * -PTD_E_NOMEM. */
int ptd_timerange_parse(const char *str, uint64_t first, uint64_t last, int reltime,
			struct ptd_timerange **out, size_t *n, struct ptd_err *err);

/* perf_time__ranges_skip_sample: 1 if a sample at perf time t is dropped.
 * Never drops when n == 0 or t == 0.  A sample is kept when, for some
 * range, start <= t (start 0: open) and t <= end (end 0: open); both ends
 * are inclusive. */
int ptd_timerange_skip(const struct ptd_timerange *r, size_t n, uint64_t t);

/* intel_pt_tsc_start: the least TSC whose perf time (ptd_tsc_to_perf_time)
 * is >= ns; intel_pt_tsc_end: the greatest TSC whose perf time is <= ns.
 * Both search from ptd_perf_time_to_tsc(ns) one tick at a time as perf
 * does, so the answers are perf's.  They return 0, or -PTD_E_INVAL when
 * there is no time_mult (perf divides by zero) or the search runs past the
 * ticks of a few ns: then the conversion is wrapping round 2^64 (a start at
 * or before time_zero, an end before it, times near 2^64 ns) and perf 6.1
 * searches the whole 64-bit space, in practice for ever. */
int ptd_timerange_tsc_start(uint64_t ns, const struct ptd_time_conv *tc, uint64_t *tsc);
int ptd_timerange_tsc_end(uint64_t ns, const struct ptd_time_conv *tc, uint64_t *tsc);

/* intel_pt_setup_time_ranges: tsc[i] = the TSC range of r[i], an open side
 * staying 0 (0 is never converted).  Returns 0, or -PTD_E_INVAL naming the
 * range and the time that has no TSC (see above). */
int ptd_timerange_to_tsc(const struct ptd_timerange *r, size_t n,
			 const struct ptd_time_conv *tc, struct ptd_timerange *tsc,
			 struct ptd_err *err);

#endif
