/* Internals of the perf-semantics decoder (pdec.h), shared by pdec.c
 * (the walk), pdec_pkt.c (packets) and pdec_time.c (timestamps). */
#ifndef PTD_DECODERS_INTEL_PT_PDEC_PRIV_H
#define PTD_DECODERS_INTEL_PT_PDEC_PRIV_H

#include <stdbool.h>

#include "decoders/intel-pt/pdec.h"

/* Packet types, perf's view of them. */
enum pdec_pkt_type {
	PK_NONE = 0, PK_BAD, PK_PAD, PK_TNT, PK_TIP_PGD, PK_TIP_PGE, PK_TSC, PK_TMA,
	PK_MODE_EXEC, PK_MODE_TSX, PK_MTC, PK_TIP, PK_FUP, PK_CYC, PK_VMCS, PK_PSB,
	PK_PSBEND, PK_CBR, PK_TRACESTOP, PK_PIP, PK_OVF, PK_MNT, PK_PTWRITE,
	PK_PTWRITE_IP, PK_EXSTOP, PK_EXSTOP_IP, PK_MWAIT, PK_PWRE, PK_PWRX,
};

struct pdec_pkt {
	int type;           /* enum pdec_pkt_type */
	int count;          /* TNT: bits; IP packets: IPC; TMA: fc */
	uint64_t payload;   /* TNT: bits from bit 63 down, oldest first */
};

/* Decoder states, as perf's enum intel_pt_pkt_state. */
enum pdec_pkt_state {
	ST_NO_PSB = 0, ST_NO_IP, ST_ERR_RESYNC, ST_IN_SYNC, ST_TNT_CONT, ST_TNT,
	ST_TIP, ST_TIP_PGD, ST_FUP, ST_FUP_NO_TIP, ST_FUP_IN_PSB, ST_RESAMPLE,
};

#define PDEC_RETURN 1   /* walk_insn: a sample is ready */
#define PDEC_SKIPPED 2  /* pdec_walk_tnt, pdec_walk_tip: a state was made and skipped */
#define PDEC_STACK_MAX (1u << 20)   /* return stack entries: beyond, the oldest half goes */
#define PDEC_MEMO 128   /* packets a look-ahead keeps for the walk */

/* A packet a look-ahead parsed, at off of the current piece, size bytes */
struct pdec_memo {
	struct pdec_pkt pkt;
	size_t off;
	int size;
};

struct ptd_pdec {
	struct pdec_params p;

	/* the trace */
	const uint8_t *buf;             /* current piece */
	size_t len;                     /* its length */
	size_t off;                     /* offset of the current packet in buf */
	size_t pkt_step;                /* bytes to the next packet */
	uint64_t pos;                   /* stream position of the current packet */
	uint64_t first_trace_nr;        /* ptd_pdec_continue_at: the first new trace's number */
	uint64_t buf_timestamp;
	uint64_t ref_timestamp;
	struct pdec_pkt packet, tnt, fup_tx_pkt;
	int last_packet_type;
	/* the packets the last look-ahead parsed (the first PDEC_MEMO of
	 * them), for pdec_get_next_packet to take instead of parsing them
	 * again: memo[memo_i, memo_n) */
	struct pdec_memo memo[PDEC_MEMO];
	unsigned memo_i, memo_n;

	int pkt_state;
	struct ptd_pstate state;

	uint64_t ip, last_ip, psb_ip;
	bool have_last_ip, pge, in_psb, overflow, continuous_period;
	uint64_t ret_addr;

	/* return stack for return compression */
	uint64_t *stack;
	size_t stack_n, stack_cap;

	/* transactions and FUP-bound events */
	uint32_t tx_flags, fup_tx_flags;
	bool set_fup_tx_flags, set_fup_ptw, set_fup_mwait, set_fup_pwre, set_fup_exstop;
	bool set_fup_mode_exec;
	uint64_t fup_ptw_payload, fup_mwait_payload, fup_pwre_payload;

	uint64_t pip_payload;
	int nr, next_nr;

