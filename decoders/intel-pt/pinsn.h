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

/* The length of the instruction at buf when x86len.c knows it and its
 * opcode cannot be a branch (what ptd_pinsn_decode would give as
 * PDEC_BR_NO_BRANCH with that length); 0 otherwise, for
 * ptd_pinsn_decode to decide.  For walks that only step over the
 * instructions before a branch. */
unsigned ptd_pinsn_plain_len(const uint8_t *buf, size_t len, int x86_64);

#endif
