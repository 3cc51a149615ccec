/* Instruction text for -F disasm: capstone's AT&T syntax, as perf prints
 * it when built with capstone (perf 6.10 and later; perf 6.1 has no such
 * field). */
#ifndef PTD_DISASM_H
#define PTD_DISASM_H

#include <stddef.h>
#include <stdint.h>

struct ptd_disasm;

/* A disassembler (capstone handles opened on first use); NULL when out of
 * memory. */
struct ptd_disasm *ptd_disasm_new(void);
void ptd_disasm_free(struct ptd_disasm *d);   /* NULL-safe */

/* One decoded instruction. */
struct ptd_disasm_insn {
	char mnemonic[32];
	char op_str[160];
	int has_imm;                /* the only operand is an immediate (a call or */
	uint64_t imm;               /*  jump target, ...): perf names its symbol */
};

/* The instruction at ip from code[0..len) (64-bit mode when is64, else
 * 32-bit).  Returns 0, or -1 when capstone cannot decode it (perf then
 * prints the bytes). */
int ptd_disasm_insn(struct ptd_disasm *d, const uint8_t *code, size_t len, uint64_t ip, int is64,
		    struct ptd_disasm_insn *out);

#endif
