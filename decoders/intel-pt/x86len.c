/* x86 instruction lengths from their bytes (x86len.h). */
#include "decoders/intel-pt/x86len.h"

/* One-byte opcodes.  B: left to capstone; 1: the opcode alone; b, w:
 * an 8- or 16-bit immediate; z: 16 or 32 bits by the operand size; v:
 * 16, 32 or 64 (mov to a register); E: enter's 16 and 8 bits; O: a
 * memory offset (8 bytes in 64-bit mode); J: rel32 (left to capstone
 * with an operand size prefix, where Intel and AMD differ, and with 67
 * and a REX); R: inc and dec in 32-bit mode (REX is a prefix in 64).
 * With ModRM: m; M: and imm8; Z: and z; H, h: shifts (with imm8 or not;
 * /6 left to capstone); L: lea; P: pop; C: mov imm, xabort, xbegin;
 * F: test / not / neg / mul / div; I: inc / dec; K: inc / dec / call /
 * jmp / push; 7: x87 from memory (its register forms left to capstone).
 * A lock prefix is taken on the instructions it is valid on (lockable). */
static const char one[256 + 1] =
	"mmmmbzBBmmmmbzBX"   /* 00 */
	"mmmmbzBBmmmmbzBB"   /* 10 */
	"mmmmbzBBmmmmbzBB"   /* 20 */
	"mmmmbzBBmmmmbzBB"   /* 30 */
	"RRRRRRRRRRRRRRRR"   /* 40 */
	"1111111111111111"   /* 50 */
	"BBBmBBBBzZbM1111"   /* 60 */
	"bbbbbbbbbbbbbbbb"   /* 70 */
	"MZBMmmmmmmmmBLBP"   /* 80 */
	"1111111111B11111"   /* 90 */
	"OOOO1111bz111111"   /* a0 */
	"bbbbbbbbvvvvvvvv"   /* b0 */
	"HHw1BBCCE1w11bB1"   /* c0 */
	"hhhhBBB177777777"   /* d0 */
	"bbbbbbbbJJBb1111"   /* e0 */
	"BBBB11FF111111IK";  /* f0 */

/* Two-byte opcodes (0f xx).  X: left to capstone; 1: no ModRM (without
 * prefixes); 5: syscall (64-bit mode); J: rel32.  With ModRM: g: general
 * purpose (with or without 66); G: the same and imm8; 8: bt* imm8 (/4 to
 * /7); n: nop (/0, from memory); p: valid without prefix only; q:
 * without prefix and with 66; Q: the same and imm8; d: with 66 only;
 * r, R: as q and Q, a register operand only; l: as p, and with 66 from
 * memory; m: as q, from memory only; S: the MMX / SSE shifts by imm8
 * (a register operand); A: fxsave ... clflush (from memory) and the
 * fences; c: cmpxchg8b, xrstors, xsavec, xsaves (from memory); 0: xgetbv
 * and rdtscp.  E: endbr (f3 0f 1e fa or fb). */
static const char two[256 + 1] =
	"X0XXX51XXXX1XXXX"   /* 00 */
	"qqlmqqlmXXXXXXEn"   /* 10 */
	"XXXXXXXXqqqXqqqq"   /* 20 */
	"X1XXXXXXXXXXXXXX"   /* 30 */
	"gggggggggggggggg"   /* 40 */
	"rqqqqqqqqqqqqqqq"   /* 50 */
	"qqqqqqqqqqqqddqq"   /* 60 */
	"QSSSqqq1XXXXXXqq"   /* 70 */
	"JJJJJJJJJJJJJJJJ"   /* 80 */
	"gggggggggggggggg"   /* 90 */
	"111gGgXX11XgGgAg"   /* a0 */
	"ggXgXXggXX8ggggg"   /* b0 */
	"ggQXQRQc11111111"   /* c0 */
	"dqqqqqdrqqqqqqqq"   /* d0 */
	"qqqqqqXXqqqqqqqq"   /* e0 */
	"XqqqqqqXqqqqqqqX";  /* f0 */

