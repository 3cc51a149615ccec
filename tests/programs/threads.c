/* Test program for the recorder's execution sources: threads.
 *
 * Three threads run work(1), work(2), work(3) and are joined.  Each
 * work(k) is deterministic; what happens around it (thread creation,
 * futex waits) depends on timing. */
#include <pthread.h>
#include <stdio.h>

#define NOIPA __attribute__((noipa))

static long results[4];

NOIPA long work(long k)
{
	long s = 0;

	for (long i = 0; i < 2000 * k; i++)
		s += i ^ k;
	return s;
}

static void *thread_main(void *arg)
{
	long k = (long)arg;

	results[k] = work(k);
	return NULL;
}

NOIPA long run(void)
{
	pthread_t t[3];
	long sum = 0;

	for (long k = 0; k < 3; k++)
		pthread_create(&t[k], NULL, thread_main, (void *)(k + 1));
	for (int k = 0; k < 3; k++)
		pthread_join(t[k], NULL);
	for (int k = 1; k <= 3; k++)
		sum += results[k];
	return sum;
}

int main(void)
{
	printf("threads %ld\n", run());
	return 0;
}