	/* timing (pdec_time.c) */
	uint64_t timestamp, tsc_timestamp, sample_timestamp;
	uint64_t timestamp_insn_cnt, sample_insn_cnt;
	uint64_t ctc_timestamp, ctc_delta, last_ctc;
	uint32_t last_mtc, ctc_rem_mask, tsc_ctc_mult;
	bool have_tma, fixup_last_mtc;
	unsigned cbr, cbr_seen;
	uint64_t cbr_payload;
	double cbr_cyc_to_tsc, max_non_turbo_ratio_fp, tsc_to_cyc;
	double calc_cyc_to_tsc;         /* TSC ticks per cycle measured by look-ahead */
	bool have_calc_cyc_to_tsc;
	uint64_t cyc_ref_timestamp, cycle_cnt, tot_cyc_cnt, sample_tot_cyc_cnt;
	uint64_t cyc_cnt_timestamp, base_cyc_cnt;
	bool have_cyc, sample_cyc, mtc_insn;
	/* reads of the references that ptd_pdec_same() lets differ: of the
	 * time of CYC packets (cyc_ref_timestamp, cycle_cnt, calc_cyc_to_tsc
	 * and whether there is one) at a CYC, of the cycle estimate
	 * (cyc_cnt_timestamp, base_cyc_cnt) at an MTC or TMA before any CYC */
	uint64_t cyc_reads, est_reads;

	/* instruction counts and periods */
	uint64_t tot_insn_cnt, period_insn_cnt;
	uint64_t period_mask, period_ticks, last_masked_timestamp;

	/* ptd_pdec_decode_to: plain branch states below skip_bound are not
	 * returned (0: all are); the largest timestamp of those skipped by
	 * runs of conditional branches (pdec_jcc_run) */
	uint64_t skip_bound, skip_kernel_start, skipped_timestamp;
	int list_skipped;                 /* ptd_pdec_list_skipped() */
	int skip_psb;                     /* ptd_pdec_skip_psb() */
	unsigned n_skipped_ts;
	uint64_t skipped_ts[PDEC_SKIPPED_TS];
	unsigned jcc_wait, jcc_backoff;   /* attempts to let go by, after runs too short */
	/* the two last long TNT packets whose chains the walk found, in this
	 * call of ptd_pdec_decode_to (pdec_skip.c chain_again; c.bits 0:
	 * none) */
	struct pdec_chain_seen {
		uint64_t bytes, ip, base;
		struct pdec_pkt pkt;
		struct pdec_jcc_chain c;
	} chain_seen[2];
	unsigned chain_next;              /* the one to replace */
	uint64_t chains_again;            /* packets taken so, said at the end with
	                                     PTDECODE_DEBUG_CHAINS */
	uint64_t chains_row;              /* ... of which in chain_repeat's loop */

	/* stuck-loop detection */
	int no_progress;
	uint64_t stuck_ip;
	int stuck_ip_prd, stuck_ip_cnt;

