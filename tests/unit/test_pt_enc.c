/* The PT encoder against libipt's instruction decoder: a small piece of
 * x86-64 code with calls, an indirect call, a loop, a syscall and an
 * unmatched return is "executed" as control-transfer events; the encoded
 * trace must decode to exactly the instructions that ran, with return
 * compression on and off, short and long TNT, frequent PSB+ and an
 * overflow; with no TSC packets; the ptwrites and power-saving waits
 * it is told of must decode as libipt's events, at their ips; and so must
 * TSX transactions that commit, and ones that abort at a return or at a
 * conditional branch (taken or not), with its target as the fallback (the
 * instruction does not run); and with an address filter, only what ran
 * inside the region. */
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

/* an event as libipt reports it: type, ip (0: none), what it says */
struct xevent {
	int type;
	uint64_t ip, value;
};
#define MAXEV 256

struct run {
	struct ptd_ptenc *e;
	int events;               /* tell the encoder of ptwrites and waits */
	int tsx;                  /* ... and of transactions */
	struct xevent ev[MAXEV];  /* ... and what libipt should report for them */
	size_t nev;
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

static void want_event(struct run *r, int type, uint64_t ip, uint64_t value)
{
	if (r->nev < MAXEV)
		r->ev[r->nev++] = (struct xevent){ type, ip, value };
}

/* a ptwrite at ip: 4 bytes, then 8, in turn */
static void ptwrite(struct run *r, uint64_t ip)
{
	uint64_t k = r->nev + 1;
	unsigned bytes = k & 1 ? 4 : 8;
	uint64_t payload = bytes == 4 ? 0x80000000u | k : k << 40 | k;
	struct ptd_err err;

	if (ptd_ptenc_ptwrite(r->e, r->tsc, ip, payload, bytes, &err))
		r->fail = 1;
	want_event(r, ptev_ptwrite, ip, payload);
}

/* a wait at ip: MWAIT, PWRE and EXSTOP there, then PWRX */
static void wait_at(struct run *r, uint64_t ip)
{
	struct ptd_ptenc_pwr p = { .hints = 0x21, .ext = 1, .state = 2, .sub_state = 1,
				   .deepest = 2, .last = 1, .wake = 4 };
	struct ptd_err err;

	if (ptd_ptenc_power(r->e, r->tsc, ip, &p, &err))
		r->fail = 1;
	/* libipt reports PWRE at once, MWAIT with the FUP */
	want_event(r, ptev_pwre, 0, 0x21);
	want_event(r, ptev_mwait, ip, 0x100000021ULL);
	want_event(r, ptev_exstop, ip, 0);
	want_event(r, ptev_pwrx, 0, 0x412);
}

/* a transaction begins (begin set) or commits at ip */
static void tsx_at(struct run *r, uint64_t ip, int begin)
{
	struct ptd_err err;

	if (ptd_ptenc_tsx(r->e, r->tsc, ip, begin, &err))
		r->fail = 1;
	want_event(r, ptev_tsx, ip, begin ? 1 : 0);
}

/* the transaction aborts at the instruction at ip, which does not
 * complete, and execution goes on at to */
static void abort_at(struct run *r, uint64_t ip, uint64_t to)
{
	struct ptd_err err;

	if (ptd_ptenc_tsx_abort(r->e, r->tsc, ip, to, &err))
		r->fail = 1;
	/* libipt: the abort, then the jump to the fallback address */
	want_event(r, ptev_tsx, ip, 2);
	want_event(r, ptev_async_branch, ip, to);
}

/* what ends a transaction begun at a call of func() */
enum { COMMIT_AT_RET, ABORT_AT_RET, ABORT_AT_TAKEN_JNE, ABORT_AT_NOT_TAKEN_JNE };

/* the function at 0x1020: count eax up to 5 and return to ret; with
 * r->tsx, the transaction begun at its call ends as `end` says (an abort
 * at a branch goes on at the branch's target) */
static void func(struct run *r, uint64_t ret, int end)
{
	int eax = 0;

	do {
		uint64_t to;

		ran(r, 0x1020);
		eax++;
		ran(r, 0x1022);
		to = eax != 5 ? 0x1020 : 0x1027;
		/* (no ptwrite at the instruction an abort is at: libipt cannot
		 * decode a PTW + FUP and MODE.TSX + FUP + TIP at the same ip) */
		if (r->tsx && ((end == ABORT_AT_TAKEN_JNE && eax == 3) ||
			       (end == ABORT_AT_NOT_TAKEN_JNE && eax == 5))) {
			abort_at(r, 0x1025, to);
			continue;
		}
		ran(r, 0x1025);
		if (r->events && eax == 3)
			ptwrite(r, 0x1025);
		xfer(r, 0 /* COND */, 0x1025, to, eax != 5, 2);
	} while (eax != 5);
	if (r->tsx && end == ABORT_AT_RET) {
		abort_at(r, 0x1027, ret);
		return;
	}
	if (r->tsx && end == COMMIT_AT_RET)
		tsx_at(r, 0x1027, 0);
	ran(r, 0x1027);
	xfer(r, PTD_X_RET, 0x1027, ret, 1, 1);
}

static void program(struct run *r, int overflow, int reps)
{
	struct ptd_err err;
	int round = 0;

	if (ptd_ptenc_start(r->e, r->tsc, &err) || ptd_ptenc_enable(r->e, r->tsc, BASE, &err))
		r->fail = 1;
again:
	round++;
	ran(r, 0x1000);
	if (r->tsx)
		tsx_at(r, 0x1002, 1);
	if (r->events)
		ptwrite(r, 0x1002);   /* at a direct call: a decoder walks to it */
	ran(r, 0x1002);
	xfer(r, PTD_X_CALL, 0x1002, 0x1020, 1, 5);
	/* odd rounds: a commit, then an abort at the return; even rounds:
	 * aborts at the loop's branch, taken, then not taken */
	func(r, 0x1007, round & 1 ? COMMIT_AT_RET : ABORT_AT_TAKEN_JNE);
	if (overflow) {
		/* lose the second call: resume at 0x1012 after an overflow */
		if (ptd_ptenc_overflow(r->e, r->tsc, 0x1012, &err))
			r->fail = 1;
		r->ips[r->n++] = 0;   /* marks the gap */
	} else {
		ran(r, 0x1007);
		ran(r, 0x100e);
		if (r->tsx)
			tsx_at(r, 0x1010, 1);
		ran(r, 0x1010);
		xfer(r, PTD_X_ICALL, 0x1010, 0x1020, 1, 2);
		func(r, 0x1012, round & 1 ? ABORT_AT_RET : ABORT_AT_NOT_TAKEN_JNE);
	}
	ran(r, 0x1012);
	if (r->events)
		wait_at(r, 0x1012);
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

/* the address filter libipt decodes with (NULL: none) */
static const struct pt_conf_addr_filter *decode_filter;

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

/* what libipt says of an event we make */
static int event_of(const struct pt_event *ev, struct xevent *x)
{
	x->type = ev->type;
	x->ip = 0;
	x->value = 0;
	switch (ev->type) {
	case ptev_ptwrite:
		x->ip = ev->ip_suppressed ? 0 : ev->variant.ptwrite.ip;
		x->value = ev->variant.ptwrite.payload;
		return 1;
	case ptev_mwait:
		x->ip = ev->ip_suppressed ? 0 : ev->variant.mwait.ip;
		x->value = (uint64_t)ev->variant.mwait.ext << 32 | ev->variant.mwait.hints;
		return 1;
	case ptev_pwre:
		x->value = (uint64_t)ev->variant.pwre.state << 4 | ev->variant.pwre.sub_state |
			   (uint64_t)ev->variant.pwre.hw << 8;
		return 1;
	case ptev_exstop:
		x->ip = ev->ip_suppressed ? 0 : ev->variant.exstop.ip;
		return 1;
	case ptev_tsx:
		/* not the state a PSB+ tells */
		x->ip = ev->ip_suppressed ? 0 : ev->variant.tsx.ip;
		x->value = (uint64_t)ev->variant.tsx.speculative | (uint64_t)ev->variant.tsx.aborted << 1;
		return !ev->status_update;
	case ptev_async_branch:
		x->ip = ev->variant.async_branch.from;
		x->value = ev->variant.async_branch.to;
		return 1;
	case ptev_pwrx:
		x->value = ev->variant.pwrx.deepest | ev->variant.pwrx.last << 4 |
			   (uint64_t)(ev->variant.pwrx.interrupt | ev->variant.pwrx.store << 2 |
				      ev->variant.pwrx.autonomous << 3) << 8;
		return 1;
	default:
		return 0;
	}
}

/* decode with libipt; the gap after an overflow is recorded as ip 0; the
 * events we make go to evs (when not NULL) */
static size_t decode(const uint8_t *trace, size_t len, uint64_t *out, size_t max, int *errors,
		     struct xevent *evs, size_t *nevs)
{
	struct pt_config cfg;
	struct pt_insn_decoder *d;
	struct pt_image *img = pt_image_alloc("test");
	size_t n = 0;
	int status;

	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)trace;
	cfg.end = (uint8_t *)trace + len;
	if (decode_filter)
		cfg.addr_filter = *decode_filter;
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
			if (evs && *nevs < MAXEV && event_of(&ev, &evs[*nevs]))
				(*nevs)++;
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

/* events: 1 ptwrites and waits, 2 transactions, 3 both */
static void check_events(const char *name, struct ptd_ptenc_config cfg, int reps, int events)
{
	static struct run r;
	static uint64_t got[16384];
	struct xevent evs[MAXEV];
	const uint8_t *trace;
	size_t len, n, nevs = 0, i;
	int errors, same;
	struct ptd_err err;

	memset(&r, 0, sizeof(r));
	r.tsc = 1000000;
	r.events = events & 1;
	r.tsx = (events & 2) != 0;
	if (ptd_ptenc_new(&r.e, &cfg, &err)) {
		ok(0, "%s: encoder: %s", name, err.msg);
		return;
	}
	program(&r, 0, reps);
	trace = ptd_ptenc_data(r.e, &len);
	n = decode(trace, len, got, 16384, &errors, evs, &nevs);
	same = !r.fail && n == r.n && !errors;
	for (i = 0; same && i < n; i++)
		same = got[i] == r.ips[i];
	ok(same, "%s: the instructions that ran, with events in the trace", name);
	if (!same)
		printf("# decoded %zu of %zu, errors %d, encoder %s\n", n, r.n, errors,
		       r.fail ? "failed" : "ok");
	same = nevs == r.nev;
	for (i = 0; same && i < nevs; i++)
		same = evs[i].type == r.ev[i].type && evs[i].ip == r.ev[i].ip &&
		       evs[i].value == r.ev[i].value;
	ok(same, "%s: libipt reports the %zu events made", name, r.nev);
	for (i = 0; !same && i < nevs && i < r.nev; i++)
		if (evs[i].type != r.ev[i].type || evs[i].ip != r.ev[i].ip ||
		    evs[i].value != r.ev[i].value) {
			printf("# event %zu: got type %d ip %#llx value %#llx, want %d %#llx %#llx\n", i,
			       evs[i].type, (unsigned long long)evs[i].ip,
			       (unsigned long long)evs[i].value, r.ev[i].type,
			       (unsigned long long)r.ev[i].ip, (unsigned long long)r.ev[i].value);
			break;
		}
	if (!same && nevs != r.nev)
		printf("# got %zu events\n", nevs);
	ptd_ptenc_free(r.e);
}

/* the loop function, 0x1020-0x1027: the filter region */
static int in_loop(void *ctx, uint64_t ip)
{
	(void)ctx;
	return ip >= 0x1020 && ip < 0x1028;
}

/* Encode the program, decode it with libipt and compare with what ran.
 * filtered: address filtering around the loop function: the trace holds
 * only what ran inside it (entered by a direct and an indirect call, left
 * by its returns), and libipt, told of the same filter, decodes exactly
 * that. */
static void run_check(const char *name, struct ptd_ptenc_config cfg, int overflow, int reps,
		      int filtered)
{
	static struct run r;
	static uint64_t got[16384], want[16384];
	struct pt_conf_addr_filter f;
	const uint8_t *trace;
	size_t len, n, nw = 0, i;
	int errors, same;
	struct ptd_err err;

	memset(&r, 0, sizeof(r));
	r.tsc = 1000000;
	if (filtered)
		cfg.in_filter = in_loop;
	if (ptd_ptenc_new(&r.e, &cfg, &err)) {
		ok(0, "%s: encoder: %s", name, err.msg);
		return;
	}
	program(&r, overflow, reps);
	for (i = 0; i < r.n; i++)
		if (!filtered || in_loop(NULL, r.ips[i]))
			want[nw++] = r.ips[i];
	memset(&f, 0, sizeof(f));
	f.config.ctl.addr0_cfg = 1;   /* IA32_RTIT_CTL.ADDR0_CFG 1: filter */
	f.addr0_a = 0x1020;
	f.addr0_b = 0x1027;
	decode_filter = filtered ? &f : NULL;
	trace = ptd_ptenc_data(r.e, &len);
	n = decode(trace, len, got, 16384, &errors, NULL, NULL);
	decode_filter = NULL;
	if (cfg.no_tsc)
		ok(count_packets(trace, len, ppt_tsc) == 0 && count_packets(trace, len, ppt_psb) > 0,
		   "%s: PSB+ but no TSC packets", name);
	same = !r.fail && n == nw && nw > 0;
	for (i = 0; same && i < n; i++)
		same = got[i] == want[i];
	if (filtered)
		ok(same && !errors, "%s: %zu trace bytes decode to the %zu instructions that ran in the "
		   "filter region (of %zu)", name, len, nw, r.n);
	else
		ok(same && !errors, "%s: %zu trace bytes decode to the %zu instructions that ran",
		   name, len, r.n);
	if (!same || errors) {
		printf("# decoded %zu, errors %d, encoder %s\n", n, errors, r.fail ? "failed" : "ok");
		for (i = 0; i < n && i < nw; i++)
			if (got[i] != want[i]) {
				printf("# first difference at %zu: got %#llx want %#llx\n", i,
				       (unsigned long long)got[i], (unsigned long long)want[i]);
				break;
			}
	}
	if (filtered)
		ok(count_packets(trace, len, ppt_tip_pgd) >= 2 * reps &&
		   count_packets(trace, len, ppt_tip_pge) >= 2 * reps,
		   "%s: TIP.PGE and TIP.PGD at each call into the region and return out of it", name);
	ptd_ptenc_free(r.e);
}

static void check(const char *name, struct ptd_ptenc_config cfg, int overflow, int reps)
{
	run_check(name, cfg, overflow, reps, 0);
}

static void check_filter(const char *name, struct ptd_ptenc_config cfg, int reps)
{
	run_check(name, cfg, 0, reps, 1);
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
	check_events("ptwrites and waits", base, 1, 1);
	c = base;
	c.psb_period = 256;
	c.long_tnt = 1;
	check_events("ptwrites and waits, PSB+ every 256 bytes, long TNT, 20 rounds", c, 20, 1);
	c = base;
	c.mtc = 1;
	c.ctc_n = 166;
	c.ctc_d = 2;
	c.cyc = 1;
	check_events("ptwrites and waits, MTC and CYC, 20 rounds", c, 20, 1);
	c = base;
	c.no_tsc = 1;
	check_events("ptwrites and waits, no TSC, 20 rounds", c, 20, 1);
	c = base;
	c.tsx = 1;
	check_events("transactions", c, 1, 2);
	check("transactions: MODE.TSX in PSB+ (overflow, 40 rounds)", c, 1, 40);
	c.psb_period = 256;
	c.long_tnt = 1;
	check_events("transactions, PSB+ every 256 bytes, long TNT, 20 rounds", c, 20, 2);
	c = base;
	c.tsx = 1;
	c.no_tsc = 1;
	check_events("transactions, ptwrites and waits, no TSC, 20 rounds", c, 20, 3);
	c = base;
	c.mtc = 1;
	c.ctc_n = 166;
	c.ctc_d = 2;
	c.cyc = 1;
	c.tsx = 1;
	check_events("transactions, ptwrites and waits, MTC and CYC, 20 rounds", c, 20, 3);
	check_filter("address filter", base, 1);
	c = base;
	c.psb_period = 256;
	c.long_tnt = 1;
	check_filter("address filter, PSB+ every 256 bytes, long TNT, 40 rounds", c, 40);
	c = base;
	c.noretcomp = 1;
	c.mtc = 1;
	c.ctc_n = 166;
	c.ctc_d = 2;
	c.cyc = 1;
	check_filter("address filter, no return compression, MTC and CYC, 40 rounds", c, 40);
	return done_testing();
}

#endif /* HAVE_LIBIPT */
