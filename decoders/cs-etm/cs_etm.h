/* The CoreSight ETM backend: OpenCSD's decode tree (C API) behind the pull
 * interface of decoders/decoder.h.
 *
 * The trace sources come as perf's CS_ETM AUXTRACE_INFO words (info->priv,
 * perf's header version 1): priv[0] version, priv[1] (PMU type << 32) |
 * number of sources, priv[2] snapshot mode; then per source its magic
 * (ETMv3/PTM 0x3030303030303030, ETMv4 0x4040404040404040, ETE
 * 0x5050505050505050), its CPU, the number of parameters n and n
 * registers: ETMv3 ETMCR, ETMTRACEIDR, ETMCCER, ETMIDR; ETMv4 TRCCONFIGR,
 * TRCTRACEIDR, TRCIDR0, TRCIDR1, TRCIDR2, TRCIDR8, TRCAUTHSTATUS; ETE those
 * and TRCDEVARCH.  Extra parameters (later perf versions) are ignored.
 *
 * Settings (env->opts):
 *   format    "coresight" (default: 16-byte frames, memory aligned),
 *             "dstream" (frames with frame syncs), "raw" (one unformatted
 *             source: the first one)
 *   core.N    the core of source N (0-based) by OpenCSD's names
 *             ("Cortex-A57", "ARMv8.3-A", "ARM-AA64"): its architecture and
 *             profile.  Default as perf: ETMv3 v7-A, ETMv4 v8-A, ETE AArch64.
 *   ptm.N     "1": source N's ETMv3 block describes a PTM (PFT) source
 *
 * Samples: RANGE for each executed instruction range (chan = trace ID,
 * cpu = the source's CPU), EVENT ENABLED / OVERFLOW (trace on),
 * EXCEPTION, EXCEPTION_RET, END_OF_TRACE; GAP when OpenCSD loses
 * synchronisation on bad data or reports an error; DIAG for code it could
 * not read (OCSD_GEN_TRC_ELEM_ADDR_NACC) and ranges without a known path.
 * Timestamps give PTD_SF_TIME and tsc on the samples that follow.
 * Memory is read through env->image (ptd_image_read). */
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
