/* Intel PT decoding with perf's semantics, for output identical to
 * `perf script --itrace`.
 *
 * libipt's instruction and block decoders (intel_pt.c, raw mode) follow the
 * specification and ptxed's conventions.  perf's own decoder differs in the
 * details its users see: which timestamp each sample carries (it updates
 * the sample time only in some decoder states, and counts one tick per
 * instruction between timing packets), where errors are reported and how it
 * resynchronizes, which branches it reports at a PSB, at an overflow and at
 * trace begin and end.  This decoder walks the trace as perf's does: packets
 * come from its own parser, which accepts what libipt's packet decoder
 * accepts (pdec_parse.h, pdec_rare.c), instructions from the caller
 * (walk()), and each
 * call of ptd_pdec_decode() gives the next state, as perf's
 * intel_pt_decode() does.
 *
 * Not done (perf 6.1 has them): VM time correlation, event trace
 * (CFE/EVD), PEBS via PT (BBP), emulated ptwrite. */
#ifndef PTD_DECODERS_INTEL_PT_PDEC_H
#define PTD_DECODERS_INTEL_PT_PDEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* What a state reports (bits of ptd_pstate.type), as perf's
 * intel_pt_sample_type. */
enum {
	PDEC_BRANCH      = 1u << 0,
	PDEC_INSTRUCTION = 1u << 1,
	PDEC_TRANSACTION = 1u << 2,
	PDEC_PTW         = 1u << 3,
	PDEC_MWAIT_OP    = 1u << 4,
	PDEC_PWR_ENTRY   = 1u << 5,
	PDEC_EX_STOP     = 1u << 6,
	PDEC_PWR_EXIT    = 1u << 7,
	PDEC_CBR_CHG     = 1u << 8,
	PDEC_TRACE_BEGIN = 1u << 9,
	PDEC_TRACE_END   = 1u << 10,
	PDEC_PSB_EVT     = 1u << 12,
};
#define PDEC_PWR_EVT (PDEC_MWAIT_OP | PDEC_PWR_ENTRY | PDEC_EX_STOP | PDEC_PWR_EXIT)

/* ptd_pstate.flags */
enum {
	PDEC_IN_TX      = 1u << 0,
	PDEC_ABORT_TX   = 1u << 1,
	PDEC_ASYNC      = 1u << 2,
	PDEC_FUP_IP     = 1u << 3,
	PDEC_SAMPLE_IPC = 1u << 4,
};

/* Errors (ptd_pstate.err), perf's codes: these numbers are printed. */
enum {
	PDEC_ERR_NOMEM = 1, PDEC_ERR_INTERN, PDEC_ERR_BADPKT, PDEC_ERR_NODATA,
	PDEC_ERR_NOINSN, PDEC_ERR_MISMAT, PDEC_ERR_OVR, PDEC_ERR_LOST,
	PDEC_ERR_UNK, PDEC_ERR_NELOOP, PDEC_ERR_EPTW, PDEC_ERR_MAX,
};
/* perf's message for an error code (any int: out of range is "Unknown error!"). */
const char *ptd_pdec_strerror(int code);

enum pdec_op {
	PDEC_OP_OTHER = 0, PDEC_OP_CALL, PDEC_OP_RET, PDEC_OP_JCC, PDEC_OP_JMP,
	PDEC_OP_LOOP, PDEC_OP_IRET, PDEC_OP_INT, PDEC_OP_SYSCALL, PDEC_OP_SYSRET,
	PDEC_OP_VMENTRY,
};

enum pdec_branch {
	PDEC_BR_NO_BRANCH = 0, PDEC_BR_INDIRECT, PDEC_BR_CONDITIONAL, PDEC_BR_UNCONDITIONAL,
};

#define PDEC_INSN_BUF_SZ 16

/* The PSB packet's 16 bytes: where decoding can start. */
#define PDEC_PSB_LEN 16
extern const uint8_t ptd_pdec_psb[PDEC_PSB_LEN];

struct pdec_insn {
	uint8_t op;         /* enum pdec_op */
	uint8_t branch;     /* enum pdec_branch */
	uint8_t length;
	int32_t rel;        /* direct branches: target - (ip + length) */
	uint8_t buf[PDEC_INSN_BUF_SZ];
};

