/* W5: several threads on fewer emulated CPUs, so that the recorder
 * preempts them: context switches (SWITCH_CPU_WIDE) in every CPU's trace.
 * Each thread mixes loops and calls through function pointers.
 * Usage: threads [THREADS [ITERATIONS]]  (default 4 threads, 200) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NOIPA __attribute__((noipa))

typedef long (*op_fn)(long, long);

NOIPA long f_add(long a, long b) { return a + b; }
NOIPA long f_mix(long a, long b) { return (a ^ b) * 3; }
NOIPA long f_sub(long a, long b) { return a - (b >> 1); }

static op_fn fns[3] = { f_add, f_mix, f_sub };
static long iters = 200;
static long results[64];

NOIPA long work(long k)
{
	long s = k;

	for (long it = 0; it < iters; it++)
		for (long i = 0; i < 1000; i++) {
			if ((i ^ it) & 1)
				s += i;
			if (i % 7 == 0)
				s = fns[(i + k) % 3](s, i);
		}
	return s;
}

static void *thread_main(void *arg)
{
	long k = (long)arg;

	results[k] = work(k);
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 4, sum = 0;
	pthread_t t[64];

	if (argc > 2)
		iters = atol(argv[2]);
	if (n < 1 || n > 64)
		n = 4;
	for (long k = 0; k < n; k++)
		pthread_create(&t[k], NULL, thread_main, (void *)k);
	for (long k = 0; k < n; k++)
		pthread_join(t[k], NULL);
	for (long k = 0; k < n; k++)
		sum += results[k];
	printf("threads %ld\n", sum);
	return 0;
}
