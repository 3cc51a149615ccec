/* The walk's instruction lengths without capstone (x86len.h) against
 * capstone, the oracle: every instruction of the executable segments of
 * the libraries this test runs with (libc, libcapstone, libstdc++,
 * libsqlite3, libdw ... and the test itself), swept linearly, and
 * pseudo-random byte strings after random prefixes, in 64- and 32-bit
 * mode.  Wherever ptd_x86_len answers, capstone must decode the bytes
 * and give the same length; the share it answers is printed.  Wherever
 * ptd_pinsn_plain_len answers, ptd_pinsn_decode must give that length and
 * no branch. */
#define _GNU_SOURCE   /* dl_iterate_phdr */
#include "config.h"

#include <stdio.h>

#ifndef HAVE_PT_PERF
int main(void)
{
	printf("1..0 # SKIP ptdecode was built without libipt or capstone\n");
	return 0;
}
#else
#include <capstone/capstone.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "decoders/intel-pt/pinsn.h"
#include "decoders/intel-pt/x86len.h"
#include "tests/tap.h"
#include "xorshift.h"

struct tally {
	csh cs;
	cs_insn *ci;
	unsigned long insns, answered, wrong, objects;
	unsigned long vex, vex_known, vex_wrong;   /* ptd_x86_vex_len's answers */
	unsigned long plain, plain_wrong;   /* ptd_pinsn_plain_len's against ptd_pinsn_decode */
	unsigned long op_wrong;   /* ptd_x86_len_at's opcode index against opcode_index() */
	char first_wrong[200];
};

/* A length that differs from capstone's: counted in *count; the first
 * one is kept for the test's message, and with X86LEN_DEBUG the first 30
 * are printed. */
static void differ(struct tally *t, unsigned long *count, const char *what, unsigned ours,
		   size_t got, const uint8_t *code, size_t avail, int x86_64)
{
	int n;

	if (!t->wrong && !t->vex_wrong && !t->op_wrong) {
		n = snprintf(t->first_wrong, sizeof(t->first_wrong), "%d-bit %sours %u, capstone %zu:",
			     x86_64 ? 64 : 32, what, ours, got);
		for (size_t i = 0; i < 15 && i < avail && n > 0 &&
		     (size_t)n < sizeof(t->first_wrong) - 4; i++)
			n += snprintf(t->first_wrong + n, sizeof(t->first_wrong) - (size_t)n, " %02x",
				      code[i]);
	}
	if (getenv("X86LEN_DEBUG") && t->wrong + t->vex_wrong < 30) {
		fprintf(stderr, "%d %sours %u cs %zu:", x86_64 ? 64 : 32, what, ours, got);
		for (size_t i = 0; i < 15 && i < avail; i++)
			fprintf(stderr, " %02x", code[i]);
		fprintf(stderr, "\n");
	}
	(*count)++;
}

/* An EVEX instruction with embedded rounding (EVEX.b and a register
 * operand), after legacy prefixes: capstone 4 takes one byte too many for
 * some (62 f1 6c 58 5c d6, vsubps zmm6, zmm2, zmm2 {rd-sae}, is 6 bytes
 * in Intel's manual, 7 for capstone) and refuses others. */
static int evex_rounding(const uint8_t *code, size_t avail)
{
	size_t i = 0;

	while (i < avail && i < 14 && (code[i] == 0x66 || code[i] == 0x67 || code[i] == 0xf0 ||
				       code[i] == 0xf2 || code[i] == 0xf3 || code[i] == 0x2e ||
				       code[i] == 0x3e || code[i] == 0x26 || code[i] == 0x36 ||
				       code[i] == 0x64 || code[i] == 0x65))
		i++;
	return i + 5 < avail && code[i] == 0x62 && (code[i + 3] & 0x10) && code[i + 5] >> 6 == 3;
}

/* Where the opcode of the n bytes at code is: past the legacy prefixes
 * and, in 64-bit mode, a REX, as x86len.h defines it */
static unsigned opcode_index(const uint8_t *code, unsigned n, int x86_64)
{
	static const uint8_t legacy[] = { 0x26, 0x2e, 0x36, 0x3e, 0x64, 0x65,
					  0x66, 0x67, 0xf0, 0xf2, 0xf3 };
	unsigned i = 0;

	while (i < n && memchr(legacy, code[i], sizeof(legacy)))
		i++;
	return i + (x86_64 && i < n && code[i] >> 4 == 4);
}

/* One instruction at code (avail bytes): compare; its capstone length,
 * 0 when capstone decodes none. */
static struct ptd_pinsn *pinsn;

