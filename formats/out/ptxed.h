/* --format=ptxed: samples printed as libipt's `ptxed --no-inst` prints them.
 *
 * One line per instruction (its address as 16 hex digits, "? " before it
 * when speculative), events in brackets ("[enabled]", "[disabled]",
 * "[exec mode: 64-bit]", ...; status updates are not printed), "[end of
 * trace]" when the trace ends with tracing on, errors as
 * "[<offset>, <ip>: error: <message>]" (offsets and ips in hex, no padding),
 * and with statistics "insn: N." at the end. */
#ifndef PTD_FORMATS_OUT_PTXED_H
#define PTD_FORMATS_OUT_PTXED_H

#include <stdint.h>
#include <stdio.h>

#include "decoders/decoder.h"

struct ptd_ptxed_opts {
	int event_ip;      /* --event:ip: the ip of events where known */
	int event_time;    /* --event:time: the tsc of events where known */
	int quiet;         /* ptxed --quiet: only errors and statistics */
	int stat_insn;     /* --stat / --stat:insn: "insn: N." at the end */
};

struct ptd_ptxed {
	FILE *out;                     /* borrowed */
	struct ptd_ptxed_opts opts;
	uint64_t ninsn;
};

/* out is borrowed and must outlive w. */
void ptd_ptxed_init(struct ptd_ptxed *w, FILE *out, const struct ptd_ptxed_opts *opts);

/* Print one sample (or nothing, for samples ptxed does not show). */
void ptd_ptxed_sample(struct ptd_ptxed *w, const struct ptd_trace_sample *s);

/* The statistics, if asked for.  Returns 0, or -PTD_E_IO when writing
 * failed at any point. */
int ptd_ptxed_finish(struct ptd_ptxed *w);

#endif
