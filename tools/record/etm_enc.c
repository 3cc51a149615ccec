#include "config.h"
#include "tools/record/etm_enc.h"

#include <stdlib.h>
#include <string.h>

struct ptd_etmenc {
	struct ptd_etmenc_config cfg;
	uint8_t *buf;
	size_t len, cap, taken;     /* buf[taken, len) not yet taken */
	uint64_t total;             /* bytes written since the start */
	unsigned natoms;            /* pending atoms (at most 3), oldest in bit 0 */
	unsigned atoms;
	uint64_t last_addr;         /* the address compression's reference */
	int have_addr;              /* last_addr is valid (not after a sync) */
	int enabled;
	int need_sync;
	int oom;
};

int ptd_etmenc_new(struct ptd_etmenc **out, const struct ptd_etmenc_config *cfg,
		   struct ptd_err *err)
{
	struct ptd_etmenc *e = calloc(1, sizeof(*e));

	if (!e)
		return ptd_err_set(err, PTD_E_NOMEM, "ETM encoder");
	e->cfg = *cfg;
	e->need_sync = 1;
	*out = e;
	return 0;
}

void ptd_etmenc_free(struct ptd_etmenc *e)
{
	if (!e)
		return;
	free(e->buf);
	free(e);
}

static void put(struct ptd_etmenc *e, const uint8_t *p, size_t n)
{
	if (e->len + n > e->cap) {
		size_t ncap = e->cap ? e->cap : 4096;
		uint8_t *q;

		if (e->taken) {   /* drop what was taken first */
			memmove(e->buf, e->buf + e->taken, e->len - e->taken);
			e->len -= e->taken;
			e->taken = 0;
		}
		while (ncap < e->len + n)
			ncap *= 2;
		if (ncap > e->cap) {
			q = realloc(e->buf, ncap);
			if (!q) {
				e->oom = 1;
				return;
			}
			e->buf = q;
			e->cap = ncap;
		}
	}
	memcpy(e->buf + e->len, p, n);
	e->len += n;
	e->total += n;
}

static void put1(struct ptd_etmenc *e, uint8_t b) { put(e, &b, 1); }

/* pending atoms: format 1 (one), 2 (two) or 3 (three) atom packets */
void ptd_etmenc_flush(struct ptd_etmenc *e)
{
	static const uint8_t base[4] = { 0, 0xf6, 0xd8, 0xf8 };

	if (!e->natoms)
		return;
	put1(e, (uint8_t)(base[e->natoms] | e->atoms));
	e->natoms = e->atoms = 0;
}

static void atom(struct ptd_etmenc *e, int taken)
{
	e->atoms |= (unsigned)(taken ? 1 : 0) << e->natoms;
	if (++e->natoms == 3)
		ptd_etmenc_flush(e);
}

static void long64(uint8_t *p, uint64_t a)
{
	unsigned i;

	p[0] = (uint8_t)((a >> 2) & 0x7f);
	p[1] = (uint8_t)((a >> 9) & 0x7f);
	for (i = 2; i < 8; i++)
		p[i] = (uint8_t)(a >> (8 * i));
}

/* an address packet for a (IS0: A64), compressed against the last one */
static void address(struct ptd_etmenc *e, uint64_t a)
{
	uint8_t p[9];

	ptd_etmenc_flush(e);
	if (e->have_addr && (a >> 9) == (e->last_addr >> 9)) {
		p[0] = 0x95;
		p[1] = (uint8_t)((a >> 2) & 0x7f);
		put(e, p, 2);
	} else if (e->have_addr && (a >> 17) == (e->last_addr >> 17)) {
		p[0] = 0x95;
		p[1] = (uint8_t)(0x80 | ((a >> 2) & 0x7f));
		p[2] = (uint8_t)(a >> 9);
		put(e, p, 3);
	} else if (e->have_addr && (a >> 32) == (e->last_addr >> 32)) {
		p[0] = 0x9a;
		long64(p + 1, a);
		put(e, p, 5);
	} else {
		p[0] = 0x9d;
		long64(p + 1, a);
		put(e, p, 9);
	}
	e->last_addr = a;
	e->have_addr = 1;
}

static void timestamp(struct ptd_etmenc *e, uint64_t ts)
{
	uint8_t p[10];
	unsigned n = 1, i;

	while (n < 6 && (ts >> (7 * n)))
		n++;
	if (ts >> (7 * n))
		n = 9;    /* all 64 bits: eight 7-bit groups and a last byte of 8 */
	p[0] = 0x02;
	for (i = 0; i < n; i++) {
		uint8_t b = i == 8 ? (uint8_t)(ts >> 56) : (uint8_t)((ts >> (7 * i)) & 0x7f);

		p[1 + i] = (uint8_t)(b | (i + 1 < n && i < 8 ? 0x80 : 0));
	}
	put(e, p, 1 + n);
}

