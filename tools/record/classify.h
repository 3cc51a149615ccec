/* Classify one instruction from its bytes: its length, its control-flow
 * class (enum ptd_xclass, or PTD_X_NONE), the target of direct branches,
 * and the few properties the execution sources need (REP string
 * instructions, instructions that never retire, instructions after which
 * qemu ends a translation block).
 *
 * Two architectures (enum ptd_arch, fixed per classifier): x86-64, decoded
 * with capstone 4, and AArch64, decoded from the encoding by
 * classify_a64.h (which also lists its class choices).
 *
 * x86-64 class choices:
 *   PTD_X_COND    jcc, jcxz/jecxz/jrcxz, loop/loope/loopne
 *   PTD_X_JUMP    jmp rel8/rel32            PTD_X_IJUMP  jmp reg/mem, and far
 *                                                        transfers (ljmp, lcall,
 *                                                        lret, iret: a TIP, no
 *                                                        return-stack effect)
 *   PTD_X_CALL    call rel32                PTD_X_ICALL  call reg/mem
 *   PTD_X_RET     ret, ret imm16
 *   PTD_X_SYSCALL syscall, sysenter, int n, int3, int1: they retire, enter the
 *                 kernel and user execution resumes wherever the kernel says
 *                 (after them, or at a signal handler for int3/int1/int n)
 *   PTD_X_NONE    everything else.  ud0/ud1/ud2, hlt, privileged instructions
 *                 and undecodable bytes are PTD_X_NONE with PTD_INSN_FAULT:
 *                 they do not retire, the kernel delivers a signal instead.
 *                 VEX/EVEX instructions capstone 4 cannot decode (some
 *                 AVX-512 forms, kmov) get their length from our own
 *                 decoder of that encoding.
 *
 * An x86-64 classifier owns a capstone handle and a direct-mapped cache of
 * decoded instructions keyed by address; an entry is used only when the
 * bytes still match, so code that changes is decoded again.  (AArch64
 * decoding is cheaper than a cache lookup: no cache.)  One classifier per
 * thread of the caller (it is not locked).
 */
#ifndef PTD_RECORD_CLASSIFY_H
#define PTD_RECORD_CLASSIFY_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "tools/record/xev.h"

#define PTD_X_NONE PTD_X_NCLASS   /* not a control-flow instruction */
#define PTD_INSN_MAX 15           /* longest instruction (x86; AArch64: 4) */

enum ptd_arch {
	PTD_ARCH_X86_64,
	PTD_ARCH_AARCH64
};

enum {
	PTD_INSN_REP = 1u << 0,    /* REP/REPE/REPNE string instruction: may stop
	                              after each iteration with the ip unchanged */
	PTD_INSN_FAULT = 1u << 1,  /* never retires (ud2, hlt, privileged,
	                              undecodable): raises a signal instead */
	PTD_INSN_ENDTB = 1u << 2,  /* qemu ends its translation block after it
	                              (pause, popf, xrstor): a hint only */
	PTD_INSN_SYSCALL = 1u << 3, /* the `syscall` (AArch64: SVC) instruction itself */
	PTD_INSN_VMEXIT = 1u << 4  /* cpuid: under some hypervisors a single step
	                              over it runs the next instruction too */
};

struct ptd_insn {
	uint64_t ip;
	uint64_t target;   /* direct COND/JUMP/CALL: branch target, else 0 */
	uint8_t len;       /* 1..15 (1 for undecodable bytes); AArch64: 4 */
	uint8_t cls;       /* enum ptd_xclass, or PTD_X_NONE */
	uint8_t flags;     /* PTD_INSN_* */
};

/* Reads up to len bytes of the traced program's code at addr into buf.
 * Returns the number of bytes read (0 when nothing is mapped there) or a
 * negative value on failure.  Fewer bytes than asked is normal at the end
 * of a mapping. */
typedef long (*ptd_read_code_fn)(void *ctx, uint64_t addr, uint8_t *buf, size_t len);

struct ptd_classifier;

/* New x86-64 classifier with a cache of 2^cache_bits entries (0: default
 * 16; at most 24).  Returns 0 and *out (owned by the caller, free with
 * ptd_classifier_free), or -PTD_E_NOMEM / -PTD_E_UNSUPPORTED (capstone
 * could not be opened). */
int ptd_classifier_new(struct ptd_classifier **out, unsigned cache_bits, struct ptd_err *err);

/* Same for arch (enum ptd_arch; cache_bits is ignored for AArch64).
 * Also -PTD_E_INVAL for an unknown arch. */
int ptd_classifier_new_arch(struct ptd_classifier **out, unsigned arch, unsigned cache_bits,
			    struct ptd_err *err);
void ptd_classifier_free(struct ptd_classifier *c);

/* The classifier's enum ptd_arch. */
unsigned ptd_classifier_arch(const struct ptd_classifier *c);

/* The enum ptd_arch of an ELF e_machine (EM_X86_64, EM_AARCH64): returns
 * 0 and *arch, or -1 for other machines. */
int ptd_arch_of_elf_machine(unsigned machine, unsigned *arch);

/* Classify the instruction at ip whose bytes start at bytes[0]; n is how
 * many bytes are available (more than the instruction is fine, at most 15
 * are looked at).  Undecodable or truncated bytes give a 1-byte
 * PTD_INSN_FAULT instruction (AArch64: truncated ones a 4-byte one).
 * Returns 0 (and *out), or -PTD_E_INVAL when n is 0. */
int ptd_classify(struct ptd_classifier *c, uint64_t ip, const uint8_t *bytes, size_t n,
		 struct ptd_insn *out, struct ptd_err *err);

/* Same, reading the bytes through `read`.  Returns 0, or -PTD_E_NOTFOUND
 * when no code byte is readable at ip, or -PTD_E_IO when read fails. */
int ptd_classify_at(struct ptd_classifier *c, uint64_t ip, ptd_read_code_fn read, void *rctx,
		    struct ptd_insn *out, struct ptd_err *err);

/* The system call number a `syscall` at sys_ip uses, when the straight-line
 * instructions from `from` up to sys_ip put a constant in rax (mov $n,%eax,
 * through mov reg,reg copies and xor reg,reg; AArch64: an SVC and x8, see
 * classify_a64.h).  Returns 1 and *nr when known, 0 when not (also when
 * sys_ip is not reached from `from` by straight-line decoding), negative
 * -PTD_E_* on a read failure. */
int ptd_classify_sysnr(struct ptd_classifier *c, uint64_t from, uint64_t sys_ip,
		       ptd_read_code_fn read, void *rctx, int64_t *nr, struct ptd_err *err);

/* Name of a class for messages ("cond", "ret", ..., "none"); never NULL. */
const char *ptd_xclass_name(unsigned cls);

#endif
