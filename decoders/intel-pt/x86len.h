/* The length of the x86 instructions compiled code is mostly made of,
 * from their bytes alone: no text is built, unlike capstone, which
 * formats each instruction it decodes.  Only encodings valid whatever
 * their operands are answered (general-purpose instructions, x87, the
 * common SSE moves and arithmetic, endbr); the rest, and anything with
 * prefixes whose meaning varies (VEX, EVEX, three-byte opcodes, 16-bit
 * addressing), is left to capstone.  tests/unit/test_x86len.c checks
 * every answer against capstone on system libraries and random bytes. */
#ifndef PTD_DECODERS_INTEL_PT_X86LEN_H
#define PTD_DECODERS_INTEL_PT_X86LEN_H

#include <stddef.h>
#include <stdint.h>

/* The length of the instruction at b (len bytes available) in 64-bit
 * (x86_64) or 32-bit mode; 0 when not known here. */
unsigned ptd_x86_len(const uint8_t *b, size_t len, int x86_64);

#endif
