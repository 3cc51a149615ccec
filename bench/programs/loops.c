/* W1: loop-heavy code.  Nested loops with data-dependent conditional
 * branches and few calls: the trace is almost all TNT packets.
 * Usage: loops [ITERATIONS]  (outer iterations, default 2000) */
#include <stdio.h>
#include <stdlib.h>

#define NOIPA __attribute__((noipa))

static unsigned char data[4096];

NOIPA long scan(int n)
{
	long s = 0;

	for (int i = 0; i < n; i++) {
		if (data[i] & 1)
			s += data[i];
		else
			s -= i;
		if ((data[i] & 6) == 6)
			s ^= i;
	}
	return s;
}

NOIPA long count_down(long n)
{
	long r = 0;

	__asm__ volatile("1:\n\t"
			 "add %1, %0\n\t"
			 "dec %1\n\t"
			 "jnz 1b\n"
			 : "+r"(r), "+r"(n) : : "cc");
	return r;
}

int main(int argc, char **argv)
{
	long iters = argc > 1 ? atol(argv[1]) : 2000, s = 0;
	unsigned x = 12345;

	for (size_t i = 0; i < sizeof(data); i++) {
		x = x * 1103515245u + 12345u;
		data[i] = (unsigned char)(x >> 16);
	}
	for (long k = 0; k < iters; k++) {
		s += scan(1024);
		s += count_down(512);
	}
	printf("loops %ld\n", s);
	return 0;
}