static size_t one(struct tally *t, const uint8_t *code, size_t avail, int x86_64)
{
	const uint8_t *p = code;
	size_t size = avail < 15 ? avail : 15, got;
	uint64_t addr = 0x1000;
	unsigned ours = ptd_x86_len(code, avail < 15 ? avail : 15, x86_64);
	unsigned vex = ptd_x86_vex_len(code, avail < 15 ? avail : 15, x86_64);
	int ok = cs_disasm_iter(t->cs, &p, &size, &addr, t->ci);

	unsigned plain = ptd_pinsn_plain_len(code, avail < 15 ? avail : 15, x86_64);
	struct pdec_insn in;

	got = ok ? t->ci->size : 0;
	if (ok)
		t->insns++;
	if (plain) {
		t->plain++;
		if (ptd_pinsn_decode(pinsn, code, avail < 15 ? avail : 15, 0x1000, x86_64, &in) ||
		    in.length != plain || in.branch != PDEC_BR_NO_BRANCH)
			differ(t, &t->plain_wrong, "plain: ", plain, in.length, code, avail, x86_64);
	}
	if (ours) {
		unsigned opi = 99;

		t->answered++;
		if (ours != got)
			differ(t, &t->wrong, "", ours, got, code, avail, x86_64);
		if (ptd_x86_len_at(code, avail < 15 ? avail : 15, x86_64, &opi) != ours ||
		    opi != opcode_index(code, ours, x86_64))
			differ(t, &t->op_wrong, "opcode at: ", opi, opcode_index(code, ours, x86_64),
			       code, avail, x86_64);
	}
	if (vex) {
		/* where capstone knows a VEX or EVEX instruction, the same
		 * length; and ptd_x86_len never answers for one */
		t->vex++;
		if (ok && x86_64 && evex_rounding(code, avail))
			ok = 0;
		if (ok)
			t->vex_known++;
		if ((ok && vex != got) || ours)
			differ(t, &t->vex_wrong, "VEX: ", vex, got, code, avail, x86_64);
	}
	return got;
}

static int sweep(struct dl_phdr_info *info, size_t sz, void *data)
{
	struct tally *t = data;
	int i;

	(void)sz;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const uint8_t *code = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
		size_t off = 0, n;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || !ph->p_filesz)
			continue;
		t->objects++;
		while (off < ph->p_filesz && t->insns < 4000000) {
			n = one(t, code + off, ph->p_filesz - off, 1);
			off += n ? n : 1;
		}
	}
	return 0;
}

static uint64_t x = 0x2545f4914f6cdd1dULL;
static uint8_t rnd(void)
{
	return (uint8_t)(xorshift64(&x) >> 24);
}

/* The walk's decoder (pinsn.c) loads capstone for what x86len.c leaves to
 * it, the first time such an instruction comes: its lengths are
 * capstone's. */
static void pinsn_with_capstone(void)
{
	static const struct { uint8_t b[8]; unsigned len; const char *what; } insns[] = {
		{ { 0x66, 0x0f, 0x38, 0x00, 0xc1 }, 5, "pshufb" },
		{ { 0xd9, 0xc9 }, 2, "fxch" },
		{ { 0x66, 0x0f, 0x3a, 0x0f, 0xc1, 0x08 }, 6, "palignr" },
		{ { 0xf2, 0x0f, 0x38, 0xf1, 0xc1 }, 5, "crc32" },
	};
	struct ptd_pinsn *p = ptd_pinsn_new();
	struct pdec_insn out;
	csh cs;
	cs_insn *ci;
	size_t i;

	if (!p || cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK || !(ci = cs_malloc(cs))) {
		ok(0, "pinsn and capstone open");
		return;
	}
	for (i = 0; i < sizeof(insns) / sizeof(insns[0]); i++) {
		const uint8_t *code = insns[i].b;
		size_t size = sizeof(insns[i].b);
		uint64_t addr = 0x1000;
		int cs_ok = cs_disasm_iter(cs, &code, &size, &addr, ci);
		int rc = ptd_pinsn_decode(p, insns[i].b, sizeof(insns[i].b), 0x1000, 1, &out);

		ok(!ptd_x86_len(insns[i].b, sizeof(insns[i].b), 1) &&
		   !ptd_x86_vex_len(insns[i].b, sizeof(insns[i].b), 1) && cs_ok &&
		   ci->size == insns[i].len && !rc && out.length == insns[i].len &&
		   out.branch == PDEC_BR_NO_BRANCH,
		   "%s, left to capstone: pinsn gives capstone's %u bytes (%d, %u)", insns[i].what,
		   insns[i].len, rc, out.length);
	}
	cs_free(ci, 1);
	cs_close(&cs);
	ptd_pinsn_free(p);
}

