/* The perf.data file of an emulated `perf record -e intel_pt//u`: the
 * attrs (intel_pt//u and the dummy:u tracking event), the records perf and
 * the kernel would write, in time order, and the header features.
 *
 * Sample ids: per-CPU mode has one id per CPU and event, --per-thread one
 * per thread and event (ids are made as threads appear). */
#ifndef PTD_RECORD_PERFDATA_H
#define PTD_RECORD_PERFDATA_H

#include <stdint.h>

#include "common/err.h"
#include "tools/record/xev.h"

#define PTD_PT_PMU_TYPE 8          /* intel_pt's PMU type on the emulated machine */
#define PTD_ETM_PMU_TYPE 10        /* cs_etm's on the emulated Arm machine */

/* cs_etm PMU config bits (ETM_OPT_*, the kernel's format/ directory) */
#define PTD_ETM_OPT_CTXTID   (1ULL << 14)
#define PTD_ETM_OPT_TS       (1ULL << 28)
/* the ETMv4 TRCCONFIGR bits perf records for them */
#define PTD_ETM4_CFG_CTXTID  (1ULL << 6)
#define PTD_ETM4_CFG_TS      (1ULL << 11)

/* intel_pt PMU config bits (the kernel's format/ directory) */
#define PTD_PT_CFG_PT        (1ULL << 0)
#define PTD_PT_CFG_CYC       (1ULL << 1)
#define PTD_PT_CFG_PWR_EVT   (1ULL << 4)
#define PTD_PT_CFG_FUP_ON_PTW (1ULL << 5)
#define PTD_PT_CFG_MTC       (1ULL << 9)
#define PTD_PT_CFG_MTC_SHIFT 14
#define PTD_PT_CFG_TSC       (1ULL << 10)
#define PTD_PT_CFG_NORETCOMP (1ULL << 11)
#define PTD_PT_CFG_PTW       (1ULL << 12)
#define PTD_PT_CFG_BRANCH    (1ULL << 13)
#define PTD_PT_CFG_PSB_SHIFT 24

struct ptd_pdw_config {
	int per_thread;            /* --per-thread: queues per thread, cpu -1 */
	unsigned ncpus;
	int snapshot;              /* AUX records carry OVERWRITE */
	int noretcomp;
	unsigned psb_period_code;  /* PSB every 2 KiB << code */
	int mtc;                   /* MTC packets ... */
	unsigned mtc_period;       /* ... every 2^mtc_period crystal clock ticks */
	int cyc;                   /* CYC packets */
	int no_tsc;                /* tsc=0: no timing, so perf record asks for no
	                              context switch events (and writes none) */
	int ptw;                   /* ptw,fup_on_ptw: PTW packets with FUP */
	int pwr_evt;               /* pwr_evt: power event packets */
	uint32_t ctc_n, ctc_d;     /* TSC:CTC ratio (CPUID leaf 0x15) */
	int buildid_mmap;          /* MMAP2 records carry build ids (perf record --buildid-mmap) */
	uint8_t max_nonturbo_ratio;
	int kernel;                /* intel_pt// rather than intel_pt//u: the kernel is
	                              traced too (ptd_pdw_kernel_mmap names it) */
	/* TSC -> perf time (TIME_CONV and the AUXTRACE_INFO copy) */
	uint16_t time_shift;
	uint32_t time_mult;
	uint64_t time_zero;
	const char *cmdline;       /* for the CMDLINE feature */
	const char *filter;        /* perf's address filter string (NULL: none) */
	/* perf record -e cs_etm//u on an Arm machine (ETMv4 on each CPU, an ETR
	 * sink) instead of intel_pt//u; only per_thread, ncpus, cmdline,
	 * buildid_mmap and the time conversion apply then */
	int etm;
	int etm_ctxtid;            /* config ctxtid (TRCCONFIGR.CID) */
	int etm_ts;                /* config timestamp (TRCCONFIGR.TS) */
	int etm_hw_id;             /* trace IDs as Linux 6.3 on gives them: metadata header
	                            * version 2 with the IDs flagged unused, the real ones in
	                            * an AUX_OUTPUT_HW_ID record per CPU */
};

struct ptd_pdw;

/* The trace ID the ETM of an emulated CPU puts in the trace */
uint8_t ptd_pdw_etm_trace_id(const struct ptd_pdw *w, int cpu);

struct ptd_pdw;

int ptd_pdw_open(struct ptd_pdw **out, const char *path, const struct ptd_pdw_config *cfg,
		 struct ptd_err *err);
/* Write the features and the header; free.  NULL-safe. */
int ptd_pdw_close(struct ptd_pdw *w, struct ptd_err *err);

/* perf time of a TSC value */
uint64_t ptd_pdw_time(const struct ptd_pdw *w, uint64_t tsc);

/* Records.  `cpu` is the CPU the record was written on (ignored in
 * per-thread mode), times are TSC values.  Each returns 0 or an error. */
int ptd_pdw_comm(struct ptd_pdw *w, int cpu, uint64_t tsc, int32_t pid, int32_t tid,
		 const char *comm, int exec, struct ptd_err *err);
/* m->path is the name recorded; the build id is read from `file` (the
 * same path when NULL) */
int ptd_pdw_mmap(struct ptd_pdw *w, int cpu, uint64_t tsc, int32_t pid, int32_t tid,
		 const struct ptd_xmap *m, const char *file, struct ptd_err *err);
/* The kernel's text [start, start + len) from the image `file` (whose build
 * id is recorded): PERF_RECORD_MMAP "[kernel.kallsyms]_text" of pid -1 with
 * the kernel cpumode, pgoff the address of _text, as perf record
 * synthesizes it for an unrelocated kernel. */
int ptd_pdw_kernel_mmap(struct ptd_pdw *w, uint64_t tsc, uint64_t start, uint64_t len,
			const char *file, struct ptd_err *err);
int ptd_pdw_fork(struct ptd_pdw *w, int cpu, uint64_t tsc, int32_t pid, int32_t ppid,
		 int32_t tid, int32_t ptid, int exit, struct ptd_err *err);
int ptd_pdw_itrace_start(struct ptd_pdw *w, int cpu, uint64_t tsc, int32_t pid, int32_t tid,
			 struct ptd_err *err);
/* SWITCH_CPU_WIDE: `out` with the incoming thread, or in with the outgoing
 * one (nothing with no_tsc: perf record does not record switches then) */
int ptd_pdw_switch(struct ptd_pdw *w, int cpu, uint64_t tsc, int32_t pid, int32_t tid, int out,
		   int preempt, int32_t np_pid, int32_t np_tid, struct ptd_err *err);
int ptd_pdw_lost(struct ptd_pdw *w, int cpu, uint64_t tsc, int32_t pid, int32_t tid,
		 uint64_t lost, struct ptd_err *err);
/* The trace bytes [offset, offset + len) of queue `queue` (cpu, or thread
 * index in per-thread mode), offsets counting the stream's bytes: the AUX
 * record (flags as given) and, unless `drop`, the AUXTRACE record with the
 * bytes. */
int ptd_pdw_aux(struct ptd_pdw *w, int queue, int cpu, uint64_t tsc, int32_t pid, int32_t tid,
		uint64_t offset, const uint8_t *data, size_t len, uint64_t flags, int drop,
		struct ptd_err *err);
int ptd_pdw_finished_round(struct ptd_pdw *w, struct ptd_err *err);

/* Add the sample ids of a thread's events (per-thread mode); returns its
 * queue index. */
int ptd_pdw_thread_queue(struct ptd_pdw *w, int32_t tid, struct ptd_err *err);

#endif
