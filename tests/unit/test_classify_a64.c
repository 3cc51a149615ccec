/* The AArch64 instruction classifier (tools/record/classify_a64.h):
 * hand-picked encodings of every control-flow form (the pointer
 * authentication ones included), the instructions that never retire at
 * EL0, those after which qemu 7.2 ends a block, system call numbers in
 * x8; then, as an independent check, capstone 4's ARM64 disassembler on
 * the same words and on every word of the AArch64 test programs' code
 * (tests/programs/NAME-a64, skipped when not built): where capstone
 * decodes a word, its branch kind and target must be ours. */
#include <capstone/capstone.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tap.h"
#include "tools/record/classify.h"
#include "tools/record/elfimage.h"
#include "xorshift.h"

#define IP 0x400000u
#define NONE PTD_X_NONE
#define F PTD_INSN_FAULT
#define E PTD_INSN_ENDTB
#define S PTD_INSN_SYSCALL

static const struct word {
	uint32_t w;
	uint8_t cls, flags;
	int64_t target;       /* relative to IP, for direct branches */
	const char *what;
} words[] = {
	{ 0x14000010, PTD_X_JUMP, 0, 0x40, "b +0x40" },
	{ 0x17ffffff, PTD_X_JUMP, 0, -4, "b -4" },
	{ 0x94000001, PTD_X_CALL, 0, 4, "bl +4" },
	{ 0x97fffff0, PTD_X_CALL, 0, -0x40, "bl -0x40" },
	{ 0x54000061, PTD_X_COND, 0, 12, "b.ne +12" },
	{ 0x54ffffe0, PTD_X_COND, 0, -4, "b.eq -4" },
	{ 0x5400002e, PTD_X_COND, 0, 4, "b.al +4 (always taken)" },
	{ 0x54000050, NONE, F, 0, "bc.eq (FEAT_HBC, not in qemu 7.2)" },
	{ 0xb4000040, PTD_X_COND, 0, 8, "cbz x0, +8" },
	{ 0x35ffffe1, PTD_X_COND, 0, -4, "cbnz w1, -4" },
	{ 0x36000040, PTD_X_COND, 0, 8, "tbz w0, #0, +8" },
	{ 0xb7f800a1, PTD_X_COND, 0, 20, "tbnz x1, #63, +20" },
	{ 0x37fffe02, PTD_X_COND, 0, -0x40, "tbnz w2, #31, -0x40" },
	{ 0xd61f0060, PTD_X_IJUMP, 0, 0, "br x3" },
	{ 0xd63f0100, PTD_X_ICALL, 0, 0, "blr x8" },
	{ 0xd65f03c0, PTD_X_RET, 0, 0, "ret" },
	{ 0xd65f0020, PTD_X_RET, 0, 0, "ret x1" },
	{ 0xd61f083f, PTD_X_IJUMP, 0, 0, "braaz x1" },
	{ 0xd61f0c3f, PTD_X_IJUMP, 0, 0, "brabz x1" },
	{ 0xd63f083f, PTD_X_ICALL, 0, 0, "blraaz x1" },
	{ 0xd63f0c3f, PTD_X_ICALL, 0, 0, "blrabz x1" },
	{ 0xd65f0bff, PTD_X_RET, 0, 0, "retaa" },
	{ 0xd65f0fff, PTD_X_RET, 0, 0, "retab" },
	{ 0xd71f0822, PTD_X_IJUMP, 0, 0, "braa x1, x2" },
	{ 0xd71f0c22, PTD_X_IJUMP, 0, 0, "brab x1, x2" },
	{ 0xd73f0822, PTD_X_ICALL, 0, 0, "blraa x1, x2" },
	{ 0xd73f0c3f, PTD_X_ICALL, 0, 0, "blrab x1, sp" },
	{ 0xd61f0820, NONE, F, 0, "braaz with a modifier field (unallocated)" },
	{ 0xd65f0820, NONE, F, 0, "retaa with Rn != 31 (unallocated)" },
	{ 0xd69f03e0, NONE, F, 0, "eret (EL1)" },
	{ 0xd69f0bff, NONE, F, 0, "eretaa (EL1)" },
	{ 0xd6bf03e0, NONE, F, 0, "drps" },
	{ 0xd4000001, PTD_X_SYSCALL, S, 0, "svc #0" },
	{ 0xd4001001, PTD_X_SYSCALL, S, 0, "svc #0x80" },
	{ 0xd4207d00, NONE, F, 0, "brk #0x3e8 (__builtin_trap)" },
	{ 0xd4400000, NONE, F, 0, "hlt #0" },
	{ 0xd4000002, NONE, F, 0, "hvc #0" },
	{ 0xd4000003, NONE, F, 0, "smc #0" },
	{ 0xd4a00001, NONE, F, 0, "dcps1" },
	{ 0x00000000, NONE, F, 0, "udf #0" },
	{ 0x0000dead, NONE, F, 0, "udf #0xdead" },
	{ 0x02000000, NONE, F, 0, "unallocated (op1 0001)" },
	{ 0x06000000, NONE, F, 0, "unallocated (op1 0011)" },
	{ 0xd5033fdf, NONE, E, 0, "isb" },
	{ 0xd50330ff, NONE, E, 0, "sb" },
	{ 0xd5033bbf, NONE, 0, 0, "dmb ish" },
	{ 0xd5033f9f, NONE, 0, 0, "dsb sy" },
	{ 0xd5033f5f, NONE, 0, 0, "clrex" },
	{ 0xd51bd040, NONE, E, 0, "msr tpidr_el0, x0" },
	{ 0xd51bd0a0, NONE, E, 0, "msr tpidr2_el0, x0" },
	{ 0xd51b42e0, NONE, E, 0, "msr tco, x0" },
	{ 0xd51b4401, NONE, 0, 0, "msr fpcr, x1" },
	{ 0xd51b4421, NONE, 0, 0, "msr fpsr, x1" },
	{ 0xd51b4201, NONE, 0, 0, "msr nzcv, x1" },
	{ 0xd53bd040, NONE, 0, 0, "mrs x0, tpidr_el0" },
	{ 0xd53b00e7, NONE, 0, 0, "mrs x7, dczid_el0" },
	{ 0xd503413f, NONE, E, 0, "msr ssbs, #1" },
	{ 0xd503415f, NONE, E, 0, "msr dit, #1" },
	{ 0xd503419f, NONE, E, 0, "msr tco, #1" },
	{ 0xd503477f, NONE, E, 0, "smstart" },
	{ 0xd50342df, NONE, F, 0, "msr daifset, #2 (needs SCTLR_EL1.UMA)" },
	{ 0xd500409f, NONE, F, 0, "msr pan, #0 (EL1)" },
	{ 0xd500401f, NONE, 0, 0, "cfinv" },
	{ 0xd500405f, NONE, 0, 0, "axflag" },
	{ 0xd503201f, NONE, 0, 0, "nop" },
	{ 0xd503203f, NONE, 0, 0, "yield (ends a block only single-threaded)" },
	{ 0xd503205f, NONE, 0, 0, "wfe (ditto)" },
	{ 0xd503233f, NONE, 0, 0, "paciasp" },
	{ 0xd50323bf, NONE, 0, 0, "autiasp" },
	{ 0xd503245f, NONE, 0, 0, "bti c" },
	{ 0xd50320ff, NONE, 0, 0, "xpaclri" },
	{ 0xd50b7422, NONE, 0, 0, "dc zva, x2" },
	{ 0xd50b7522, NONE, 0, 0, "ic ivau, x2" },
	{ 0x8b020020, NONE, 0, 0, "add x0, x1, x2" },
	{ 0xf9401fa0, NONE, 0, 0, "ldr x0, [x29, #56]" },
	{ 0xc85f7c43, NONE, 0, 0, "ldxr x3, [x2]" },
	{ 0xc8047c43, NONE, 0, 0, "stxr w4, x3, [x2]" },
	{ 0xc8a07c41, NONE, 0, 0, "cas x0, x1, [x2] (LSE)" },
	{ 0xa400a020, NONE, 0, 0, "ld1b {z0.b}, p0/z, [x1] (SVE)" },
	{ 0x04a0e3e0, NONE, 0, 0, "cntw x0 (SVE)" },
	{ 0xd9600000, NONE, 0, 0, "ldg x0, [x0] (MTE)" },
	{ 0xc00800ff, NONE, 0, 0, "zero {za} (SME)" },
	{ 0x1e602000, NONE, 0, 0, "fcmp d0, d0" },
};

