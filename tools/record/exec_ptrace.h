/* Execution source: native ptrace single-stepping.
 *
 * Runs argv (PATH search like execvp) under ptrace, single-steps every
 * thread and turns consecutive instruction pointers into the control
 * transfers of xev.h, with real pids and tids.  Exact, works for
 * dynamically linked programs, but slow (tens of thousands of
 * instructions per second).
 *
 * Reported: comm and the executable mappings after exec (re-read from
 * /proc/PID/maps after every system call instruction, new ones reported,
 * [vdso] included), thread_start for the first thread and every clone
 * (creator = the cloning thread), thread_end when a thread exits.
 *
 * Semantics shared with the qemu source:
 *  - a REP string instruction counts once however many iterations it stops
 *    after;
 *  - a syscall-class instruction's `to` is the next user ip at which an
 *    instruction executes: the handler when a signal is delivered on the
 *    way back from the kernel (no separate ASYNC then);
 *  - a signal delivered elsewhere (a fault, or an asynchronous signal
 *    between instructions) is PTD_X_ASYNC from the ip that was about to
 *    run;
 *  - a thread's last instruction (the exit system call) gets no event: it
 *    is counted in thread_end, whose last_ip is the ip after it.
 */
#ifndef PTD_RECORD_EXEC_PTRACE_H
#define PTD_RECORD_EXEC_PTRACE_H

#include <stdint.h>

#include "common/err.h"
#include "tools/record/xev.h"

struct ptd_ptrace_stats {
	uint64_t insns;       /* instructions counted, all threads */
	uint64_t steps;       /* single-step stops */
	uint64_t events;      /* sink->event calls */
	uint32_t threads;     /* threads seen */
	int limited;          /* stopped at max_insns (program killed) */
	int exit_status;      /* wait status of the program's main thread */
};

struct ptd_ptrace_opts {
	const char *const *envp;        /* environment; NULL: inherit ours */
	int no_aslr;                    /* personality(ADDR_NO_RANDOMIZE) */
	uint64_t max_insns;             /* kill the program after this many; 0: no limit */
	struct ptd_ptrace_stats *stats; /* filled when not NULL */
};

/* Run argv[0] with arguments argv (NULL-terminated) to completion under
 * ptrace, reporting to sink (every callback must be set).  opts may be
 * NULL.  It waits with waitpid(-1): the caller must have no other
 * children running meanwhile (their statuses would be taken).
 * max_insns stops at exactly that many instructions.  Returns 0 (whatever the program's exit status), -PTD_E_UNSUPPORTED
 * when ptrace is not permitted here, -PTD_E_IO when the program cannot be
 * started, or the negative return of a callback (the program is killed). */
int ptd_exec_ptrace(const char *const argv[], const struct ptd_ptrace_opts *opts,
		    const struct ptd_xsink *sink, struct ptd_err *err);

#endif
