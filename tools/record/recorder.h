/* The emulated recording: takes what an execution source reports (xev.h),
 * runs an emulated clock and scheduler (threads on emulated CPUs, or one
 * trace per thread), feeds each trace stream's PT encoder, and writes the
 * perf.data (perfdata.h) and the ground-truth log (truth format in
 * doc/record.md). */
#ifndef PTD_RECORD_RECORDER_H
#define PTD_RECORD_RECORDER_H

#include <stdint.h>
#include <stdio.h>

#include "common/err.h"
#include "tools/record/perfdata.h"
#include "tools/record/filter.h"
#include "tools/record/pt_enc.h"
#include "tools/record/xev.h"

struct ptd_recorder_config {
	struct ptd_pdw_config pd;
	struct ptd_ptenc_config pt;
	size_t aux_size;            /* trace bytes per AUX chunk (snapshot mode: between
	                               snapshots) */
	size_t snapshot_size;       /* snapshot mode: AUX buffer bytes each snapshot saves */
	unsigned ticks_per_insn;    /* TSC ticks each instruction takes */
	unsigned kernel_ticks;      /* TSC ticks spent in the kernel per syscall or interrupt */
	uint64_t tsc_start;
	/* events in the trace (0: none); doc/record.md says where and with what */
	unsigned ptwrite_every;     /* a ptwrite before every Nth control transfer of a thread */
	unsigned pwr_every;         /* a power-saving wait before every Nth syscall of a thread */
	unsigned tsx_every;         /* a TSX transaction from every Nth call of a thread (tsx.h) */
	unsigned tsx_capacity;      /* ... aborting at its Kth control transfer */
	/* fault injection (0: off) */
	unsigned ovf_every;         /* an overflow after every N control transfers of a stream */
	unsigned ovf_lose;          /* control transfers lost in each overflow */
	unsigned truncate_every;    /* every Nth AUX chunk is TRUNCATED ... */
	unsigned truncate_lose;     /* ... and this many control transfers after it are lost */
	unsigned drop_every;        /* every Nth AUX chunk has no AUXTRACE payload */
	unsigned lost_every;        /* a LOST record after every N chunks */
	unsigned pause_every;       /* tracing paused after every Nth AUX chunk ... */
	unsigned pause_lose;        /* ... for this many control transfers */
	FILE *truth;                /* ground truth; NULL: none */
	const char *root;           /* record file names under this directory as if it
	                               were / (so the files can move with the recording) */
	const char *kernel;         /* --kernel: the kernel image (kwalk.h) whose path
	                               each syscall's trace follows; NULL: user only */
	struct ptd_rfilter *filter; /* --filter: told of the mappings (cfg.pt.in_filter
	                               asks it); NULL: none */
};

struct ptd_recorder;

/* A mapping as both recorders write it: the MMAP2 record (a file under
 * cfg->root by its path inside the root) and the truth's M line. */
int ptd_record_mmap(struct ptd_pdw *pd, const struct ptd_recorder_config *cfg, int cpu, uint64_t tsc,
		    int32_t pid, int32_t tid, const struct ptd_xmap *m, struct ptd_err *err);

int ptd_recorder_new(struct ptd_recorder **out, const char *path,
		     const struct ptd_recorder_config *cfg, struct ptd_err *err);

/* The sink to hand to an execution source; valid while the recorder lives. */
const struct ptd_xsink *ptd_recorder_sink(struct ptd_recorder *r);

/* The error a sink callback failed with (sources return -code only). */
const struct ptd_err *ptd_recorder_error(const struct ptd_recorder *r);

/* Flush every stream, write the file's end; free.  NULL-safe. */
int ptd_recorder_finish(struct ptd_recorder *r, struct ptd_err *err);

#endif
