/* The AUX queues of a perf.data file whose backend reports instruction
 * ranges (decoders/decoder.h: PTD_TS_RANGE; CoreSight ETM) decoded the
 * way perf's cs-etm.c does it, giving the samples it synthesizes
 * (branches, instructions) as struct ptd_synth, so that they go through
 * the same printer, JSON writer, export and views as Intel PT's.
 *
 * Each queue is decoded chunk by chunk in file order with the settings the
 * backend asks for that queue (ops->queue_opts: its CPU and the AUX
 * records' PMU flags, such as CoreSight's unformatted trace); a chunk
 * starts the decoder afresh, as perf resets its decoder for each buffer.
 * The decoder is driven as perf's cs-etm-decoder.c drives OpenCSD (the
 * backend's env->wait): per trace ID the elements become packets, queued
 * until perf would stop the decoder (a full queue of 1023 packets, the
 * first timestamp after a discontinuity or a context change, with
 * timestamps each range after it) and only then synthesized; what OpenCSD
 * still holds when perf stops it at the end of its buffer is lost, as in
 * perf.  A context element (PTD_EV_CONTEXT: a CoreSight context ID)
 * changes the trace ID's thread at once, so the packets queued before it
 * are the new thread's too, as perf gives them; its process is the
 * thread's as the sideband knows it.  The code is read from the recorded
 * binaries through the session's maps as they are after the last record
 * (perf 6.1 decodes CoreSight at the end, timestamps or not).  Branch
 * samples come from src/rangesynth.c; instruction samples every period
 * instructions of the ranges, at the address of the period's last
 * instruction, before the branch sample of the same range, as perf's
 * cs_etm__sample orders them.  Decode errors are error samples (perf 6.1
 * prints none for CoreSight: only with --itrace=e given).
 *
 * Without timestamps (the trace event's config bit 28 clear, or --itrace=Z)
 * the samples have no time and the queues come one after the other as
 * perf's timeless decoding takes them: a per-thread queue when its thread
 * exits, the others by index at the end; all trace IDs of a queue share
 * one state (perf's CS_ETM_PER_THREAD_TRACEID).  With timestamps the
 * queues' trace IDs are interleaved by their CoreSight timestamps through
 * perf's auxtrace heap (auxheap.h), the packets before a queue's first
 * timestamp dropped, as perf's cs_etm__process_queues does; each sample
 * has the time of the last AUX record, as perf 6.1's.
 *
 * Not done: call chains and last branches. */
#ifndef PTD_RANGEQ_H
#define PTD_RANGEQ_H

#include <stdio.h>

#include "common/err.h"
#include "decoders/decoder.h"
#include "ptq.h"
#include "resolve.h"
#include "session.h"

struct ptd_rangeq_cfg {
	int branches, instructions, errors;
	uint64_t period;            /* instructions per instruction sample (>= 1) */
	int timeless;               /* samples carry no time */
	/* -C: queues of other CPUs are not decoded (NULL: all); bit c of byte c / 8 */
	const uint8_t *cpu_bitmap;
	unsigned cpu_bitmap_bits;
	FILE *ranges;               /* non-NULL: print the backend's samples there
	                             * (--format=ranges) instead of synthesizing */
};

/* Decode every AUX queue of s (after ptd_session_run) with the backend
 * ops and hand each sample to fn; fn's non-zero return stops and is
 * returned.  rv resolves code addresses (its machine is s's).
 * Returns 0; -PTD_E_FORMAT or -PTD_E_UNSUPPORTED when AUXTRACE_INFO
 * cannot be used (err names its file offset); -PTD_E_NOMEM; -PTD_E_IO
 * when writing the ranges failed; or fn's value. */
int ptd_rangeq_run(struct ptd_session *s, const struct ptd_decoder_ops *ops,
		   const struct ptd_rangeq_cfg *cfg, struct ptd_resolver *rv, ptd_synth_fn fn,
		   void *ctx, struct ptd_err *err);

/* ---- for the printer's events ------------------------------------------ */

#define PTD_RANGEQ_NAME_MAX 64

/* The trace event of s: the first event of the PMU AUXTRACE_INFO names
 * (ops->pmu_type; without ops or that operation priv[0], Intel PT's
 * word), or NULL. */
const struct ptd_evsel *ptd_rangeq_trace_evsel(const struct ptd_session *s,
					       const struct ptd_decoder_ops *ops);

/* perf's cs-etm timeless decoding: 1 when forced (--itrace=Z) or the trace
 * event ev was recorded without timestamps (config bit 28, ETM_OPT_TS). */
int ptd_rangeq_timeless(const struct ptd_evsel *ev, int force);

/* perf's cs_etm__synth_events: the branches and instructions events (those
 * asked for) with the trace event's sample type, named "branches" /
 * "instructions" and mods into br_name / insn_name
 * (PTD_RANGEQ_NAME_MAX bytes each). */
void ptd_rangeq_events(const struct ptd_evsel *ev, int timeless, int branches, int instructions,
		       uint64_t period, const char *mods, char *br_name, char *insn_name,
		       struct ptd_script_evsel *br, struct ptd_script_evsel *insn);

#endif
