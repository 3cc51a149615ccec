/* Call/return pairing: per-thread call stacks driven by the branch samples,
 * giving one "call" (a function's execution: entry, exit, counts) each time
 * a function is left, as perf's thread_stack__process does for its
 * call_return_processor (db export, exported-sql-viewer's call graph).
 *
 * The rules (perf 6.1 util/thread-stack.c):
 *  - a thread's first branch puts the current symbol at the bottom of its
 *    stack (flag NO_CALL: its call was not seen);
 *  - a call (not of zero length) pushes the target's call path and its
 *    return address;
 *  - a return pops the entry with that return address; entries above it
 *    (longjmp, exceptions) end with NO_RETURN.  A return matching nothing
 *    is taken as a return to a caller not seen (NO_CALL entries are made
 *    for the 'to' symbol, and 'from' is popped at once), or at the bottom
 *    of the stack as the end of the bottom function;
 *  - a return from a system call or interrupt (no target) pops the kernel
 *    entries; "trace end" while calling pushes a marker entry that "trace
 *    begin" pops; a jump to the start of another symbol (a tail call, a PLT
 *    jump) pushes a NON_CALL entry, popped with whatever returns past it;
 *  - x86 retpolines (__x86_indirect_thunk_*) are kept out of the paths;
 *  - a break in the trace (a new trace number), an exec (the main thread's
 *    exec comm changes) and the end of the run flush the stack: every
 *    entry ends with NO_RETURN at the thread's last branch time.
 * The idle task (pid 0, tid 0) has one stack per CPU.
 *
 * Symbols are keys the caller chooses (0: no symbol), as are comms and the
 * samples' references; call paths are shared by all threads. */
#ifndef PTD_CALLSTACK_H
#define PTD_CALLSTACK_H

#include <stddef.h>
#include <stdint.h>

#define PTD_CALLSTACK_MAX   (1u << 20)   /* entries per stack; deeper flushes the stack */
#define PTD_CALLPATH_MAX    (1u << 26)   /* call paths in all */

/* call_return flags, as perf's CALL_RETURN_* */
enum {
	PTD_CR_NO_CALL = 1,     /* the call was not seen */
	PTD_CR_NO_RETURN = 2,   /* the return was not seen */
	PTD_CR_NON_CALL = 4,    /* entered by a jump, not a call */
};

/* A node of the call tree: a symbol called from its parent's. */
struct ptd_cpath {
	const struct ptd_cpath *parent;   /* NULL: the root */
	uint64_t sym;                     /* symbol key, 0: none */
	uint64_t ip;                      /* the address entered, 0 when sym is set */
	int in_kernel;
	uint64_t db_id;                   /* the caller's: 0 until it numbers it */
};

/* One branch sample, resolved. */
struct ptd_cs_branch {
	int32_t pid, tid, cpu;
	uint64_t comm;              /* the thread's exec comm key (a change flushes a main thread) */
	uint64_t time, ip, addr;
	uint32_t flags;             /* PTD_IPF_* */
	unsigned insn_len;
	uint64_t insn_cnt, cyc_cnt;
	uint64_t trace_nr;          /* the decoder's trace number (a change flushes) */
	uint64_t ref;               /* the sample's id */
	uint64_t from_sym, to_sym;  /* symbol keys of ip and addr, 0: none */
	int to_sym_start;           /* addr is the start of its symbol */
};

/* One function execution, as perf's struct call_return. */
struct ptd_call_return {
	int32_t pid, tid, cpu;
	uint64_t comm;
	struct ptd_cpath *cp;
	uint64_t call_time, return_time;
	uint64_t branch_count, insn_count, cyc_count;
	uint64_t call_ref, return_ref;    /* sample ids, 0: none */
	uint32_t flags;                   /* PTD_CR_* */
	uint64_t db_id;                   /* 0 unless a child already numbered it */
};

/* Called for each finished call.  parent_db_id is the caller's entry's id
 * slot (NULL at the bottom of the stack): number it when 0, as perf's
 * db_export__call_return does.  A non-zero return stops and is returned. */
typedef int (*ptd_call_return_fn)(void *ctx, const struct ptd_call_return *cr,
				  uint64_t *parent_db_id);
/* 1 when the symbol is an x86 retpoline thunk */
typedef int (*ptd_cs_retpoline_fn)(void *ctx, uint64_t sym);

struct ptd_callstack;

/* NULL when out of memory.  kernel_start: addresses at or above it are
 * the kernel's.  retpoline may be NULL (no retpoline handling). */
struct ptd_callstack *ptd_callstack_new(uint64_t kernel_start, ptd_call_return_fn fn,
					ptd_cs_retpoline_fn retpoline, void *ctx);
void ptd_callstack_free(struct ptd_callstack *cs);   /* NULL-safe; flushes nothing */

struct ptd_synth;
/* *b from a synthesized branch sample (ptq.h): all but comm, ref and the
 * symbol keys, which the caller sets (zero until then). */
void ptd_cs_branch_from(struct ptd_cs_branch *b, const struct ptd_synth *sy);

/* Process one branch sample.  Returns 0, fn's value, or -1 when out of
 * memory / over PTD_CALLPATH_MAX. */
int ptd_callstack_branch(struct ptd_callstack *cs, const struct ptd_cs_branch *b);

/* End every stack (the end of the run).  Returns 0 or fn's value. */
int ptd_callstack_flush_all(struct ptd_callstack *cs);

/* The root of the call tree (call paths of bottom entries hang from it). */
struct ptd_cpath *ptd_callstack_root(struct ptd_callstack *cs);

/* Stacks flushed because they reached PTD_CALLSTACK_MAX. */
uint64_t ptd_callstack_overflows(const struct ptd_callstack *cs);

#endif
