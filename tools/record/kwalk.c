#include "tools/record/kwalk.h"

#include <stdlib.h>

#include "tools/record/classify.h"
#include "tools/record/elfimage.h"

#define MAX_INSNS 4096
#define MAX_CONDS 64
#define MAX_DEPTH 32

struct ptd_kwalk {
	struct ptd_elfimage *img;
	struct ptd_classifier *cls;
	uint64_t text, etext, entry;
	uint64_t rng;    /* xorshift64 state: the conditional branches' directions */
};

int ptd_kwalk_open(struct ptd_kwalk **out, const char *path, struct ptd_err *err)
{
	struct ptd_kwalk *k = calloc(1, sizeof(*k));
	int rc;

	if (!k)
		return ptd_err_set(err, PTD_E_NOMEM, "kernel walker");
	k->rng = 0x9e3779b97f4a7c15ULL;
	if ((rc = ptd_elfimage_open(&k->img, path, err)) ||
	    (rc = ptd_classifier_new(&k->cls, 8, err)))
		goto fail;
	if (ptd_elfimage_machine(k->img) != 62 /* EM_X86_64 */) {
		rc = ptd_err_set(err, PTD_E_FORMAT, "%s: not an x86-64 kernel image", path);
		goto fail;
	}
	if ((rc = ptd_elfimage_symbol(k->img, "_text", &k->text, NULL, err)) ||
	    (rc = ptd_elfimage_symbol(k->img, "_etext", &k->etext, NULL, err)) ||
	    (rc = ptd_elfimage_symbol(k->img, "entry_SYSCALL_64", &k->entry, NULL, err))) {
		rc = ptd_err_set(err, PTD_E_FORMAT, "%s: no _text, _etext or entry_SYSCALL_64 symbol",
				 path);
		goto fail;
	}
	if (k->etext <= k->text || k->entry < k->text || k->entry >= k->etext) {
		rc = ptd_err_set(err, PTD_E_FORMAT, "%s: entry_SYSCALL_64 outside [_text, _etext)",
				 path);
		goto fail;
	}
	*out = k;
	return 0;
fail:
	ptd_kwalk_free(k);
	return rc;
}

void ptd_kwalk_free(struct ptd_kwalk *k)
{
	if (!k)
		return;
	ptd_classifier_free(k->cls);
	ptd_elfimage_free(k->img);
	free(k);
}

const char *ptd_kwalk_path(const struct ptd_kwalk *k) { return ptd_elfimage_path(k->img); }
uint64_t ptd_kwalk_text(const struct ptd_kwalk *k) { return k->text; }
uint64_t ptd_kwalk_etext(const struct ptd_kwalk *k) { return k->etext; }
uint64_t ptd_kwalk_entry(const struct ptd_kwalk *k) { return k->entry; }

static int next_bit(struct ptd_kwalk *k)
{
	k->rng ^= k->rng << 13;
	k->rng ^= k->rng >> 7;
	k->rng ^= k->rng << 17;
	return (int)(k->rng >> 63);
}

/* sysretq (REX.W 0f 07) */
static int is_sysret(const uint8_t *b, size_t n)
{
	return n >= 3 && b[0] == 0x48 && b[1] == 0x0f && b[2] == 0x07;
}

int ptd_kwalk_run(struct ptd_kwalk *k, int (*fn)(void *ctx, const struct ptd_xev *ev),
		  void *ctx, uint64_t *exit_ip, struct ptd_err *err)
{
	uint64_t stack[MAX_DEPTH];
	unsigned depth = 0, conds = 0, n;
	uint64_t ip = k->entry;

	for (n = 1; n <= MAX_INSNS; n++) {
		uint8_t b[PTD_INSN_MAX];
		size_t got = ptd_elfimage_read(k->img, ip, b, sizeof(b));
		struct ptd_insn in;
		struct ptd_xev ev = { .taken = 1, .from = ip, .icount = n };
		int rc;

		if (!got || ip < k->text || ip >= k->etext)
			return ptd_err_set(err, PTD_E_FORMAT, "kernel walk: no code at %#llx",
					   (unsigned long long)ip);
		if (is_sysret(b, got)) {
			*exit_ip = ip;
			return 0;
		}
		if ((rc = ptd_classify(k->cls, ip, b, got, &in, err)))
			return rc;
		/* privileged instructions (PTD_INSN_FAULT) run here */
		ev.cls = in.cls;
		ev.insn_len = in.len;
		switch (in.cls) {
		case PTD_X_NONE:
			ip += in.len;
			continue;
		case PTD_X_COND:
			ev.taken = (uint8_t)(++conds <= MAX_CONDS && next_bit(k));
			ev.to = ev.taken ? in.target : ip + in.len;
			break;
		case PTD_X_JUMP:
			ev.to = in.target;
			break;
		case PTD_X_CALL:
			if (depth == MAX_DEPTH)
				return ptd_err_set(err, PTD_E_FORMAT, "kernel walk: calls too deep");
			stack[depth++] = ip + in.len;
			ev.to = in.target;
			break;
		case PTD_X_RET:
			if (!depth)
				return ptd_err_set(err, PTD_E_FORMAT,
						   "kernel walk: return with no call at %#llx",
						   (unsigned long long)ip);
			ev.to = stack[--depth];
			break;
		default:
			return ptd_err_set(err, PTD_E_FORMAT,
					   "kernel walk: indirect branch or system call at %#llx",
					   (unsigned long long)ip);
		}
		if ((rc = fn(ctx, &ev)))
			return rc;
		ip = ev.to;
	}
	return ptd_err_set(err, PTD_E_FORMAT, "kernel walk: more than %d instructions", MAX_INSNS);
}
