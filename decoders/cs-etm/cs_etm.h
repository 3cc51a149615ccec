/* The CoreSight ETM backend: OpenCSD's decode tree (C API) behind the pull
 * interface of decoders/decoder.h.
 *
 * The trace sources come as perf's CS_ETM AUXTRACE_INFO words (info->priv):
 * priv[0] header version (0, 1 or 2), priv[1] (PMU type << 32) | number of
 * sources, priv[2] snapshot mode; then per source its magic (ETMv3/PTM
 * 0x3030303030303030, ETMv4 0x4040404040404040, ETE 0x5050505050505050),
 * its CPU, with version 1 the number of parameters n, and the registers:
 * ETMv3 ETMCR, ETMTRACEIDR, ETMCCER, ETMIDR; ETMv4 TRCCONFIGR, TRCTRACEIDR,
 * TRCIDR0, TRCIDR1, TRCIDR2, TRCIDR8, TRCAUTHSTATUS; ETE those and
 * TRCDEVARCH (version 1 only).  Version 0 has no count: the ETMv3 and
 * ETMv4 blocks are those registers.  Extra parameters (later perf
 * versions) are ignored; every count is checked against the words there
 * are.  Version 2 is version 1 whose trace ID registers may carry
 * CORESIGHT_TRACE_ID_UNUSED_FLAG (bit 31): the IDs then come from the
 * recording's AUX_OUTPUT_HW_ID records (the trace-ids setting).
 *
 * Settings (env->opts):
 *   format    "coresight" (default: 16-byte frames, memory aligned),
 *             "dstream" (frames with frame syncs), "raw" (one unformatted
 *             source: the first one)
 *   core.N    the core of source N (0-based) by OpenCSD's names
 *             ("Cortex-A57", "ARMv8.3-A", "ARM-AA64"): its architecture and
 *             profile.  Default as perf: ETMv3 v7-A, ETMv4 v8-A, ETE AArch64.
 *   ptm.N     "1": source N's ETMv3 block describes a PTM (PFT) source
 *   cpu       with format raw: decode the source of this CPU (default: the
 *             first source)
 *   trace-ids "CPU:ID,...": the trace IDs of those CPUs' sources (from
 *             AUX_OUTPUT_HW_ID records); a source whose register is
 *             flagged unused and that is not named gets no decoder
 *
 * Samples: RANGE for each executed instruction range (chan = trace ID,
 * cpu = the source's CPU), EVENT ENABLED / OVERFLOW (trace on),
 * EXCEPTION, EXCEPTION_RET, END_OF_TRACE, CONTEXT (the thread ID where
 * perf finds it: CONTEXTIDR_EL1 when TRCCONFIGR bit 6 or ETMCR bit 14 is
 * set, the VMID (CONTEXTIDR_EL2) when TRCCONFIGR bit 7 or 15 is); GAP when
 * OpenCSD loses synchronisation on bad data or reports an error; DIAG for code it could
 * not read (OCSD_GEN_TRC_ELEM_ADDR_NACC) and ranges without a known path.
 * Each timestamp is a TICK event (tsc) and gives PTD_SF_TIME and tsc to
 * the samples that follow.
 * Memory is read through env->image (ptd_image_read) with asid the thread
 * ID + 1 of the source's last CONTEXT (0 before one): the code may be read
 * before that sample is handed over.
 *
 * For perf.data files (ops->queue_opts): an AUX queue whose AUX records
 * carry PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW (0x100) is unformatted, the
 * trace of the queue's CPU alone (TRBE); otherwise CoreSight frames. */
#ifndef PTD_DECODERS_CS_ETM_H
#define PTD_DECODERS_CS_ETM_H

#include <stdint.h>

#include "decoders/decoder.h"

#define PTD_CS_ETMV3_MAGIC 0x3030303030303030ULL
#define PTD_CS_ETMV4_MAGIC 0x4040404040404040ULL
#define PTD_CS_ETE_MAGIC   0x5050505050505050ULL

/* perf's per-source parameter counts (header version 1) */
enum { PTD_CS_ETMV3_NPARAMS = 4, PTD_CS_ETMV4_NPARAMS = 7, PTD_CS_ETE_NPARAMS = 8 };

extern const struct ptd_decoder_ops ptd_cs_etm_ops;

#endif
