/* Per-thread call stacks kept from the branch stream, as perf's
 * thread-stack.c keeps them for synthesized call chains: a call pushes its
 * return address, a return pops to the matching address (or leaves the
 * stack alone when there is none), trace begin pops calls made just before
 * the trace ended, and a new trace number (a break in the trace) empties
 * the stack.  With --itrace=l each thread also keeps a ring of its last
 * branches, emptied at the same breaks. */
#ifndef PTD_TSTACK_H
#define PTD_TSTACK_H

#include <stddef.h>
#include <stdint.h>

#include "common/u64map.h"

#define PTD_TSTACK_MAX (1u << 20)   /* entries per thread; deeper stacks drop their oldest half */

struct ptd_tstacks {
	struct ptd_u64map by_tid;   /* tid -> struct ptd_tstack * */
	int no_callstack;           /* keep the branch rings only (perf's !callstack) */
	unsigned br_sz;             /* last branches kept per thread (--itrace=l), 0: none */
};

/* One of a thread's last branches (perf's struct branch_entry as
 * thread_stack__update_br_stack fills it: no prediction information). */
struct ptd_tstack_br {
	uint64_t from, to;
	uint8_t abort, in_tx;
};

/* Empty stacks; set no_callstack and br_sz before the first event. */
void ptd_tstacks_init(struct ptd_tstacks *t);
void ptd_tstacks_fini(struct ptd_tstacks *t);

/* perf's thread_stack__event for thread tid: flags are PERF_IP_FLAG_*
 * (PTD_IPF_*, formats/perf/abi.h).  Returns 0 or -1 when out of memory. */
int ptd_tstack_event(struct ptd_tstacks *t, int32_t tid, uint32_t flags, uint64_t from_ip,
		     uint64_t to_ip, unsigned insn_len, uint64_t trace_nr);

/* perf's thread_stack__sample without the context markers: ip, then the
 * return addresses from the innermost, into ips, at most sz frames and
 * markers (addresses from kernel_start up are the kernel's; each change
 * between kernel and user takes a marker's place).  Returns how many
 * addresses. */
size_t ptd_tstack_sample(const struct ptd_tstacks *t, int32_t tid, uint64_t ip, uint64_t *ips,
			 size_t sz, uint64_t kernel_start);

/* perf's thread_stack__br_sample: tid's last branches, the newest first,
 * at most sz, into dst.  Returns how many. */
size_t ptd_tstack_br_sample(const struct ptd_tstacks *t, int32_t tid, struct ptd_tstack_br *dst,
			    size_t sz);

/* perf's thread_stack__depth: entries on tid's stack (0 when none). */
size_t ptd_tstack_depth(const struct ptd_tstacks *t, int32_t tid);

#endif
