/* perf script's --time ranges (see timerange.h for the rules). */
#include "timerange.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define NSEC_PER_SEC UINT64_C(1000000000)

/* The white space perf's string splitting sees (tools/include/linux/ctype.h:
 * kernel ctype, not the C library's): 0xa0 counts. */
static int kspace(char c)
{
	unsigned char u = (unsigned char)c;

	return u == ' ' || (u >= '\t' && u <= '\r') || u == 0xa0;
}

/* SEC[.FRAC] to ns (perf's parse_nsec_time). */
static int read_ns(const char *s, uint64_t *ns)
{
	char frac[10], *end;
	uint64_t sec, sub = 0;
	size_t len;

	sec = strtoull(s, &end, 10);
	if (*end == '.') {
		end++;
		len = strlen(end);
		if (len > 9)
			return -1;
		memcpy(frac, end, len);
		memset(frac + len, '0', 9 - len);
		frac[9] = '\0';
		sub = strtoull(frac, &end, 10);
		if (*end)
			return -1;
	} else if (*end) {
		return -1;
	}
	*ns = sec * NSEC_PER_SEC + sub;
	return 0;
}

/* One "START,STOP" (a copy that holds a comma): both sides optional. */
static int read_pair(char *s, struct ptd_timerange *r)
{
	char *comma = strchr(s, ',');

	r->start = r->end = 0;
	if (comma)
		*comma++ = '\0';
	if (*s && read_ns(s, &r->start))
		return -1;
	if (comma && *comma && read_ns(comma, &r->end))
		return -1;
	if (r->end && r->end < r->start)
		return -1;
	return 0;
}

/* Absolute ranges (perf_time__parse_strs); returns the count or -1.  `s` is
 * a modifiable copy; r has room for one range per comma. */
static int parse_absolute(char *s, struct ptd_timerange *r, size_t commas)
{
	char *p = s, *piece;
	size_t i;

	if (!commas)
		return -1;
	for (i = 0; i + 1 < commas; i++) {
		piece = p;
		p = strchr(p, ',') + 1;     /* each piece holds one comma */
		while (kspace(*p))
			p++;
		for (; *p && !kspace(*p); p++)
			if (*p == ',')
				return -1;
		if (*p)
			*p++ = '\0';
		if (read_pair(piece, &r[i]))
			return -1;
	}
	if (read_pair(p, &r[i]))
		return -1;
	for (i = 0; i + 1 < commas; i++)
		if (r[i].end >= r[i + 1].start)
			return -1;
	return (int)commas;
}

/* C's round() (half away from zero) without libm. */
static double round_half_away(double x)
{
	double a = x < 0 ? -x : x, t;

	if (x != x || a >= 4503599627370496.0)     /* NaN, or already whole (2^52) */
		return x;
	t = (double)(uint64_t)a;
	if (a - t >= 0.5)
		t += 1.0;
	return x < 0 ? -t : t;
}

/* double to u64 as perf's x86-64 build converts: NaN and values from 2^63
 * that do not fit come out as the CPU's "integer indefinite" handling. */
static uint64_t to_u64(double d)
{
	if (d != d)
		return 1ULL << 63;
	if (d >= 18446744073709551616.0)
		return 0;
	if (d >= 9223372036854775808.0)
		return (uint64_t)(int64_t)(d - 9223372036854775808.0) ^ (1ULL << 63);
	if (d <= -9223372036854775808.0)
		return 1ULL << 63;
	return (uint64_t)(int64_t)d;
}

/* perf's parse_percent: the number before the first '%', / 100. */
static int read_percent(char *s, double *frac)
{
	char *pct = s ? strchr(s, '%') : NULL, *end;
	double d;

	if (!pct)
		return -1;
	*pct = '\0';
	d = strtod(s, &end);
	if (*end)
		return -1;
	*frac = d / 100.0;
	return 0;
}