/* A piece of trace handed over by get_trace(). */
struct pdec_buf {
	const uint8_t *buf;     /* lent until the next get_trace(); len 0: no more */
	size_t len;
	uint64_t ref_timestamp; /* the TSC the recorder noted for this piece, 0 if none */
	int consecutive;        /* continues the previous piece without a break */
	uint64_t trace_nr;
};

#define PDEC_JCC_MAX 8   /* steps of a run: TNT bits */
#define PDEC_JCC_OPS 16  /* pushes and pops of the return stack in a run */
#define PDEC_JCC_UNCOND 2   /* direct calls and jumps before a step's bit */
enum { PDEC_RUN_JCC, PDEC_RUN_RET, PDEC_RUN_RET_OUT };
struct pdec_jcc_run {
	uint8_t n;                      /* steps */
	uint8_t plain;                  /* every step a conditional branch alone */
	uint16_t pops;                  /* op j is a pop when bit j is set, */
	uint64_t push[PDEC_JCC_OPS];    /* else a push of this return address */
	uint32_t insn_cnt[PDEC_JCC_MAX];   /* instructions from the start to the end of step i */
	uint64_t ip[PDEC_JCC_MAX];      /* where step i leaves the walk (not RET_OUT's) */
	uint8_t uncond[PDEC_JCC_MAX];   /* direct calls and jumps of step i before its bit */
	uint8_t kind[PDEC_JCC_MAX];     /* what takes step i's bit: a conditional branch,
	                                   a return to a call of the run (RET), or one
	                                   to a call before the run (RET_OUT, the last
	                                   step: its ip is the return stack's) */
	uint8_t nops[PDEC_JCC_MAX];     /* return stack ops by the end of step i */
	uint8_t mid_out;                /* a RET step pops the top of the return stack
	                                   from before the run: the run holds only for
	                                   the return address it was asked with, and its
	                                   RET_OUT step pops the entry below (depth 2) */
	uint8_t first_ret;              /* the first step that is not a conditional
	                                   branch (n: none) */
	uint8_t uncond_from;            /* the first step after step 0 with direct calls
	                                   or jumps (n: none) */
};

/* What the runs of a long TNT packet's bits leave, from an ip, when
 * pdec_jcc_run takes them one after the other, each a plain run (its
 * steps conditional branches alone) taken whole: the same for any
 * return stack and any time the code is the same. */
struct pdec_jcc_chain {
	uint64_t ip;            /* where the last run leaves the walk (base plus this) */
	uint64_t cnt;           /* instructions */
	uint8_t bits;           /* the packet's bits taken */
	uint8_t flags;          /* PDEC_CHAIN_* */
};
#define PDEC_CHAIN_UPD 1        /* a run had a bit set (it took the sample time) */
#define PDEC_CHAIN_LAST 2       /* the last bit taken was set */

/* Segments (pdec_seg.c): TNT and CYC packets and the TIP after them
 * (or TNT packets and a TIP twice), from an ip, whose every state a
 * consumer skipping plain branches would skip.  The key: the ip, the
 * bits of the last IP a compressed TIP takes, the top entries of the
 * return stack (its returns may take them: the segment says how many,
 * deep), the segment's trace bytes, whether the sample time was up to
 * date and whether a CYC packet's cycles are yet to be sampled. */
#define PDEC_SEG_WORDS 3                  /* trace bytes a segment holds: */
#define PDEC_SEG_BYTES (8 * PDEC_SEG_WORDS)   /* at most 24 */
#define PDEC_SEG_PUSH 6                   /* return addresses it leaves, at most (8
                                             before segments of two TIPs: the same
                                             on W1-W5, in an entry of 4 lines) */
#define PDEC_SEG_DEEP 4                   /* entries from before it it takes, at most */
#define PDEC_SEG_PARTS 4                  /* its parts, at most: the CYC packets it
                                             holds, and one */
#define PDEC_SEG_TIPS 2                   /* its TIPs, at most (pdec_seg.c; with
                                             three, in i100us mode, W2 124.1 M
                                             instructions, its window closed at
                                             4,096 noted, W5 60.0 M, against
                                             77.6 M and 64.7 M) */
#define PDEC_SEG_RESCAN 16                /* segments of one TIP found from a hint
                                             where two may be, then a scan */
#define PDEC_SEG_WINDOW 4096              /* segments of two TIPs noted, a window
                                             of the count of those taken */