/* Two-byte opcodes valid after f3 (scalar single, movdqu, popcnt ...)
 * and after f2 (scalar double), all with ModRM and no immediate. */
static int rep_ok(unsigned op, unsigned rep)
{
	switch (op) {
	case 0x10: case 0x11: case 0x12: case 0x2a: case 0x2c: case 0x2d:
	case 0x51: case 0x58: case 0x59: case 0x5c: case 0x5d: case 0x5e: case 0x5f:
		return 1;
	case 0x16: case 0x6f: case 0x7e: case 0x7f: case 0xb8: case 0xbc: case 0xbd:
		return rep == 0xf3;
	default:
		return 0;
	}
}

/* 0f 01 and these ModRM bytes: monitor, mwait, clac, stac, xgetbv,
 * xsetbv, xend (glibc's lock elision), xtest, swapgs, rdtscp; the VMX
 * and SVM forms (vmlaunch, vmresume: branches) are left to capstone. */
static int zero_one(unsigned m)
{
	switch (m) {
	case 0xc8: case 0xc9: case 0xca: case 0xcb: case 0xd0: case 0xd1:
	case 0xd5: case 0xd6: case 0xf8: case 0xf9:
		return 1;
	default:
		return 0;
	}
}

/* The bytes of a ModRM m with its SIB and displacement (32- or 64-bit
 * addressing): 0x80 and the bytes but for a disp32 that a SIB with base
 * 5 adds (mod 0). */
#define MRM_MOD(m) ((m) >> 6)
#define MRM(m) (MRM_MOD(m) == 3 ? 1 :                                                  \
		((m) & 7) == 4 ? (MRM_MOD(m) == 0 ? 0x82 : MRM_MOD(m) == 1 ? 3 : 6) :     \
		MRM_MOD(m) == 1 ? 2 : MRM_MOD(m) == 2 ? 5 : ((m) & 7) == 5 ? 5 : 1)
#define MRM4(m) MRM(m), MRM((m) + 1), MRM((m) + 2), MRM((m) + 3)
#define MRM16(m) MRM4(m), MRM4((m) + 4), MRM4((m) + 8), MRM4((m) + 12)
#define MRM64(m) MRM16(m), MRM16((m) + 16), MRM16((m) + 32), MRM16((m) + 48)
static const uint8_t modrm_tab[256] = { MRM64(0), MRM64(64), MRM64(128), MRM64(192) };

/* The bytes of the ModRM at b, with at least a SIB byte after it */
static inline __attribute__((always_inline)) unsigned modrm15(const uint8_t *b)
{
	unsigned t = modrm_tab[b[0]];

	return t & 0x80 ? (t & 0x7f) + ((b[1] & 7) == 5 ? 4 : 0) : t;
}

/* Bytes of the ModRM at b[i] with its SIB and displacement; 0 when
 * they run past len. */
static unsigned modrm_len(const uint8_t *b, size_t len, size_t i)
{
	if (i >= len || (modrm_tab[b[i]] & 0x80 && i + 1 >= len))
		return 0;
	return modrm15(b + i);
}

/* The total length: i bytes so far, a ModRM at b[i] or none, imm. */
static unsigned total(const uint8_t *b, size_t len, size_t i, int modrm, unsigned imm)
{
	unsigned n = 0;

	if (modrm && !(n = modrm_len(b, len, i)))
		return 0;
	i += n + imm;
	return i <= len && i <= 15 ? (unsigned)i : 0;
}

/* 0f xx at b[i]; last: the last legacy prefix (0 for none), which an
 * SSE instruction's mandatory prefix must be */
