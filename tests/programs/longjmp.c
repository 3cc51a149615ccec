/* Test program for the recorder's execution sources: setjmp/longjmp.
 *
 * run() calls level1 -> level2 -> level3 five times; four times level3
 * longjmps back into run() across the three frames (libc's __longjmp
 * ends with an indirect jump into run). */
#include <setjmp.h>
#include <stdio.h>

#define NOIPA __attribute__((noipa))

static jmp_buf env;
volatile long sink;

NOIPA void level3(int n)
{
	if (n > 2)
		longjmp(env, n);
	sink += n;
}

NOIPA void level2(int n)
{
	level3(n + 1);
	sink += 2;
}

NOIPA void level1(int n)
{
	level2(n + 1);
	sink += 1;
}

NOIPA long run(void)
{
	volatile long total = 0;
	volatile int i;

	for (i = 0; i < 5; i++) {
		int r = setjmp(env);
		if (r == 0)
			level1(i);
		else
			total += r;
	}
	return total;
}

int main(void)
{
	printf("longjmp %ld\n", run());
	return 0;
}
