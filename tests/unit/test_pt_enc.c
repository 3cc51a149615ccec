/* The PT encoder against libipt's instruction decoder: a small piece of
 * x86-64 code with calls, an indirect call, a loop, a syscall and an
 * unmatched return is "executed" as control-transfer events; the encoded
 * trace must decode to exactly the instructions that ran, with return
 * compression on and off, short and long TNT, frequent PSB+ and an
 * overflow, and with no TSC packets. */
#include "config.h"

#include <stdio.h>

#ifndef HAVE_LIBIPT
int main(void)
{
	puts("1..0 # SKIP built without libipt (install libipt-dev and reconfigure)");
	return 0;
}
#else

#include <intel-pt.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tap.h"
#include "tools/record/pt_enc.h"

/*
 * 0x1000: 31 c0                 xor eax,eax
 * 0x1002: e8 19 00 00 00        call 0x1020
 * 0x1007: 48 8d 1d 12 00 00 00  lea rbx,[rip+0x12]   ; 0x1020
 * 0x100e: 31 c0                 xor eax,eax
 * 0x1010: ff d3                 call rbx
 * 0x1012: 0f 05                 syscall
 * 0x1014: c3                    ret                   ; to 0x1000, nothing on the stack
 * 0x1020: ff c0                 inc eax
 * 0x1022: 83 f8 05              cmp eax,5
 * 0x1025: 75 f9                 jne 0x1020
 * 0x1027: c3                    ret
 */
static const uint8_t code[0x28] = {
	0x31, 0xc0, 0xe8, 0x19, 0x00, 0x00, 0x00, 0x48, 0x8d, 0x1d, 0x12, 0x00, 0x00, 0x00,
	0x31, 0xc0, 0xff, 0xd3, 0x0f, 0x05, 0xc3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0xff, 0xc0, 0x83, 0xf8, 0x05, 0x75, 0xf9, 0xc3,
};
#define BASE 0x1000

struct run {
	struct ptd_ptenc *e;
	uint64_t ips[16384];      /* instructions that ran, in order */
	size_t n;
	uint64_t icount;
	uint64_t tsc;
	int fail;
};

static void ran(struct run *r, uint64_t ip)
{
	if (r->n < sizeof(r->ips) / sizeof(r->ips[0]))
		r->ips[r->n++] = ip;
	r->icount++;
	r->tsc += 2;
}

static void xfer(struct run *r, int cls, uint64_t from, uint64_t to, int taken, int len)
{
	struct ptd_xev ev = { .cls = (uint8_t)cls, .taken = (uint8_t)taken, .insn_len = (uint8_t)len,
			      .from = from, .to = to, .icount = r->icount };
	struct ptd_err err;

	if (ptd_ptenc_branch(r->e, r->tsc, &ev, &err))
		r->fail = 1;
}

/* the function at 0x1020: count eax up to 5 and return to ret */
static void func(struct run *r, uint64_t ret)
{
	int eax = 0;

	do {
		ran(r, 0x1020);
		eax++;
		ran(r, 0x1022);
		ran(r, 0x1025);
		xfer(r, 0 /* COND */, 0x1025, eax != 5 ? 0x1020 : 0x1027, eax != 5, 2);
	} while (eax != 5);
	ran(r, 0x1027);
	xfer(r, PTD_X_RET, 0x1027, ret, 1, 1);
}

static void program(struct run *r, int overflow, int reps)
{
	struct ptd_err err;

	if (ptd_ptenc_start(r->e, r->tsc, &err) || ptd_ptenc_enable(r->e, r->tsc, BASE, &err))
		r->fail = 1;
again:
	ran(r, 0x1000);
	ran(r, 0x1002);
	xfer(r, PTD_X_CALL, 0x1002, 0x1020, 1, 5);
	func(r, 0x1007);
	if (overflow) {
		/* lose the second call: resume at 0x1012 after an overflow */
		if (ptd_ptenc_overflow(r->e, r->tsc, 0x1012, &err))
			r->fail = 1;
		r->ips[r->n++] = 0;   /* marks the gap */
	} else {
		ran(r, 0x1007);
		ran(r, 0x100e);
		ran(r, 0x1010);
		xfer(r, PTD_X_ICALL, 0x1010, 0x1020, 1, 2);
		func(r, 0x1012);
	}
	ran(r, 0x1012);
	xfer(r, PTD_X_SYSCALL, 0x1012, 0x1014, 1, 2);
	r->tsc += 1000;
	if (ptd_ptenc_enable(r->e, r->tsc, 0x1014, &err))
		r->fail = 1;
	ran(r, 0x1014);
	xfer(r, PTD_X_RET, 0x1014, 0x1000, 1, 1);
	if (--reps > 0)
		goto again;
	if (ptd_ptenc_interrupt(r->e, r->tsc, 0x1000, &err) || ptd_ptenc_flush(r->e, &err))
		r->fail = 1;
}

