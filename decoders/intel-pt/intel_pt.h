/* The Intel PT backend: libipt's instruction flow decoder (pt_insn_*).
 *
 * Samples: INSN for every instruction, EVENT for libipt's events (in the
 * order pt_insn_event gives them), GAP for each decode error (then the
 * decoder resynchronizes at the next PSB with pt_insn_sync_forward), DIAG
 * "unknown cpu" when neither libipt nor ptdecode's errata table knows the
 * CPU (decoding goes on by the specification).
 *
 * Options (struct ptd_decoder_opt, numbers in C syntax):
 *   mtc-freq          IA32_RTIT_CTL.MTCFreq (0-15)
 *   nom-freq          MSR_PLATFORM_INFO[15:8], the nominal core:bus ratio (0-255)
 *   cpuid-0x15.eax    CPUID leaf 0x15 EAX (TSC:core crystal clock ratio denominator)
 *   cpuid-0x15.ebx    CPUID leaf 0x15 EBX (numerator)
 *   filter:addrN_cfg  IA32_RTIT_CTL.ADDRn_CFG, N 0-3 (0-15)
 *   filter:addrN_a    IA32_RTIT_ADDRn_A
 *   filter:addrN_b    IA32_RTIT_ADDRn_B
 *   tick-events       1: emit TICK events when the time changes
 *
 * The image: every section of env->image goes into a libipt image section
 * cache (libipt maps the files itself); the image's read callback, if any,
 * answers the addresses no section covers. */
#ifndef PTD_DECODERS_INTEL_PT_H
#define PTD_DECODERS_INTEL_PT_H

#include "decoders/decoder.h"

extern const struct ptd_decoder_ops ptd_intel_pt_ops;

#endif
