/* Test program for the recorder's execution sources: asynchronous
 * signals.
 *
 * A 1 ms interval timer interrupts a recursive computation until 20
 * SIGALRMs have arrived: each lands between two arbitrary instructions
 * (often right after a conditional or indirect branch, which the qemu
 * source must resolve when the handler returns).  Where they land depends
 * on timing, so the sources are not compared with each other: each path
 * must walk through the code, and every interruption be an asynchronous
 * transfer to on_tick. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#define NOIPA __attribute__((noipa))

static volatile sig_atomic_t ticks;

NOIPA void on_tick(int s)
{
	(void)s;
	ticks++;
}

NOIPA long rec(long n)
{
	long a;

	if (n < 2)
		return n;
	a = rec(n - 1);
	__asm__ volatile("" : "+r"(a));
	return a + rec(n - 2);
}

NOIPA long run(void)
{
	struct itimerval it;
	long s = 0;

	memset(&it, 0, sizeof(it));
	it.it_interval.tv_usec = 1000;
	it.it_value.tv_usec = 1000;
	setitimer(ITIMER_REAL, &it, NULL);
	while (ticks < 20)
		s += rec(12);
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	return s;
}

int main(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_tick;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	printf("sigalrm %d\n", run() > 0);
	return 0;
}
