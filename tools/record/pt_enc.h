/* Intel PT packets for one trace stream (one emulated CPU, or one thread in
 * --per-thread mode), written with libipt's packet encoder.
 *
 * The caller reports what the traced code did, in order, with the emulated
 * TSC of each step; the encoder emits what the hardware would emit for
 * user-only tracing:
 *   - PSB+ (PSB, TSC, TMA, CBR, MODE.Exec, FUP when enabled, PSBEND) at
 *     the start and every psb_period bytes,
 *   - TSC (+ TMA) and TIP.PGE when tracing resumes in user mode,
 *   - MTC each time the selected crystal clock bit changes, and CYC with the
 *     cycles elapsed, when asked,
 *   - TNT bits for conditional branches (short and long TNT),
 *   - TIP for indirect jumps, calls and uncompressed returns, with last-IP
 *     compression,
 *   - a taken TNT bit for a return the decoders can predict (return
 *     compression; see pt_enc.c for how both perf's and libipt's return
 *     stacks are followed),
 *   - TIP.PGD without IP when a syscall enters the kernel, FUP + TIP.PGD for
 *     an asynchronous exit (signal, interrupt, preemption); with the kernel
 *     traced (ptd_ptenc_kernel_entry) a syscall's path through the kernel
 *     instead, and TIP to user space,
 *   - OVF + FUP for an injected internal buffer overflow,
 *   - PTW + FUP for a ptwrite, and MWAIT, PWRE, EXSTOP + FUP, PWRX for a
 *     power-saving wait, when the caller reports them,
 *   - MODE.TSX + FUP for a TSX transaction's begin and commit, MODE.TSX +
 *     FUP + TIP for its abort, and MODE.TSX in every PSB+ (with tsx set:
 *     a CPU with TSX; also without it while in a transaction).
 * With no_tsc (perf record -e intel_pt/tsc=0/) there are no TSC packets:
 * PSB+ has none, and none goes with TIP.PGE or TIP.PGD.
 * Bytes accumulate in an internal buffer the caller drains. */
#ifndef PTD_RECORD_PT_ENC_H
#define PTD_RECORD_PT_ENC_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "tools/record/xev.h"

struct ptd_ptenc_config {
	uint64_t psb_period;    /* bytes between PSB+ (a power of two, >= 256) */
	int noretcomp;          /* never compress returns */
	uint8_t cbr;            /* core:bus ratio for CBR packets (the core clock) */
	uint8_t tsc_ratio;      /* TSC:bus ratio (the max non-turbo ratio): CYC counts
	                           cbr / tsc_ratio cycles per TSC tick */
	int long_tnt;           /* collect up to 47 bits in TNT-64 packets */
	int mtc;                /* MTC packets, and TMA after each TSC */
	unsigned mtc_shift;     /* an MTC each 2^mtc_shift crystal clock (CTC) ticks */
	uint32_t ctc_n, ctc_d;  /* TSC ticks per CTC tick = ctc_n / ctc_d */
	int cyc;                /* CYC packets: core cycles before each packet that
	                           tells of execution (and before each MTC) */
	int no_tsc;             /* no TSC packets (TSCEn clear); not with mtc or cyc */
	int tsx;                /* the CPU has TSX: MODE.TSX (the transaction state)
	                           in every PSB+ */
	/* address filtering: packets only while the ip is where in_filter
	 * says 1 (NULL: everywhere); a branch out gives TIP.PGD with its
	 * target, a branch in TSC + TIP.PGE.  Not with ptwrites, power
	 * events, transactions or overflows. */
	int (*in_filter)(void *ctx, uint64_t ip);
	void *filter_ctx;
};

/* A power-saving wait (what UMWAIT/TPAUSE or MWAIT report): the MWAIT
 * packet's hints (EAX) and extensions (ECX), the resolved C-state of the
 * PWRE packet, and the PWRX packet's C-states and wake reason. */
struct ptd_ptenc_pwr {
	uint32_t hints, ext;        /* MWAIT */
	uint8_t state, sub_state;   /* PWRE: resolved thread C-state, sub C-state (4 bits each) */
	int hw;                     /* PWRE: entry initiated by hardware */
	uint8_t deepest, last;      /* PWRX: deepest and last core C-state (4 bits each) */
	unsigned wake;              /* PWRX wake reason bits: 1 interrupt, 4 store to the
	                               monitored address, 8 hardware autonomous (libipt
	                               cannot encode 2, a timer deadline) */
};

struct ptd_ptenc;

int ptd_ptenc_new(struct ptd_ptenc **out, const struct ptd_ptenc_config *cfg, struct ptd_err *err);
void ptd_ptenc_free(struct ptd_ptenc *e);   /* NULL-safe */

/* Start of the stream: PSB+ with tracing disabled (the traced thread is in
 * the kernel, e.g. in exec). */
int ptd_ptenc_start(struct ptd_ptenc *e, uint64_t tsc, struct ptd_err *err);

/* User execution resumes at ip: TSC + TIP.PGE. */
int ptd_ptenc_enable(struct ptd_ptenc *e, uint64_t tsc, uint64_t ip, struct ptd_err *err);

