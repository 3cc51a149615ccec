/* AArch64 instruction classification from the encoding; see classify_a64.h. */
#include "tools/record/classify_a64.h"

#include <string.h>

static uint64_t branch_target(uint64_t ip, uint32_t imm, unsigned bits)
{
	int64_t off = (int64_t)((uint64_t)imm << (64 - bits)) >> (64 - bits);

	return ip + (uint64_t)(off * 4);
}

/* MSR (register) to NZCV, FPCR or FPSR: qemu keeps the block going. */
static int msr_keeps_block(uint32_t w)
{
	uint32_t sysreg = (w >> 5) & 0x7fff;   /* o0:op1:CRn:CRm:op2 */

	return sysreg == 0x5a10 ||   /* NZCV: op0 3, op1 3, CRn 4, CRm 2, op2 0 */
	       sysreg == 0x5a20 ||   /* FPCR: 3, 3, 4, 4, 0 */
	       sysreg == 0x5a21;     /* FPSR: 3, 3, 4, 4, 1 */
}

/* System instructions: 1101010100 L op0 op1 CRn CRm op2 Rt. */
static void system_insn(uint32_t w, struct ptd_insn *o)
{
	unsigned l = (w >> 21) & 1, op0 = (w >> 19) & 3, op1 = (w >> 16) & 7;
	unsigned crn = (w >> 12) & 15, crm = (w >> 8) & 15, op2 = (w >> 5) & 7, rt = w & 31;

	if ((w & 0xffc00000u) != 0xd5000000u) {
		o->flags |= PTD_INSN_FAULT;   /* 128-bit system register moves: not in qemu 7.2 */
		return;
	}
	if (l == 0 && op0 == 0 && rt == 31 && crn == 3 && op1 == 3 && (op2 == 6 || (op2 == 7 && crm == 0))) {
		o->flags |= PTD_INSN_ENDTB;   /* ISB, SB */
	} else if (l == 0 && op0 == 0 && rt == 31 && crn == 4) {
		/* MSR (immediate) and the flag manipulation instructions */
		if (op1 == 0 && op2 <= 2)
			o->flags |= crm == 0 ? 0 : PTD_INSN_FAULT;   /* CFINV, XAFLAG, AXFLAG */
		else if (op1 == 3 && op2 >= 1 && op2 <= 4)
			o->flags |= PTD_INSN_ENDTB;                  /* SSBS, DIT, SVCR, TCO */
		else
			o->flags |= PTD_INSN_FAULT;                  /* PAN, UAO, SPSel, DAIF*, ALLINT */
	} else if (l == 0 && op0 >= 2 && !msr_keeps_block(w)) {
		o->flags |= PTD_INSN_ENDTB;   /* MSR (register) */
	}
	/* hints (NOP, YIELD, BTI, PACIASP, ...), barriers, CLREX, SYS, SYSL,
	 * MRS: straight-line */
}

/* Unconditional branch (register): 1101011 opc op2 op3 Rn op4. */
static void branch_register(uint32_t w, struct ptd_insn *o)
{
	unsigned opc = (w >> 21) & 15, op2 = (w >> 16) & 31, op3 = (w >> 10) & 63;
	unsigned rn = (w >> 5) & 31, op4 = w & 31;
	int plain = op3 == 0 && op4 == 0;       /* BR, BLR, RET */
	int pac = op3 == 2 || op3 == 3;         /* key A, key B */

	if (op2 == 31) {
		switch (opc) {
		case 0:   /* BR, BRAAZ, BRABZ */
			if (plain || (pac && op4 == 31)) {
				o->cls = PTD_X_IJUMP;
				return;
			}
			break;
		case 1:   /* BLR, BLRAAZ, BLRABZ */
			if (plain || (pac && op4 == 31)) {
				o->cls = PTD_X_ICALL;
				return;
			}
			break;
		case 2:   /* RET, RETAA, RETAB */
			if (plain || (pac && rn == 31 && op4 == 31)) {
				o->cls = PTD_X_RET;
				return;
			}
			break;
		case 8:   /* BRAA, BRAB (op4: the modifier register) */
			if (pac) {
				o->cls = PTD_X_IJUMP;
				return;
			}
			break;
		case 9:   /* BLRAA, BLRAB */
			if (pac) {
				o->cls = PTD_X_ICALL;
				return;
			}
			break;
		default:  /* ERET, ERETAA/AB, DRPS (EL1 and up), unallocated */
			break;
		}
	}
	o->flags |= PTD_INSN_FAULT;
}

