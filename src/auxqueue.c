#include "auxqueue.h"

#include <stdlib.h>
#include <string.h>

#include "formats/perf/abi.h"

#define MAX_QUEUES 65536
#define MAX_CHUNKS_PER_QUEUE (1u << 24)
#define MAX_ENTRIES (1u << 26)      /* AUX records or gaps */

struct aux_rec {
	uint64_t aux_offset, aux_size, flags;
	uint64_t time;
	int32_t cpu, tid;
	uint64_t file_offset;
	uint64_t seq;
	size_t qorder;          /* index of its queue in q->queues, SIZE_MAX: none */
};

static const char *const cause_names[PTD_GAP_NR] = {
	[PTD_GAP_AUX_TRUNCATED] = "aux-truncated",
	[PTD_GAP_AUX_COLLISION] = "aux-collision",
	[PTD_GAP_AUX_PARTIAL] = "aux-partial",
	[PTD_GAP_NO_PAYLOAD] = "missing-aux-data",
	[PTD_GAP_LOST] = "lost-records",
	[PTD_GAP_LOST_SAMPLES] = "lost-samples",
	[PTD_GAP_AUXTRACE_ERROR] = "auxtrace-error",
};

const char *ptd_gap_cause_name(int cause)
{
	return cause >= 0 && cause < PTD_GAP_NR ? cause_names[cause] : "unknown";
}

void ptd_auxq_init(struct ptd_auxq *q)
{
	memset(q, 0, sizeof(*q));
	q->by_idx.limit = MAX_QUEUES;
	q->queues.elsize = sizeof(struct ptd_aux_queue *);
	q->queues.limit = MAX_QUEUES;
	q->aux.elsize = sizeof(struct aux_rec);
	q->aux.limit = MAX_ENTRIES;
	q->gaps.elsize = sizeof(struct ptd_gap);
	q->gaps.limit = MAX_ENTRIES;
}

void ptd_auxq_fini(struct ptd_auxq *q)
{
	size_t i;

	for (i = 0; i < q->queues.len; i++) {
		struct ptd_aux_queue *aq = *(struct ptd_aux_queue **)ptd_vec_at(&q->queues, i);

		ptd_vec_fini(&aq->chunks);
		free(aq);
	}
	ptd_vec_fini(&q->queues);
	ptd_u64map_fini(&q->by_idx);
	ptd_vec_fini(&q->aux);
	ptd_vec_fini(&q->gaps);
}

int ptd_auxq_add_chunk(struct ptd_auxq *q, const struct ptd_rec_auxtrace *rec,
		       const struct ptd_payload *payload, uint64_t file_offset, struct ptd_err *err)
{
	struct ptd_aux_queue *aq = ptd_u64map_get(&q->by_idx, rec->idx);
	struct ptd_aux_chunk *c;

	if (!aq) {
		struct ptd_aux_queue **slot;

		aq = calloc(1, sizeof(*aq));
		if (!aq)
			return ptd_err_set(err, PTD_E_NOMEM, "AUX queue");
		aq->idx = rec->idx;
		aq->cpu = (int32_t)rec->cpu;
		aq->tid = (int32_t)rec->tid;
		aq->chunks.elsize = sizeof(struct ptd_aux_chunk);
		aq->chunks.limit = MAX_CHUNKS_PER_QUEUE;
		slot = ptd_vec_push(&q->queues);
		if (!slot || ptd_u64map_put(&q->by_idx, rec->idx, aq)) {
			free(aq);
			return ptd_err_set(err, PTD_E_LIMIT, "more than %d AUX queues", MAX_QUEUES);
		}
		*slot = aq;
	}
	c = ptd_vec_push(&aq->chunks);
	if (!c)
		return ptd_err_set(err, PTD_E_LIMIT, "more than %u AUXTRACE chunks in queue %u",
				   MAX_CHUNKS_PER_QUEUE, rec->idx);
	c->queue = aq;
	c->aux_offset = rec->offset;
	c->size = rec->size;
	c->reference = rec->reference;
	c->tid = (int32_t)rec->tid;
	c->cpu = (int32_t)rec->cpu;
	c->file_offset = file_offset;
	if (payload)
		c->payload = *payload;
	aq->bytes += rec->size;
	return 0;
}