/* perf's set_percent_time */
static int percent_range(struct ptd_timerange *r, double from, double to,
			 uint64_t first, uint64_t last)
{
	uint64_t total = last - first;

	/* written so that NaN passes, as in perf */
	if (from < 0.0 || from > 1.0 || to < 0.0 || to > 1.0)
		return -1;
	r->start = to_u64((double)first + round_half_away(from * (double)total));
	r->end = to_u64((double)first + round_half_away(to * (double)total));
	if (r->end > r->start && r->end != last)
		r->end -= 1;
	return 0;
}

/* The n-th slice of `pct` (a fraction) of the time: [pct*(n-1), pct*n]. */
static int percent_slice(double pct, int n, struct ptd_timerange *r, uint64_t first, uint64_t last)
{
	if (pct <= 0.0)
		return -1;
	return percent_range(r, pct * (int)((unsigned)n - 1u), pct * n, first, last);
}

/* "P%/N" (perf's percent_slash_split): N by strtol, nothing after it */
static int percent_slash(char *s, struct ptd_timerange *r, uint64_t first, uint64_t last)
{
	char *slash = strchr(s, '/'), *end;
	double pct;
	int n;

	if (!slash)
		return -1;
	*slash = '\0';
	if (read_percent(s, &pct))
		return -1;
	n = (int)strtol(slash + 1, &end, 10);
	if (*end)
		return -1;
	return percent_slice(pct, n, r, first, last);
}

/* "P%-Q%" (perf's percent_dash_split); an empty piece leaves r at {0, 0}. */
static int percent_span(char *s, struct ptd_timerange *r, uint64_t first, uint64_t last)
{
	char *dash;
	double from, to;

	if (!*s)
		return 0;
	dash = strchr(s, '-');
	if (!dash)
		return -1;      /* perf 6.1 dereferences NULL here */
	*dash = '\0';
	if (read_percent(s, &from) || read_percent(dash + 1, &to))
		return -1;
	return percent_range(r, from, to, first, last);
}

/* Percent ranges (perf_time__percent_parse_str); returns the count or -1. */
static int parse_percent(char *s, struct ptd_timerange *r, size_t room,
			 uint64_t first, uint64_t last)
{
	int (*one)(char *, struct ptd_timerange *, uint64_t, uint64_t);
	char *p = s, *end = s + strlen(s), *comma, *pct;
	double frac;
	size_t i = 0;

	memset(r, 0, room * sizeof(*r));
	if (strchr(s, '/')) {
		one = percent_slash;
	} else if (strchr(s, '-')) {
		one = percent_span;
	} else {
		/* one "P%": its first '%' ends the string; it is "P%/1" */
		pct = strchr(s, '%');
		if (!pct || pct[1] || read_percent(s, &frac))
			return -1;
		return percent_slice(frac, 1, &r[0], first, last) ? -1 : 1;
	}
	while (p < end) {
		if (i >= room)
			return -1;
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (one(p, &r[i], first, last))
			return -1;
		i++;
		if (!comma)
			break;
		p = comma + 1;
	}
	return (int)i;
}

int ptd_timerange_parse(const char *str, uint64_t first, uint64_t last, int reltime,
			struct ptd_timerange **out, size_t *n, struct ptd_err *err)
{
	struct ptd_timerange *r;
	size_t room = 1, i;
	char *copy;
	int num;

	*out = NULL;
	*n = 0;
	if (!str)
		return 0;
	for (i = 0; str[i]; i++)
		room += str[i] == ',';
	if ((strchr(str, '%') || reltime) && !first && !last)
		return ptd_err_set(err, PTD_E_INVAL, "%s", PTD_TIMERANGE_HINT);
	r = calloc(room, sizeof(*r));
	copy = strdup(str);
	if (!r || !copy) {
		free(r);
		free(copy);
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory parsing --time");
	}
	if (strchr(str, '%'))
		num = parse_percent(copy, r, room, first, last);
	else
		num = parse_absolute(copy, r, room - 1);
	free(copy);
	if (num < 0) {
		free(r);
		return ptd_err_set(err, PTD_E_INVAL, "%s", PTD_TIMERANGE_INVALID);
	}
	if (reltime) {
		for (i = 0; i < (size_t)num; i++) {
			r[i].start += first;
			r[i].end += first;
		}
	}
	*out = r;
	*n = (size_t)num;
	return 0;
}

