/* CoreSight ETMv4 instruction trace packets for one trace stream (one
 * emulated CPU, or one thread in --per-thread mode), as an ETMv4.x trace
 * unit programmed by perf for user-only tracing (TRCVICTLR excluding EL1
 * and EL2) writes them, with no speculation (TRCIDR8.MAXSPEC 0), no
 * return stack, no branch broadcast and no cycle counting:
 *   - A-sync and Trace Info (no optional sections), and with timestamps a
 *     Timestamp, where the trace starts after being disabled: the start of
 *     each AUX chunk's trace,
 *   - Trace On and Address with Context (long 64-bit IS0: EL0, AArch64,
 *     non-secure, and the context ID with ctxtid) where user execution
 *     starts or resumes,
 *   - one atom per branch (P0 element), E for taken, N for a conditional
 *     branch not taken, up to three in an atom packet (formats 1 to 3),
 *   - an address packet after each taken indirect branch, compressed
 *     against the last address sent (short IS0 of 1 or 2 bytes, long 32-bit
 *     or 64-bit IS0),
 *   - an Exception packet (type Call for SVC, IRQ for an asynchronous exit)
 *     and its address (the preferred return address) when execution leaves
 *     EL0; nothing is traced until the next resume.
 * Bytes accumulate in an internal buffer the caller drains; the
 * CoreSight formatter (cs_frame.h) wraps them in frames. */
#ifndef PTD_RECORD_ETM_ENC_H
#define PTD_RECORD_ETM_ENC_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "tools/record/xev.h"

/* ETMv4 exception types (the Exception packet's TYPE field) */
#define PTD_ETM_EXC_CALL 0x2
#define PTD_ETM_EXC_IRQ  0xe

struct ptd_etmenc_config {
	int ctxtid;     /* Context packets carry CONTEXTIDR_EL1 (4 bytes) */
	int ts;         /* Timestamp packets where tracing resumes */
};

struct ptd_etmenc;

int ptd_etmenc_new(struct ptd_etmenc **out, const struct ptd_etmenc_config *cfg,
		   struct ptd_err *err);
void ptd_etmenc_free(struct ptd_etmenc *e);   /* NULL-safe */

/* The next resume starts with A-sync and Trace Info (a new AUX chunk, or
 * the stream's start). */
void ptd_etmenc_need_sync(struct ptd_etmenc *e);

/* User execution starts or resumes at ip in the context of thread `ctxid`,
 * at time ts (perf time: the Timestamp packet's value, when a sync
 * precedes). */
int ptd_etmenc_resume(struct ptd_etmenc *e, uint64_t ip, uint32_t ctxid, uint64_t ts,
		      struct ptd_err *err);

/* A control transfer of the traced thread (tracing must be on).
 * PTD_X_SYSCALL and PTD_X_ASYNC leave EL0 (an Exception packet): tracing
 * is off until the next ptd_etmenc_resume. */
int ptd_etmenc_branch(struct ptd_etmenc *e, const struct ptd_xev *ev, struct ptd_err *err);

/* The thread is interrupted before the instruction at ip (preemption, the
 * end of the recording): an IRQ exception there. */
int ptd_etmenc_interrupt(struct ptd_etmenc *e, uint64_t ip, struct ptd_err *err);

/* 1 while tracing is on (between a resume and an exception) */
int ptd_etmenc_enabled(const struct ptd_etmenc *e);

/* Pending atoms are written out (a chunk is cut or the stream ends). */
void ptd_etmenc_flush(struct ptd_etmenc *e);

/* The bytes written so far and not taken. */
const uint8_t *ptd_etmenc_data(const struct ptd_etmenc *e, size_t *len);
void ptd_etmenc_take(struct ptd_etmenc *e, size_t len);
/* Bytes written since the stream's start (pending atoms not counted). */
uint64_t ptd_etmenc_total(const struct ptd_etmenc *e);

#endif
