/* Intel PT settings of a recording (ptq.h's replay needs them): the time
 * conversion, the recording mode and the decoder's parameters. */
#ifndef PTD_PTQ_CONF_H
#define PTD_PTQ_CONF_H

#include <stdint.h>

#include "addrfilter.h"
#include "common/err.h"
#include "decoders/intel-pt/pdec.h"
#include "ptq.h"
#include "session.h"
#include "tsc.h"

struct ptd_ptq_conf {
	struct ptd_time_conv tc;        /* TSC <-> perf time, from AUXTRACE_INFO */
	int have_sched_switch;          /* 1 sched_switch, 2 context-switch records, 3 CPU-wide */
	int per_cpu_mmaps;
	int snapshot;
	uint32_t branches_filter;       /* c / r: PTD_IPF_* of branches kept, 0 all */
	uint32_t max_non_turbo_ratio;
	uint64_t cbr2khz;               /* TSC kHz over the maximum non-turbo ratio */
	int timeless;                   /* decoded without timestamps (ptd_ptq_timeless) */
	struct ptd_addrfilters filters; /* perf record's address filters (none: n 0) */
};

/* perf's intel_pt_ns_to_ticks: ns in TSC ticks (0 without a time_mult). */
uint64_t ptd_ptq_ns_to_ticks(const struct ptd_time_conv *tc, uint64_t ns);

/* perf's intel_pt_timeless_decoding: 1 when s's Intel PT trace is decoded
 * without timestamps (forced by --itrace=Z, or no TSC in the trace, or an
 * event without PERF_SAMPLE_TIME), else 0. */
int ptd_ptq_timeless(const struct ptd_session *s, int force);

/* Read the settings of s's Intel PT recording into *q and the decoder's
 * parameters (walk, get_trace and ctx left 0) into *pp.  Returns 0;
 * -PTD_E_UNSUPPORTED (no Intel PT); -PTD_E_FORMAT (an
 * AUXTRACE_INFO too short, no event of the PT PMU). */
int ptd_ptq_conf(struct ptd_ptq_conf *q, const struct ptd_session *s, const struct ptd_ptq_cfg *cfg,
		 struct pdec_params *pp, struct ptd_err *err);

/* What ptd_ptq_conf allocated (the filters). */
void ptd_ptq_conf_fini(struct ptd_ptq_conf *q);

#endif