#define PDEC_SEG_MIN 4                    /* its bytes, at least: a TNT packet, and a
                                             TIP with two IP bytes */
#define PDEC_SEG_HINT_BITS 12             /* the decoder's lengths of segments
                                             (pdec_seg.c): with 512, W2's 358 keys
                                             missed one in five */
struct pdec_seg_key {
	uint64_t ip;
	uint64_t last_ip;                  /* its bits 16 and up */
	uint64_t top;                      /* the return stack's top entry (0: none) */
	uint64_t bytes[PDEC_SEG_WORDS];    /* little-endian, zero past len */
	uint8_t len;
	uint8_t eq;                        /* sample_timestamp == timestamp */
	uint8_t cyc;                       /* the decoder's sample_cyc */
};
/* A segment's part: its instructions up to a CYC packet (the part after
 * the last one: to the TIP), and what the states skipped on the way did */
struct pdec_seg_part {   /* packed: an entry of 4 cache lines (src/segcache.h) */
	uint32_t cnt;                      /* instructions */
	uint32_t after;                    /* of them after the last update of the sample time */
	uint8_t flags;                     /* PDEC_SEG_UPD ... PDEC_SEG_CYC_CLR */
} __attribute__((packed));
#define PDEC_SEG_UPD 1      /* the sample time was updated */
#define PDEC_SEG_NOTE_S 2   /* a skipped state noted the sample time before that */
#define PDEC_SEG_NOTE_T 4   /* one noted the time, with or after it */
#define PDEC_SEG_CYC_CNT 8  /* the cycles were sampled (sample_tot_cyc_cnt) */
#define PDEC_SEG_CYC_CLR 16 /* sample_cyc was cleared */
/* What the segment leaves (pdec_seg.c says how it is taken), in the
 * order a take reads it.  In the walk's table (src/segcache.h) an entry
 * is four cache lines: the map and the key; what every take reads (the
 * counts, the parts, the ip) and the first push; the other pushes,
 * ret_addr and the CYC packets' payloads; then what a take reads rarely
 * (the entries below the top, only in recursion) or once a row (the
 * TIP's state, seg_take_tip).  In call-heavy code most segments pop one
 * entry and push one (W2's rows: 84%), and a row reads ret_addr only
 * for the last that pops, so such a segment is taken from two lines. */
struct pdec_seg {
	struct pdec_seg_key key;
	/* line 2 */
	uint32_t cnt;                      /* instructions, of all the parts */
	uint8_t nparts;
	uint8_t notes;                     /* timestamps the parts note, at most */
	uint8_t flags;                     /* PDEC_SEG_POP */
	uint8_t deep, npush;               /* the return stack's top entries taken, then
	                                      pushes */
	uint8_t tips;                      /* its TIP packets (1 or PDEC_SEG_TIPS) */
	uint8_t tip_size;                  /* the TIP's bytes */
	struct pdec_seg_part part[PDEC_SEG_PARTS];
	uint64_t ip;                       /* the TIP's to_ip and IP too */
	uint64_t push[PDEC_SEG_PUSH];      /* the first in line 2, the others in 3 */
	/* line 3 */
	uint64_t ret_addr;
	uint32_t cyc[PDEC_SEG_PARTS - 1];  /* the CYC packets' payloads */
	/* line 4 */
	uint64_t below[PDEC_SEG_DEEP - 1];  /* the entries below the top it takes */
	uint64_t from_ip, tip_payload;
	uint8_t insn[PDEC_INSN_BUF_SZ];
	uint8_t last_type;                 /* the packet before the TIP */
	uint8_t tip_count;                 /* the TIP's IP bytes (the TIP packet's count) */
	uint8_t insn_op, insn_len;         /* the TIP's branch */
};
#define PDEC_SEG_POP 1      /* the return stack was popped: ret_addr */

/* Are the entries below the top of the return stack (stack_n at stack)
 * those that segment s takes? */
static inline __attribute__((always_inline)) bool pdec_seg_below(const struct pdec_seg *s,
								  const uint64_t *stack,
								  size_t stack_n)
{
	unsigned i;

	for (i = 1; i < s->deep; i++)
		if (s->below[i - 1] != (stack_n > i ? stack[stack_n - 1 - i] : 0))
			return false;
	return true;
}

struct pdec_segtab;

