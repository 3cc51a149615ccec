/* x86 instructions classified as perf's Intel PT decoder classifies them
 * (its intel-pt-insn-decoder, after the kernel's LBR branch_type()):
 * x86len.c or, for the rest, capstone gives the length, the opcode bytes
 * give the kind. */
#include "decoders/intel-pt/pinsn.h"

#include "decoders/intel-pt/x86len.h"
#include "common/cs_load.h"

#include <stdlib.h>
#include <string.h>

struct ptd_pinsn {
	int open;                   /* capstone: 0 not yet, 1 open, -1 failed */
	csh cs64, cs32;
	cs_insn *ci64, *ci32;
};

struct ptd_pinsn *ptd_pinsn_new(void)
{
	return calloc(1, sizeof(struct ptd_pinsn));
}

static void close_cs(struct ptd_pinsn *p)
{
	if (p->ci64)
		cs_free(p->ci64, 1);
	if (p->ci32)
		cs_free(p->ci32, 1);
	cs_close(&p->cs64);
	cs_close(&p->cs32);
}

void ptd_pinsn_free(struct ptd_pinsn *p)
{
	if (!p)
		return;
	if (p->open == 1)
		close_cs(p);
	free(p);
}

/* capstone for the instructions x86len.c does not know, opened when the
 * first of them comes */
static int open_cs(struct ptd_pinsn *p)
{
	if (p->open)
		return p->open == 1 ? 0 : -1;
	p->open = -1;
	if (ptd_cs_load() || cs_open(CS_ARCH_X86, CS_MODE_64, &p->cs64) != CS_ERR_OK)
		return -1;
	if (cs_open(CS_ARCH_X86, CS_MODE_32, &p->cs32) != CS_ERR_OK) {
		cs_close(&p->cs64);
		return -1;
	}
	p->ci64 = cs_malloc(p->cs64);
	p->ci32 = cs_malloc(p->cs32);
	if (!p->ci64 || !p->ci32) {
		close_cs(p);
		return -1;
	}
	p->open = 1;
	return 0;
}

static int is_legacy_prefix(uint8_t b)
{
	switch (b) {
	case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65:
	case 0x66: case 0x67: case 0xf0: case 0xf2: case 0xf3:
		return 1;
	default:
		return 0;
	}
}