static unsigned two_byte(const uint8_t *b, size_t len, size_t i, int o16, int a32,
			 unsigned rep, unsigned last, int x86_64)
{
	unsigned op, mod, reg, imm = 0;
	char c;

	if (i >= len)
		return 0;
	op = b[i++];
	c = two[op];
	if (rep) {
		if (o16 || last != rep)
			return 0;
		if (op == 0x1e)   /* endbr64, endbr32, with no other prefix */
			return i == 3 && b[0] == 0xf3 && i < len && (b[i] == 0xfa || b[i] == 0xfb) ? 4 : 0;
		return rep_ok(op, rep) ? total(b, len, i, 1, 0) : 0;
	}
	switch (c) {
	case '1':
		return o16 ? 0 : (unsigned)i;
	case '5':
		return o16 || !x86_64 ? 0 : (unsigned)i;
	case 'J':
		return o16 || a32 ? 0 : total(b, len, i, 0, 4);
	case 'p':
		if (o16)
			return 0;
		break;
	case 'd':
		if (!o16 || last != 0x66)
			return 0;
		break;
	case 'q': case 'Q':
		if (o16 && last != 0x66)
			return 0;
		imm = c == 'Q';
		break;
	case 'g':
		break;
	case 'G':
		imm = 1;
		break;
	case '8': case 'n':
		if (i >= len)
			return 0;
		reg = (b[i] >> 3) & 7;
		if (c == '8' ? reg < 4 : reg != 0 || b[i] >> 6 == 3)
			return 0;
		imm = c == '8';
		break;
	case 'r': case 'R': case 'l': case 'm': case 'S':
		if ((o16 && last != 0x66) || i >= len)
			return 0;
		mod = b[i] >> 6;
		reg = (b[i] >> 3) & 7;
		if (c == 'l' ? o16 && mod == 3 : (c == 'm') == (mod == 3))
			return 0;
		/* psrlw, psraw, psllw (/2 /4 /6), the same for d and q (no
		 * psraq), and psrldq, pslldq (/3 /7, with 66 only) */
		if (c == 'S' && !(reg == 2 || reg == 6 || (reg == 4 && op != 0x73) ||
				  ((reg == 3 || reg == 7) && op == 0x73 && o16)))
			return 0;
		imm = c == 'R' || c == 'S';
		break;
	case 'A': case 'c': case '0':
		if (o16 || i >= len)
			return 0;
		mod = b[i] >> 6;
		reg = (b[i] >> 3) & 7;
		if (c == '0')
			return zero_one(b[i]) ? (unsigned)i + 1 : 0;
		if (c == 'A' ? mod == 3 && b[i] != 0xe8 && b[i] != 0xf0 && b[i] != 0xf8
			     : mod == 3 || !(reg == 1 || (reg >= 3 && reg <= 5)))
			return 0;
		break;
	default:
		return 0;
	}
	return total(b, len, i, 1, imm);
}

/* lock: on the read-modify-write instructions with a memory destination,
 * whose opcode is at b[i] */
static int lockable(const uint8_t *b, size_t len, size_t i)
{
	unsigned op, reg;

	if (i + 1 >= len)
		return 0;
	op = b[i];
	if (op == 0x0f) {
		if (i + 2 >= len)
			return 0;
		op = 0x100 | b[++i];
	}
	if (b[i + 1] >> 6 == 3)
		return 0;
	reg = (b[i + 1] >> 3) & 7;
	switch (op) {
	case 0x80: case 0x81: case 0x83:   /* add ... xor, not cmp */
		return reg != 7;
	case 0x86: case 0x87:   /* xchg */
	case 0x1ab: case 0x1b3: case 0x1bb: case 0x1b0: case 0x1b1: case 0x1c0: case 0x1c1:
		return 1;   /* bts, btr, btc, cmpxchg, xadd */
	case 0xf6: case 0xf7:   /* not, neg */
		return reg == 2 || reg == 3;
	case 0xfe: case 0xff:   /* inc, dec */
		return reg < 2;
	case 0x1ba:   /* bts, btr, btc imm8 */
		return reg >= 5;
	case 0x1c7:   /* cmpxchg8b, cmpxchg16b */
		return reg == 1;
	default:   /* add, or, adc, sbb, and, sub, xor to memory */
		return op < 0x38 && (op & 7) < 2;
	}
}

/* The common instructions, all bytes at hand (15 or more): no legacy
 * prefix, at most a REX (64-bit mode), a one-byte opcode or 0f and one,
 * of the classes above that need no more than a look at the ModRM.  0:
 * the general path, prefixed(), decides. */