int ptd_auxq_add_aux(struct ptd_auxq *q, const struct ptd_rec_aux *rec,
		     const struct ptd_sample_id *sid, uint64_t file_offset, struct ptd_err *err)
{
	struct aux_rec *a = ptd_vec_push(&q->aux);

	if (!a)
		return ptd_err_set(err, PTD_E_LIMIT, "too many AUX records");
	a->aux_offset = rec->aux_offset;
	a->aux_size = rec->aux_size;
	a->flags = rec->flags;
	a->time = sid->time;
	if ((sid->have & PTD_SAMPLE_TIME) && sid->time != UINT64_MAX && sid->time > q->last_aux_time)
		q->last_aux_time = sid->time;
	a->cpu = (int32_t)sid->cpu;
	a->tid = (int32_t)sid->tid;
	a->file_offset = file_offset;
	a->seq = q->aux.len;
	return 0;
}

int ptd_auxq_add_gap(struct ptd_auxq *q, const struct ptd_gap *gap, struct ptd_err *err)
{
	struct ptd_gap *g = ptd_vec_push(&q->gaps);

	if (!g)
		return ptd_err_set(err, PTD_E_LIMIT, "too many gaps");
	*g = *gap;
	return 0;
}

/* Give each AUX record its queue: same CPU, or same thread for per-thread
 * queues (cpu -1). */
static int assign_queues(struct ptd_auxq *q, struct ptd_err *err)
{
	struct ptd_u64map by_cpu = { 0 }, by_tid = { 0 };
	struct aux_rec *all = q->aux.data;
	size_t i;
	int rc = 0;

	for (i = 0; i < q->queues.len && !rc; i++) {
		struct ptd_aux_queue *aq = *(struct ptd_aux_queue **)ptd_vec_at(&q->queues, i);
		struct ptd_u64map *m = aq->cpu != -1 ? &by_cpu : &by_tid;
		uint64_t k = (uint32_t)(aq->cpu != -1 ? aq->cpu : aq->tid);

		aq->order = i;
		if (!ptd_u64map_get(m, k) && ptd_u64map_put(m, k, aq))
			rc = ptd_err_set(err, PTD_E_NOMEM, "AUX queue map");
	}
	for (i = 0; i < q->aux.len && !rc; i++) {
		struct ptd_aux_queue *aq = ptd_u64map_get(&by_cpu, (uint32_t)all[i].cpu);

		if (!aq)
			aq = ptd_u64map_get(&by_tid, (uint32_t)all[i].tid);
		all[i].qorder = aq ? aq->order : SIZE_MAX;
	}
	ptd_u64map_fini(&by_cpu);
	ptd_u64map_fini(&by_tid);
	return rc;
}