	/* segments (pdec_seg.c): last, as ptd_pdec_same() and the check
	 * compare the decoder before it */
	struct {
		bool on;                  /* one is noted, from its start to its TIP */
		bool under;               /* pop(): from an empty return stack */
		bool popped;              /* pop(): the return stack popped */
		bool upd;                 /* pdec_update_sample_time(), in the part */
		bool cyc_cnt;             /* pdec_sample_cyc_cnt(), in the part */
		bool cyc_start;           /* sample_cyc at the part's start */
		uint8_t notes;            /* PDEC_SEG_NOTE_* of the part's states skipped */
		uint8_t np, nparts;       /* the part noted; parts the segment has */
		struct pdec_seg_part part[PDEC_SEG_PARTS];
		uint32_t cyc[PDEC_SEG_PARTS - 1];   /* the CYC packets' payloads */
		size_t low;               /* pop(): the return stack's lowest depth since
		                             its start (0 between segments) */
		size_t depth;             /* its depth at the start */
		size_t start;             /* offset of its start in buf */
		uint8_t ends[PDEC_SEG_TIPS];    /* its TIPs' ends from the start: the */
		uint8_t eparts[PDEC_SEG_TIPS];  /* segments it begins with, their parts */
		uint8_t nends, ie;        /* of them; the next TIP's */
		unsigned tips;            /* TIPs a segment noted may hold */
		uint64_t ctaken, cnoted;  /* segments of more than one TIP taken, noted; */
		uint64_t cmark, window;   /* ctaken at the last window of cnoted, its size */
		bool closed;              /* a window closed: tips set to 1 */
		bool crow;                /* rows by pdec_seg_crow: one holding CYC packets
		                             was taken */
		const uint8_t *buf;
		struct pdec_seg_key key;
		uint64_t below[PDEC_SEG_DEEP - 1];   /* the return stack's below the top */
		uint64_t tot0, tot;       /* tot_insn_cnt at its start, at the part's */
		unsigned wait, backoff;   /* TNT packets to let go by, after no segment was
		                             found at one */
		struct pdec_seg_hint {    /* the length the bytes from an ip scanned to last
		                             (pdec_seg), with 8 more bits of their hash: */
			uint8_t len, tag, n;   /* n: segments of fewer TIPs found */
		} *hint;                  /* 2^PDEC_SEG_HINT_BITS, the decoder's own (not
		                             its snapshots' or copies') */
		uint64_t taken, noted;    /* said at the end with PTDECODE_DEBUG_SEGS, and */
		uint64_t found_cyc;       /* those taken or checked with CYC packets */
		struct ptd_pdec *check;   /* PTDECODE_DEBUG_SEG_CHECK: the decoder as the
		                             segment found leaves it, to compare */
		int checking;             /* PTDECODE_DEBUG_SEG_CHECK set */
		bool row_turn;            /* with it: a row tried at this call of pdec_seg */
		uint64_t checked, row_checked;   /* segments checked alone, in rows, */
		uint64_t row_cyc;         /* and of these, those with CYC packets */
	} seg;
};

/* pdec_pkt.c */
int pdec_get_next_packet(struct ptd_pdec *d);
int pdec_get_data(struct ptd_pdec *d, bool reposition);
/* perf's intel_pt_next_tsc: the payload of the first TSC packet from buf
 * on, before a PSBEND or a packet that does not parse, and the bytes left
 * from that packet on (rem may be NULL). */
bool pdec_next_tsc(const uint8_t *buf, size_t len, uint64_t *tsc, size_t *rem);
/* Move *buf to the first PSB at or after it, or to the PSB after the one
 * at *buf (step); false, leaving them, when there is none. */
bool pdec_next_psb(const uint8_t **buf, size_t *len);
bool pdec_step_psb(const uint8_t **buf, size_t *len);
int pdec_scan_for_psb(struct ptd_pdec *d);
/* For the tests: the packet at buf through the quick path for the
 * commonest packets alone (0 when it does not take it), or as the
 * decoder parses it (pdec_parse); its size, or 0 when bad. */
int pdec_test_packet(const uint8_t *buf, size_t len, bool quick, struct pdec_pkt *out);
/* Look ahead from the packet after the current one, without moving:
 * cb returns non-zero to stop.  Stays within the current piece. */
void pdec_lookahead(struct ptd_pdec *d, int (*cb)(const struct pdec_pkt *pkt, void *data),
		    void *data);

/* pdec.c: helpers and the walks between packets, as perf's functions of
 * the same names (intel_pt_walk_tnt ...).  The walks return 0 with a state
 * ready, -EAGAIN to go on reading packets, or a negative errno. */
int pdec_ext_err(int code);
void pdec_set_last_ip(struct ptd_pdec *d);
void pdec_set_ip(struct ptd_pdec *d);
bool pdec_have_ip(const struct ptd_pdec *d);
void pdec_update_nr(struct ptd_pdec *d);
void pdec_set_nr(struct ptd_pdec *d);
void pdec_clear_stack(struct ptd_pdec *d);
int pdec_bug(struct ptd_pdec *d);
int pdec_overflow(struct ptd_pdec *d);
bool pdec_fup_event(struct ptd_pdec *d, bool no_tip);
int pdec_walk_fup(struct ptd_pdec *d);
int pdec_walk_tip(struct ptd_pdec *d);
int pdec_walk_tnt(struct ptd_pdec *d);
/* Does a state made in this packet state take the sample time (perf's
 * intel_pt_sample_time)? */
static inline bool pdec_sample_time_state(int st)
{
	switch (st) {
	case ST_TNT: case ST_TIP: case ST_TIP_PGD: case ST_FUP: case ST_FUP_NO_TIP:
	case ST_FUP_IN_PSB:
		return false;
	default:
		return true;
	}
}