static void hand_picked(struct ptd_classifier *c)
{
	struct ptd_err err = {0};
	size_t bad = 0;

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		const struct word *w = &words[i];
		uint8_t b[4] = { (uint8_t)w->w, (uint8_t)(w->w >> 8), (uint8_t)(w->w >> 16), (uint8_t)(w->w >> 24) };
		struct ptd_insn in;
		uint64_t want = w->cls <= PTD_X_CALL ? IP + (uint64_t)w->target : 0;

		if (ptd_classify(c, IP, b, sizeof(b), &in, &err) < 0 || in.len != 4 || in.cls != w->cls ||
		    in.flags != w->flags || in.target != want || in.ip != IP) {
			if (!bad++)
				printf("#   %08" PRIx32 " %s: got %s flags %#x target %#" PRIx64 "\n", w->w,
				       w->what, ptd_xclass_name(in.cls), in.flags, in.target);
		}
	}
	ok(bad == 0, "%zu hand-picked encodings classified as documented (%zu wrong)",
	   sizeof(words) / sizeof(words[0]), bad);
}

static void edges(struct ptd_classifier *c)
{
	struct ptd_err err = {0};
	static const uint8_t ret[4] = { 0xc0, 0x03, 0x5f, 0xd6 };
	struct ptd_insn in;
	int rc;

	rc = ptd_classify(c, IP + 2, ret, 4, &in, &err);
	ok(rc == 0 && in.cls == PTD_X_NONE && in.flags == PTD_INSN_FAULT && in.len == 4,
	   "a misaligned ip faults");
	rc = ptd_classify(c, IP, ret, 3, &in, &err);
	ok(rc == 0 && in.cls == PTD_X_NONE && in.flags == PTD_INSN_FAULT && in.len == 4,
	   "a truncated word is a 4-byte fault");
	ok(ptd_classify(c, IP, ret, 0, &in, &err) == -PTD_E_INVAL, "no bytes: -PTD_E_INVAL");
	rc = ptd_classify(c, IP, ret, 15, &in, &err);
	ok(rc == 0 && in.cls == PTD_X_RET && in.len == 4, "more bytes than the word: its first 4");
	ok(ptd_classifier_arch(c) == PTD_ARCH_AARCH64, "the classifier says AArch64");
}

