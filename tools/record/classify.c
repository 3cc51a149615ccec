/* Instruction classification: x86-64 with capstone 4, AArch64 through
 * classify_a64.h; see classify.h. */
#include "tools/record/classify.h"

#include <capstone/capstone.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "tools/record/classify_a64.h"

struct centry {
	uint64_t ip;
	uint8_t valid;
	uint8_t bytes[PTD_INSN_MAX];
	struct ptd_insn insn;
};

struct ptd_classifier {
	unsigned arch;          /* enum ptd_arch */
	csh cs;                 /* x86-64 only */
	cs_insn *ci;            /* capstone's scratch instruction */
	unsigned bits;
	struct centry *cache;   /* 2^bits entries; x86-64 only */
};

const char *ptd_xclass_name(unsigned cls)
{
	static const char *const names[PTD_X_NCLASS + 1] = {
		[PTD_X_COND] = "cond", [PTD_X_JUMP] = "jump", [PTD_X_CALL] = "call",
		[PTD_X_IJUMP] = "ijump", [PTD_X_ICALL] = "icall", [PTD_X_RET] = "ret",
		[PTD_X_SYSCALL] = "syscall", [PTD_X_ASYNC] = "async", [PTD_X_NCLASS] = "none",
	};
	return cls <= PTD_X_NCLASS ? names[cls] : "?";
}

int ptd_arch_of_elf_machine(unsigned machine, unsigned *arch)
{
	switch (machine) {
	case EM_X86_64:
		*arch = PTD_ARCH_X86_64;
		return 0;
	case EM_AARCH64:
		*arch = PTD_ARCH_AARCH64;
		return 0;
	default:
		return -1;
	}
}

unsigned ptd_classifier_arch(const struct ptd_classifier *c)
{
	return c->arch;
}

int ptd_classifier_new(struct ptd_classifier **out, unsigned cache_bits, struct ptd_err *err)
{
	return ptd_classifier_new_arch(out, PTD_ARCH_X86_64, cache_bits, err);
}

int ptd_classifier_new_arch(struct ptd_classifier **out, unsigned arch, unsigned cache_bits,
			    struct ptd_err *err)
{
	struct ptd_classifier *c;

	*out = NULL;
	if (arch != PTD_ARCH_X86_64 && arch != PTD_ARCH_AARCH64)
		return ptd_err_set(err, PTD_E_INVAL, "classifier: unknown architecture %u", arch);
	if (cache_bits == 0)
		cache_bits = 16;
	if (cache_bits > 24)
		return ptd_err_set(err, PTD_E_INVAL, "classifier cache of 2^%u entries is too large", cache_bits);
	c = calloc(1, sizeof(*c));
	if (!c)
		return ptd_err_set(err, PTD_E_NOMEM, "classifier: out of memory");
	c->arch = arch;
	if (arch == PTD_ARCH_AARCH64) {
		*out = c;
		return 0;
	}
	c->bits = cache_bits;
	c->cache = calloc((size_t)1 << cache_bits, sizeof(*c->cache));
	if (!c->cache) {
		free(c);
		return ptd_err_set(err, PTD_E_NOMEM, "classifier cache: out of memory");
	}
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &c->cs) != CS_ERR_OK) {
		free(c->cache);
		free(c);
		return ptd_err_set(err, PTD_E_UNSUPPORTED, "capstone: cannot open an x86-64 disassembler");
	}
	cs_option(c->cs, CS_OPT_DETAIL, CS_OPT_ON);
	c->ci = cs_malloc(c->cs);
	if (!c->ci) {
		cs_close(&c->cs);
		free(c->cache);
		free(c);
		return ptd_err_set(err, PTD_E_NOMEM, "capstone: out of memory");
	}
	*out = c;
	return 0;
}

void ptd_classifier_free(struct ptd_classifier *c)
{
	if (!c)
		return;
	if (c->arch == PTD_ARCH_X86_64) {
		cs_free(c->ci, 1);
		cs_close(&c->cs);
	}
	free(c->cache);
	free(c);
}