/* A state with timestamp ts skipped: the largest such timestamp, and
 * (ptd_pdec_list_skipped) the list of its rises, which when full lets no
 * state with a later timestamp be skipped. */
static inline __attribute__((always_inline)) void pdec_note_skipped(struct ptd_pdec *d,
								    uint64_t ts)
{
	if (d->seg.on)   /* ts is the sample time: from before the part, or updated in it */
		d->seg.notes |= d->seg.upd ? PDEC_SEG_NOTE_T : PDEC_SEG_NOTE_S;
	if (ts <= d->skipped_timestamp)
		return;
	d->skipped_timestamp = ts;
	if (d->list_skipped) {
		d->skipped_ts[d->n_skipped_ts++] = ts;
		if (d->n_skipped_ts == PDEC_SKIPPED_TS && d->skip_bound > ts + 1)
			d->skip_bound = ts + 1;
	}
}

/* Is the branch state just made one of those p.keep_ops keeps? */
static inline bool pdec_kept(const struct ptd_pdec *d)
{
	return d->p.keep_ops &&
	       ((d->p.keep_ops >> d->state.insn_op & 1) || !d->state.from_ip ||
		(d->state.flags & (PDEC_IN_TX | PDEC_ABORT_TX | PDEC_ASYNC)));
}
/* Through a run of conditional branches of the TNT packet in
 * one go, as if their states were returned and skipped.  Returns 0 (the
 * packet has bits left, or the run stopped), -EAGAIN (the packet is used
 * up: on to the next), or PDEC_SKIPPED (used up, its last bit's state
 * skipped: decode on as ptd_pdec_decode would be called again). */
int pdec_jcc_run(struct ptd_pdec *d);
/* pdec.c: a run's return stack ops, the first nops done as walk_insn()
 * would (the last address popped in ret_addr; pushes of base plus the
 * run's value).  0 or -ENOMEM.  Beyond PDEC_STACK_MAX / 2 entries a
 * push may drop the oldest half: runs with ops are not taken then. */
int pdec_run_stack(struct ptd_pdec *d, const struct pdec_jcc_run *run, uint64_t base,
		   unsigned nops);
/* Room for n more entries on the return stack, without dropping any:
 * 0 or -ENOMEM (n + stack_n below PDEC_STACK_MAX / 2). */
int pdec_stack_reserve(struct ptd_pdec *d, size_t n);

/* pdec_seg.c: segments.  pdec_seg: at offset s of the piece, a TNT
 * packet the packet loop has read where pdec_seg_may, or (chain) right
 * after a segment's TIP (pdec_seg_end): 1 when cached segments
 * were taken from there, one after the other (the decoder is at the last
 * one's TIP, as after that TIP's state skipped), else 0; then the segment
 * at s is noted as the loop decodes it, when it can be cached;
 * pdec_seg_end at the TIP's state skipped, pdec_seg_cancel where the
 * loop returns. */
int pdec_seg(struct ptd_pdec *d, size_t s, bool chain);
void pdec_seg_part(struct ptd_pdec *d);   /* at a CYC packet inside */
void pdec_seg_end(struct ptd_pdec *d);
void pdec_seg_cancel(struct ptd_pdec *d);
void pdec_seg_init(struct ptd_pdec *d);
void pdec_seg_fini(struct ptd_pdec *d);
/* pdec_segcheck.c, PTDECODE_DEBUG_SEG_CHECK: a copy of the decoder
 * (NULL when out of memory), freed; does copy c leave the decoder as d
 * but for the segments' fields?  pdec_seg_compare: d->seg.check (the
 * segment found, taken) against d (its packets decoded), or where
 * decoding stopped inside it (fail), aborting where they differ.  What
 * differs, said before an abort: the segment found for k (len bytes) is
 * not one the bytes scan to (0: none, else l, the longest); a row of n
 * segments leaves d otherwise than i of them taken one at a time. */
