/* Test program for the recorder's execution sources: recursion.
 *
 * depth(n) nests n+1 frames (the asm keeps the compiler from turning it
 * into a loop); fib and ack recurse in a tree.  run() is what the tests
 * compare between sources. */
#include <stdio.h>

#define NOIPA __attribute__((noipa))

NOIPA long depth(long n)
{
	long r;

	if (n == 0)
		return 0;
	r = depth(n - 1);
	__asm__ volatile("" : "+r"(r));
	return r + 1;
}

NOIPA long fib(long n)
{
	long a, b;

	if (n < 2)
		return n;
	a = fib(n - 1);
	__asm__ volatile("" : "+r"(a));
	b = fib(n - 2);
	__asm__ volatile("" : "+r"(b));
	return a + b;
}

NOIPA long ack(long m, long n)
{
	long r;

	if (m == 0)
		return n + 1;
	if (n == 0)
		r = ack(m - 1, 1);
	else
		r = ack(m - 1, ack(m, n - 1));
	__asm__ volatile("" : "+r"(r));
	return r;
}

NOIPA long run(void)
{
	return depth(2000) + fib(15) + ack(2, 3);
}

int main(void)
{
	printf("recursion %ld\n", run());
	return 0;
}