struct pdec_params {
	/* Walk instructions from *ip: stop after a branch (leaving *ip at it),
	 * at to_ip (when non-zero, *ip == to_ip, insn->length 0) or after
	 * max_insn_cnt instructions (when non-zero, *ip at the last one).
	 * *insn: the instruction stopped at, lent until the next call of walk
	 * or walk_jcc (a pointer into the caller's caches: no copy, which
	 * the decoder's read of it right after would stall on).
	 * *insn_cnt: instructions walked, the branch included.  Returns 0,
	 * or -EINVAL when the code cannot be read or decoded. */
	int (*walk)(void *ctx, const struct pdec_insn **insn, uint64_t *insn_cnt, uint64_t *ip,
		    uint64_t to_ip, uint64_t max_insn_cnt);
	/* The next piece of trace.  Returns 0 (b->len 0 at the end) or a
	 * negative errno. */
	int (*get_trace)(void *ctx, struct pdec_buf *b);
	/* Optional (for ptd_pdec_fast_forward): hand the pieces after the
	 * current one to cb, in order, without consuming them, until cb
	 * returns non-zero.  Returns 0 or a negative errno. */
	int (*lookahead)(void *ctx, int (*cb)(const struct pdec_buf *b, void *data), void *data);
	/* Optional (perf sets it when the recording has address filters):
	 * at a TIP.PGD, did a direct branch to ip leave the filter regions? */
	int (*pgd_ip)(void *ctx, uint64_t ip);
	/* Optional: a run of TNT bits from ip, for a decoder that skips
	 * plain branch states (ptd_pdec_decode_to).  bits: outcomes to come,
	 * the next in bit 63 (1: taken).  The run's steps are the blocks
	 * walk() would walk from the ip the step before left (to_ip 0, no
	 * max_insn_cnt): at most PDEC_JCC_UNCOND ending in a direct call or
	 * jump, followed, then one ending in a conditional branch, followed
	 * as its bit says, or in a return (bit taken), to the address its
	 * call pushed.  ret, when not 0, is the top of the return stack: a
	 * return to a call before the run, before the count bits the packet
	 * holds are used up, may go on from there (mid_out).  Its addresses
	 * (ip, push) are *base plus the value.  NULL when it knows none; else
	 * lent until the next call of walk or walk_jcc. */
	const struct pdec_jcc_run *(*walk_jcc)(void *ctx, uint64_t ip, uint64_t bits,
					       unsigned count, uint64_t ret, uint64_t *base);
	/* Optional, with walk_jcc: the chain cached for the count bits of
	 * payload (the next in bit 63) from ip, its ip *base plus the value;
	 * NULL when none.  After NULL, the walk notes the runs walk_jcc gives
	 * until jcc_chain_put(), which caches c (NULL: none) for that ip and
	 * those bits when every one of them was in ip's map; c's ip is base
	 * plus the value, base that of every run. */
	const struct pdec_jcc_chain *(*jcc_chain)(void *ctx, uint64_t ip, uint64_t payload,
						  unsigned count, uint64_t *base);
	void (*jcc_chain_put)(void *ctx, const struct pdec_jcc_chain *c, uint64_t base);
	/* Optional (pdec_seg.c): the segment cached for key k in the code
	 * at k->ip that takes the entries below the top of the return stack
	 * (stack_n at stack) it holds (pdec_seg_below), or NULL.  *watch,
	 * with NULL: the walk can cache one from here, and watches, until
	 * seg_put() without more, that every walk finds its code where
	 * k->ip's is.  seg_put caches s for its key, that of the last
	 * seg_find but for its bytes (those of s), when that held; with more,
	 * it watches on (s is the first part of the segment noted).  The
	 * segment seg_find returns is lent until the next seg_put (the
	 * decoder takes several in a row, and reads the last one after
	 * looking up the next: a lookup leaves the cache as it is). */
	const struct pdec_seg *(*seg_find)(void *ctx, const struct pdec_seg_key *k,
					   const uint64_t *stack, size_t stack_n, bool *watch);
	void (*seg_put)(void *ctx, const struct pdec_seg *s, bool more);
	/* Optional, with seg_find: the table of segments and the range of
	 * ips around ip whose segments seg_find would look up there
	 * (pdec_segtab.h; len 0: none), for the decoder to look them up
	 * itself until its next call of walk or seg_put.  Where that finds
	 * none, the decoder asks seg_find (which also watches). */
	void (*seg_table)(void *ctx, uint64_t ip, struct pdec_segtab *t);
	void *ctx;
	int return_compression;
	int branch_enable;
	unsigned max_non_turbo_ratio;
	unsigned mtc_period;            /* MTC shift: attr config bits 17:14 */
	uint32_t tsc_ctc_ratio_n, tsc_ctc_ratio_d;
	int period_type;                /* PDEC_PERIOD_* */
	uint64_t period;
	int max_loops;                  /* 0: perf's 100000 */
	int fup_with_nlip;              /* erratum of family 6 model 92 */
	int quick;                      /* --itrace=q: 1 hop (no TNT, no walking code),
	                                 * 2 leap (PSB to PSB, FUPs in PSB+ only) */
	/* Branch states ptd_pdec_decode_to() keeps below its bound: those of
	 * the ops with bit (1 << PDEC_OP_*) set, and then also asynchronous
	 * ones, those in a transaction and those from nowhere.  0: it may skip
	 * every plain branch state.  Never the ops of conditional branches or
	 * of jumps (PDEC_KEEP_NEVER): their runs are skipped whole. */
	uint32_t keep_ops;
};

