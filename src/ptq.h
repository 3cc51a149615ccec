/* Intel PT queues of a perf.data file decoded the way `perf script` does
 * it, giving the samples perf synthesizes (branches, instructions, errors,
 * power events) in perf's order and with perf's timestamps.
 *
 * perf decodes lazily: before each sideband record of time T (converted to
 * TSC) it runs the queue with the lowest timestamp until that queue passes
 * the next queue's timestamp or T, then applies the record (a context
 * switch changes the thread of a CPU's samples).  ptd_ptq_run replays the
 * records the session noted (ptd_ptq_note) in the same way, so the
 * interleaving of CPUs and the thread of every sample are perf's.
 *
 * Without timestamps (no TSC in the trace, or --itrace=Z) perf decodes
 * each thread's queue when its EXIT record comes and every queue at the
 * end, and its samples carry no time; ptd_ptq_run does the same.
 *
 * --time ranges: samples outside them are dropped, and before a range's
 * start each decoder is fast-forwarded to the last PSB before it, as
 * perf's intel_pt_time_filter does (so periods restart where perf's do).
 *
 * Not done (see pdec.h for the decoder): sampling mode (AUX samples),
 * sync_switch for kernel traces. */
#ifndef PTD_PTQ_H
#define PTD_PTQ_H

#include <stdint.h>

#include "common/err.h"
#include "formats/perf/abi.h"
#include "formats/perf/reader.h"
#include "dsofiles.h"
#include "session.h"
#include "timerange.h"
#include "tstack.h"

enum ptd_synth_kind {
	PTD_SYN_BRANCH = 1,
	PTD_SYN_INSN,
	PTD_SYN_ERROR,
	PTD_SYN_PSB,
	PTD_SYN_CBR,
	PTD_SYN_TRANSACTION,
	PTD_SYN_PTWRITE,
	PTD_SYN_MWAIT,
	PTD_SYN_PWRE,
	PTD_SYN_EXSTOP,
	PTD_SYN_PWRX,
};

/* One synthesized sample. */
struct ptd_synth {
	int kind;                   /* enum ptd_synth_kind */
	int32_t pid, tid, cpu;      /* -1 when unknown */
	uint64_t time;              /* perf time (ns) */
	uint64_t ip, addr;
	uint32_t flags;             /* PTD_IPF_* (formats/perf/abi.h) */
	uint64_t period;
	uint64_t insn_cnt, cyc_cnt; /* for IPC; cyc_cnt 0: none */
	uint8_t insn_len;
	uint8_t insn[16];
	int err_code;               /* ERROR: perf's code */
	const char *err_msg;        /* ERROR: perf's message */
	uint8_t raw[12];            /* PSB, CBR, PTWRITE and power events: perf's raw
	                             * payload (perf_synth_intel_*, less its padding) */
	uint32_t raw_size;
	uint64_t now;               /* perf time of the sideband state to resolve ip and addr with */
	const uint64_t *callchain;  /* INSN with g: ip, then return addresses (innermost first) */
	size_t callchain_nr;
	const struct ptd_tstack_br *brstack;   /* l: the thread's last branches, newest first */
	size_t brstack_nr;
	unsigned call_depth;        /* with thread_stack: entries on the thread's call stack */
	int no_tstack;              /* the decoding keeps no call stacks (CoreSight, as perf) */
	uint64_t trace_pos;         /* ERROR: the trace position where it was found; others:
	                             * the position of the PSB decoding last went through */
	uint64_t tot_insn;          /* instructions the queue's decoder has walked so far */
	uint64_t trace_nr;          /* BRANCH: the decoder's trace number (a new one: a break) */
	uint64_t buf_nr;            /* BRANCH: the number of the AUX chunk the decoder is in */
};

typedef int (*ptd_synth_fn)(void *ctx, const struct ptd_synth *s);

/* What to synthesize: perf's itrace options as far as they are done. */
struct ptd_ptq_cfg {
	int instructions, branches, calls, returns, errors, pwr_events;
	int transactions, ptwrites;
	int period_type;            /* 0 none, 1 instructions, 2 ticks, 3 nanoseconds */
	uint64_t period;
	int no_overflow_errors, no_lost_errors;   /* e-o, e-l */
	uint64_t initial_skip;
	struct ptd_dsofiles *files; /* where the code is: borrowed, must outlive the run */
	int max_loops;              /* 0: perf's default */
	unsigned quick;             /* q: 1 hop, 2 leap (pdec.h) */
	int timeless;               /* Z: decode without timestamps */
	const struct ptd_timerange *ranges;   /* --time: perf time ranges (borrowed) */
	size_t nranges;
	int callchain;              /* g: call chains on instruction samples */
	unsigned callchain_sz;      /* g's N */
	int thread_stack;           /* keep call stacks (callchain or -F callindent) */
	int last_branch;            /* l: last branches on instruction samples ... */
	unsigned last_branch_sz;    /*  l's N */
	/* -C: AUX data of other CPUs is not decoded (NULL: all); bit c of byte c / 8 */
	const uint8_t *cpu_bitmap;
	unsigned cpu_bitmap_bits;
	unsigned jobs;              /* -j: threads decoding ahead (1: none; 0: as many as
	                               online CPUs, where they pay: ptq_ahead.h) */
	int no_cycles;              /* nothing reads the samples' cycle counts (no IPC
	                               field, JSON or export): a queue decoded on two
	                               threads need not count them alike (ptq_split.h) */
};

struct ptd_ptq;

/* The replay state; NULL when out of memory. */
struct ptd_ptq *ptd_ptq_new(void);
void ptd_ptq_free(struct ptd_ptq *q);   /* NULL-safe */

/* Note a record the session delivers (an on_record observer calls this).
 * Returns 0 or -PTD_E_NOMEM. */
int ptd_ptq_note(struct ptd_ptq *q, const struct ptd_event *ev, struct ptd_err *err);

/* Decode every Intel PT queue of s (after ptd_session_run) and hand each
 * sample to fn in perf's order; fn's non-zero return stops and is
 * returned.  Returns 0, -PTD_E_UNSUPPORTED (not Intel PT, timeless), a
 * negative error, or fn's value. */
int ptd_ptq_run(struct ptd_ptq *q, struct ptd_session *s, const struct ptd_ptq_cfg *cfg,
		ptd_synth_fn fn, void *ctx, struct ptd_err *err);

#endif