/* ---- system call numbers ---- */

static const uint32_t *prog_words;
static size_t prog_n;

static long read_words(void *ctx, uint64_t addr, uint8_t *buf, size_t len)
{
	size_t off, n;

	(void)ctx;
	if (addr < IP || addr >= IP + prog_n * 4)
		return 0;
	off = (size_t)(addr - IP);
	n = prog_n * 4 - off < len ? prog_n * 4 - off : len;
	memcpy(buf, (const uint8_t *)prog_words + off, n);   /* little-endian host */
	return (long)n;
}

static int sysnr(struct ptd_classifier *c, const uint32_t *w, size_t n, int64_t *nr)
{
	prog_words = w;
	prog_n = n;
	return ptd_classify_sysnr(c, IP, IP + (n - 1) * 4, read_words, NULL, nr, NULL);
}

static void sysnrs(struct ptd_classifier *c)
{
	/* mov x8, #93; mov x0, #0; svc */
	static const uint32_t exit_[] = { 0xd2800ba8, 0xd2800000, 0xd4000001 };
	/* mov x8, #139; svc */
	static const uint32_t tramp[] = { 0xd2801168, 0xd4000001 };
	/* mov w8, #93; svc */
	static const uint32_t w8[] = { 0x52800ba8, 0xd4000001 };
	/* movz x9, #1, lsl #16; movk x9, #2; mov x8, x9; svc */
	static const uint32_t movk[] = { 0xd2a00029, 0xf2800049, 0xaa0903e8, 0xd4000001 };
	/* mov x8, #-1; svc */
	static const uint32_t movn[] = { 0x92800008, 0xd4000001 };
	/* mov x8, #93; ldr x8, [x0]; svc */
	static const uint32_t load[] = { 0xd2800ba8, 0xf9400008, 0xd4000001 };
	/* mov x8, #93; add x8, x8, #1; svc */
	static const uint32_t add[] = { 0xd2800ba8, 0x91000508, 0xd4000001 };
	/* mov x8, #93; add x9, x9, #1; svc */
	static const uint32_t other[] = { 0xd2800ba8, 0x91000529, 0xd4000001 };
	/* mov x0, #0; svc */
	static const uint32_t none[] = { 0xd2800000, 0xd4000001 };
	int64_t nr = 0;
	int rc;

	rc = sysnr(c, exit_, 3, &nr);
	ok(rc == 1 && nr == 93, "sysnr: mov x8, #93 ... svc is exit (%d, %" PRId64 ")", rc, nr);
	rc = sysnr(c, tramp, 2, &nr);
	ok(rc == 1 && nr == 139, "sysnr: qemu's trampoline is rt_sigreturn (%d, %" PRId64 ")", rc, nr);
	rc = sysnr(c, w8, 2, &nr);
	ok(rc == 1 && nr == 93, "sysnr: mov w8, #93 (%d, %" PRId64 ")", rc, nr);
	rc = sysnr(c, movk, 4, &nr);
	ok(rc == 1 && nr == 0x10002, "sysnr: movz, movk, mov x8, x9 (%d, %#" PRIx64 ")", rc, (uint64_t)nr);
	rc = sysnr(c, movn, 2, &nr);
	ok(rc == 1 && nr == -1, "sysnr: movn (%d, %" PRId64 ")", rc, nr);
	ok(sysnr(c, load, 3, &nr) == 0, "sysnr: x8 loaded from memory is unknown");
	ok(sysnr(c, add, 3, &nr) == 0, "sysnr: x8 computed is unknown");
	rc = sysnr(c, other, 3, &nr);
	ok(rc == 1 && nr == 93, "sysnr: writes to other registers leave x8 (%d, %" PRId64 ")", rc, nr);
	ok(sysnr(c, none, 2, &nr) == 0, "sysnr: x8 never set is unknown");
}

