/* perf's auxtrace min-heap (tools/perf/util/auxtrace.c): queue numbers by
 * ordinal (a timestamp).  Its pop moves the smaller child up and takes the
 * right one on ties, so entries with equal ordinals come out in perf's
 * order, not in insertion order; decoders that interleave queues as perf
 * does (ptq.c, rangeq.c) need exactly that order. */
#ifndef PTD_AUXHEAP_H
#define PTD_AUXHEAP_H

#include <stddef.h>
#include <stdint.h>

struct ptd_auxheap_item {
	uint32_t nr;
	uint64_t ordinal;
};

struct ptd_auxheap {
	struct ptd_auxheap_item *a;   /* a[0] is the top when cnt > 0 */
	size_t cnt, cap;
};

/* Add nr at ordinal.  Returns 0, or -1 when out of memory. */
int ptd_auxheap_add(struct ptd_auxheap *h, uint32_t nr, uint64_t ordinal);

/* Remove the top entry (nothing when empty). */
void ptd_auxheap_pop(struct ptd_auxheap *h);

void ptd_auxheap_fini(struct ptd_auxheap *h);

#endif
