/* Conversion between perf time (ns) and the trace's timestamp counter, as
 * TIME_CONV or the AUXTRACE_INFO of Intel PT describe it (perf's
 * tsc_to_perf_time / perf_time_to_tsc). */
#ifndef PTD_TSC_H
#define PTD_TSC_H

#include <stdint.h>

struct ptd_time_conv {
	uint16_t time_shift;
	uint32_t time_mult;
	uint64_t time_zero;
	uint64_t time_cycles;
	uint64_t time_mask;
	int cap_user_time_zero;
	int cap_user_time_short;
};

uint64_t ptd_tsc_to_perf_time(uint64_t cyc, const struct ptd_time_conv *tc);
uint64_t ptd_perf_time_to_tsc(uint64_t ns, const struct ptd_time_conv *tc);

#endif
