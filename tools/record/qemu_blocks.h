/* The instructions of a qemu translation block, from its start address:
 * a cache of decoded blocks for the qemu execution source.
 *
 * A block is decoded the way qemu 7.2 (x86-64 or AArch64, user mode)
 * forms a translation block: from its start up to and including the
 * first control-flow instruction (classify.h), REP string instruction,
 * instruction that never retires, or instruction after which qemu ends
 * a block (PTD_INSN_ENDTB: pause, popf, xrstor; isb, msr, ...); also
 * ending before an instruction that would reach into another page than
 * the start's, after an instruction whose successor is on another page,
 * and after 512 instructions.  qemu may end a block earlier (op buffer
 * limits, exclusive execution, AArch64 yield/wfe in a single-threaded
 * program): the walker checks the next block's start against every
 * instruction end.  The architecture is the classifier's. */
#ifndef PTD_RECORD_QEMU_BLOCKS_H
#define PTD_RECORD_QEMU_BLOCKS_H

#include <stdint.h>

#include "common/err.h"
#include "tools/record/classify.h"

enum ptd_qend {
	PTD_QEND_CF,     /* last instruction is a control transfer (cls) */
	PTD_QEND_REP,    /* last instruction is a REP string instruction */
	PTD_QEND_FAULT,  /* last instruction never retires (signal) */
	PTD_QEND_SEQ,    /* falls through to the next address (end) */
};

struct ptd_qblock {
	uint64_t start;
	uint64_t end;        /* address after the last instruction */
	uint64_t last;       /* address of the last instruction */
	uint64_t target;     /* last instruction's direct target, else 0 */
	uint32_t ends;       /* index of the first end offset in the pool */
	uint16_t n;          /* instructions, >= 1 */
	uint8_t kind;        /* enum ptd_qend */
	uint8_t cls;         /* last instruction's class (PTD_X_NONE unless CF) */
	uint8_t last_len;
	uint8_t syscall;     /* last instruction is `syscall` (AArch64: SVC) */
	int8_t sys_state;    /* 0: not looked at, 1: sysnr known, -1: unknown */
	int64_t sysnr;
};

struct ptd_qblocks;

/* A cache decoding code through read/rctx (borrowed, must outlive it) with
 * classifier c (borrowed).  Returns 0 and *out (free with
 * ptd_qblocks_free), or -PTD_E_NOMEM. */
int ptd_qblocks_new(struct ptd_qblocks **out, struct ptd_classifier *c, ptd_read_code_fn read,
		    void *rctx, struct ptd_err *err);
void ptd_qblocks_free(struct ptd_qblocks *qb);

/* The block starting at start, decoded on first use.  *out points into
 * the cache and stays valid until the next ptd_qblocks_get.  Returns 0,
 * -PTD_E_NOTFOUND when no code is readable at start, -PTD_E_LIMIT past
 * 2^24 blocks, -PTD_E_NOMEM. */
int ptd_qblocks_get(struct ptd_qblocks *qb, uint64_t start, const struct ptd_qblock **out,
		    struct ptd_err *err);

/* Address after instruction i (0 <= i < b->n) of block b. */
uint64_t ptd_qblocks_insn_end(const struct ptd_qblocks *qb, const struct ptd_qblock *b, unsigned i);

/* Index i of the instruction of b that ends at addr (addr ==
 * ptd_qblocks_insn_end(b, i)), or -1. */
int ptd_qblocks_find_end(const struct ptd_qblocks *qb, const struct ptd_qblock *b, uint64_t addr);

/* System call number of a block ending in `syscall` or SVC (classify.h's
 * constant tracking over the block).  Returns 1 and *nr, 0 if unknown. */
int ptd_qblocks_sysnr(struct ptd_qblocks *qb, uint64_t start, int64_t *nr);

#endif