static int by_queue_offset(const void *x, const void *y)
{
	const struct aux_rec *a = x, *b = y;

	if (a->qorder != b->qorder)
		return a->qorder < b->qorder ? -1 : 1;
	if (a->aux_offset != b->aux_offset)
		return a->aux_offset < b->aux_offset ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int by_time(const void *x, const void *y)
{
	const struct ptd_gap *a = x, *b = y;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	if (a->file_offset != b->file_offset)
		return a->file_offset < b->file_offset ? -1 : 1;
	return a->cause - b->cause;
}

static int flag_gaps(struct ptd_auxq *q, const struct aux_rec *a, int32_t qidx, struct ptd_err *err)
{
	static const struct { uint64_t flag; int cause; } fl[] = {
		{ PTD_AUX_FLAG_TRUNCATED, PTD_GAP_AUX_TRUNCATED },
		{ PTD_AUX_FLAG_COLLISION, PTD_GAP_AUX_COLLISION },
		{ PTD_AUX_FLAG_PARTIAL, PTD_GAP_AUX_PARTIAL },
	};
	size_t i;

	for (i = 0; i < sizeof(fl) / sizeof(fl[0]); i++) {
		struct ptd_gap g = {
			.cause = fl[i].cause, .time = a->time, .cpu = a->cpu, .tid = a->tid,
			.queue = qidx, .aux_offset = a->aux_offset, .file_offset = a->file_offset,
		};

		if ((a->flags & fl[i].flag) && ptd_auxq_add_gap(q, &g, err))
			return -err->code;
	}
	return 0;
}

/* Match the queue's AUX records (sorted by aux_offset) to its chunks. */
static int match_queue(struct ptd_auxq *q, struct ptd_aux_queue *aq, struct aux_rec *recs,
		       size_t n, struct ptd_err *err)
{
	size_t i, j, first = 0;

	for (i = 0; i < n; i++) {
		struct aux_rec *a = &recs[i];
		uint64_t end = a->aux_offset + a->aux_size, covered = 0;

		aq->nr_aux++;
		aq->aux_bytes += a->aux_size;
		aq->flags |= a->flags;
		if (flag_gaps(q, a, (int32_t)aq->idx, err))
			return -err->code;
		/* chunks are in increasing aux_offset order in a normal recording;
		 * skip those that end before this record starts */
		while (first < aq->chunks.len) {
			struct ptd_aux_chunk *c = ptd_vec_at(&aq->chunks, first);

			if (c->aux_offset + c->size > a->aux_offset || c->aux_offset > a->aux_offset)
				break;
			first++;
		}
		for (j = first; j < aq->chunks.len && a->aux_size; j++) {
			struct ptd_aux_chunk *c = ptd_vec_at(&aq->chunks, j);
			uint64_t lo, hi;

			if (c->aux_offset >= end)
				break;
			lo = c->aux_offset > a->aux_offset ? c->aux_offset : a->aux_offset;
			hi = c->aux_offset + c->size < end ? c->aux_offset + c->size : end;
			if (hi <= lo)
				continue;
			covered += hi - lo;
			if (!c->timed || a->time < c->time)
				c->time = a->time;
			c->timed = 1;
			c->flags |= a->flags;
			c->nr_aux++;
		}
		/* snapshot (OVERWRITE) buffers keep only what a snapshot saved */
		if (covered < a->aux_size && !(a->flags & PTD_AUX_FLAG_OVERWRITE)) {
			struct ptd_gap g = {
				.cause = PTD_GAP_NO_PAYLOAD, .time = a->time, .cpu = a->cpu,
				.tid = a->tid, .queue = (int32_t)aq->idx, .aux_offset = a->aux_offset,
				.bytes = a->aux_size - covered, .file_offset = a->file_offset,
			};

			if (ptd_auxq_add_gap(q, &g, err))
				return -err->code;
		}
	}
	return 0;
}

static int by_file_offset(const void *x, const void *y)
{
	const struct aux_rec *a = x, *b = y;

	return a->file_offset < b->file_offset ? -1 : a->file_offset > b->file_offset;
}

/* Chunks no AUX record covered (snapshots, odd offsets) take the time of
 * the last AUX record of their queue written before them in the file, else
 * of the first one after.  recs is sorted here by file offset. */
static void time_untimed(struct ptd_aux_queue *aq, struct aux_rec *recs, size_t n)
{
	size_t j;

	if (!n)
		return;
	qsort(recs, n, sizeof(*recs), by_file_offset);
	for (j = 0; j < aq->chunks.len; j++) {
		struct ptd_aux_chunk *c = ptd_vec_at(&aq->chunks, j);
		size_t lo = 0, hi = n;

		if (c->timed)
			continue;
		while (lo < hi) {       /* first record at or after the chunk */
			size_t mid = lo + (hi - lo) / 2;

			if (recs[mid].file_offset < c->file_offset)
				lo = mid + 1;
			else
				hi = mid;
		}
		c->time = lo ? recs[lo - 1].time : recs[0].time;
	}
}

int ptd_auxq_finish(struct ptd_auxq *q, struct ptd_err *err)
{
	struct aux_rec *all = q->aux.data;
	size_t i, start;
	int rc;

	if (q->finished)
		return 0;
	q->finished = 1;
	if ((rc = assign_queues(q, err)))
		return rc;
	if (q->aux.len)
		qsort(all, q->aux.len, sizeof(*all), by_queue_offset);
	for (start = 0; start < q->aux.len; ) {
		size_t end = start, order = all[start].qorder;

		while (end < q->aux.len && all[end].qorder == order)
			end++;
		if (order == SIZE_MAX) {
			/* no queue at all: the data was never saved */
			for (i = start; i < end; i++) {
				struct ptd_gap g = {
					.cause = PTD_GAP_NO_PAYLOAD, .time = all[i].time, .cpu = all[i].cpu,
					.tid = all[i].tid, .queue = -1, .aux_offset = all[i].aux_offset,
					.bytes = all[i].aux_size, .file_offset = all[i].file_offset,
				};

				q->nr_unmatched_aux++;
				if ((rc = flag_gaps(q, &all[i], -1, err)))
					return rc;
				if (all[i].aux_size && !(all[i].flags & PTD_AUX_FLAG_OVERWRITE) &&
				    (rc = ptd_auxq_add_gap(q, &g, err)))
					return rc;
			}
		} else {
			struct ptd_aux_queue *aq = *(struct ptd_aux_queue **)ptd_vec_at(&q->queues, order);

			if ((rc = match_queue(q, aq, all + start, end - start, err)))
				return rc;
			time_untimed(aq, all + start, end - start);
		}
		start = end;
	}
	for (start = 0; start < q->queues.len; start++) {
		struct ptd_aux_queue *aq = *(struct ptd_aux_queue **)ptd_vec_at(&q->queues, start);

		for (i = 0; i < aq->chunks.len; i++) {
			const struct ptd_aux_chunk *c = ptd_vec_at(&aq->chunks, i);

			if (!i || c->time < aq->first_time)
				aq->first_time = c->time;
			if (c->time > aq->last_time)
				aq->last_time = c->time;
		}
	}
	if (q->gaps.len)
		qsort(q->gaps.data, q->gaps.len, sizeof(struct ptd_gap), by_time);
	return 0;
}

int ptd_auxq_iter_init(struct ptd_auxq_iter *it, const struct ptd_auxq *q)
{
	size_t i;

	memset(it, 0, sizeof(*it));
	it->q = q;
	for (i = 0; i < q->queues.len; i++) {
		struct ptd_aux_queue *aq = *(struct ptd_aux_queue **)ptd_vec_at(&q->queues, i);
		const struct ptd_aux_chunk *c;

		if (!aq->chunks.len)
			continue;
		c = ptd_vec_at(&aq->chunks, 0);
		if (ptd_heap_push(&it->heap, c->time, (void *)c))
			return -PTD_E_NOMEM;
	}
	return 0;
}

int ptd_auxq_iter_next(struct ptd_auxq_iter *it, const struct ptd_aux_queue **queue,
		       const struct ptd_aux_chunk **chunk)
{
	struct ptd_heap_ent e;
	struct ptd_aux_queue *aq;
	size_t pos;

	if (ptd_heap_pop(&it->heap, &e))
		return 0;
	*chunk = e.item;
	aq = (*chunk)->queue;
	*queue = aq;
	pos = (size_t)(*chunk - (const struct ptd_aux_chunk *)aq->chunks.data);
	if (pos + 1 < aq->chunks.len) {
		const struct ptd_aux_chunk *n = ptd_vec_at(&aq->chunks, pos + 1);

		/* a queue's chunks are in file order: never let time run backwards */
		if (ptd_heap_push(&it->heap, n->time < e.key ? e.key : n->time, (void *)n))
			return -PTD_E_NOMEM;
	}
	return 1;
}

void ptd_auxq_iter_fini(struct ptd_auxq_iter *it)
{
	ptd_heap_fini(&it->heap);
}
