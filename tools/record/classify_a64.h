/* Classify one AArch64 instruction from its 32-bit word, for classify.h's
 * classifiers of PTD_ARCH_AARCH64.
 *
 * Decoded from the encoding's bits, not with capstone: capstone 4 does not
 * know the pointer-authentication branches (BRAA, RETAA, ...), LSE
 * atomics, SVE, SME or MTE, all of which qemu 7.2 runs, so it cannot tell
 * what is undefined.  Only the branch, exception-generating and system
 * group needs a full decode; every other group is straight-line code.
 *
 * Class choices (instructions are 4 bytes, aligned):
 *   PTD_X_COND    B.cond (also B.AL/B.NV, always taken), CBZ, CBNZ, TBZ, TBNZ
 *   PTD_X_JUMP    B                         PTD_X_IJUMP  BR, BRAA, BRAAZ, BRAB, BRABZ
 *   PTD_X_CALL    BL                        PTD_X_ICALL  BLR, BLRAA, BLRAAZ, BLRAB, BLRABZ
 *   PTD_X_RET     RET (any register), RETAA, RETAB
 *   PTD_X_SYSCALL SVC (any immediate), with PTD_INSN_SYSCALL
 *   PTD_X_NONE    everything else.  With PTD_INSN_FAULT (never retires at
 *                 EL0, a signal instead): BRK, HLT, HVC, SMC, DCPS*, ERET*,
 *                 DRPS, UDF and the reserved and unallocated top-level
 *                 groups, unallocated encodings of the branch/system group
 *                 (BC.cond is one: qemu 7.2 has no FEAT_HBC), MSR
 *                 (immediate) to PAN, UAO, SPSel, DAIFSet/DAIFClr, ALLINT,
 *                 and a misaligned ip.  With PTD_INSN_ENDTB (qemu 7.2 ends
 *                 its translation block after it, whatever the CPU state):
 *                 ISB, SB, MSR (register) except to NZCV, FPCR and FPSR,
 *                 MSR (immediate) to SSBS, DIT, SVCR (SMSTART/SMSTOP), TCO.
 *                 YIELD and WFE end a block only while the program has one
 *                 thread, so they are not marked (the walker sees such
 *                 early ends as splits).
 * Not known statically: system registers qemu refuses at EL0 (MRS/MSR of
 * them raise SIGILL but are classified as ordinary instructions). */
#ifndef PTD_RECORD_CLASSIFY_A64_H
#define PTD_RECORD_CLASSIFY_A64_H

#include <stdint.h>

#include "common/err.h"
#include "tools/record/classify.h"

#define PTD_A64_INSN_LEN 4

/* Classify the instruction word w (little-endian value) at ip into *out
 * (len 4, cls, target of direct branches, flags).  Never fails. */
void ptd_a64_classify(uint32_t w, uint64_t ip, struct ptd_insn *out);

/* The system call number an SVC at sys_ip uses: the constant the
 * straight-line instructions from `from` up to sys_ip leave in x8 (MOVZ,
 * MOVN, MOVK, MOV register copies).  Returns 1 and *nr when known, 0 when
 * not (also when sys_ip is not reached from `from`), -PTD_E_IO when read
 * fails. */
int ptd_a64_sysnr(uint64_t from, uint64_t sys_ip, ptd_read_code_fn read, void *rctx, int64_t *nr,
		  struct ptd_err *err);

#endif
