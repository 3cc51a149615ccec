/* --latency=SYMBOL: see latency.h. */
#include "latency.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callstack.h"
#include "common/vec.h"

struct ptd_latency {
	const char *sym;
	uint64_t n, partial, min, max;
	long double sum;
	uint64_t bucket[65];          /* 0: duration 0; k: [2^(k-1), 2^k) */
	struct ptd_vec exact;         /* uint64_t, the first PTD_LATENCY_EXACT */
};

struct ptd_latency *ptd_latency_new(const char *sym)
{
	struct ptd_latency *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->sym = sym;
	l->exact = (struct ptd_vec)PTD_VEC_INIT(sizeof(uint64_t));
	l->exact.limit = PTD_LATENCY_EXACT;
	return l;
}

void ptd_latency_free(struct ptd_latency *l)
{
	if (!l)
		return;
	ptd_vec_fini(&l->exact);
	free(l);
}

static unsigned bucket_of(uint64_t d)
{
	unsigned k = 0;

	while (d) {
		k++;
		d >>= 1;
	}
	return k;
}

void ptd_latency_add(struct ptd_latency *l, const char *name, uint64_t call_time,
		     uint64_t return_time, uint32_t flags)
{
	uint64_t d = return_time > call_time ? return_time - call_time : 0, *slot;

	if (!name || strcmp(name, l->sym))
		return;
	if (flags & (PTD_CR_NO_CALL | PTD_CR_NO_RETURN)) {
		l->partial++;
		return;
	}
	if (!l->n || d < l->min)
		l->min = d;
	if (d > l->max)
		l->max = d;
	l->n++;
	l->sum += d;
	l->bucket[bucket_of(d)]++;
	if ((slot = ptd_vec_push(&l->exact)))
		*slot = d;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* the nearest-rank percentile p (per mille) */
static uint64_t percentile(const struct ptd_latency *l, unsigned pm)
{
	uint64_t rank = (l->n * pm + 999) / 1000, seen = 0;
	unsigned k;

	if (!rank)
		rank = 1;
	if (l->exact.len == l->n)
		return ((const uint64_t *)l->exact.data)[rank - 1];
	for (k = 0; k < 65; k++) {
		seen += l->bucket[k];
		if (seen >= rank)
			return k ? (k == 64 ? UINT64_MAX : (1ULL << k) - 1) : 0;
	}
	return l->max;
}

int ptd_latency_print(struct ptd_latency *l, FILE *out)
{
	static const unsigned pms[] = { 500, 900, 990, 999 };
	uint64_t most = 0;
	unsigned k, lo = 64, hi = 0, i, w;

	fprintf(out, "latency of %s: %" PRIu64 " calls", l->sym, l->n);
	if (l->partial)
		fprintf(out, " (and %" PRIu64 " without their call or return, not counted)", l->partial);
	fputc('\n', out);
	if (!l->n)
		return ferror(out) ? -1 : 0;
	if (l->exact.len == l->n)
		qsort(l->exact.data, l->exact.len, sizeof(uint64_t), cmp_u64);
	fprintf(out, "min %" PRIu64 " ns, avg %.1Lf ns, max %" PRIu64 " ns\n", l->min,
		l->sum / (long double)l->n, l->max);
	for (i = 0; i < sizeof(pms) / sizeof(pms[0]); i++)
		fprintf(out, "%sp%u%s %" PRIu64 " ns", i ? ", " : "", pms[i] / 10,
			pms[i] % 10 ? ".9" : "", percentile(l, pms[i]));
	fputs(l->exact.len == l->n ? "\n" : " (upper bounds of their buckets)\n", out);
	for (k = 0; k < 65; k++)
		if (l->bucket[k]) {
			lo = k < lo ? k : lo;
			hi = k;
			most = l->bucket[k] > most ? l->bucket[k] : most;
		}
	fprintf(out, "%20s : %-10s distribution\n", "ns", "count");
	for (k = lo; k <= hi; k++) {
		uint64_t from = k ? 1ULL << (k - 1) : 0, to = k ? (k == 64 ? UINT64_MAX : (1ULL << k) - 1) : 0;
		char range[48];

		snprintf(range, sizeof(range), "%" PRIu64 " -> %" PRIu64, from, to);
		w = (unsigned)(l->bucket[k] * 40 / most);
		fprintf(out, "%20s : %-10" PRIu64 " |%-40.*s|\n", range, l->bucket[k], (int)w,
			"****************************************");
	}
	return ferror(out) ? -1 : 0;
}
