/* The Intel PT queue replay's shared state (ptq.c) and its sample
 * synthesis (ptq_synth.c). */
#ifndef PTD_PTQ_PRIV_H
#define PTD_PTQ_PRIV_H

#include "ptq.h"
#include "ptq_conf.h"

#include "auxheap.h"
#include "common/u64map.h"
#include "common/vec.h"
#include "decoders/intel-pt/pdec.h"
#include "decoders/intel-pt/pinsn.h"
#include "insncache.h"
#include "jccrun.h"
#include "notelog.h"
#include "tstack.h"

#define KERNEL_START (1ULL << 63)

/* the walk caches' tables: 2^PTQ_INSNS_BITS_FIRST instructions and blocks,
 * growing to 2^PTQ_INSNS_BITS (insncache.h) */
#define PTQ_INSNS_BITS_FIRST 13
#define PTQ_INSNS_BITS 15

#define PTQ_CPUS_LOW 256   /* CPUs whose current thread is in an array */

/* What the decoder's callbacks see (ptq.c): the thread the walk is in,
 * the perf time of the maps, and the caches.  Serial decoding: the
 * queue's pid and tid, &q->now and the replay's caches; decoding ahead
 * (ptq_ahead.c): those the decode-ahead thread sets. */
#define PTQ_WALK_FILES_BITS 6

struct walker {
	struct ptd_ptq *q;
	struct queue *pq;
	int32_t pid, tid;
	const uint64_t *now;
	struct ptd_map_hint maps;     /* the walk's last maps */
	struct ptd_pinsn *pinsn;
	struct ptd_insncache *insns;  /* decoded instructions by (file, offset) */
	struct ptd_jccruns *jcc;      /* runs of conditional branches, the same way */
	struct {                      /* walk_file's cache of the recent maps'
	                                 files, by file name (NULL: empty) */
		const char *fname;
		struct ptd_dsofile *file;
	} files[1 << PTQ_WALK_FILES_BITS];
	/* walk_map's last map (win.map; NULL: none yet), with its file, file
	 * offsets (file offset = ip + adj; the map's [start, end)) and its
	 * window: the map holds for ip - lo < len and now - from < tlen, for
	 * pid (len 0: no window); and the window before (walk_map_slow looks
	 * there first: calls across libraries go back and forth) */
	struct walk_win {
		const struct ptd_map *map;
		struct ptd_dsofile *file;
		uint64_t adj, start, end;
		uint64_t lo, len, from, tlen;
		int32_t pid;
	} win, prev;
	struct pdec_insn insn;        /* walk's answer when no cache holds it */
	struct {                      /* a chain noted (jccchain.h), from walk_chain */
		int on;                   /* until walk_chain_put, while walk_jcc finds its
		                             runs in win.map (no walk_jcc_slow) */
		uint64_t off, payload;    /* its key, with win.map */
		unsigned count;
	} rec;
	struct {                      /* a segment noted (segcache.h), from walk_seg_find */
		int on;                   /* until walk_seg_put, while every walk finds its
		                             code in map (no walk_map_slow) */
		const void *map;
	} seg;
};

struct ptd_ahead_q;

struct queue {
	struct ptd_ptq *q;
	const struct ptd_aux_queue *aq;
	uint32_t nr;
	size_t next_chunk;
	uint8_t *buf;                 /* the chunk being decoded */
	size_t buf_size, buf_cap;     /* its bytes, and its buffer's */
	uint8_t *spare;               /* a chunk's buffer to use again (ptq_walk.c) */
	size_t spare_cap;
	struct ptd_pdec *dec;
	const struct ptd_pstate *state;
	int32_t cpu, pid, tid;
	uint64_t timestamp;
	int have_sample, on_heap, done;
	uint32_t flags;
	uint8_t insn_len, insn[16];
	unsigned cbr_seen;
	uint64_t last_insn_cnt, ipc_insn_cnt, ipc_cyc_cnt;
	uint64_t last_br_insn_cnt, last_br_cyc_cnt, last_in_insn_cnt, last_in_cyc_cnt;
	int sample_ipc;
	uint64_t sel_timestamp;       /* --time: the next range start or end (TSC), 0 none */
	size_t sel_idx;
	int sel_start;                /* sel_timestamp is a start */
	struct ptd_ahead_q *ahead;    /* decoded ahead by a thread (NULL: serial) */
	/* the decoder's callbacks' (their ctx), on cache lines of their own:
	 * a decode-ahead thread uses them while the replay writes the rest */
	_Alignas(64) struct walker w;
};


