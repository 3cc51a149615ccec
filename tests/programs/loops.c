/* Test program for the recorder's execution sources: loops.
 *
 * count_down() is one assembly loop with exactly two conditional branches:
 * `je` (b.eq) never taken (n times per call) and the closing `jnz` (b.ne)
 * taken n-1 times and not taken once; tests count them.  nested() mixes taken and
 * not-taken branches.  run() is what the tests compare between sources:
 * it calls nothing outside this file. */
#include <stdio.h>

#define NOIPA __attribute__((noipa))

NOIPA long count_down(long n)
{
	long r = 0;

#ifdef __aarch64__
	__asm__ volatile("1:\n\t"
			 "add %0, %0, %1\n\t"
			 "cmn %1, #1\n\t"
			 "b.eq 2f\n\t"
			 "subs %1, %1, #1\n\t"
			 "b.ne 1b\n"
			 "2:"
			 : "+r"(r), "+r"(n) : : "cc");
#else
	__asm__ volatile("1:\n\t"
			 "add %1, %0\n\t"
			 "cmp $-1, %1\n\t"
			 "je 2f\n\t"
			 "dec %1\n\t"
			 "jnz 1b\n"
			 "2:"
			 : "+r"(r), "+r"(n) : : "cc");
#endif
	return r;
}

NOIPA long nested(int a, int b)
{
	long s = 0;

	for (int i = 0; i < a; i++)
		for (int j = 0; j < b; j++) {
			if ((i ^ j) & 1)
				s += i;
			else
				s -= j;
			if (j > b - 3)
				s ^= 1;
		}
	return s;
}

NOIPA long run(void)
{
	long s = 0;

	for (int k = 0; k < 20; k++)
		s += count_down(500);
	return s + nested(40, 40);
}

int main(void)
{
	printf("loops %ld\n", run());
	return 0;
}
