/* --latency=SYMBOL: the distribution of one function's call durations,
 * from the calls of the call/return pairing (callfeed.h): every call of a
 * symbol of that name (in any dso) whose call and return were both seen
 * (no NO_CALL, no NO_RETURN flag), its duration return_time - call_time
 * in perf time (ns).  Printed: the calls counted and those left out,
 * min / avg / max, percentiles p50 p90 p99 p99.9 (nearest rank: the
 * ceil(p/100 * n)-th smallest), and a power-of-two histogram as bcc's
 * funclatency prints it.  The durations are kept for exact percentiles up
 * to PTD_LATENCY_EXACT calls; past that the percentiles are the upper
 * bounds of their histogram buckets (and say so). */
#ifndef PTD_LATENCY_H
#define PTD_LATENCY_H

#include <stdint.h>
#include <stdio.h>

#define PTD_LATENCY_EXACT (1u << 22)

struct ptd_latency;

/* NULL when out of memory; sym is borrowed. */
struct ptd_latency *ptd_latency_new(const char *sym);
void ptd_latency_free(struct ptd_latency *l);   /* NULL-safe */

/* One finished call (name NULL: no symbol), flags PTD_CR_*. */
void ptd_latency_add(struct ptd_latency *l, const char *name, uint64_t call_time,
		     uint64_t return_time, uint32_t flags);

/* The report.  Returns 0, or -1 when out of memory or out is in error. */
int ptd_latency_print(struct ptd_latency *l, FILE *out);

#endif
