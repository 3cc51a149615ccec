/* Branch samples from instruction ranges: what perf's cs-etm.c synthesizes
 * for --itrace=b from OpenCSD's ranges, for any backend that reports RANGE
 * samples (decoders/decoder.h).
 *
 * Per channel (trace ID): a taken branch at the end of a range gives a
 * sample from its last instruction to the next range's start; trace on
 * (ENABLED, OVERFLOW) gives "tr strt" from 0 to the next range's start;
 * a discontinuity (trace on again, end of trace, lost synchronisation)
 * after a range gives "tr end" from its last instruction to 0.  An
 * exception makes the range before it end in a taken branch with the
 * exception's flags: syscall (SVC), async interrupt (IRQ, FIQ, reset,
 * debug halt, SError, ...), interrupt (traps, faults, alignment, other
 * calls); an exception return gives "return interrupt", made "return
 * syscall" when the code returned to follows an SVC.  Branch flags of
 * ranges: B "jmp" (B.cond "jcc"), BL/BLR "call", RET, BR and A32/T32
 * implied returns "return", as perf does.
 *
 * Unlike perf 6.1, ETE exceptions are classified as ETMv4 ones (perf
 * leaves their flags empty). */
#ifndef PTD_RANGESYNTH_H
#define PTD_RANGESYNTH_H

#include <stdint.h>

#include "decoders/decoder.h"
#include "image.h"

struct ptd_rs_branch {
	uint64_t ip, addr;     /* from, to (0 for trace begin / end) */
	uint32_t flags;        /* PTD_IPF_* */
	int32_t cpu;
	uint8_t chan;
	uint64_t tsc;          /* with has_tsc */
	int has_tsc;
};

typedef int (*ptd_rs_emit_fn)(void *ctx, const struct ptd_rs_branch *b);

struct ptd_rs_chan {
	int type;                       /* the previous packet: RS_* in rangesynth.c */
	struct ptd_trace_sample prev;   /* when it was a range */
	uint32_t prev_flags;
	int prev_taken;
};

struct ptd_rangesynth {
	const struct ptd_image *image;  /* borrowed: for the SVC checks; may be NULL */
	ptd_rs_emit_fn emit;
	void *ctx;
	struct ptd_rs_chan chan[128];
};

void ptd_rangesynth_init(struct ptd_rangesynth *rs, const struct ptd_image *image,
			 ptd_rs_emit_fn emit, void *ctx);

/* Take one backend sample (RANGE, EVENT, GAP; others are ignored).
 * Returns 0, or what emit returned when it failed (non-zero). */
int ptd_rangesynth_add(struct ptd_rangesynth *rs, const struct ptd_trace_sample *s);

#endif
