/* Test program for the recorder's execution sources: signals.
 *
 * All three deliveries are deterministic, so that both sources see the
 * same path:
 *   - raise(SIGUSR1): the handler runs when the mask is restored, on the
 *     way back from that system call;
 *   - SIGALRM from a 2 ms timer while blocked, taken in sigsuspend();
 *   - SIGILL from ud2 in do_trap() (udf on AArch64): an asynchronous
 *     transfer from the ud2 (which does not retire) to on_ill, which
 *     siglongjmps out. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#define NOIPA __attribute__((noipa))

static volatile sig_atomic_t got_usr1, got_alrm, got_ill;
static sigjmp_buf trap_env;

NOIPA void on_usr1(int s)
{
	(void)s;
	got_usr1++;
}

NOIPA void on_alrm(int s)
{
	(void)s;
	got_alrm++;
}

NOIPA void on_ill(int s)
{
	(void)s;
	got_ill++;
	siglongjmp(trap_env, 1);
}

NOIPA void do_trap(void)
{
#ifdef __aarch64__
	__asm__ volatile("udf #0");   /* SIGILL; __builtin_trap() is brk: SIGTRAP */
#else
	__builtin_trap();
#endif
}

NOIPA long run(void)
{
	sigset_t block, old, wait;
	struct itimerval it;

	raise(SIGUSR1);

	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	sigprocmask(SIG_BLOCK, &block, &old);
	memset(&it, 0, sizeof(it));
	it.it_value.tv_usec = 2000;
	setitimer(ITIMER_REAL, &it, NULL);
	wait = old;
	sigdelset(&wait, SIGALRM);
	while (!got_alrm)
		sigsuspend(&wait);
	sigprocmask(SIG_SETMASK, &old, NULL);

	if (sigsetjmp(trap_env, 1) == 0)
		do_trap();
	return got_usr1 + got_alrm + got_ill;
}

static void handle(int sig, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

int main(void)
{
	handle(SIGUSR1, on_usr1);
	handle(SIGALRM, on_alrm);
	handle(SIGILL, on_ill);
	printf("signals %ld\n", run());
	return 0;
}