struct ptd_ptq {
	struct ptd_notelog noted;     /* the records with a time, in order */
	struct ptd_session *s;
	const struct ptd_ptq_cfg *cfg;
	ptd_synth_fn fn;
	void *ctx;
	struct ptd_ptq_conf conf;     /* from AUXTRACE_INFO (ptq_conf.c) */
	struct queue *queues;
	size_t nr_queues;
	struct ptd_auxheap heap;      /* perf's auxtrace heap of queue numbers */
	/* each CPU's current thread, tid + 2 (so that -1 is storable, and 0
	 * is none): the first PTQ_CPUS_LOW in an array (the replay asks for
	 * the queue's at every record, a map took some 25 instructions), the
	 * others by cpu + 1 in a map */
	int64_t cur_tid_low[PTQ_CPUS_LOW];
	struct ptd_u64map cur_tid;
	struct ptd_pinsn *pinsn;      /* serial decoding's caches (struct walker) */
	struct ptd_insncache insns;
	struct ptd_jccruns jcc;
	struct ptd_ahead *ahead;      /* the decode-ahead threads (NULL: none) */
	uint64_t now;                 /* perf time: sideband applied up to here */
	uint64_t skip;
	int skip_branches;            /* no sample comes of a plain branch state */
	int skip_jumps;               /* nor of one of a conditional branch or a jump
	                                 (c, r): the decoders keep the others */
	struct ptd_tstacks stacks;
	uint64_t *chain;              /* callchain_sz entries */
	struct ptd_tstack_br *br;     /* last_branch_sz entries */
	struct ptd_timerange *tsc_ranges;   /* cfg->ranges in TSC */
	int stop;                     /* fn's non-zero value */
};

/* A sample's perf time: none (0) when decoding without timestamps. */
static inline uint64_t ptd_ptq_time(const struct ptd_ptq *q, uint64_t tsc)
{
	return q->conf.timeless ? 0 : ptd_tsc_to_perf_time(tsc, &q->conf.tc);
}

/* ptq.c, for ptq_ahead.c: the thread a queue is in, given the current
 * thread of its CPU (perf's intel_pt_set_pid_tid_cpu; *pid and *tid are
 * kept where it says nothing); does record n make tid the current thread
 * of n->cpu? */
void ptd_ptq_pid_tid(const struct ptd_ptq *q, const struct queue *pq, int32_t cur_tid,
		     int32_t *pid, int32_t *tid);
int ptd_ptq_noted_tid(const struct ptd_ptq *q, const struct ptd_noted *n, int32_t *tid);

/* ptq_walk.c: the decoder's callbacks (ctx: the queue's walker); pgd_ip
 * only with address filters */
void ptd_ptq_callbacks(struct pdec_params *p, int filters);

/* How a state moves the queue's timestamp (perf's intel_pt_run_decoder):
 * the largest skipped one, an error's estimate, the estimate upon return
 * to user space, else the largest. */
static inline void ptd_ptq_track_time(uint64_t *timestamp, const struct ptd_pstate *st,
				      int timeless)
{
	if (st->skipped_timestamp > *timestamp)
		*timestamp = st->skipped_timestamp;
	if (st->err) {
		if (st->err != PDEC_ERR_NODATA)
			*timestamp = st->est_timestamp;
	} else if (!timeless && ptd_pdec_to_user(st->from_ip, st->to_ip, KERNEL_START)) {
		*timestamp = st->est_timestamp;   /* estimated upon return to user space */
	} else if (st->timestamp > *timestamp) {
		*timestamp = st->timestamp;
	}
}

/* ptq_synth.c */
void ptd_ptq_sample_flags(struct queue *pq);
/* The ops (bit 1 << PDEC_OP_*) of the branches a branch sample filter
 * (conf.branches_filter, PTD_IPF_*) lets through */
uint32_t ptd_ptq_kept_ops(uint32_t filter);
int ptd_ptq_sample(struct ptd_ptq *q, struct queue *pq);
/* an error sample; pos: the trace position where it was found (0 unknown) */
int ptd_ptq_synth_error(struct ptd_ptq *q, int code, int32_t cpu, int32_t pid, int32_t tid,
			uint64_t ip, uint64_t time, uint64_t pos);

#endif