static int read_code(uint8_t *buf, size_t size, const struct pt_asid *asid, uint64_t ip, void *ctx)
{
	size_t n;

	(void)asid;
	(void)ctx;
	if (ip < BASE || ip >= BASE + sizeof(code))
		return -pte_nomap;
	n = BASE + sizeof(code) - ip;
	if (n > size)
		n = size;
	memcpy(buf, code + (ip - BASE), n);
	return (int)n;
}

/* decode with libipt; the gap after an overflow is recorded as ip 0 */
static size_t decode(const uint8_t *trace, size_t len, uint64_t *out, size_t max, int *errors)
{
	struct pt_config cfg;
	struct pt_insn_decoder *d;
	struct pt_image *img = pt_image_alloc("test");
	size_t n = 0;
	int status;

	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)trace;
	cfg.end = (uint8_t *)trace + len;
	d = pt_insn_alloc_decoder(&cfg);
	pt_image_set_callback(img, read_code, NULL);
	pt_insn_set_image(d, img);
	*errors = 0;
	status = pt_insn_sync_forward(d);
	while (status >= 0 || status == -pte_eos) {
		struct pt_insn insn;

		if (status == -pte_eos)
			break;
		while (status & pts_event_pending) {
			struct pt_event ev;

			status = pt_insn_event(d, &ev, sizeof(ev));
			if (status < 0)
				break;
			if (ev.type == ptev_overflow && n < max)
				out[n++] = 0;
		}
		if (status < 0)
			break;
		status = pt_insn_next(d, &insn, sizeof(insn));
		if (insn.iclass != ptic_error && status >= 0 && n < max)
			out[n++] = insn.ip;
		if (status < 0 && status != -pte_eos) {
			(*errors)++;
			status = pt_insn_sync_forward(d);
		}
	}
	pt_insn_free_decoder(d);
	pt_image_free(img);
	return n;
}

/* packets of type t in the trace */
static int count_packets(const uint8_t *trace, size_t len, enum pt_packet_type t)
{
	struct pt_config cfg;
	struct pt_packet_decoder *d;
	struct pt_packet p;
	int n = 0;

	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)trace;
	cfg.end = (uint8_t *)trace + len;
	d = pt_pkt_alloc_decoder(&cfg);
	if (!d || pt_pkt_sync_set(d, 0) < 0)
		return -1;
	while (pt_pkt_next(d, &p, sizeof(p)) > 0)
		n += p.type == t;
	pt_pkt_free_decoder(d);
	return n;
}

static void check(const char *name, struct ptd_ptenc_config cfg, int overflow, int reps)
{
	static struct run r;
	static uint64_t got[16384];
	const uint8_t *trace;
	size_t len, n, i;
	int errors, same;
	struct ptd_err err;

	memset(&r, 0, sizeof(r));
	r.tsc = 1000000;
	if (ptd_ptenc_new(&r.e, &cfg, &err)) {
		ok(0, "%s: encoder: %s", name, err.msg);
		return;
	}
	program(&r, overflow, reps);
	trace = ptd_ptenc_data(r.e, &len);
	n = decode(trace, len, got, 16384, &errors);
	if (cfg.no_tsc)
		ok(count_packets(trace, len, ppt_tsc) == 0 && count_packets(trace, len, ppt_psb) > 0,
		   "%s: PSB+ but no TSC packets", name);
	same = !r.fail && n == r.n;
	for (i = 0; same && i < n; i++)
		same = got[i] == r.ips[i];
	ok(same && !errors, "%s: %zu trace bytes decode to the %zu instructions that ran",
	   name, len, r.n);
	if (!same || errors) {
		printf("# decoded %zu, errors %d, encoder %s\n", n, errors, r.fail ? "failed" : "ok");
		for (i = 0; i < n && i < r.n; i++)
			if (got[i] != r.ips[i]) {
				printf("# first difference at %zu: got %#llx want %#llx\n", i,
				       (unsigned long long)got[i], (unsigned long long)r.ips[i]);
				break;
			}
	}
	ptd_ptenc_free(r.e);
}

int main(void)
{
	struct ptd_ptenc_config base = { .psb_period = 4096, .cbr = 20 }, c;
	struct ptd_ptenc *r_enc = NULL;
	struct ptd_err err;

	check("default", base, 0, 1);
	c = base;
	c.noretcomp = 1;
	check("noretcomp", c, 0, 1);
	c = base;
	c.long_tnt = 1;
	check("long TNT", c, 0, 1);
	c = base;
	c.psb_period = 256;
	check("PSB+ every 256 bytes, 40 rounds", c, 0, 40);
	check("overflow", base, 1, 1);
	check("overflow, 40 rounds", base, 1, 40);
	c.long_tnt = 1;
	check("long TNT, PSB+ every 256 bytes, overflows, 40 rounds", c, 1, 40);
	c = base;
	c.no_tsc = 1;
	check("no TSC", c, 0, 1);
	check("no TSC, overflows, 40 rounds", c, 1, 40);
	c.mtc = 1;
	c.ctc_n = 166;
	c.ctc_d = 2;
	ok(ptd_ptenc_new(&r_enc, &c, &err) != 0, "no TSC refuses MTC");
	return done_testing();
}

#endif /* HAVE_LIBIPT */
