#include "tsc.h"

uint64_t ptd_tsc_to_perf_time(uint64_t cyc, const struct ptd_time_conv *tc)
{
	uint64_t quot, rem;

	if (tc->cap_user_time_short)
		cyc = tc->time_cycles + ((cyc - tc->time_cycles) & tc->time_mask);
	if (tc->time_shift >= 64)
		return tc->time_zero;
	quot = cyc >> tc->time_shift;
	rem = cyc & ((1ULL << tc->time_shift) - 1);
	return tc->time_zero + quot * tc->time_mult + ((rem * tc->time_mult) >> tc->time_shift);
}

uint64_t ptd_perf_time_to_tsc(uint64_t ns, const struct ptd_time_conv *tc)
{
	uint64_t t, quot, rem;

	if (!tc->time_mult || tc->time_shift >= 64)
		return 0;
	t = ns - tc->time_zero;
	quot = t / tc->time_mult;
	rem = t % tc->time_mult;
	return (quot << tc->time_shift) + (rem << tc->time_shift) / tc->time_mult;
}