/* REP/REPNE prefix on a string instruction, from the raw bytes: legacy
 * prefixes, an optional REX right before the opcode, then the opcode. */
static int is_rep_string(const uint8_t *b, size_t len)
{
	size_t i = 0;
	int rep = 0;

	for (; i < len; i++) {
		uint8_t p = b[i];
		if (p == 0xf2 || p == 0xf3)
			rep = 1;
		else if (!(p == 0x66 || p == 0x67 || p == 0xf0 || p == 0x2e || p == 0x36 ||
			   p == 0x3e || p == 0x26 || p == 0x64 || p == 0x65))
			break;
	}
	if (i < len && (b[i] & 0xf0) == 0x40)
		i++;
	if (!rep || i >= len)
		return 0;
	switch (b[i]) {
	case 0x6c: case 0x6d: case 0x6e: case 0x6f:             /* ins, outs */
	case 0xa4: case 0xa5: case 0xa6: case 0xa7:             /* movs, cmps */
	case 0xaa: case 0xab: case 0xac: case 0xad:             /* stos, lods */
	case 0xae: case 0xaf:                                   /* scas */
		return 1;
	}
	return 0;
}

/* Length of a VEX- or EVEX-encoded instruction from its bytes, or 0.
 * Capstone 4 does not decode all of them (AVX-512 compares into mask
 * registers, kmov, AVX512-FP16), and none of them transfers control. */
static size_t vex_length(const uint8_t *b, size_t n)
{
	size_t i = 0, disp = 0;
	unsigned map, op;
	int modrm = 1, imm = 0;

	while (i < n && (b[i] == 0x67 || b[i] == 0x2e || b[i] == 0x36 || b[i] == 0x3e ||
			 b[i] == 0x26 || b[i] == 0x64 || b[i] == 0x65))
		i++;
	if (i + 5 > n)
		return 0;
	switch (b[i]) {
	case 0xc5: map = 1; i += 2; break;
	case 0xc4: map = b[i + 1] & 0x1f; i += 3; break;
	case 0x62: map = b[i + 1] & 0x07; i += 4; break;
	default: return 0;
	}
	op = b[i++];
	if (map == 3)
		imm = 1;
	else if (map == 1)
		imm = (op >= 0x70 && op <= 0x73) || op == 0xc2 || (op >= 0xc4 && op <= 0xc6);
	else if (map != 2 && map != 5 && map != 6)
		return 0;
	if (map == 1 && op == 0x77 && b[0] != 0x62)
		modrm = 0;   /* vzeroupper, vzeroall */
	if (modrm) {
		unsigned m, mod, rm;

		if (i >= n)
			return 0;
		m = b[i++];
		mod = m >> 6;
		rm = m & 7;
		if (mod != 3) {
			if (rm == 4) {
				if (i >= n)
					return 0;
				if ((b[i++] & 7) == 5 && mod == 0)
					disp = 4;
			}
			if (mod == 0 && rm == 5)
				disp = 4;
			else if (mod == 1)
				disp = 1;
			else if (mod == 2)
				disp = 4;
		}
	}
	i += disp + (size_t)imm;
	return i <= n && i <= PTD_INSN_MAX ? i : 0;
}

static int has_group(const cs_insn *ci, uint8_t grp)
{
	const cs_detail *d = ci->detail;

	for (unsigned i = 0; d && i < d->groups_count && i < sizeof(d->groups); i++)
		if (d->groups[i] == grp)
			return 1;
	return 0;
}