struct ptd_pdec *pdec_seg_copy(const struct ptd_pdec *d);
void pdec_seg_copy_free(struct ptd_pdec *c);
bool pdec_seg_same(const struct ptd_pdec *c, const struct ptd_pdec *d);
void pdec_seg_compare(struct ptd_pdec *d, bool fail);
__attribute__((noreturn, cold)) void pdec_seg_scan_differs(const struct ptd_pdec *d,
							   const struct pdec_seg_key *k,
							   unsigned len, unsigned l);
__attribute__((noreturn, cold)) void pdec_seg_row_differs(const struct ptd_pdec *d, unsigned n,
							  unsigned i);

/* pdec_same.c: what two decoders in the same state may hold otherwise,
 * taken into t from b: where the return stack is, when runs of TNT bits
 * are tried again, and the check for loops' ip where it is unread */
void pdec_same_unread(struct ptd_pdec *t, const struct ptd_pdec *b);

/* pdec_trace.c */
int pdec_walk_fup_tip(struct ptd_pdec *d);

/* pdec_psb.c: a PSB+ once in sync (pdec_walk_psbend: its rest; pdec_psb:
 * all of it, making a PSB state; pdec_psb_with_fup: when its FUP binds,
 * false when it does not), and getting in sync (pdec_walk_psb: the PSB+
 * from the current packet; pdec_sync_psb: from the next PSB on). */
int pdec_walk_psbend(struct ptd_pdec *d);
int pdec_psb(struct ptd_pdec *d);
int pdec_fup_in_psb(struct ptd_pdec *d);
bool pdec_psb_with_fup(struct ptd_pdec *d, int *err);
int pdec_walk_psb(struct ptd_pdec *d);
int pdec_sync_psb(struct ptd_pdec *d);
/* At a PSB: no last IP, no PSB+ FUP yet, the return stack emptied; after
 * its PSB+: the PSB state (from_ip its FUP's ip, or 0) */
void pdec_psb_reset(struct ptd_pdec *d);
void pdec_psb_state(struct ptd_pdec *d);
static inline void pdec_mode_exec_status(struct ptd_pdec *d)
{
	(void)d;   /* the execution mode's interrupt flag needs event trace */
}

/* pdec_hop.c: what walk_trace does with the packet in quick mode */
enum { PDEC_HOP_PROCESS, PDEC_HOP_IGNORE, PDEC_HOP_RETURN, PDEC_HOP_AGAIN };
int pdec_hop_trace(struct ptd_pdec *d, bool *no_tip, int *err);

/* pdec_time.c */
uint64_t pdec_tsc_8b(uint64_t timestamp, uint64_t ref);   /* perf's intel_pt_8b_tsc */
void pdec_calc_tsc_timestamp(struct ptd_pdec *d);
void pdec_calc_tma(struct ptd_pdec *d);
void pdec_calc_mtc_timestamp(struct ptd_pdec *d);
void pdec_calc_cbr(struct ptd_pdec *d);
void pdec_calc_cyc_timestamp(struct ptd_pdec *d);
/* What pdec_calc_cyc_timestamp does with a CYC packet: its cycles counted
 * (pdec_cyc_count), then, when cycle_cnt cycles since the reference give
 * a time (pdec_cyc_time: false when they give none), that time taken
 * (pdec_cyc_time_take) */
bool pdec_cyc_time(const struct ptd_pdec *d, uint64_t cycle_cnt, uint64_t *timestamp);

/* A double to uint64_t as perf's x86-64 build converts one (C leaves
 * values out of range undefined): 2^64 and above give 0. */
static inline uint64_t pdec_to_u64(double v)
{
	if (!(v > -1.0))
		return 0;
	if (v >= 18446744073709551616.0)
		return 0;
	return (uint64_t)v;
}

/* The time cycles since the reference time ref give at rate TSC ticks a
 * cycle (pdec_cyc_time): perf adds in double (u64 += double), so the sum
 * is rounded */
static inline uint64_t pdec_cyc_at(uint64_t ref, uint64_t cycles, double rate)
{
	return pdec_to_u64((double)ref + (double)cycles * rate);
}

static inline void pdec_cyc_count(struct ptd_pdec *d, uint64_t cycles)
{
	d->cyc_reads++;
	d->have_cyc = true;
	d->cycle_cnt += cycles;
	if (d->pge)
		d->tot_cyc_cnt += cycles;
	d->sample_cyc = true;
}

