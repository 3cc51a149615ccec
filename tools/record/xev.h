/* What the emulated recorder's execution sources report: each thread's
 * executed path as control transfers, plus the threads and executable
 * mappings of the traced program.
 *
 * A source (qemu exec log, ptrace single-step) runs the program and calls
 * the sink in the order things happened, interleaving threads as they
 * really ran.  The PT/ETM encoders and the ground-truth log consume the
 * same calls. */
#ifndef PTD_RECORD_XEV_H
#define PTD_RECORD_XEV_H

#include <stdint.h>

enum ptd_xclass {
	PTD_X_COND,      /* conditional direct branch (jcc, jrcxz, loop*); `taken` says which way */
	PTD_X_JUMP,      /* unconditional direct jump */
	PTD_X_CALL,      /* direct near call */
	PTD_X_IJUMP,     /* indirect jump */
	PTD_X_ICALL,     /* indirect near call */
	PTD_X_RET,       /* near return */
	PTD_X_SYSCALL,   /* syscall / sysenter / int n: into the kernel and back;
	                    `to` is the user ip execution resumed at */
	PTD_X_ASYNC,     /* asynchronous transfer (signal delivery): `from` is the ip
	                    of the instruction that was about to run (not executed),
	                    `to` the ip user execution continued at */
	PTD_X_NCLASS
};

struct ptd_xev {
	uint8_t cls;         /* enum ptd_xclass */
	uint8_t taken;       /* PTD_X_COND: 1 taken, 0 not taken; others: 1 */
	uint8_t insn_len;    /* bytes of the control-flow instruction (0 for ASYNC) */
	uint64_t from;       /* ip of the control-flow instruction (ASYNC: see above) */
	uint64_t to;         /* ip of the next instruction executed */
	uint64_t icount;     /* instructions the thread retired so far, this one included
	                        (ASYNC: not counting the interrupted one) */
};

struct ptd_xmap {
	uint64_t start, len, pgoff;
	uint32_t prot;       /* PROT_* */
	uint32_t flags;      /* MAP_* */
	uint32_t maj, min;
	uint64_t ino;
	const char *path;    /* borrowed for the call */
};

struct ptd_xsink {
	void *ctx;
	/* a thread appears (the first one: the program after exec) and will
	 * execute from ip; ppid/ptid name its creator (0 for the first) */
	int (*thread_start)(void *ctx, int32_t pid, int32_t tid, int32_t ppid, int32_t ptid,
			    uint64_t ip);
	/* a control transfer of thread tid */
	int (*event)(void *ctx, int32_t tid, const struct ptd_xev *ev);
	/* the thread ended after `icount` instructions; last_ip is the ip after
	 * its last instruction */
	int (*thread_end)(void *ctx, int32_t tid, uint64_t icount, uint64_t last_ip);
	/* an executable mapping of process pid exists from now on */
	int (*mmap)(void *ctx, int32_t pid, int32_t tid, const struct ptd_xmap *m);
	/* the process's name (after exec) */
	int (*comm)(void *ctx, int32_t pid, int32_t tid, const char *comm);
};

#endif
