/* Trace decoder backends: the interface every backend implements, and the
 * one sample record they all emit.
 *
 * A backend is a table of operations (struct ptd_decoder_ops) registered in
 * decoders/registry.c; nothing else switches on the trace type.  The model
 * is pull, like libipt's pt_insn_next:
 *
 *     ops->create(&d, &auxinfo, &env, &err);
 *     ops->feed(d, &buf, &err);                 buf is lent until the next feed
 *     while ((n = ops->next(d, &sample, &err)) > 0)
 *             use(&sample);                     n == 0: buf used up, feed more
 *     ops->destroy(d);
 *
 * Decode errors inside the trace are not failures: they come out as GAP
 * samples (the error, the trace offset, the IP) and the backend
 * resynchronizes by itself.  next() fails only when the decoder cannot go on
 * at all (out of memory, a broken library). */
#ifndef PTD_DECODERS_DECODER_H
#define PTD_DECODERS_DECODER_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "image.h"

/* ---- what the caller tells a backend ----------------------------------- */

enum ptd_cpu_vendor {
	PTD_CPU_UNKNOWN = 0,   /* decode by the specification, apply no errata */
	PTD_CPU_INTEL,
	PTD_CPU_ARM,
};

/* The CPU the trace was recorded on, for errata (perf.data: the cpuid
 * header, "GenuineIntel,6,142,10"; raw mode: --cpu F/M[/S]). */
struct ptd_cpu {
	int vendor;            /* enum ptd_cpu_vendor */
	uint16_t family;
	uint8_t model;
	uint8_t stepping;
};

/* A backend setting given by name ("mtc-freq" = "4"); each backend lists
 * the keys it knows in its header comment and refuses the others. */
struct ptd_decoder_opt {
	const char *key;
	const char *value;
};

struct ptd_trace_sample;

struct ptd_decoder_env {
	struct ptd_cpu cpu;
	/* The memory of the traced program: borrowed, must outlive the
	 * decoder.  NULL: no memory (only packet-level information). */
	const struct ptd_image *image;
	/* Backend settings, borrowed during create() only. */
	const struct ptd_decoder_opt *opts;
	size_t nopts;
	/* Range backends (cs-etm), to replay perf's use of the decoder: each
	 * sample is handed to wait as it is decoded; a non-zero answer makes
	 * the backend stop the decoder there, as perf's callback does with
	 * WAIT (the sample gets PTD_SF_WAITED).  When the decoder has taken
	 * the whole buffer by then, what it still holds is dropped, as perf
	 * drops it by resetting the decoder for its next buffer; and of what
	 * the decoder gives only when told the trace ended (perf never tells
	 * it), only the END_OF_TRACE events are kept.  NULL: none of this. */
	int (*wait)(void *ctx, const struct ptd_trace_sample *s);
	void *wait_ctx;
};

/* The AUXTRACE_INFO of a perf.data file; in raw mode type 0 and no priv. */
struct ptd_auxinfo {
	uint32_t type;          /* PERF_AUXTRACE_*: 1 Intel PT, 3 CoreSight ETM */
	const uint64_t *priv;   /* priv[] words, borrowed during create() only */
	size_t npriv;
};

/* A piece of trace. */
struct ptd_auxbuf {
	const uint8_t *data;    /* lent until the next feed() or destroy() */
	size_t size;
	uint64_t offset;        /* stream offset of data[0]; sample offsets add it */
};

/* ---- what a backend gives back ----------------------------------------- */

enum ptd_trace_sample_kind {
	PTD_TS_INSN = 1,    /* one instruction executed at ip */
	PTD_TS_BRANCH,      /* control went from ip to to_ip after insn_count instructions */
	PTD_TS_EVENT,       /* event: see enum ptd_event_type */
	PTD_TS_GAP,         /* trace could not be decoded: err says why; trace is lost until the resync */
	PTD_TS_DIAG,        /* a diagnostic that loses no trace (e.g. unknown CPU: no errata applied) */
	PTD_TS_RANGE,       /* insn_count instructions executed in sequence from ip; to_ip is the
	                     * address of the last one, size its length, iclass its class;
	                     * PTD_SF_NOT_TAKEN: it was not executed (a branch not taken);
	                     * u.range.isa the instruction set */
};

enum ptd_exec_mode {
	PTD_MODE_UNKNOWN = 0,
	PTD_MODE_16,
	PTD_MODE_32,
	PTD_MODE_64,
};

enum ptd_insn_class {
	PTD_INSN_UNKNOWN = 0,
	PTD_INSN_OTHER,         /* not a control transfer */
	PTD_INSN_CALL,          /* near call */
	PTD_INSN_RETURN,        /* near return */
	PTD_INSN_JUMP,          /* near unconditional jump */
	PTD_INSN_COND_JUMP,     /* near conditional jump */
	PTD_INSN_FAR_CALL,      /* syscall, sysenter, int, far call */
	PTD_INSN_FAR_RETURN,    /* sysret, sysexit, iret, far ret */
	PTD_INSN_FAR_JUMP,
	PTD_INSN_PTWRITE,
};

