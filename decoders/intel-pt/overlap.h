/* Overlap between successive snapshots of an Intel PT ring buffer, found
 * as perf finds it (intel_pt_find_overlap): the next buffer is used from
 * its first PSB, and from the end of what the previous buffer already
 * held (the PSB+ with the same TSC, or the same bytes). */
#ifndef PTD_DECODERS_INTEL_PT_OVERLAP_H
#define PTD_DECODERS_INTEL_PT_OVERLAP_H

#include <stddef.h>
#include <stdint.h>

/* Where the new data of b starts (b + lb when it has none).  *consecutive
 * is set when b continues a without a break.  have_tsc: the trace has TSC
 * packets. */
const uint8_t *ptd_pt_find_overlap(const uint8_t *a, size_t la, const uint8_t *b, size_t lb,
				   int have_tsc, int *consecutive);

#endif
