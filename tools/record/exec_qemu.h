/* Execution source: qemu user mode.
 *
 * Runs `qemu-x86_64 -d exec,nochain,strace -D FIFO -0 ARGV0 PROGRAM ARGS`
 * (AArch64 programs: qemu-aarch64, with -d page too) with the log going
 * through a named pipe in a private temporary directory (so nothing grows
 * on disk), and turns the log's block starts into control transfers
 * (qemu_walk.h).  The program's stdin, stdout and stderr are ours.
 *
 * Static, non-PIE x86-64 or AArch64 executables only for now (the ELF's
 * e_machine picks the architecture and the default qemu; AArch64 when
 * opts->arches asks for it): their guest
 * addresses are the ELF's, and their executable PT_LOAD segments are the
 * mappings reported (sink->mmap, before the first event, after
 * sink->comm).  There is no vDSO under qemu 7.2; for AArch64, qemu's
 * sigreturn trampoline page is reported as [vdso] when the log shows it,
 * also before the first event (qemu_code.h).  Threads get synthetic tids
 * pid, pid+1, ... in order of appearance (pid = qemu's, which the guest
 * sees as its own); a new thread's creator is reported as the main thread.
 *
 * A thread that exits while others run is reported ended when its vCPU
 * index is reused or at the end of the log (the log does not say when).
 * max_insns stops at the end of the block that reaches it.
 *
 * Limits: a program that forks has its children's blocks mixed into the
 * log (not supported); self-modifying code and code outside the
 * executable (JIT) are not supported (-PTD_E_NOTFOUND names the address).
 */
#ifndef PTD_RECORD_EXEC_QEMU_H
#define PTD_RECORD_EXEC_QEMU_H

#include <stdint.h>

#include "common/err.h"
#include "tools/record/qemu_walk.h"
#include "tools/record/xev.h"

struct ptd_qemu_stats {
	struct ptd_qwalk_stats walk;
	uint64_t lines;        /* log lines read */
	uint64_t bytes;        /* log bytes read */
	int exit_status;       /* qemu's wait status (the program's exit status) */
};

struct ptd_qemu_opts {
	const char *qemu;               /* qemu binary; NULL: qemu-x86_64 or
	                                   qemu-aarch64 (by the ELF) from PATH */
	const char *const *envp;        /* program environment; NULL: inherit ours */
	int no_aslr;                    /* personality(ADDR_NO_RANDOMIZE) for qemu */
	uint64_t max_insns;             /* stop (kill qemu) after this many; 0: no limit */
	unsigned arches;                /* programs accepted: bit 1 << enum ptd_arch
	                                   (classify.h) each; 0: x86-64 only, what
	                                   the Intel PT recorder encodes */
	struct ptd_qemu_stats *stats;   /* filled when not NULL */
};

/* Run argv (argv[0] is searched in PATH when it has no '/') under qemu to
 * completion, reporting to sink (every callback must be set).  opts may be
 * NULL.  Returns 0 (whatever the program's exit status),
 * -PTD_E_UNSUPPORTED when qemu cannot be run or the program is not a static
 * non-PIE executable of an accepted architecture, -PTD_E_IO, -PTD_E_FORMAT
 * (a log line we do not understand), or the negative return of a callback
 * (qemu is killed). */
int ptd_exec_qemu_opts(const char *const argv[], const struct ptd_qemu_opts *opts,
		       const struct ptd_xsink *sink, struct ptd_err *err);

/* ptd_exec_qemu_opts with default options (x86-64 programs). */
int ptd_exec_qemu(const char *const argv[], const struct ptd_xsink *sink, struct ptd_err *err);

#endif
