/* The emulated recording of `perf record -e cs_etm//u` on an Arm machine
 * (ETMv4 trace units, an ETR sink): takes what the qemu source reports for
 * a static AArch64 program (xev.h), runs the emulated clock of recorder.h,
 * feeds each trace stream's ETMv4 encoder (etm_enc.h), cuts AUX chunks of
 * CoreSight frames (cs_frame.h) and writes the perf.data (perfdata.h) and
 * the ground truth (recorder.h's format, doc/record.md).
 *
 * Streams: one per thread with --per-thread (perf record --per-thread:
 * no context IDs, no timestamps, perf decodes timeless), else one per
 * emulated CPU with threads put on CPUs round robin (perf's default
 * config: ctxtid and timestamp; a thread that needs a busy CPU preempts
 * the one there, an IRQ exception).  Only the options of
 * ptd_recorder_config that say so apply. */
#ifndef PTD_RECORD_ETM_REC_H
#define PTD_RECORD_ETM_REC_H

#include "common/err.h"
#include "tools/record/recorder.h"
#include "tools/record/xev.h"

struct ptd_etmrec;

int ptd_etmrec_new(struct ptd_etmrec **out, const char *path, const struct ptd_recorder_config *cfg,
		   struct ptd_err *err);
const struct ptd_xsink *ptd_etmrec_sink(struct ptd_etmrec *r);
const struct ptd_err *ptd_etmrec_error(const struct ptd_etmrec *r);
/* Flush every stream, write the file's end; free.  NULL-safe. */
int ptd_etmrec_finish(struct ptd_etmrec *r, struct ptd_err *err);

#endif