#define PDEC_KEEP_NEVER (1u << PDEC_OP_OTHER | 1u << PDEC_OP_JCC | 1u << PDEC_OP_JMP | 1u << PDEC_OP_LOOP)

enum { PDEC_PERIOD_NONE = 0, PDEC_PERIOD_INSTRUCTIONS, PDEC_PERIOD_TICKS, PDEC_PERIOD_MTC };

#define PDEC_SKIPPED_TS 8

/* One result of ptd_pdec_decode(), as perf's struct intel_pt_state. */
struct ptd_pstate {
	uint32_t type;          /* PDEC_* sample type bits */
	uint32_t flags;         /* PDEC_IN_TX ... */
	int err;                /* PDEC_ERR_*, 0 for none */
	uint64_t from_ip, to_ip;
	uint64_t timestamp, est_timestamp;   /* TSC */
	uint64_t tot_insn_cnt, tot_cyc_cnt, cycles;
	uint64_t trace_nr;
	uint64_t buf_nr;          /* trace_nr of the piece the decoder is in (consecutive
	                             pieces too) */
	uint64_t ptw_payload, mwait_payload, pwre_payload, pwrx_payload;
	uint64_t cbr_payload;
	unsigned cbr;
	uint64_t psb_offset;    /* trace position of the last PSB walked */
	uint64_t skipped_timestamp;   /* ptd_pdec_decode_to(): the largest timestamp of
	                                 the states it skipped before this one, 0 if none */
	uint64_t pos;           /* trace position of the current packet (of an error: where it was found) */
	int from_nr, to_nr;
	uint8_t insn_op, insn_len;
	uint8_t insn[PDEC_INSN_BUF_SZ];
	/* and with ptd_pdec_list_skipped(): each timestamp at which that
	 * largest one rose, in order; after PDEC_SKIPPED_TS of them no state
	 * with a later timestamp is skipped.  Last: a copy of the state may
	 * end after the n_skipped_ts used (ptd_pstate_copy). */
	unsigned n_skipped_ts;
	uint64_t skipped_ts[PDEC_SKIPPED_TS];
};

/* *t = *s, but for the entries of skipped_ts past n_skipped_ts */
static inline void ptd_pstate_copy(struct ptd_pstate *t, const struct ptd_pstate *s)
{
	memcpy(t, s, offsetof(struct ptd_pstate, skipped_ts) +
		     (s->n_skipped_ts < PDEC_SKIPPED_TS ? s->n_skipped_ts : PDEC_SKIPPED_TS) *
			     sizeof(s->skipped_ts[0]));
}

struct ptd_pdec;

/* A new decoder, or NULL when out of memory or the params lack walk or
 * get_trace.  params is copied. */
struct ptd_pdec *ptd_pdec_new(const struct pdec_params *params);
void ptd_pdec_free(struct ptd_pdec *d);   /* NULL-safe */

/* The next state; borrowed until the next call.  err PDEC_ERR_NODATA: the
 * trace is used up. */
const struct ptd_pstate *ptd_pdec_decode(struct ptd_pdec *d);

/* Is a branch from from_ip to to_ip a return to user space: from the
 * kernel (or from nowhere) to below kernel_start?  perf estimates the
 * time of those; ptd_pdec_decode_to() never skips them. */