/* Fill *o from capstone's decode of one instruction. */
static void classify_decoded(const cs_insn *ci, struct ptd_insn *o)
{
	const cs_x86 *x = ci->detail ? &ci->detail->x86 : NULL;
	int direct = x && x->op_count >= 1 && x->operands[0].type == X86_OP_IMM;

	o->cls = PTD_X_NONE;
	switch (ci->id) {
	case X86_INS_JAE: case X86_INS_JA: case X86_INS_JBE: case X86_INS_JB:
	case X86_INS_JCXZ: case X86_INS_JECXZ: case X86_INS_JRCXZ:
	case X86_INS_JE: case X86_INS_JGE: case X86_INS_JG: case X86_INS_JLE:
	case X86_INS_JL: case X86_INS_JNE: case X86_INS_JNO: case X86_INS_JNP:
	case X86_INS_JNS: case X86_INS_JO: case X86_INS_JP: case X86_INS_JS:
	case X86_INS_LOOP: case X86_INS_LOOPE: case X86_INS_LOOPNE:
		o->cls = PTD_X_COND;
		break;
	case X86_INS_JMP:
		o->cls = direct ? PTD_X_JUMP : PTD_X_IJUMP;
		break;
	case X86_INS_CALL:
		o->cls = direct ? PTD_X_CALL : PTD_X_ICALL;
		break;
	case X86_INS_RET:
		o->cls = PTD_X_RET;
		return;
	case X86_INS_LJMP: case X86_INS_LCALL: case X86_INS_RETF: case X86_INS_RETFQ:
	case X86_INS_IRET: case X86_INS_IRETD: case X86_INS_IRETQ:
		o->cls = PTD_X_IJUMP;
		return;
	case X86_INS_SYSCALL:
		o->flags |= PTD_INSN_SYSCALL;
		o->cls = PTD_X_SYSCALL;
		return;
	case X86_INS_SYSENTER: case X86_INS_INT: case X86_INS_INT3: case X86_INS_INT1:
		o->cls = PTD_X_SYSCALL;
		return;
	case X86_INS_UD0: case X86_INS_UD2: case X86_INS_UD2B: case X86_INS_HLT:
	case X86_INS_INTO: case X86_INS_SYSEXIT: case X86_INS_SYSRET:
		o->flags |= PTD_INSN_FAULT;
		return;
	case X86_INS_CPUID:
		o->flags |= PTD_INSN_VMEXIT;
		return;
	case X86_INS_PAUSE: case X86_INS_POPF: case X86_INS_POPFD: case X86_INS_POPFQ:
	case X86_INS_XRSTOR: case X86_INS_XRSTOR64: case X86_INS_XRSTORS: case X86_INS_XRSTORS64:
		o->flags |= PTD_INSN_ENDTB;
		return;
	default:
		if (has_group(ci, CS_GRP_PRIVILEGE))
			o->flags |= PTD_INSN_FAULT;
		return;
	}
	if (direct)
		o->target = (uint64_t)x->operands[0].imm;
}

static struct centry *slot(struct ptd_classifier *c, uint64_t ip)
{
	uint64_t h = ip * 0x9E3779B97F4A7C15ull;
	return &c->cache[h >> (64 - c->bits)];
}

int ptd_classify(struct ptd_classifier *c, uint64_t ip, const uint8_t *bytes, size_t n,
		 struct ptd_insn *out, struct ptd_err *err)
{
	struct centry *e;
	const uint8_t *code = bytes;
	size_t size;
	uint64_t addr = ip;

