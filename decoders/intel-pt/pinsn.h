/* x86 instruction length and branch kind as perf's Intel PT decoder sees
 * them (for the perf-semantics decoder, pdec.h). */
#ifndef PTD_DECODERS_INTEL_PT_PINSN_H
#define PTD_DECODERS_INTEL_PT_PINSN_H

#include <stddef.h>
#include <stdint.h>

#include "decoders/intel-pt/pdec.h"

struct ptd_pinsn;

/* NULL when out of memory.  capstone is opened when an instruction first
 * needs it (one x86len.c does not know). */
struct ptd_pinsn *ptd_pinsn_new(void);
void ptd_pinsn_free(struct ptd_pinsn *p);   /* NULL-safe */

/* Decode the instruction at buf (len bytes available, at address ip) into
 * *out: length, bytes, op, branch kind and, for direct branches, rel.
 * Returns 0, or -1 when the bytes are not an instruction. */
int ptd_pinsn_decode(struct ptd_pinsn *p, const uint8_t *buf, size_t len, uint64_t ip,
		     int x86_64, struct pdec_insn *out);

#endif
