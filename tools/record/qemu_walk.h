/* From qemu's log of executed translation blocks to control transfers.
 *
 * The exec log (qemu -d exec,nochain) names the start of each block a
 * vCPU (= guest thread) runs.  For each thread the walker decodes the
 * block it last started (qemu_blocks.h) and, when the thread's next block
 * starts, knows how the block ended: the next start decides a
 * conditional branch and an indirect target; a start at the end of an
 * earlier instruction means qemu ended the block early; a start no
 * instruction explains is an asynchronous transfer (a signal).
 *
 * What qemu's log adds and the walker takes:
 *   "Stopped execution of TB chain before" a block: that block did not
 *     run (ptd_qwalk_stopped).  The line names no thread: when several
 *     are at that block, their next blocks tell which one it was (one
 *     starting it again was stopped, one going where the block leads was
 *     not, and when all but one were not, that one was); one going
 *     elsewhere (a signal handler) is held back until the handler
 *     returns: to the block's start if it was stopped;
 *   "--- SIGxxx" (with -d strace): a signal is being delivered to some
 *     thread (ptd_qwalk_signal); it tells a signal handler's entry from an
 *     indirect branch.
 * When a signal interrupts a thread right after a conditional or indirect
 * branch, where the branch went is unknown until the handler returns
 * (rt_sigreturn resumes at the interrupted ip): calls to the sink are held
 * back until then, in order.  If the handler never returns, the branch is
 * guessed (counted in the stats).
 *
 * Threads: vCPU n's first block starts a thread (synthetic tid pid + k for
 * the k-th thread, creator = the main thread); a thread that makes the
 * exit system call ends, and the next block of its vCPU index (qemu reuses
 * indexes) starts a new thread.
 *
 * The same for x86-64 and AArch64 logs: only the system call numbers
 * differ (cfg.arch). */
#ifndef PTD_RECORD_QEMU_WALK_H
#define PTD_RECORD_QEMU_WALK_H

#include <stdint.h>

#include "common/err.h"
#include "tools/record/qemu_blocks.h"
#include "tools/record/xev.h"

struct ptd_qwalk_cfg {
	const struct ptd_xsink *sink;   /* borrowed; every callback set */
	struct ptd_qblocks *blocks;     /* borrowed */
	int32_t pid;
	uint64_t max_insns;             /* 0: no limit */
	unsigned arch;                  /* enum ptd_arch (classify.h), for the
	                                   numbers of exit and rt_sigreturn */
};

struct ptd_qwalk_stats {
	uint64_t insns;       /* instructions counted, all threads */
	uint64_t blocks;      /* block starts taken */
	uint64_t events;      /* sink->event calls */
	uint64_t async;       /* asynchronous transfers */
	uint64_t deferred;    /* interrupted branches resolved at the handler's return */
	uint64_t guessed;     /* transfers whose target had to be guessed */
	uint64_t splits;      /* blocks qemu ended before our decode's end */
	uint32_t threads;
	int limited;          /* max_insns reached */
};

struct ptd_qwalk;

/* Returns 0 and *out (free with ptd_qwalk_free), or -PTD_E_NOMEM,
 * -PTD_E_INVAL for an unknown cfg->arch. */
int ptd_qwalk_new(struct ptd_qwalk **out, const struct ptd_qwalk_cfg *cfg, struct ptd_err *err);
void ptd_qwalk_free(struct ptd_qwalk *w);

/* vCPU `vcpu` starts the block at pc (host: qemu's code pointer, used to
 * match "Stopped" lines).  Returns 0, 1 when max_insns is reached (stop
 * feeding), or negative -PTD_E_* (a sink callback's failure, code that
 * cannot be read, limits). */
int ptd_qwalk_block(struct ptd_qwalk *w, unsigned vcpu, uint64_t pc, uint64_t host, struct ptd_err *err);

/* The block at pc (host pointer host) that a vCPU just logged did not run. */
int ptd_qwalk_stopped(struct ptd_qwalk *w, uint64_t pc, uint64_t host, struct ptd_err *err);

/* A signal is about to be delivered to one of the threads. */
void ptd_qwalk_signal(struct ptd_qwalk *w);

/* End of the log: end every thread (its last block counted as far as it is
 * known to have run), resolve what is still held back, flush.  Returns 0
 * or negative. */
int ptd_qwalk_finish(struct ptd_qwalk *w, struct ptd_err *err);

void ptd_qwalk_get_stats(const struct ptd_qwalk *w, struct ptd_qwalk_stats *st);

#endif