/* Event types.  ip / to_ip meaning per type is in the comment; "ip" is not
 * valid when PTD_SF_IP_SUPPRESSED is set. */
enum ptd_event_type {
	PTD_EV_ENABLED = 1,     /* tracing enabled; ip: where it resumes */
	PTD_EV_RESUMED,         /* enabled again at the ip where it was disabled */
	PTD_EV_DISABLED,        /* tracing disabled; ip: first branch target inside the filtered area */
	PTD_EV_ASYNC_DISABLED,  /* disabled asynchronously; ip: the source ("at"), to_ip: as DISABLED's ip */
	PTD_EV_INTERRUPT,       /* asynchronous branch; ip: from, to_ip: to */
	PTD_EV_PAGING,          /* CR3 write; u.paging */
	PTD_EV_ASYNC_PAGING,    /* asynchronous CR3 change at ip; u.paging */
	PTD_EV_OVERFLOW,        /* the hardware lost trace; ip: where tracing resumed */
	PTD_EV_EXEC_MODE,       /* execution mode from ip on: u.exec_mode */
	PTD_EV_TSX,             /* transaction state at ip: u.tsx */
	PTD_EV_STOP,            /* trace stopped (TraceStop) */
	PTD_EV_VMCS,            /* VMCS base: u.vmcs */
	PTD_EV_ASYNC_VMCS,      /* asynchronous VMCS change at ip: u.vmcs */
	PTD_EV_EXSTOP,          /* execution stopped at ip */
	PTD_EV_MWAIT,           /* MWAIT at ip: u.mwait */
	PTD_EV_PWRE,            /* power state entry: u.pwre */
	PTD_EV_PWRX,            /* power state exit: u.pwrx */
	PTD_EV_PTWRITE,         /* PTWRITE at ip: u.ptwrite */
	PTD_EV_TICK,            /* a timing update near ip (tsc) */
	PTD_EV_CBR,             /* core:bus ratio: u.cbr */
	PTD_EV_MNT,             /* maintenance packet: u.mnt */
	PTD_EV_END_OF_TRACE,    /* the trace ends; ip suppressed when it ended with tracing disabled */
	PTD_EV_EXCEPTION,       /* exception taken: u.exception; ip: the preferred return address
	                         * unless PTD_SF_IP_SUPPRESSED */
	PTD_EV_EXCEPTION_RET,   /* exception return (the target comes with the next RANGE) */
	PTD_EV_CONTEXT,         /* the thread changed: u.context.tid, the context ID the recording
	                         * configured to carry the thread ID (CoreSight CONTEXTIDR_EL1,
	                         * or _EL2 as the VMID) */
};

/* Instruction sets (RANGE samples). */
enum ptd_isa {
	PTD_ISA_UNKNOWN = 0,
	PTD_ISA_A32,
	PTD_ISA_T32,
	PTD_ISA_A64,
	PTD_ISA_TEE,
	PTD_ISA_JAZELLE,
	PTD_ISA_CUSTOM,
};

/* Sample flags. */
enum {
	PTD_SF_SPECULATIVE    = 1u << 0,  /* executed speculatively (inside a transaction) */
	PTD_SF_IP_SUPPRESSED  = 1u << 1,  /* ip is not known */
	PTD_SF_STATUS_UPDATE  = 1u << 2,  /* EVENT: restates state already known (PSB+), binds to no instruction */
	PTD_SF_TIME           = 1u << 3,  /* tsc is valid */
	PTD_SF_TRUNCATED      = 1u << 4,  /* INSN: the instruction runs past the end of its image section */
	PTD_SF_NO_OFFSET      = 1u << 5,  /* offset is not known */
	PTD_SF_NOT_TAKEN      = 1u << 6,  /* RANGE: the last instruction was not executed (branch not taken) */
	PTD_SF_INDIRECT       = 1u << 7,  /* RANGE: the last instruction is an indirect branch */
	PTD_SF_COND           = 1u << 8,  /* RANGE: the last instruction is conditional */
	PTD_SF_WAITED         = 1u << 9,  /* env->wait stopped the decoder after this sample */
};

/* Gap kinds (GAP samples). */
enum ptd_ts_gap_kind {
	PTD_GAPK_DECODE = 1,    /* decoding failed; the backend resynchronizes */
	PTD_GAPK_SYNC,          /* resynchronizing itself failed */
};