int ptd_timerange_skip(const struct ptd_timerange *r, size_t n, uint64_t t)
{
	size_t i;

	if (!r || !n || !t)
		return 0;
	for (i = 0; i < n; i++)
		if (t >= r[i].start && (!r[i].end || t <= r[i].end))
			return 0;
	return 1;
}

/* perf steps one tick at a time from ptd_perf_time_to_tsc(ns); where the
 * conversion is the near-inverse it is meant to be, that takes at most the
 * ticks of a couple of ns.  Returns that budget (with a margin), 0 when
 * there is no conversion. */
static uint64_t search_budget(const struct ptd_time_conv *tc)
{
	uint64_t per_ns;

	if (!tc->time_mult || tc->time_shift >= 64)
		return 0;
	per_ns = ((UINT64_C(1) << tc->time_shift) + tc->time_mult - 1) / tc->time_mult;
	if (per_ns > (UINT64_C(1) << 40))
		return UINT64_C(1) << 42;
	return 4 * per_ns + 64;
}

int ptd_timerange_tsc_start(uint64_t ns, const struct ptd_time_conv *tc, uint64_t *tsc)
{
	uint64_t t, tm, budget = search_budget(tc), steps = 0;

	if (!budget)
		return -PTD_E_INVAL;
	t = ptd_perf_time_to_tsc(ns, tc);
	/* back to a TSC before ns, then forward to the first at or after it */
	while ((tm = ptd_tsc_to_perf_time(t, tc)) >= ns) {
		if (++steps > budget)
			return -PTD_E_INVAL;
		t--;
	}
	while (tm < ns) {
		if (++steps > budget)
			return -PTD_E_INVAL;
		tm = ptd_tsc_to_perf_time(++t, tc);
	}
	*tsc = t;
	return 0;
}

int ptd_timerange_tsc_end(uint64_t ns, const struct ptd_time_conv *tc, uint64_t *tsc)
{
	uint64_t t, tm, budget = search_budget(tc), steps = 0;

	if (!budget)
		return -PTD_E_INVAL;
	t = ptd_perf_time_to_tsc(ns, tc);
	/* forward to a TSC after ns, then back to the last at or before it */
	while ((tm = ptd_tsc_to_perf_time(t, tc)) <= ns) {
		if (++steps > budget)
			return -PTD_E_INVAL;
		t++;
	}
	while (tm > ns) {
		if (++steps > budget)
			return -PTD_E_INVAL;
		tm = ptd_tsc_to_perf_time(--t, tc);
	}
	*tsc = t;
	return 0;
}

int ptd_timerange_to_tsc(const struct ptd_timerange *r, size_t n,
			 const struct ptd_time_conv *tc, struct ptd_timerange *tsc,
			 struct ptd_err *err)
{
	size_t i;
	uint64_t bad;

	for (i = 0; i < n; i++) {
		tsc[i].start = tsc[i].end = 0;
		if (r[i].start && ptd_timerange_tsc_start(r[i].start, tc, &tsc[i].start)) {
			bad = r[i].start;
			goto fail;
		}
		if (r[i].end && ptd_timerange_tsc_end(r[i].end, tc, &tsc[i].end)) {
			bad = r[i].end;
			goto fail;
		}
	}
	return 0;
fail:
	return ptd_err_set(err, PTD_E_INVAL, "time range %zu: no TSC for perf time %" PRIu64
			   ".%09" PRIu64 " (time_zero %" PRIu64 ", time_mult %" PRIu32
			   "): perf 6.1 would not finish converting it", i + 1,
			   bad / NSEC_PER_SEC, bad % NSEC_PER_SEC, tc->time_zero, tc->time_mult);
}