static inline void pdec_cyc_time_take(struct ptd_pdec *d, uint64_t timestamp)
{
	if (timestamp >= d->timestamp)
		d->timestamp = timestamp;
	d->timestamp_insn_cnt = 0;
}
void pdec_mtc_cyc_cnt_pge(struct ptd_pdec *d);
uint64_t pdec_est_timestamp(const struct ptd_pdec *d);
void pdec_setup_period(struct ptd_pdec *d);
void pdec_sample_insn(struct ptd_pdec *d);
void pdec_reposition(struct ptd_pdec *d);

/* Inline, as they run at every walk: the sample time brought up to date,
 * and the instructions to the next sample (perf's
 * intel_pt_next_sample; 0: no limit). */
static inline void pdec_update_sample_time(struct ptd_pdec *d)
{
	d->sample_timestamp = d->timestamp;
	d->sample_insn_cnt = d->timestamp_insn_cnt;
	d->state.cycles = d->tot_cyc_cnt;
	d->seg.upd = true;
}

/* A skipped state samples the cycles a CYC packet counted */
static inline void pdec_sample_cyc_cnt(struct ptd_pdec *d)
{
	d->sample_tot_cyc_cnt = d->tot_cyc_cnt;
	d->seg.cyc_cnt = true;
}

/* Skipping states for ptd_pdec_decode_to() (and pdec_skip.c).  What a
 * state skipped with timestamp ts leaves behind, besides the sample time. */
static inline void pdec_skipped(struct ptd_pdec *d, uint64_t ts)
{
	d->nr = d->next_nr;
	pdec_note_skipped(d, ts);
}

/* A walk's state just made, before it returns it: when
 * ptd_pdec_decode_to() would skip it, do what that and the decoder do
 * between it and the next state, and return true: the walk goes on.
 * Inline: it runs at every branch a TIP packet or a TNT bit resolves
 * outside a run. */
static inline bool pdec_skip_state(struct ptd_pdec *d)
{
	bool update;
	uint64_t ts;

	if (!d->skip_bound || d->state.type != PDEC_BRANCH || d->cbr != d->cbr_seen || pdec_kept(d))
		return false;
	update = pdec_sample_time_state(d->pkt_state);
	ts = update ? d->timestamp : d->sample_timestamp;
	if (ts >= d->skip_bound ||
	    ptd_pdec_to_user(d->state.from_ip, d->state.to_ip, d->skip_kernel_start))
		return false;
	/* what decode_one() does after a state, and ptd_pdec_decode_to()
	 * with one it skips */
	if (update) {
		pdec_update_sample_time(d);
		if (d->sample_cyc) {
			pdec_sample_cyc_cnt(d);
			d->sample_cyc = false;
		}
	}
	pdec_skipped(d, ts);
	d->state.type = PDEC_BRANCH;
	d->state.flags = 0;
	return true;
}

/* What pdec_next_period returns once the period is continuous or has
 * just become so (timestamp's masked bits at or below the last masked
 * timestamp) */
static inline __attribute__((always_inline)) uint64_t
pdec_period_left(const struct ptd_pdec *d, uint64_t timestamp, uint64_t masked)
{
	if (masked < d->last_masked_timestamp)
		return d->period_ticks;
	return d->period_ticks - (timestamp - masked);
}

static inline __attribute__((always_inline)) uint64_t pdec_next_period(struct ptd_pdec *d)
{
	uint64_t timestamp = d->timestamp + d->timestamp_insn_cnt;
	uint64_t masked = timestamp & d->period_mask;

	if (d->continuous_period) {
		if (masked > d->last_masked_timestamp)
			return 1;
	} else {
		timestamp += 1;
		masked = timestamp & d->period_mask;
		if (masked > d->last_masked_timestamp) {
			d->last_masked_timestamp = masked;
			d->continuous_period = true;
		}
	}
	return pdec_period_left(d, timestamp, masked);
}

/* With a period of ticks not continuous yet (after a trace begins): would
 * walking n more instructions from here, in blocks, leave every
 * pdec_next_period on the way without its side effect (the period
 * becoming continuous) and take no sample?  Then the walk's limits are
 * known without calling it. */
