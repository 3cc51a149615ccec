#include "ordered.h"

#include <stdlib.h>
#include <string.h>

#include "formats/perf/abi.h"

struct queued {
	struct ptd_event ev;
	uint8_t data[];
};

void ptd_ordered_init(struct ptd_ordered *o)
{
	memset(o, 0, sizeof(*o));
}

void ptd_ordered_fini(struct ptd_ordered *o)
{
	struct ptd_heap_ent e;

	while (!ptd_heap_pop(&o->heap, &e))
		free(e.item);
	ptd_heap_fini(&o->heap);
}

int ptd_ordered_push(struct ptd_ordered *o, const struct ptd_event *ev, uint64_t ts)
{
	struct queued *q = malloc(sizeof(*q) + ev->size);
	struct ptd_err e;

	if (!q)
		return -PTD_E_NOMEM;
	q->ev = *ev;
	memcpy(q->data, ev->data, ev->size);
	q->ev.data = q->data;
	/* the parsed sample points into the record: parse it again from the copy */
	if (ev->type == PTD_REC_SAMPLE && ev->sample_ok &&
	    ptd_sample_parse(ev->evsel, q->data, ev->size, &q->ev.sample, &e))
		q->ev.sample_ok = 0;
	if (ptd_heap_push(&o->heap, ts, q)) {
		free(q);
		return -PTD_E_NOMEM;
	}
	if (o->heap.len == 1 || ts > o->max_ts)
		o->max_ts = ts;
	o->bytes += sizeof(*q) + ev->size;
	return 0;
}

uint64_t ptd_ordered_round(struct ptd_ordered *o)
{
	uint64_t limit;

	if (!o->heap.len)
		return 0;
	limit = o->next_flush;
	o->next_flush = o->max_ts;
	return limit;
}

struct ptd_event *ptd_ordered_pop(struct ptd_ordered *o, uint64_t limit)
{
	struct ptd_heap_ent e;
	struct queued *q;

	if (!o->heap.len || o->heap.e[0].key > limit || !limit)
		return NULL;
	ptd_heap_pop(&o->heap, &e);
	q = e.item;
	o->bytes -= sizeof(*q) + q->ev.size;
	return &q->ev;
}

void ptd_ordered_free(struct ptd_event *ev)
{
	free(ev);   /* the event is the first member of its struct queued */
}

uint64_t ptd_ordered_overflow(const struct ptd_ordered *o)
{
	uint64_t lo, hi;

	if (o->bytes <= PTD_ORDERED_MAX_BYTES || !o->heap.len)
		return 0;
	lo = o->heap.e[0].key;
	hi = o->max_ts;
	return lo + (hi - lo) / 2;
}
