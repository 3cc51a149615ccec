/* The length of the x86 instructions compiled code is mostly made of,
 * from their bytes alone: no text is built, unlike capstone, which
 * formats each instruction it decodes, and capstone need not even be
 * loaded (src/common/cs_load.h).  Only encodings valid with the operands
 * they have are answered (general-purpose instructions, lock, x87 from
 * memory, the common SSE moves, arithmetic and shifts, xsave and the
 * fences, endbr); the rest, and three-byte opcodes and 16-bit addressing,
 * is left to capstone.  VEX and EVEX have a function of their own.
 * tests/unit/test_x86len.c checks every answer against capstone on
 * system libraries and random bytes. */
#ifndef PTD_DECODERS_INTEL_PT_X86LEN_H
#define PTD_DECODERS_INTEL_PT_X86LEN_H

#include <stddef.h>
#include <stdint.h>

/* The length of the instruction at b (len bytes available) in 64-bit
 * (x86_64) or 32-bit mode; 0 when not known here. */
unsigned ptd_x86_len(const uint8_t *b, size_t len, int x86_64);

/* The same, and where it answers, *op: the index of the opcode's first
 * byte (past the legacy prefixes and a REX). */
unsigned ptd_x86_len_at(const uint8_t *b, size_t len, int x86_64, unsigned *op);

/* The length of a VEX or EVEX encoded instruction at b (after legacy
 * prefixes), which is never a branch; 0 when b holds none.  Wherever
 * capstone decodes such bytes, the same length, but for EVEX with embedded
 * rounding, where capstone 4 takes a byte too many (Intel's manual has no
 * immediate there); it also answers for those capstone 4 does not know
 * (AVX-512 ones), and for encodings the processor would refuse. */
unsigned ptd_x86_vex_len(const uint8_t *b, size_t len, int x86_64);

#endif