/* A control transfer of the thread being traced (must be enabled).
 * PTD_X_SYSCALL and PTD_X_ASYNC leave tracing disabled: the next
 * ptd_ptenc_enable says where (and when) user execution resumes. */
int ptd_ptenc_branch(struct ptd_ptenc *e, uint64_t tsc, const struct ptd_xev *ev,
		     struct ptd_err *err);

/* A ptwrite of `bytes` (4 or 8) bytes of payload by the instruction at ip,
 * which is where execution is (the instructions since the last transfer
 * up to ip ran, ip has not; a decoder walks to it): pending TNT bits, then
 * PTW (IP bit set) + FUP(ip). */
int ptd_ptenc_ptwrite(struct ptd_ptenc *e, uint64_t tsc, uint64_t ip, uint64_t payload,
		      unsigned bytes, struct ptd_err *err);

/* A power-saving wait at ip (where execution is, as for a ptwrite); the
 * core wakes at once and execution goes on at ip: pending TNT bits, MWAIT,
 * PWRE, EXSTOP (IP bit set) + FUP(ip), then PWRX. */
int ptd_ptenc_power(struct ptd_ptenc *e, uint64_t tsc, uint64_t ip,
		    const struct ptd_ptenc_pwr *p, struct ptd_err *err);

/* A TSX transaction begins (begin set: XBEGIN) or commits (XEND) at the
 * instruction at ip, where execution is (as for a ptwrite): pending TNT
 * bits, then MODE.TSX (InTX = begin) + FUP(ip).  A decoder walks to ip and
 * reports the event there; the instruction at ip runs next (inside the
 * transaction after a begin, outside after a commit). */
int ptd_ptenc_tsx(struct ptd_ptenc *e, uint64_t tsc, uint64_t ip, int begin, struct ptd_err *err);

/* The transaction aborts at the instruction at ip (where execution is; it
 * does not complete) and execution goes on at `to`, the fallback address:
 * pending TNT bits, MODE.TSX (TXAbort) + FUP(ip) + TIP(to).  The decoders'
 * return stacks are left alone (an abort is neither call nor return). */
int ptd_ptenc_tsx_abort(struct ptd_ptenc *e, uint64_t tsc, uint64_t ip, uint64_t to,
			struct ptd_err *err);

/* The transaction state changed while trace was lost (the next PSB+ says
 * so). */
void ptd_ptenc_set_in_tx(struct ptd_ptenc *e, int in_tx);

/* --kernel: a system call enters the traced kernel at entry (in place of
 * ptd_ptenc_branch's PTD_X_SYSCALL): pending TNT bits, TSC, TIP(entry).
 * The kernel's transfers follow through ptd_ptenc_branch, then
 * ptd_ptenc_kernel_exit says the kernel stopped at its sysretq at ip.
 * The next ptd_ptenc_enable is its return to user space: TSC + TIP(the
 * ip) in place of TIP.PGE, whichever thread that is.  Not with address
 * filters. */
int ptd_ptenc_kernel_entry(struct ptd_ptenc *e, uint64_t tsc, uint64_t entry,
			   struct ptd_err *err);
int ptd_ptenc_kernel_exit(struct ptd_ptenc *e, uint64_t ip, struct ptd_err *err);

/* Tracing stops with the next instruction at ip not executed (preemption,
 * end of recording while running): FUP + TIP.PGD. */
int ptd_ptenc_interrupt(struct ptd_ptenc *e, uint64_t tsc, uint64_t ip, struct ptd_err *err);

/* An internal buffer overflow: trace between now and the resumption at ip
 * is lost (the caller skips those events): pending TNT bits, OVF, FUP(ip),
 * and a PSB+ that puts the decoders' return stacks in step again. */
int ptd_ptenc_overflow(struct ptd_ptenc *e, uint64_t tsc, uint64_t ip, struct ptd_err *err);

/* Start over after trace was lost (a truncated or dropped AUX buffer): a
 * PSB+, with FUP(ip) when tracing is enabled, so decoders can synchronize
 * again at ip. */
int ptd_ptenc_resync(struct ptd_ptenc *e, uint64_t tsc, uint64_t ip, struct ptd_err *err);

/* Flush pending TNT bits (before the buffer is handed out at the end). */
int ptd_ptenc_flush(struct ptd_ptenc *e, struct ptd_err *err);

/* Call fn(ctx, offset, enabled, ip) for each PSB+, with the stream offset
 * of its PSB and whether it carries FUP(ip). */
void ptd_ptenc_on_psb(struct ptd_ptenc *e, void (*fn)(void *ctx, uint64_t offset, int enabled,
						       uint64_t ip), void *ctx);

/* Is tracing on: the thread in user space, between ptd_ptenc_enable and
 * a syscall or interrupt (packets flow when its ip is in the filter
 * regions, too)? */
int ptd_ptenc_enabled(const struct ptd_ptenc *e);

/* The bytes produced so far and not yet taken; ptd_ptenc_take removes the
 * first n of them. */
const uint8_t *ptd_ptenc_data(const struct ptd_ptenc *e, size_t *len);
void ptd_ptenc_take(struct ptd_ptenc *e, size_t n);

/* Total bytes produced since the start. */
uint64_t ptd_ptenc_total(const struct ptd_ptenc *e);

#endif
