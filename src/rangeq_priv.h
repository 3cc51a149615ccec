/* The range queues' shared state: perf's queue and packet handling
 * (rangeq.c) and the samples it synthesizes from the packets
 * (rangeq_synth.c). */
#ifndef PTD_RANGEQ_PRIV_H
#define PTD_RANGEQ_PRIV_H

#include "rangeq.h"
#include "rangesynth.h"

#define RQ_CHANS 128
#define RQ_PENDING 4

/* perf's traceid queue: its packet queue, timestamp state and thread */
struct rq_chan {
	struct ptd_trace_sample *pkt;   /* decoded, not synthesized yet */
	unsigned n, cap;
	uint64_t cs_ts, next_ts, instr;
	int32_t pid, tid;               /* the thread being traced */
};

/* one AUX queue (perf's cs_etm_queue) */
struct rq_queue {
	const struct ptd_aux_queue *aq;
	size_t next_chunk;              /* aq->chunks index of the next chunk to open */
	struct ptd_decoder *d;          /* the open chunk's decoder, or NULL */
	uint8_t *data;                  /* its trace */
	int done;                       /* d has given everything */
	int32_t pid, tid;               /* the queue's thread (per-thread recordings) */
	struct ptd_rangesynth rs;
	uint64_t period_insns[RQ_CHANS];  /* per trace ID: instructions since the last sample */
	/* ends of trace held until the queue's next chunk (perf never ends
	 * OpenCSD's stream: the decoder reset at the next buffer ends it),
	 * where they come first (inj) */
	struct ptd_trace_sample held[RQ_CHANS], inj[RQ_CHANS];
	unsigned nheld, ninj, injected;
	struct rq_chan *chan[RQ_CHANS];   /* allocated when used */
	int ts_chan;                    /* perf's pending_timestamp_chan_id + 1; 0: none */
};

struct rq {
	struct ptd_session *s;
	const struct ptd_decoder_ops *ops;
	const struct ptd_rangeq_cfg *cfg;
	struct ptd_resolver *rv;
	ptd_synth_fn fn;
	void *ctx;
	struct ptd_image *im;
	char *trace_ids;                /* the backend's "trace-ids" setting, or NULL */
	struct ptd_map_hint hint;
	struct rq_queue *cur;           /* the queue being decoded or synthesized */
	struct rq_chan *cur_chan;       /* the trace ID being synthesized */
	uint64_t now;                   /* perf time of the sideband state to read code and resolve with */
	uint64_t time;                  /* the samples' time */
	/* branches rangesynth gave while it took a range: they follow the
	 * range's instruction samples */
	struct ptd_rs_branch pending[RQ_PENDING];
	uint8_t pending_isa[RQ_PENDING];
	unsigned npending;
	int holding;
	uint32_t in_flags;              /* flags of the last branch given while holding */
	int in_given;
	int rc;                         /* fn's non-zero value */
	int oom;                        /* a packet queue could not grow */
};

/* rangesynth's emit function (ctx: the struct rq) */
int ptd_rq_on_branch(void *ctx, const struct ptd_rs_branch *b);

/* One packet of q->cur through perf's cs_etm__sample rules: instruction
 * and branch samples, an error sample for a GAP with --itrace=e.
 * Returns 0, or -1 when fn failed (its value in q->rc). */
int ptd_rq_synth(struct rq *q, const struct ptd_trace_sample *t);

#endif