void ptd_etmenc_need_sync(struct ptd_etmenc *e)
{
	e->need_sync = 1;
}

int ptd_etmenc_resume(struct ptd_etmenc *e, uint64_t ip, uint32_t ctxid, uint64_t ts,
		      struct ptd_err *err)
{
	static const uint8_t async[12] = { [11] = 0x80 };
	uint8_t p[16];
	size_t n;

	if (e->enabled)
		return ptd_err_set(err, PTD_E_INVAL, "ETM encoder: resume while tracing");
	if (e->need_sync) {
		put(e, async, sizeof(async));
		p[0] = 0x01;      /* Trace Info, no optional sections */
		p[1] = 0x00;
		put(e, p, 2);
		e->need_sync = 0;
		e->have_addr = 0;
		/* one Timestamp per sync: perf orders the CPUs' chunks by
		 * them; a Timestamp at every Trace On made perf 6.1 drop the
		 * trace after a thread's last one in some chunks */
		if (e->cfg.ts)
			timestamp(e, ts);
	}
	put1(e, 0x04);            /* Trace On */
	/* Address with Context, 64-bit IS0: EL0, SF (AArch64), NS */
	p[0] = 0x85;
	long64(p + 1, ip);
	p[9] = (uint8_t)(0x30 | (e->cfg.ctxtid ? 0x80 : 0));
	n = 10;
	if (e->cfg.ctxtid) {
		memcpy(p + 10, &ctxid, 4);   /* little-endian host */
		n += 4;
	}
	put(e, p, n);
	e->last_addr = ip;
	e->have_addr = 1;
	e->enabled = 1;
	return e->oom ? ptd_err_set(err, PTD_E_NOMEM, "ETM trace buffer") : 0;
}

static int exception(struct ptd_etmenc *e, unsigned type, uint64_t ret_addr, struct ptd_err *err)
{
	uint8_t p[2];

	ptd_etmenc_flush(e);
	p[0] = 0x06;
	p[1] = (uint8_t)(((type & 0x1f) << 1) | 1);   /* E1:E0 = 0b01 */
	put(e, p, 2);
	address(e, ret_addr);
	e->enabled = 0;
	return e->oom ? ptd_err_set(err, PTD_E_NOMEM, "ETM trace buffer") : 0;
}

int ptd_etmenc_branch(struct ptd_etmenc *e, const struct ptd_xev *ev, struct ptd_err *err)
{
	if (!e->enabled)
		return ptd_err_set(err, PTD_E_INVAL, "ETM encoder: branch while tracing is off");
	switch (ev->cls) {
	case PTD_X_COND:
		atom(e, ev->taken);
		break;
	case PTD_X_JUMP:
	case PTD_X_CALL:
		atom(e, 1);
		break;
	case PTD_X_IJUMP:
	case PTD_X_ICALL:
	case PTD_X_RET:
		atom(e, 1);
		address(e, ev->to);
		break;
	case PTD_X_SYSCALL:
		/* SVC: the preferred return address is the next instruction */
		return exception(e, PTD_ETM_EXC_CALL, ev->from + ev->insn_len, err);
	case PTD_X_ASYNC:
		return exception(e, PTD_ETM_EXC_IRQ, ev->from, err);
	default:
		return ptd_err_set(err, PTD_E_INVAL, "ETM encoder: transfer class %u", ev->cls);
	}
	return e->oom ? ptd_err_set(err, PTD_E_NOMEM, "ETM trace buffer") : 0;
}

int ptd_etmenc_interrupt(struct ptd_etmenc *e, uint64_t ip, struct ptd_err *err)
{
	if (!e->enabled)
		return 0;
	return exception(e, PTD_ETM_EXC_IRQ, ip, err);
}

int ptd_etmenc_enabled(const struct ptd_etmenc *e)
{
	return e->enabled;
}

const uint8_t *ptd_etmenc_data(const struct ptd_etmenc *e, size_t *len)
{
	*len = e->len - e->taken;
	return e->buf ? e->buf + e->taken : NULL;
}

void ptd_etmenc_take(struct ptd_etmenc *e, size_t len)
{
	e->taken += len;
	if (e->taken == e->len)
		e->taken = e->len = 0;
}

uint64_t ptd_etmenc_total(const struct ptd_etmenc *e)
{
	return e->total;
}