static inline bool ptd_pdec_to_user(uint64_t from_ip, uint64_t to_ip, uint64_t kernel_start)
{
	return (from_ip >= kernel_start || !from_ip) && to_ip && to_ip < kernel_start;
}

/* The same, for a consumer that ignores plain branches: states that
 * report a branch and nothing else (type PDEC_BRANCH, no error), with a
 * timestamp below bound and not a return to user space (from_ip 0 or at
 * or above kernel_start, to_ip below it: the consumer estimates the time
 * of those), are skipped; the decoder goes on in the same call.  The
 * state returned has the largest skipped timestamp in skipped_timestamp.
 * bound 0: nothing is skipped. */
const struct ptd_pstate *ptd_pdec_decode_to(struct ptd_pdec *d, uint64_t bound,
					    uint64_t kernel_start);

/* From now on, ptd_pdec_decode_to() lists the timestamps of the states
 * it skips (n_skipped_ts), for a consumer whose own bound may be lower
 * than the one given: it can stop where the first skipped state reaches
 * its bound. */
void ptd_pdec_list_skipped(struct ptd_pdec *d);

/* From now on, ptd_pdec_decode_to() skips the states that report a PSB
 * and nothing else (type PDEC_PSB_EVT) as it skips plain branches: for
 * a consumer that makes nothing of either. */
void ptd_pdec_skip_psb(struct ptd_pdec *d);

/* perf's intel_pt_fast_forward: move on to the last PSB whose TSC is
 * before timestamp (nothing without a lookahead callback).  Returns 0 or
 * a negative errno. */
int ptd_pdec_fast_forward(struct ptd_pdec *d, uint64_t timestamp);

/* Decoding one trace on two threads (src/ptq_split.c): a second decoder
 * starts at a later piece, and its states are taken from where its
 * whole state is the first decoder's (decoders/intel-pt/pdec_same.c). */
/* A new decoder with d's parameters but ctx. */
struct ptd_pdec *ptd_pdec_new_like(const struct ptd_pdec *d, void *ctx);
/* d (not yet decoding) continues a trace: its stream positions count
 * from pos, and the first piece it takes keeps trace number trace_nr. */
void ptd_pdec_continue_at(struct ptd_pdec *d, uint64_t pos, uint64_t trace_nr);
/* A copy of d's state, for ptd_pdec_same (free with
 * ptd_pdec_snapshot_free): in the huge pages of src/common/hugemem.h, as
 * a split queue takes one after each of up to 64 states (5 KB each, each
 * 4 KB page new to the process a fault). */
struct ptd_pdec *ptd_pdec_snapshot(const struct ptd_pdec *d);
void ptd_pdec_snapshot_free(struct ptd_pdec *s);   /* NULL-safe */
/* Will a and b (or snapshots of them), given the same trace from their
 * position on and the same calls, give the same states but for the
 * counts of instructions and cycles (tot_insn_cnt; tot_cyc_cnt and
 * cycles), a's larger by *insn_delta and *cyc_delta?  Compared: all of
 * the state that decoding and the states depend on, the counts of cycles
 * only with cycles (without, they may differ; once both have seen CYC
 * packets they are counted from them, else estimated from the time);
 * not: where the pieces are in memory, the last call's list of skipped
 * timestamps, when to try runs of TNT bits again (which changes no
 * state), and the references of the time of CYC packets and (with
 * cycles) of the estimate of cycles: *loose says which of those differ
 * (PDEC_LOOSE_*), and then the states are the same only as long as
 * ptd_pdec_loose_reads() of those does not change. */
enum { PDEC_LOOSE_CYC = 1, PDEC_LOOSE_EST = 2 };
bool ptd_pdec_same(const struct ptd_pdec *a, const struct ptd_pdec *b, bool cycles,
		   uint64_t *insn_delta, uint64_t *cyc_delta, unsigned *loose);
/* The reads of the references of one PDEC_LOOSE_*: CYC packets
 * (PDEC_LOOSE_CYC), MTCs and TMAs before any CYC (PDEC_LOOSE_EST). */
uint64_t ptd_pdec_loose_reads(const struct ptd_pdec *d, unsigned which);
/* The stream position of d's current packet. */
uint64_t ptd_pdec_pos(const struct ptd_pdec *d);

#endif