static inline __attribute__((always_inline)) unsigned common(const uint8_t *b, int x86_64,
							     unsigned *opi)
{
	unsigned i = 0, op, imm, m, rexw = 0;

	if (x86_64 && (b[0] & 0xf0) == 0x40) {
		rexw = b[0] & 8;
		i = 1;
	}
	*opi = i;
	op = b[i++];
	if (op == 0x0f) {
		op = b[i++];
		switch (two[op]) {
		case '1': return i;
		case 'J': return i + 4;
		case 'g': case 'p': case 'q': return i + modrm15(b + i);
		case 'G': case 'Q': return i + modrm15(b + i) + 1;
		case 'n': return (b[i] & 0x38) || b[i] >> 6 == 3 ? 0 : i + modrm15(b + i);
		default: return 0;
		}
	}
	switch (one[op]) {
	case '1': return i;
	case 'b': return i + 1;
	case 'z': case 'J': return i + 4;
	case 'v': return i + (rexw ? 8 : 4);
	case 'm': return i + modrm15(b + i);
	case 'M': return i + modrm15(b + i) + 1;
	case 'Z': return i + modrm15(b + i) + 4;
	case 'L': return b[i] >> 6 == 3 ? 0 : i + modrm15(b + i);
	case 'H': case 'h':
		if ((b[i] & 0x38) == 0x30)
			return 0;
		return i + modrm15(b + i) + (one[op] == 'H');
	case 'C':   /* mov /0 with an immediate */
		m = b[i];
		if (m & 0x38)
			return 0;
		imm = op == 0xc6 ? 1 : 4;
		return i + modrm15(b + i) + imm;
	default:
		return 0;
	}
}

/* The general path: legacy prefixes, then as common() */
static __attribute__((noinline)) unsigned prefixed(const uint8_t *b, size_t len, int x86_64,
						  unsigned *opi)
{
	size_t i;
	int o16 = 0, a32 = 0, rex = 0, rexw = 0, modrm = 0, lock = 0;
	unsigned op, m, reg, imm = 0, rep = 0, last = 0, z;
	char c;

	for (i = 0;; i++) {
		if (i >= len || i >= 14)
			return 0;
		last = i ? b[i - 1] : 0;
		switch (b[i]) {
		case 0x66: o16 = 1; continue;
		case 0x67: a32 = 1; continue;
		case 0xf2: case 0xf3: rep = b[i]; continue;
		case 0xf0: lock = 1; continue;
		case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65: continue;
		default: break;
		}
		break;
	}
	if (a32 && !x86_64)
		return 0;   /* 16-bit addressing */
	if (x86_64 && (b[i] & 0xf0) == 0x40) {
		rex = 1;
		rexw = b[i] & 8;
		if (++i >= len)
			return 0;
	}
	if (lock && !lockable(b, len, i))
		return 0;
	*opi = (unsigned)i;
	z = o16 && !rexw ? 2 : 4;   /* REX.W wins over 66 */
	op = b[i++];
	if (op == 0x0f)
		return two_byte(b, len, i, o16, a32, rep, last, x86_64);
	/* rep and repne: on string instructions, pause and ret only */
	if (rep && !((op >= 0x6c && op <= 0x6f) || (op >= 0xa4 && op <= 0xa7) ||
		     (op >= 0xaa && op <= 0xaf) || op == 0x90 || op == 0xc3 || op == 0xc2))
		return 0;
	c = one[op];
	switch (c) {
	case '1': break;
	case 'b': imm = 1; break;
	case 'w':   /* ret imm16: capstone reads more after REX, 66 or 67 */
		if (rex || o16 || a32)
			return 0;
		imm = 2;
		break;
	case 'z': imm = z; break;
	case 'v': imm = rexw ? 8 : z; break;
	case 'E': imm = 3; break;
	case 'O': imm = x86_64 && !a32 ? 8 : 4; break;
	case 'J':
		if (o16 || (a32 && rex))   /* capstone 4 reads a rel16 after 67 and REX.W */
			return 0;
		imm = 4;
		break;
	case 'R':
		if (x86_64)
			return 0;   /* a REX after a REX */
		break;
	case 'm': case 'h': case 'L': case 'P': case 'I': case 'K': case 'C': case 'F': case '7':
		modrm = 1;
		break;
	case 'M': case 'H': modrm = 1; imm = 1; break;
	case 'Z': modrm = 1; imm = z; break;
	default:
		return 0;
	}
	if (modrm) {
		if (i >= len)
			return 0;
		m = b[i];
		reg = (m >> 3) & 7;
		switch (c) {
		case 'H': case 'h':
			if (reg == 6)
				return 0;
			break;
		case 'L':
			if (m >> 6 == 3)
				return 0;
			break;
		case '7':   /* no d9 /1, db /4 /6, dd /5 */
			if (m >> 6 == 3 || (op == 0xd9 && reg == 1) || (op == 0xdb && (reg == 4 || reg == 6)) ||
			    (op == 0xdd && reg == 5))
				return 0;
			break;
		case 'P':
			if (reg)
				return 0;
			break;
		case 'C':   /* mov /0, or xabort / xbegin (c6 f8, c7 f8) */
			if ((reg && m != 0xf8) || (m == 0xf8 && o16))
				return 0;
			imm = op == 0xc6 ? 1 : z;
			break;
		case 'F':   /* test /0 with an immediate; /1 left to capstone */
			if (reg == 1)
				return 0;
			if (!reg)
				imm = op == 0xf6 ? 1 : z;
			break;
		case 'I':
			if (reg > 1)
				return 0;
			break;
		case 'K':   /* no /7; far call and jmp from memory only */
			if (reg == 7 || ((reg == 3 || reg == 5) && m >> 6 == 3))
				return 0;
			break;
		default:
			break;
		}
	}
	return total(b, len, i, modrm, imm);
}