	if (n == 0)
		return ptd_err_set(err, PTD_E_INVAL, "no code bytes at %#llx", (unsigned long long)ip);
	if (c->arch == PTD_ARCH_AARCH64) {
		if (n < PTD_A64_INSN_LEN) {
			ptd_a64_classify(0, ip, out);   /* truncated: cannot be fetched */
			return 0;
		}
		ptd_a64_classify((uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 |
				 (uint32_t)bytes[3] << 24, ip, out);
		return 0;
	}
	if (n > PTD_INSN_MAX)
		n = PTD_INSN_MAX;
	e = slot(c, ip);
	if (e->valid && e->ip == ip && e->insn.len <= n && !memcmp(e->bytes, bytes, e->insn.len)) {
		*out = e->insn;
		return 0;
	}
	memset(out, 0, sizeof(*out));
	out->ip = ip;
	size = n;
	if (!cs_disasm_iter(c->cs, &code, &size, &addr, c->ci) || c->ci->size == 0 ||
	    c->ci->size > n) {
		size_t vl = vex_length(bytes, n);

		out->cls = PTD_X_NONE;
		if (!vl) {
			out->len = 1;
			out->flags = PTD_INSN_FAULT;
			return 0;   /* not cached: more bytes may decode later */
		}
		out->len = (uint8_t)vl;
	} else {
		out->len = (uint8_t)c->ci->size;
		classify_decoded(c->ci, out);
	}
	if (is_rep_string(bytes, out->len))
		out->flags |= PTD_INSN_REP;
	e->valid = 1;
	e->ip = ip;
	memcpy(e->bytes, bytes, out->len);
	e->insn = *out;
	return 0;
}

int ptd_classify_at(struct ptd_classifier *c, uint64_t ip, ptd_read_code_fn read, void *rctx,
		    struct ptd_insn *out, struct ptd_err *err)
{
	uint8_t buf[PTD_INSN_MAX];
	long got = read(rctx, ip, buf, sizeof(buf));

