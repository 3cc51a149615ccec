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
#include "tstack.h"

#define KERNEL_START (1ULL << 63)

/* A record as perf's Intel PT code sees it while processing events. */
struct noted {
	uint64_t time;
	uint32_t type;
	uint16_t misc;
	int32_t cpu, pid, tid;
	uint32_t np_pid, np_tid;
	uint64_t aux_flags;
};

struct queue {
	struct ptd_ptq *q;
	const struct ptd_aux_queue *aq;
	uint32_t nr;
	size_t next_chunk;
	uint8_t *buf;                 /* the chunk being decoded */
	size_t buf_size;
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
	struct ptd_map_hint maps;     /* the walk's last maps */
};


struct ptd_ptq {
	struct ptd_vec noted;         /* struct noted */
	struct ptd_session *s;
	const struct ptd_ptq_cfg *cfg;
	ptd_synth_fn fn;
	void *ctx;
	struct ptd_ptq_conf conf;     /* from AUXTRACE_INFO (ptq_conf.c) */
	struct queue *queues;
	size_t nr_queues;
	struct ptd_auxheap heap;      /* perf's auxtrace heap of queue numbers */
	struct ptd_u64map cur_tid;    /* cpu + 1 -> tid + 2 (so -1 is storable) */
	struct ptd_pinsn *pinsn;
	struct ptd_insncache insns;   /* decoded instructions by (file, offset) */
	struct ptd_jccruns jcc;       /* runs of conditional branches, the same way */
	const char *walk_fname;       /* the walk's last map file name, */
	struct ptd_dsofile *walk_file;  /* and its file (NULL: none yet) */
	uint64_t now;                 /* perf time: sideband applied up to here */
	uint64_t skip;
	int skip_branches;            /* no sample comes of a plain branch state */
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

/* ptq_synth.c */
void ptd_ptq_sample_flags(struct queue *pq);
int ptd_ptq_sample(struct ptd_ptq *q, struct queue *pq);
/* an error sample; pos: the trace position where it was found (0 unknown) */
int ptd_ptq_synth_error(struct ptd_ptq *q, int code, int32_t cpu, int32_t pid, int32_t tid,
			uint64_t ip, uint64_t time, uint64_t pos);

#endif