unsigned ptd_x86_len_at(const uint8_t *b, size_t len, int x86_64, unsigned *op)
{
	unsigned n;

	if (len >= 15 && (n = common(b, x86_64, op)))
		return n;
	return prefixed(b, len, x86_64, op);
}

unsigned ptd_x86_len(const uint8_t *b, size_t len, int x86_64)
{
	unsigned op;

	return ptd_x86_len_at(b, len, x86_64, &op);
}

/* VEX (c4, c5) and EVEX (62): the prefix's bytes, the opcode, the ModRM
 * with its SIB and displacement (but for vzeroupper and vzeroall), and an
 * imm8 in map 3 (0f 3a) and for the few map 1 (0f) opcodes that take
 * one. */
unsigned ptd_x86_vex_len(const uint8_t *b, size_t len, int x86_64)
{
	unsigned map, op, n;
	size_t i = 0, p;
	int a16 = 0;

	for (;; i++) {
		if (i >= len || i >= 14)
			return 0;
		switch (b[i]) {
		case 0x67: a16 = !x86_64; continue;
		case 0x66: case 0xf2: case 0xf3: case 0xf0:
		case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65: continue;
		default: break;
		}
		break;
	}
	if (a16 || i + 1 >= len)
		return 0;   /* 16-bit addressing: left to capstone */
	if (!x86_64 && (b[i + 1] & 0xc0) != 0xc0)
		return 0;   /* LES / LDS / BOUND in 32-bit mode */
	switch (b[i]) {
	case 0x62: map = b[i + 1] & 3; p = i + 4; break;
	case 0xc4: map = b[i + 1] & 0x1f; p = i + 3; break;
	case 0xc5: map = 1; p = i + 2; break;
	default: return 0;
	}
	if (p >= len || map < 1 || map > 3)
		return 0;
	op = b[p++];
	if (map == 1 && op == 0x77 && b[i] != 0x62)
		return (unsigned)p;   /* vzeroupper, vzeroall */
	if (!(n = modrm_len(b, len, p)))
		return 0;
	p += n;
	if (map == 3 || (map == 1 && ((op >= 0x70 && op <= 0x73) || op == 0xc2 || op == 0xc4 ||
				      op == 0xc5 || op == 0xc6)))
		p += 1;
	return p <= len && p <= 15 ? (unsigned)p : 0;
}
