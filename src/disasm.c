/* Instruction text through capstone: see disasm.h. */
#include "disasm.h"

#include <stdlib.h>
#include <string.h>

#include "common/cs_load.h"

struct ptd_disasm {
	csh cs[2];                  /* [0] 32-bit, [1] 64-bit */
	int open[2];                /* 0 not yet, 1 open, -1 failed */
	cs_insn *insn[2];
};

struct ptd_disasm *ptd_disasm_new(void)
{
	return calloc(1, sizeof(struct ptd_disasm));
}

void ptd_disasm_free(struct ptd_disasm *d)
{
	int i;

	if (!d)
		return;
	for (i = 0; i < 2; i++) {
		if (d->open[i] != 1)
			continue;
		cs_free(d->insn[i], 1);
		cs_close(&d->cs[i]);
	}
	free(d);
}

static int open_mode(struct ptd_disasm *d, int m)
{
	if (d->open[m])
		return d->open[m] == 1 ? 0 : -1;
	d->open[m] = -1;
	if (ptd_cs_load() || cs_open(CS_ARCH_X86, m ? CS_MODE_64 : CS_MODE_32, &d->cs[m]) != CS_ERR_OK)
		return -1;
	/* perf: AT&T syntax, and details to find an immediate operand */
	if (cs_option(d->cs[m], CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT) != CS_ERR_OK ||
	    cs_option(d->cs[m], CS_OPT_DETAIL, CS_OPT_ON) != CS_ERR_OK ||
	    !(d->insn[m] = cs_malloc(d->cs[m]))) {
		cs_close(&d->cs[m]);
		return -1;
	}
	d->open[m] = 1;
	return 0;
}

static void copy_str(char *dst, size_t sz, const char *src)
{
	size_t n = strlen(src);

	if (n >= sz)
		n = sz - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
}

int ptd_disasm_insn(struct ptd_disasm *d, const uint8_t *code, size_t len, uint64_t ip, int is64,
		    struct ptd_disasm_insn *out)
{
	int m = !!is64;
	const uint8_t *p = code;
	uint64_t addr = ip;
	cs_insn *insn;

	memset(out, 0, sizeof(*out));
	if (!len || open_mode(d, m))
		return -1;
	insn = d->insn[m];
	if (!cs_disasm_iter(d->cs[m], &p, &len, &addr, insn))
		return -1;
	copy_str(out->mnemonic, sizeof(out->mnemonic), insn->mnemonic);
	copy_str(out->op_str, sizeof(out->op_str), insn->op_str);
	if (insn->detail && insn->detail->x86.op_count == 1 &&
	    insn->detail->x86.operands[0].type == X86_OP_IMM) {
		out->has_imm = 1;
		out->imm = (uint64_t)insn->detail->x86.operands[0].imm;
	}
	return 0;
}