/* The branch, exception generating and system group: bits 28:26 = 101. */
static void branch_group(uint32_t w, uint64_t ip, struct ptd_insn *o)
{
	switch (w >> 29) {
	case 0: case 4:   /* B, BL */
		o->cls = (w >> 31) ? PTD_X_CALL : PTD_X_JUMP;
		o->target = branch_target(ip, w & 0x3ffffffu, 26);
		return;
	case 1: case 5:   /* CBZ, CBNZ (bit 25 clear), TBZ, TBNZ */
		o->cls = PTD_X_COND;
		if (w & (1u << 25))
			o->target = branch_target(ip, (w >> 5) & 0x3fffu, 14);
		else
			o->target = branch_target(ip, (w >> 5) & 0x7ffffu, 19);
		return;
	case 2:           /* B.cond; with bit 4 set BC.cond, not in qemu 7.2 */
		if ((w & 0x03000010u) == 0) {
			o->cls = PTD_X_COND;
			o->target = branch_target(ip, (w >> 5) & 0x7ffffu, 19);
			return;
		}
		break;
	case 6:
		switch ((w >> 24) & 3) {
		case 0:   /* exception generation: only SVC returns to EL0 code */
			if ((w & 0xffe0001fu) == 0xd4000001u) {
				o->cls = PTD_X_SYSCALL;
				o->flags |= PTD_INSN_SYSCALL;
				return;
			}
			break;
		case 1:
			system_insn(w, o);
			return;
		default:
			branch_register(w, o);
			return;
		}
		break;
	default:
		break;
	}
	o->flags |= PTD_INSN_FAULT;
}

void ptd_a64_classify(uint32_t w, uint64_t ip, struct ptd_insn *o)
{
	memset(o, 0, sizeof(*o));
	o->ip = ip;
	o->len = PTD_A64_INSN_LEN;
	o->cls = PTD_X_NONE;
	if (ip & 3) {
		o->flags = PTD_INSN_FAULT;   /* PC alignment fault */
		return;
	}
	switch ((w >> 25) & 15) {
	case 0:   /* reserved (UDF) with bit 31 clear, SME with it set */
		if (!(w >> 31))
			o->flags = PTD_INSN_FAULT;
		return;
	case 1: case 3:   /* unallocated */
		o->flags = PTD_INSN_FAULT;
		return;
	case 10: case 11:
		branch_group(w, ip, o);
		return;
	default:   /* SVE, data processing, loads and stores, SIMD and FP */
		return;
	}
}

/* ---- system call numbers: constants in x8 ---- */

struct regs {
	uint32_t known;      /* bit i: x[i] is known (x0..x30) */
	uint64_t x[31];
};

static void forget(struct regs *r, unsigned reg)
{
	if (reg < 31)
		r->known &= ~(1u << reg);
}

static void set(struct regs *r, unsigned reg, uint64_t v, int sf)
{
	if (reg >= 31)
		return;
	r->x[reg] = sf ? v : (uint32_t)v;
	r->known |= 1u << reg;
}

/* Update the known registers for the instruction word w. */
static void track(struct regs *r, uint32_t w)
{
	unsigned rd = w & 31, sf = w >> 31;
	unsigned shift = ((w >> 21) & 3) * 16;
	uint64_t imm = (uint64_t)((w >> 5) & 0xffff) << shift;

	if ((w & 0x7f800000u) == 0x52800000u) {            /* MOVZ */
		set(r, rd, imm, sf);
	} else if ((w & 0x7f800000u) == 0x12800000u) {     /* MOVN */
		set(r, rd, ~imm, sf);
	} else if ((w & 0x7f800000u) == 0x72800000u) {     /* MOVK */
		if (rd < 31 && (r->known & (1u << rd)))
			set(r, rd, (r->x[rd] & ~((uint64_t)0xffff << shift)) | imm, sf);
	} else if ((w & 0x7fe0ffe0u) == 0x2a0003e0u) {     /* MOV (register): ORR Rd, ZR, Rm */
		unsigned rm = (w >> 16) & 31;
		if (rm == 31)
			set(r, rd, 0, sf);
		else if (r->known & (1u << rm))
			set(r, rd, r->x[rm], sf);
		else
			forget(r, rd);
	} else if ((w & 0x0a000000u) == 0x08000000u) {     /* loads and stores (x1x0) */
		/* Rt, Rn (write-back), Rt2 (pairs), Rs (exclusives, CAS, CASP) */
		forget(r, rd);
		forget(r, (w >> 5) & 31);
		forget(r, (w >> 10) & 31);
		forget(r, (w >> 16) & 31);
		forget(r, ((w >> 16) & 31) + 1);
	} else {
		forget(r, rd);   /* everything else writes at most Rd */
	}
}

int ptd_a64_sysnr(uint64_t from, uint64_t sys_ip, ptd_read_code_fn read, void *rctx, int64_t *nr,
		  struct ptd_err *err)
{
	struct regs r;
	uint64_t ip = from;
	unsigned steps = 0;

	r.known = 0;
	if ((from & 3) || (sys_ip & 3))
		return 0;
	while (ip < sys_ip && steps++ < 1024) {
		uint8_t b[4];
		long got = read(rctx, ip, b, sizeof(b));

		if (got < 0)
			return ptd_err_set(err, PTD_E_IO, "cannot read code at %#llx", (unsigned long long)ip);
		if (got < (long)sizeof(b))
			return 0;
		track(&r, (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24);
		ip += 4;
	}
	if (ip != sys_ip || !(r.known & (1u << 8)))
		return 0;
	*nr = (int64_t)r.x[8];
	return 1;
}