/* ---- capstone 4 as an independent decoder ---- */

struct cmp {
	size_t words, decoded, branches, mismatches;
	char first[200];
};

/* Our classification of what capstone decoded as ci, or -1 when capstone
 * names no control flow; *target its direct target (0 if none). */
static int cs_class(const cs_insn *ci, int *fault, uint64_t *target)
{
	const cs_arm64 *a = &ci->detail->arm64;

	*fault = 0;
	*target = 0;
	for (int i = a->op_count - 1; i >= 0; i--)
		if (a->operands[i].type == ARM64_OP_IMM) {
			*target = (uint64_t)a->operands[i].imm;
			break;
		}
	switch (ci->id) {
	case ARM64_INS_B:
		return a->cc != ARM64_CC_INVALID ? PTD_X_COND : PTD_X_JUMP;
	case ARM64_INS_BL:
		return PTD_X_CALL;
	case ARM64_INS_CBZ: case ARM64_INS_CBNZ: case ARM64_INS_TBZ: case ARM64_INS_TBNZ:
		return PTD_X_COND;
	case ARM64_INS_BR:
		return PTD_X_IJUMP;
	case ARM64_INS_BLR:
		return PTD_X_ICALL;
	case ARM64_INS_RET:
		return PTD_X_RET;
	case ARM64_INS_SVC:
		return PTD_X_SYSCALL;
	case ARM64_INS_BRK: case ARM64_INS_HLT: case ARM64_INS_HVC: case ARM64_INS_SMC:
	case ARM64_INS_DCPS1: case ARM64_INS_DCPS2: case ARM64_INS_DCPS3: case ARM64_INS_ERET:
	case ARM64_INS_DRPS:
		*fault = 1;
		return PTD_X_NONE;
	default:
		*target = 0;
		return -1;
	}
}

static void compare(struct ptd_classifier *c, csh cs, cs_insn *ci, uint32_t w, uint64_t ip, struct cmp *m)
{
	uint8_t b[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24) };
	const uint8_t *p = b;
	size_t n = 4;
	uint64_t addr = ip, target;
	struct ptd_insn in;
	int cls, fault, bad;

	m->words++;
	if (ptd_classify(c, ip, b, 4, &in, NULL) < 0 || !cs_disasm_iter(cs, &p, &n, &addr, ci))
		return;
	m->decoded++;
	cls = cs_class(ci, &fault, &target);
	if (cls < 0) {
		/* no control flow; a fault only for MSR to PSTATE fields EL0 may not write */
		bad = in.cls != PTD_X_NONE || ((in.flags & PTD_INSN_FAULT) && ci->id != ARM64_INS_MSR);
	} else {
		m->branches++;
		bad = in.cls != cls || !(in.flags & PTD_INSN_FAULT) != !fault ||
		      (cls <= PTD_X_CALL && in.target != target);
	}
	if (bad && !m->mismatches++)
		snprintf(m->first, sizeof(m->first), "%#" PRIx64 ": %08" PRIx32 " %.20s %.60s: ours %s flags %#x target %#"
			 PRIx64, ip, w, ci->mnemonic, ci->op_str, ptd_xclass_name(in.cls), in.flags, in.target);
}