struct ptd_trace_sample {
	uint8_t kind;           /* enum ptd_trace_sample_kind */
	uint8_t mode;           /* enum ptd_exec_mode at ip */
	uint8_t iclass;         /* INSN: enum ptd_insn_class */
	uint8_t size;           /* INSN: bytes in raw[] */
	uint16_t event;         /* EVENT: enum ptd_event_type */
	uint16_t gap_kind;      /* GAP: enum ptd_ts_gap_kind */
	uint32_t flags;         /* PTD_SF_* */
	uint8_t chan;           /* the trace stream's channel (CoreSight trace ID), 0 when none */
	int32_t cpu, pid, tid;  /* -1 when unknown: backends leave them, the session fills them
	                         * (cs-etm sets cpu from the source's metadata) */
	uint64_t ip;
	uint64_t to_ip;
	uint64_t tsc;           /* time stamp counter at the sample, with PTD_SF_TIME */
	uint64_t offset;        /* trace stream offset: GAP/DIAG where decoding stopped, otherwise the
	                         * position of the decoder when the sample was produced */
	uint64_t insn_count;    /* instructions the sample stands for: INSN 1, BRANCH n, else 0 */
	struct {
		int code;           /* backend error code (negative), 0 for none */
		const char *msg;    /* static text, never NULL for GAP and DIAG */
	} err;
	union {
		struct { uint8_t mode; } exec_mode;                   /* enum ptd_exec_mode */
		struct { uint8_t speculative, aborted; } tsx;
		struct { uint64_t cr3; uint8_t non_root; } paging;
		struct { uint64_t base; } vmcs;
		struct { uint32_t hints, ext; } mwait;
		struct { uint8_t state, sub_state, hw; } pwre;
		struct { uint8_t last, deepest, interrupt, store, autonomous; } pwrx;
		struct { uint64_t payload; uint8_t size; } ptwrite;
		struct { uint16_t ratio; } cbr;
		struct { uint64_t payload; } mnt;
		struct { uint8_t isa; } range;                        /* enum ptd_isa */
		struct { uint32_t tid; } context;
		struct { uint32_t number; uint8_t etmv3; } exception; /* number as ETMv4/ETE give it, or
		                                                       * with etmv3 as ETMv3/PTM do */
	} u;                    /* EVENT payload */
	uint8_t raw[16];        /* INSN: the instruction bytes (size of them) */
};

/* ---- the backend ------------------------------------------------------- */

struct ptd_decoder;   /* each backend defines its own */

struct ptd_decoder_ops {
	const char *name;           /* "intel-pt", "cs-etm" */
	uint32_t auxtrace_type;     /* PERF_AUXTRACE_INTEL_PT = 1, CS_ETM = 3 */

	/* A decoder for one trace stream.  env->image is borrowed for the
	 * decoder's life; info and env->opts only during the call.
	 * env must not be NULL; info may be (raw input).
	 * Returns 0 and sets *out; -PTD_E_INVAL for a bad option value or an
	 * unknown option; -PTD_E_UNSUPPORTED for AUXTRACE_INFO settings the
	 * backend cannot take; -PTD_E_NOMEM; -PTD_E_IO when an image file
	 * cannot be used. */
	int (*create)(struct ptd_decoder **out, const struct ptd_auxinfo *info,
		      const struct ptd_decoder_env *env, struct ptd_err *err);

	/* Hand over the next piece of trace, replacing the previous one (the
	 * decoder synchronizes afresh in it).  buf->data is lent until the
	 * next feed() or destroy().  Returns 0, or -PTD_E_NOMEM. */
	int (*feed)(struct ptd_decoder *d, const struct ptd_auxbuf *buf, struct ptd_err *err);

	/* The next sample.  Returns 1 with *out filled; 0 when the fed trace is
	 * used up (samples queued before it, such as DIAG, come first); a
	 * negative -PTD_E_* when decoding cannot continue at all. */
	int (*next)(struct ptd_decoder *d, struct ptd_trace_sample *out, struct ptd_err *err);

	/* NULL-safe. */
	void (*destroy)(struct ptd_decoder *d);

	/* ---- for perf.data files (NULL when the backend has its own path) ---- */

	/* The PMU type of the trace event, from the AUXTRACE_INFO words.
	 * Returns 0 and sets *type, or -PTD_E_FORMAT when the words are too
	 * few. */
	int (*pmu_type)(const struct ptd_auxinfo *info, uint32_t *type);

	/* The settings for decoding one AUX queue: its CPU (-1 for a
	 * per-thread queue) and the PMU-specific bits of the AUX records'
	 * flags (PTD_AUX_FLAG_PMU_FORMAT_MASK) of the chunk.  Writes at most
	 * max settings into opts (their strings in buf, bufsz bytes, or
	 * static) and returns their number. */
	size_t (*queue_opts)(int32_t cpu, uint64_t pmu_flags, struct ptd_decoder_opt *opts,
			     size_t max, char *buf, size_t bufsz);
};

/* ---- the registry (decoders/registry.c) -------------------------------- */

/* The backend called name, or NULL (also when it was not built). */
const struct ptd_decoder_ops *ptd_decoder_find(const char *name);

/* The backend for a PERF_AUXTRACE_* type, or NULL. */
const struct ptd_decoder_ops *ptd_decoder_for_auxtrace(uint32_t type);

/* Backend i of those built, in registration order; NULL past the last. */
const struct ptd_decoder_ops *ptd_decoder_at(size_t i);

/* A sample with every field at its "unknown" value: kind 0, cpu/pid/tid -1. */
void ptd_trace_sample_init(struct ptd_trace_sample *s);

#endif
