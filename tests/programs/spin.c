/* Test program for the runs of TNT bits (tests/golden/runs.test): a loop
 * of one conditional branch, taken n - 1 times a call, so that a
 * recording with long TNT packets has packets alike one after the other,
 * each leaving the walk where it found it (decoders/intel-pt/pdec_skip.c,
 * chain_repeat). */
#define NOIPA __attribute__((noipa))

NOIPA long spin(long n)
{
	long r = 0;

#ifdef __aarch64__
	__asm__ volatile("1:\n\t"
			 "add %0, %0, %1\n\t"
			 "subs %1, %1, #1\n\t"
			 "b.ne 1b"
			 : "+r"(r), "+r"(n) : : "cc");
#else
	__asm__ volatile("1:\n\t"
			 "add %1, %0\n\t"
			 "dec %1\n\t"
			 "jnz 1b"
			 : "+r"(r), "+r"(n) : : "cc");
#endif
	return r;
}

int main(void)
{
	volatile long s = 0;

	for (int k = 0; k < 20; k++)
		s += spin(2000 + k);
	return 0;
}