	if (got < 0)
		return ptd_err_set(err, PTD_E_IO, "cannot read code at %#llx", (unsigned long long)ip);
	if (got == 0)
		return ptd_err_set(err, PTD_E_NOTFOUND, "no code mapped at %#llx", (unsigned long long)ip);
	if ((size_t)got > sizeof(buf))
		got = sizeof(buf);
	return ptd_classify(c, ip, buf, (size_t)got, out, err);
}

/* ---- system call numbers: constants in general-purpose registers ---- */

/* Register family 0..15 (rax..r15) and width in bytes, or -1. */
static int gpr(unsigned r, int *width)
{
	static const struct { uint16_t r64, r32; } t[16] = {
		{X86_REG_RAX, X86_REG_EAX}, {X86_REG_RCX, X86_REG_ECX}, {X86_REG_RDX, X86_REG_EDX},
		{X86_REG_RBX, X86_REG_EBX}, {X86_REG_RSP, X86_REG_ESP}, {X86_REG_RBP, X86_REG_EBP},
		{X86_REG_RSI, X86_REG_ESI}, {X86_REG_RDI, X86_REG_EDI}, {X86_REG_R8, X86_REG_R8D},
		{X86_REG_R9, X86_REG_R9D}, {X86_REG_R10, X86_REG_R10D}, {X86_REG_R11, X86_REG_R11D},
		{X86_REG_R12, X86_REG_R12D}, {X86_REG_R13, X86_REG_R13D}, {X86_REG_R14, X86_REG_R14D},
		{X86_REG_R15, X86_REG_R15D},
	};
	static const uint16_t small[][2] = {
		{X86_REG_AX, 0}, {X86_REG_AL, 0}, {X86_REG_AH, 0}, {X86_REG_CX, 1}, {X86_REG_CL, 1},
		{X86_REG_CH, 1}, {X86_REG_DX, 2}, {X86_REG_DL, 2}, {X86_REG_DH, 2}, {X86_REG_BX, 3},
		{X86_REG_BL, 3}, {X86_REG_BH, 3}, {X86_REG_SP, 4}, {X86_REG_SPL, 4}, {X86_REG_BP, 5},
		{X86_REG_BPL, 5}, {X86_REG_SI, 6}, {X86_REG_SIL, 6}, {X86_REG_DI, 7}, {X86_REG_DIL, 7},
		{X86_REG_R8W, 8}, {X86_REG_R8B, 8}, {X86_REG_R9W, 9}, {X86_REG_R9B, 9},
		{X86_REG_R10W, 10}, {X86_REG_R10B, 10}, {X86_REG_R11W, 11}, {X86_REG_R11B, 11},
		{X86_REG_R12W, 12}, {X86_REG_R12B, 12}, {X86_REG_R13W, 13}, {X86_REG_R13B, 13},
		{X86_REG_R14W, 14}, {X86_REG_R14B, 14}, {X86_REG_R15W, 15}, {X86_REG_R15B, 15},
	};

	for (int i = 0; i < 16; i++) {
		if (r == t[i].r64) {
			*width = 8;
			return i;
		}
		if (r == t[i].r32) {
			*width = 4;
			return i;
		}
	}
	for (size_t i = 0; i < sizeof(small) / sizeof(small[0]); i++)
		if (r == small[i][0]) {
			*width = 2;   /* partial: the value becomes unknown */
			return small[i][1];
		}
	return -1;
}

struct regconst {
	uint16_t known;      /* bit i: val[i] is known */
	uint64_t val[16];
};

/* Update the register constants for one decoded instruction. */
static void track(csh cs, const cs_insn *ci, struct regconst *rc)
{
	const cs_x86 *x = &ci->detail->x86;
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;
	int w0, w1, d, s;

	if (x->op_count == 2 && x->operands[0].type == X86_OP_REG &&
	    (d = gpr(x->operands[0].reg, &w0)) >= 0 && w0 >= 4) {
		const cs_x86_op *src = &x->operands[1];
		if (ci->id == X86_INS_MOV && src->type == X86_OP_IMM) {
			uint64_t v = (uint64_t)src->imm;
			rc->val[d] = w0 == 4 ? (uint32_t)v : v;
			rc->known |= (uint16_t)(1u << d);
			return;
		}
		if (ci->id == X86_INS_MOV && src->type == X86_OP_REG &&
		    (s = gpr(src->reg, &w1)) >= 0 && w1 == w0) {
			if (rc->known & (1u << s)) {
				rc->val[d] = w0 == 4 ? (uint32_t)rc->val[s] : rc->val[s];
				rc->known |= (uint16_t)(1u << d);
			} else {
				rc->known &= (uint16_t)~(1u << d);
			}
			return;
		}
		if (ci->id == X86_INS_XOR && src->type == X86_OP_REG && src->reg == x->operands[0].reg) {
			rc->val[d] = 0;
			rc->known |= (uint16_t)(1u << d);
			return;
		}
	}
	if (cs_regs_access(cs, ci, rd, &nrd, wr, &nwr) != CS_ERR_OK) {
		rc->known = 0;
		return;
	}
	for (unsigned i = 0; i < nwr && i < sizeof(wr) / sizeof(wr[0]); i++) {
		int w;
		int f = gpr(wr[i], &w);
		if (f >= 0)
			rc->known &= (uint16_t)~(1u << f);
	}
}

int ptd_classify_sysnr(struct ptd_classifier *c, uint64_t from, uint64_t sys_ip,
		       ptd_read_code_fn read, void *rctx, int64_t *nr, struct ptd_err *err)
{
	struct regconst rc = {0};
	uint64_t ip = from;
	unsigned steps = 0;

	if (c->arch == PTD_ARCH_AARCH64)
		return ptd_a64_sysnr(from, sys_ip, read, rctx, nr, err);
	while (ip < sys_ip && steps++ < 1024) {
		uint8_t buf[PTD_INSN_MAX];
		const uint8_t *code = buf;
		size_t size;
		uint64_t addr = ip;
		long got = read(rctx, ip, buf, sizeof(buf));

		if (got < 0)
			return ptd_err_set(err, PTD_E_IO, "cannot read code at %#llx", (unsigned long long)ip);
		if (got == 0)
			return 0;
		size = (size_t)got > sizeof(buf) ? sizeof(buf) : (size_t)got;
		if (!cs_disasm_iter(c->cs, &code, &size, &addr, c->ci) || c->ci->size == 0)
			return 0;
		track(c->cs, c->ci, &rc);
		ip += c->ci->size;
	}
	if (ip != sys_ip || !(rc.known & 1))
		return 0;
	*nr = (int64_t)rc.val[0];
	return 1;
}
