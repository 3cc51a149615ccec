/* The events perf synthesizes for a trace, after the file's own: perf's
 * intel_pt_synth_events for Intel PT, cs-etm's (rangeq.h) for a range
 * backend.  Set up with the file's events for formats/out/script, which
 * prints their samples under these names. */
#ifndef PTD_SYNTH_EVENTS_H
#define PTD_SYNTH_EVENTS_H

#include <stdint.h>

#include "common/err.h"
#include "formats/out/script.h"
#include "itrace.h"
#include "rangeq.h"
#include "session.h"

enum {
	PTD_SEV_BRANCHES, PTD_SEV_INSTRUCTIONS, PTD_SEV_TRANSACTIONS, PTD_SEV_PTWRITE, PTD_SEV_PSB,
	PTD_SEV_CBR, PTD_SEV_MWAIT, PTD_SEV_PWRE, PTD_SEV_EXSTOP, PTD_SEV_PWRX, PTD_SEV_NSYNTH
};

struct ptd_synth_events {
	struct ptd_script_evsel ev[PTD_SEV_NSYNTH];   /* name NULL: not synthesized */
	char names[PTD_SEV_NSYNTH][64];
	uint64_t nr_attrs;   /* synthesized: perf counts them among the events processed */
};

/* The events of s's file and those --itrace it asks to synthesize (for a
 * range backend rops: its, else Intel PT's) into ps (ptd_script_setup,
 * whose result this returns; perf's messages on stderr when an event's
 * check fails).  se must live as long as ps. */
int ptd_synth_events_setup(struct ptd_synth_events *se, struct ptd_script *ps,
			   struct ptd_session *s, const struct ptd_itrace *it,
			   const struct ptd_decoder_ops *rops, struct ptd_err *err);

/* The event of a synthesized sample of kind (PTD_SYN_*), and *json its
 * "type" in JSON; NULL when the kind has none or the recording does not
 * synthesize it (perf has no id for it). */
const struct ptd_script_evsel *ptd_synth_event(const struct ptd_synth_events *se, int kind,
					       const char **json);

#endif