static inline bool pdec_period_quiet_at(const struct ptd_pdec *d, uint64_t ts, uint64_t n)
{
	uint64_t timestamp = ts + n + 1;

	return (timestamp & d->period_mask) <= d->last_masked_timestamp && n < d->period_ticks;
}

static inline bool pdec_period_quiet(const struct ptd_pdec *d, uint64_t n)
{
	return pdec_period_quiet_at(d, d->timestamp + d->timestamp_insn_cnt, n);
}

static inline __attribute__((always_inline)) uint64_t pdec_next_sample(struct ptd_pdec *d)
{
	switch (d->p.period_type) {
	case PDEC_PERIOD_INSTRUCTIONS:
		return d->p.period - d->period_insn_cnt;
	case PDEC_PERIOD_TICKS:
		return pdec_next_period(d);
	default:
		return 0;
	}
}

/* Would cnt more instructions from a time of ts (the timestamp and the
 * instructions since) and a period's count of pic, walked in blocks,
 * take no sample and leave every pdec_next_sample on the way without
 * side effects?  For a period known without them (not ticks, or
 * continuous): the walk's cap at each block is the first one less the
 * instructions before it, and no period boundary is crossed. */
static inline __attribute__((always_inline)) bool pdec_insn_fit_at(const struct ptd_pdec *d,
								    uint64_t ts, uint64_t pic,
								    uint64_t cnt)
{
	uint64_t cap, masked;

	switch (d->p.period_type) {
	case PDEC_PERIOD_INSTRUCTIONS:
		cap = d->p.period - pic;
		return !cap || cnt < cap;
	case PDEC_PERIOD_TICKS:   /* pdec_next_period, continuous */
		masked = ts & d->period_mask;
		cap = masked > d->last_masked_timestamp ? 1 : pdec_period_left(d, ts, masked);
		return cnt < cap && ts + cnt > ts && ((ts + cnt) & d->period_mask) == masked;
	default:
		return true;
	}
}

static inline __attribute__((always_inline)) bool pdec_insn_fit(const struct ptd_pdec *d,
								 uint64_t cnt)
{
	return pdec_insn_fit_at(d, d->timestamp + d->timestamp_insn_cnt, d->period_insn_cnt, cnt);
}

/* May a packet with header byte b begin a segment?  A short TNT (not a
 * long one: loop-heavy code, whose long packets the chains of runs take,
 * rarely has a TIP within a segment's bytes; nor a TIP alone, where a
 * segment saves about what it costs); after a segment taken, a CYC too
 * (cyc) */
static inline bool pdec_seg_packet(unsigned b, bool cyc)
{
	return (!(b & 1) && b > 2) || (cyc && (b & 3) == 3);
}

/* May a segment be taken or noted from the TNT packet just read
 * (pdec_seg)?  None is being noted, the packet is a short TNT, there is
 * no wait after segments not found (seg.wait: where packets other than
 * TNT, CYC and TIP come between them, MTC say, the look costs more than
 * it finds); in sync at a packet boundary, skipping plain branches below
 * a bound both times are under, with nothing pending that a TNT or TIP
 * packet would change (transactions, CBR, FUP events, a look-ahead's
 * packets, a loop's direct jumps), and room in the list of skipped
 * timestamps for two more.  A CYC's cycles not yet sampled (sample_cyc)
 * are in the key. */
static inline bool pdec_seg_may(struct ptd_pdec *d, bool no_tip)
{
	if (!d->skip_bound || d->seg.on || !pdec_seg_packet(d->buf[d->off], false))
		return false;
	if (d->seg.wait) {
		d->seg.wait--;
		return false;
	}
	return d->p.seg_find && !d->p.quick && d->pkt_state == ST_IN_SYNC && !no_tip &&
	       d->state.type == PDEC_BRANCH && !d->state.flags && !d->tx_flags &&
	       d->cbr == d->cbr_seen && !d->no_progress && d->pge &&
	       !d->in_psb && d->memo_i == d->memo_n && d->timestamp < d->skip_bound &&
	       d->sample_timestamp < d->skip_bound &&
	       (!d->list_skipped || d->n_skipped_ts + 2 < PDEC_SKIPPED_TS);
}

#endif