static void against_capstone(struct ptd_classifier *c)
{
	static const char *const progs[] = { "loops", "recursion", "indirect", "longjmp", "signals",
					     "threads", "sigalrm", "blockends" };
	const char *top = getenv("top_builddir");
	struct cmp m;
	cs_insn *ci;
	csh cs;

	if (cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &cs) != CS_ERR_OK) {
		ok(0, "capstone: an ARM64 disassembler");
		return;
	}
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	ci = cs_malloc(cs);
	memset(&m, 0, sizeof(m));
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		compare(c, cs, ci, words[i].w, IP, &m);
	ok(m.mismatches == 0, "capstone agrees on the hand-picked words it decodes (%zu of %zu, %zu mismatches)",
	   m.decoded, m.words, m.mismatches);
	if (m.mismatches)
		printf("#   first: %s\n", m.first);
	/* random words, and random words of the branch/system group */
	for (int g = 0; g < 2; g++) {
		uint64_t x = 0x9e3779b97f4a7c15ull + (uint64_t)g;

		memset(&m, 0, sizeof(m));
		for (unsigned i = 0; i < (1u << 20); i++) {
			uint32_t w;

			w = (uint32_t)(xorshift64(&x) >> 16);
			if (g)
				w = (w & ~0x1c000000u) | 0x14000000u;   /* bits 28:26 = 101 */
			compare(c, cs, ci, w, IP + 4 * (uint64_t)(i & 0xffff), &m);
		}
		ok(m.mismatches == 0, "capstone agrees on 2^20 random words%s it decodes (%zu decoded, %zu "
		   "branches, %zu mismatches)", g ? " of the branch/system group" : "", m.decoded, m.branches,
		   m.mismatches);
		if (m.mismatches)
			printf("#   first: %s\n", m.first);
	}
	if (!top || !*top)
		top = ".";
	for (size_t k = 0; k < sizeof(progs) / sizeof(progs[0]); k++) {
		char path[4200];
		struct ptd_elfimage *img = NULL;
		struct ptd_err err = {0};

		snprintf(path, sizeof(path), "%s/tests/programs/%s-a64", top, progs[k]);
		if (ptd_elfimage_open(&img, path, &err) < 0) {
			tap_n++;
			printf("ok %d - capstone on %s-a64 # SKIP not built (%s)\n", tap_n, progs[k], err.msg);
			continue;
		}
		memset(&m, 0, sizeof(m));
		for (size_t i = 0; i < ptd_elfimage_nmaps(img); i++) {
			const struct ptd_xmap *x = ptd_elfimage_map(img, i);

			for (uint64_t a = x->start; a < x->start + x->len; a += 4) {
				uint8_t b[4];
				if (ptd_elfimage_read(img, a, b, 4) == 4)
					compare(c, cs, ci, (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
						(uint32_t)b[3] << 24, a, &m);
			}
		}
		ok(m.mismatches == 0 && m.branches > 0,
		   "capstone agrees on every word of %s-a64's code it decodes (%zu of %zu words, %zu branches, "
		   "%zu mismatches)", progs[k], m.decoded, m.words, m.branches, m.mismatches);
		if (m.mismatches)
			printf("#   first: %s\n", m.first);
		ptd_elfimage_free(img);
	}
	cs_free(ci, 1);
	cs_close(&cs);
}

int main(void)
{
	struct ptd_classifier *c = NULL;
	struct ptd_err err = {0};

	if (ptd_classifier_new_arch(&c, PTD_ARCH_AARCH64, 0, &err) < 0) {
		ok(0, "an AArch64 classifier: %s", err.msg);
		return done_testing();
	}
	hand_picked(c);
	edges(c);
	sysnrs(c);
	against_capstone(c);
	ptd_classifier_free(c);
	return done_testing();
}
