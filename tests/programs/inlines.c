/* Test program for source lines (-F srcline): built with -O2 -g, its
 * static functions are inlined into work() and main(), nested two deep
 * (step() -> fold() -> mix()), from this file and from inlines.h. */
#include <stdio.h>

#include "inlines.h"

#define NOIPA __attribute__((noipa))

static long table[64];

static inline void fill(int seed)
{
	for (int i = 0; i < 64; i++)
		table[i] = (seed * 31 + i * 7) & 0xff;
}

static inline long step(int k)
{
	fill(k);
	return fold(table, 16 + (k & 31));
}

NOIPA long work(int rounds)
{
	long s = 0;

	for (int k = 0; k < rounds; k++)
		s += step(k);
	return s;
}

int main(void)
{
	printf("%ld\n", work(40));
	return 0;
}