int main(void)
{
	static const uint8_t prefixes[] = { 0x66, 0x67, 0xf2, 0xf3, 0x2e, 0x3e, 0x64, 0x65, 0xf0,
					    0x40, 0x41, 0x44, 0x48, 0x49, 0x4c, 0x4f };
	struct tally t;
	int mode;

	memset(&t, 0, sizeof(t));
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &t.cs) != CS_ERR_OK || !(t.ci = cs_malloc(t.cs))) {
		printf("1..0 # SKIP capstone does not open\n");
		return 0;
	}
	if (!(pinsn = ptd_pinsn_new()))
		abort();
	dl_iterate_phdr(sweep, &t);
	ok(t.objects > 3 && t.insns > 100000 && !t.wrong,
	   "the code of %lu executable segments: %lu of %lu instructions answered without capstone, "
	   "%lu differ%s%s", t.objects, t.answered, t.insns, t.wrong, t.wrong ? ": " : "",
	   t.first_wrong);
	ok(t.vex_known > 1000 && !t.vex_wrong,
	   "the same code: %lu VEX or EVEX lengths, %lu of them where capstone decodes, %lu differ%s%s",
	   t.vex, t.vex_known, t.vex_wrong, t.vex_wrong ? ": " : "", t.first_wrong);
	ok(t.plain > 100000 && !t.plain_wrong,
	   "the same code: %lu instructions stepped over as no branch by their length, %lu of them "
	   "not what ptd_pinsn_decode gives%s%s", t.plain, t.plain_wrong, t.plain_wrong ? ": " : "",
	   t.first_wrong);
	ok(t.answered > 100000 && !t.op_wrong,
	   "the same code: the opcode's index past prefixes and REX, %lu of %lu lengths answered "
	   "give another%s%s", t.op_wrong, t.answered, t.op_wrong ? ": " : "", t.first_wrong);
	cs_free(t.ci, 1);
	cs_close(&t.cs);

	for (mode = 64; mode >= 32; mode -= 32) {
		unsigned long k;

		memset(&t, 0, sizeof(t));
		if (cs_open(CS_ARCH_X86, mode == 64 ? CS_MODE_64 : CS_MODE_32, &t.cs) != CS_ERR_OK ||
		    !(t.ci = cs_malloc(t.cs))) {
			ok(0, "capstone opens in %d-bit mode", mode);
			continue;
		}
		for (k = 0; k < 4000000; k++) {
			uint8_t buf[15];
			unsigned np = rnd() % 4, i = 0, len;

			while (i < np)
				buf[i++] = prefixes[rnd() % (mode == 64 ? 16 : 9)];
			if (rnd() % 3 == 0)
				buf[i++] = 0x0f;
			else if (rnd() % 8 == 0)   /* VEX, EVEX */
				buf[i++] = (uint8_t[]){ 0xc4, 0xc5, 0x62 }[rnd() % 3];
			while (i < sizeof(buf))
				buf[i++] = rnd();
			/* every length, to see the answers stop at the end */
			len = k % 4 == 0 ? 1 + rnd() % 15 : 15;
			one(&t, buf, len, mode == 64);
		}
		ok(!t.wrong, "%d-bit, 4 M random byte strings after prefixes: %lu answered without "
		   "capstone (capstone decodes %lu), %lu differ%s%s", mode, t.answered, t.insns,
		   t.wrong, t.wrong ? ": " : "", t.first_wrong);
		ok(t.vex_known > 1000 && !t.vex_wrong,
		   "%d-bit, the same strings: %lu VEX or EVEX lengths, %lu of them where capstone "
		   "decodes, %lu differ%s%s", mode, t.vex, t.vex_known, t.vex_wrong,
		   t.vex_wrong ? ": " : "", t.first_wrong);
		ok(t.plain > 100000 && !t.plain_wrong,
		   "%d-bit, the same strings: %lu stepped over as no branch by their length, %lu of "
		   "them not what ptd_pinsn_decode gives%s%s", mode, t.plain, t.plain_wrong,
		   t.plain_wrong ? ": " : "", t.first_wrong);
		ok(t.answered > 100000 && !t.op_wrong,
		   "%d-bit, the same strings: the opcode's index past prefixes and REX, %lu of %lu "
		   "lengths answered give another%s%s", mode, t.op_wrong, t.answered,
		   t.op_wrong ? ": " : "", t.first_wrong);
		cs_free(t.ci, 1);
		cs_close(&t.cs);
	}
	pinsn_with_capstone();
	ptd_pinsn_free(pinsn);
	return done_testing();
}
#endif
