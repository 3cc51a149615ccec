/* The tests' pseudo-random numbers: Marsaglia's xorshift64 (13, 7, 17),
 * the same sequence for a seed on every run. */
#ifndef PTD_TESTS_XORSHIFT_H
#define PTD_TESTS_XORSHIFT_H

#include <stdint.h>

/* The next number of the sequence in *s (its state: not 0) */
static inline uint64_t xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

#endif
