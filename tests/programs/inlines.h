/* Inline helpers of tests/programs/inlines.c, in their own file so that
 * source lines name two files. */
#ifndef INLINES_H
#define INLINES_H

static inline long mix(long a, long b)
{
	if ((a ^ b) & 4)
		return a * 3 + b;
	return a - (b >> 1);
}

static inline long fold(const long *v, int n)
{
	long s = 0;

	for (int i = 0; i < n; i++)
		s = mix(s, v[i]);
	return s;
}

#endif