static int32_t imm_at(const uint8_t *b, size_t n)
{
	switch (n) {
	case 1: return (int8_t)b[0];
	case 2: return (int16_t)(b[0] | b[1] << 8);
	case 4: return (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 |
				 (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24);
	default: return 0;
	}
}

/* op and branch from the opcode at b[i], the instruction being len bytes */
static void classify(const uint8_t *b, size_t i, size_t len, int x86_64, struct pdec_insn *out)
{
	uint8_t op = PDEC_OP_OTHER, br = PDEC_BR_NO_BRANCH, ext;
	size_t oplen = 1;

	/* VEX and EVEX encodings carry no branches */
	if (b[i] == 0xc5 || b[i] == 0xc4 || (x86_64 && b[i] == 0x62)) {
		if (x86_64 || (i + 1 < len && (b[i + 1] & 0xc0) == 0xc0))
			goto out;
	}
	switch (b[i]) {
	case 0x0f:
		oplen = 2;
		if (i + 1 >= len)
			break;
		switch (b[i + 1]) {
		case 0x01:
			if (i + 2 < len && (b[i + 2] == 0xc2 || b[i + 2] == 0xc3)) {
				op = PDEC_OP_VMENTRY;   /* vmlaunch, vmresume */
				br = PDEC_BR_INDIRECT;
			}
			break;
		case 0x05: case 0x34: op = PDEC_OP_SYSCALL; br = PDEC_BR_INDIRECT; break;
		case 0x07: case 0x35: op = PDEC_OP_SYSRET; br = PDEC_BR_INDIRECT; break;
		default:
			if (b[i + 1] >= 0x80 && b[i + 1] <= 0x8f) {
				op = PDEC_OP_JCC;
				br = PDEC_BR_CONDITIONAL;
			}
			break;
		}
		break;
	case 0xc2: case 0xc3: case 0xca: case 0xcb: op = PDEC_OP_RET; br = PDEC_BR_INDIRECT; break;
	case 0xcf: op = PDEC_OP_IRET; br = PDEC_BR_INDIRECT; break;
	case 0xcc: case 0xcd: case 0xce: op = PDEC_OP_INT; br = PDEC_BR_INDIRECT; break;
	case 0xe8: op = PDEC_OP_CALL; br = PDEC_BR_UNCONDITIONAL; break;
	case 0x9a: op = PDEC_OP_CALL; br = PDEC_BR_INDIRECT; break;
	case 0xe0: case 0xe1: case 0xe2: op = PDEC_OP_LOOP; br = PDEC_BR_CONDITIONAL; break;
	case 0xe3: op = PDEC_OP_JCC; br = PDEC_BR_CONDITIONAL; break;
	case 0xe9: case 0xeb: op = PDEC_OP_JMP; br = PDEC_BR_UNCONDITIONAL; break;
	case 0xea: op = PDEC_OP_JMP; br = PDEC_BR_INDIRECT; break;
	case 0xff:
		if (i + 1 >= len)
			break;
		ext = (b[i + 1] >> 3) & 7;
		if (ext == 2 || ext == 3) {
			op = PDEC_OP_CALL;
			br = PDEC_BR_INDIRECT;
		} else if (ext == 4 || ext == 5) {
			op = PDEC_OP_JMP;
			br = PDEC_BR_INDIRECT;
		}
		break;
	default:
		if (b[i] >= 0x70 && b[i] <= 0x7f) {
			op = PDEC_OP_JCC;
			br = PDEC_BR_CONDITIONAL;
		}
		break;
	}
	if ((br == PDEC_BR_CONDITIONAL || br == PDEC_BR_UNCONDITIONAL) && i + oplen <= len)
		out->rel = imm_at(b + i + oplen, len - i - oplen);
out:
	out->op = op;
	out->branch = br;
}

/* One-byte opcodes that classify() may find a branch, and 0f, VEX and
 * EVEX (decided there): bit op of the 256. */
static const uint64_t maybe_branch[4] = {
	1ull << 0x0f,                                          /* 00-3f: 0f */
	0xffffull << (0x70 - 0x40) | 1ull << (0x62 - 0x40),   /* 40-7f: jcc, EVEX */
	1ull << (0x9a - 0x80),                                 /* 80-bf: far call */
	(1ull << (0xc2 - 0xc0)) | (1ull << (0xc3 - 0xc0)) | (1ull << (0xc4 - 0xc0)) |
	(1ull << (0xc5 - 0xc0)) | (0xfull << (0xca - 0xc0)) | (3ull << (0xce - 0xc0)) |
	(0xfull << (0xe0 - 0xc0)) | (0xfull << (0xe8 - 0xc0)) | (1ull << (0xff - 0xc0)),
};

/* Where the opcode is in the n bytes of an instruction at buf: past its
 * legacy prefixes and, in 64-bit mode, a REX; n when nothing is left. */
static size_t opcode_at(const uint8_t *buf, size_t n, int x86_64)
{
	size_t i = 0;

	while (i < n && is_legacy_prefix(buf[i]))
		i++;
	if (x86_64 && i < n && (buf[i] & 0xf0) == 0x40)
		i++;
	return i;
}

unsigned ptd_pinsn_plain_len(const uint8_t *buf, size_t len, int x86_64)
{
	unsigned i, n = len ? ptd_x86_len_at(buf, len, x86_64, &i) : 0, op;

	if (!n)
		return 0;
	op = buf[i];
	return maybe_branch[op >> 6] >> (op & 63) & 1 ? 0 : n;
}

int ptd_pinsn_decode(struct ptd_pinsn *p, const uint8_t *buf, size_t len, uint64_t ip,
		     int x86_64, struct pdec_insn *out)
{
	const uint8_t *code = buf;
	size_t size = len, i, n;
	uint64_t addr = ip;
	cs_insn *ci;
	unsigned opi;

	memset(out, 0, sizeof(*out));
	if (!len)
		return -1;
	/* the common instructions' length without capstone, which formats
	 * the text of each instruction it decodes */
	if ((n = ptd_x86_len_at(buf, len, x86_64, &opi))) {
		i = opi;
		goto known;
	}
	/* VEX and EVEX, which carry no branches */
	if ((n = ptd_x86_vex_len(buf, len, x86_64))) {
		out->length = (uint8_t)n;
		memcpy(out->buf, buf, n);
		return 0;
	}
	if (open_cs(p))
		return -1;
	ci = x86_64 ? p->ci64 : p->ci32;
	if (!cs_disasm_iter(x86_64 ? p->cs64 : p->cs32, &code, &size, &addr, ci))
		return -1;
	if (ci->size > len || ci->size > 15)
		return -1;
	n = ci->size;
	i = opcode_at(buf, n, x86_64);
known:
	out->length = (uint8_t)n;
	memcpy(out->buf, buf, n);
	if (i < n)
		classify(buf, i, n, x86_64, out);
	return 0;
}
