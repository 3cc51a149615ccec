/* Time ordering of records: see ordered.h.
 *
 * Records mostly come in sorted runs (one CPU's ring buffer at a time), so
 * the queue keeps them as runs: a record joins the run it arrived after
 * when it is not older than that run's last, or else another run it is
 * not older than, or else starts a run of its own.  A small heap orders
 * the runs by their first records, and the next record out is the first
 * of the first run: a pop costs the depth of the heap of runs (the number
 * of CPUs, or so), not of all the queued records.  Every record carries
 * its arrival number, so equal timestamps come out in arrival order
 * across runs as within one. */
#include "ordered.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/hugemem.h"
#include "formats/perf/abi.h"
#include "formats/perf/cursor.h"

/* A record waits as its bytes and what its event needs besides them,
 * the sample_id trailer as the reader parsed it among them: the event's
 * header is filled again when it comes out (ptd_event_fill), and only a
 * SAMPLE, whose sample would take most of the event, is parsed again
 * (an event's fields are a function of its bytes and evsel).  A run
 * keeps its records in arrival order, which is the order they leave it
 * in, one after the other in slabs of memory: a record is written at the
 * end of the run's last slab, or of a new one, and taken from its first;
 * a slab whose records have all left is kept for the next ones (up to
 * MAX_SPARE small ones; every large one).  A run's first slab is small,
 * the next ones large: a run of one record (records in no order) takes
 * little.  Blocks malloc'd for each record, and arrays of them that grew
 * by doubling, cost more pages, and a page new to the process is dear
 * (doc/performance.md, the eighteenth and nineteenth rounds): the large
 * slabs are in the huge pages of common/hugemem.h, where the queue's few
 * hundred KB of a round of context switches are one page fault, or none
 * where the decoder's tables left room in their page, instead of one
 * each 4 KB. */
#define SMALL_SLAB 512
#define LARGE_SLAB (64u << 10)
#define MAX_SPARE 64

struct queued {
	uint64_t ts, seq;
	uint64_t offset;
	struct ptd_evsel *evsel;
	struct ptd_sample_id sid;   /* not a SAMPLE's: that is parsed again */
	uint32_t size;
	uint32_t compressed;
	uint8_t data[];             /* 8-byte aligned, as the reader's */
};

struct ptd_ordered_slab {
	struct ptd_ordered_slab *next;
	size_t cap, used;           /* bytes of data */
	long kind;                  /* 0 small, 1 large (huge pages), -1 its own size */
	uint8_t data[];             /* 8-byte aligned: records are */
};

_Static_assert(offsetof(struct ptd_ordered_slab, data) % 8 == 0, "slab data 8-byte aligned");

struct ptd_ordered_run {
	struct ptd_ordered_slab *first, *last;
	size_t head;                /* the first record's place in first */
	uint64_t last_ts;
};

/* the bytes a record of size bytes takes in a slab */
static size_t space(size_t size)
{
	return (sizeof(struct queued) + size + 7) & ~(size_t)7;
}

static const struct queued *first_of(const struct ptd_ordered_run *r)
{
	return (const struct queued *)(r->first->data + r->head);
}

/* a slab with room for need bytes, for a run with (more) or without one */
static struct ptd_ordered_slab *take_slab(struct ptd_ordered *o, size_t need, int more)
{
	size_t total = more ? LARGE_SLAB : SMALL_SLAB;
	int c = more;
	struct ptd_ordered_slab *b;

	if (need > total - sizeof(*b)) {
		total = sizeof(*b) + need;
		c = -1;   /* of its own size: freed when spent */
	}
	if (c >= 0 && (b = o->spare[c])) {
		o->spare[c] = b->next;
		o->nspare[c]--;
	} else if (!(b = c == 1 ? ptd_huge_zalloc(total) : malloc(total))) {
		return NULL;
	} else {
		b->cap = total - sizeof(*b);
		b->kind = c;
	}
	b->next = NULL;
	b->used = 0;
	return b;
}

static void put_slab(struct ptd_ordered *o, struct ptd_ordered_slab *b)
{
	int c = (int)b->kind;

	if (c < 0 || (!c && o->nspare[c] >= MAX_SPARE)) {
		free(b);
		return;
	}
	b->next = o->spare[c];
	o->spare[c] = b;
	o->nspare[c]++;
}

static void free_run(struct ptd_ordered *o, struct ptd_ordered_run *r)
{
	struct ptd_ordered_slab *b;

	while ((b = r->first)) {
		r->first = b->next;
		put_slab(o, b);
	}
	free(r);
}

/* The slab and the run the last record popped left, once it is no
 * longer read (its bytes are the event ptd_ordered_pop gave) */
static void drop_spent(struct ptd_ordered *o)
{
	if (o->spent) {
		put_slab(o, o->spent);
		o->spent = NULL;
	}
	if (o->spent_run) {
		free_run(o, o->spent_run);
		o->spent_run = NULL;
	}
}

void ptd_ordered_init(struct ptd_ordered *o)
{
	memset(o, 0, sizeof(*o));
}

void ptd_ordered_fini(struct ptd_ordered *o)
{
	struct ptd_ordered_slab *b;
	size_t i;
	int c;

	drop_spent(o);
	for (i = 0; i < o->nruns; i++)
		free_run(o, o->heap[i]);
	for (c = 0; c < 2; c++)
		while ((b = o->spare[c])) {
			o->spare[c] = b->next;
			if (c)
				ptd_huge_free(b);
			else
				free(b);
		}
	free(o->heap);
	memset(o, 0, sizeof(*o));
}

/* run a comes out before run b */
static int before(const struct ptd_ordered_run *a, const struct ptd_ordered_run *b)
{
	const struct queued *x = first_of(a), *y = first_of(b);

	return x->ts < y->ts || (x->ts == y->ts && x->seq < y->seq);
}

static void sift_up(struct ptd_ordered_run **h, size_t i)
{
	struct ptd_ordered_run *r = h[i];

	while (i && before(r, h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = r;
}

static void sift_down(struct ptd_ordered_run **h, size_t n, size_t i)
{
	struct ptd_ordered_run *r = h[i];
	size_t c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && before(h[c + 1], h[c]))
			c++;
		if (!before(h[c], r))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = r;
}

/* the run the record with timestamp ts joins, or NULL to start one */
static struct ptd_ordered_run *find_run(const struct ptd_ordered *o, uint64_t ts)
{
	size_t i;

	for (i = o->nrecent; i--;)
		if (o->recent[i]->last_ts <= ts)
			return o->recent[i];
	return NULL;
}

/* forget r (in recent[0, nrecent), oldest first), if it is there */
static void forget(struct ptd_ordered *o, const struct ptd_ordered_run *r)
{
	size_t i;

	for (i = 0; i < o->nrecent; i++)
		if (o->recent[i] == r) {
			memmove(o->recent + i, o->recent + i + 1,
				(o->nrecent - i - 1) * sizeof(*o->recent));
			o->nrecent--;
			return;
		}
}

/* remember r as the newest run that took a record */
static void touch(struct ptd_ordered *o, struct ptd_ordered_run *r)
{
	if (o->nrecent && o->recent[o->nrecent - 1] == r)
		return;
	forget(o, r);
	if (o->nrecent == PTD_ORDERED_SCAN)
		forget(o, o->recent[0]);
	o->recent[o->nrecent++] = r;
}

int ptd_ordered_push(struct ptd_ordered *o, const struct ptd_event *ev, uint64_t ts)
{
	size_t need = space(ev->size);
	struct ptd_ordered_run *r = find_run(o, ts);
	struct ptd_ordered_slab *b;
	struct queued *q;
	int fresh = !r;

	drop_spent(o);   /* the last record popped is no longer read */
	if (!r) {
		if (o->nruns == o->cap) {
			size_t ncap = o->cap ? 2 * o->cap : 16;
			struct ptd_ordered_run **n = realloc(o->heap, ncap * sizeof(*n));

			if (!n)
				return -PTD_E_NOMEM;
			o->heap = n;
			o->cap = ncap;
		}
		if (!(r = calloc(1, sizeof(*r))))
			return -PTD_E_NOMEM;
		if (!(r->first = r->last = take_slab(o, need, 0))) {
			free(r);
			return -PTD_E_NOMEM;
		}
		o->heap[o->nruns++] = r;
	} else if (need > r->last->cap - r->last->used) {
		if (!(b = take_slab(o, need, 1)))
			return -PTD_E_NOMEM;
		r->last->next = b;
		r->last = b;
	}
	b = r->last;
	q = (struct queued *)(b->data + b->used);
	b->used += need;
	q->ts = ts;
	q->seq = o->seq++;
	q->offset = ev->offset;
	q->evsel = ev->evsel;
	q->size = ev->size;
	q->compressed = !!ev->compressed;
	q->sid = ev->sid;
	memcpy(q->data, ev->data, ev->size);
	r->last_ts = ts;
	if (fresh)
		sift_up(o->heap, o->nruns - 1);
	touch(o, r);
	if (!o->len++ || ts > o->max_ts)
		o->max_ts = ts;
	o->bytes += sizeof(*q) + ev->size;
	return 0;
}

uint64_t ptd_ordered_round(struct ptd_ordered *o)
{
	uint64_t limit;

	if (!o->len)
		return 0;
	limit = o->next_flush;
	o->next_flush = o->max_ts;
	return limit;
}

const struct ptd_event *ptd_ordered_pop(struct ptd_ordered *o, uint64_t limit)
{
	struct ptd_ordered_run *r;
	struct ptd_ordered_slab *b;
	const struct queued *q;
	int sample;

	if (!o->len || !limit)
		return NULL;
	r = o->heap[0];
	q = first_of(r);
	if (q->ts > limit)
		return NULL;
	/* the event's bytes are in its slab, which stays as it is until the
	 * next pop or push (drop_spent) */
	drop_spent(o);
	sample = ptd_load_u32(q->data) == PTD_REC_SAMPLE;
	(void)ptd_event_fill(&o->out, q->data, q->size, q->offset, (int)q->compressed,
			     sample ? q->evsel : NULL, NULL);
	if (!sample) {   /* the trailer as the reader parsed it */
		o->out.evsel = q->evsel;
		o->out.sid = q->sid;
	}
	o->len--;
	o->bytes -= sizeof(*q) + q->size;
	r->head += space(q->size);
	if (r->head == r->first->used && r->first != r->last) {   /* the slab is spent */
		b = r->first;
		r->first = b->next;
		r->head = 0;
		o->spent = b;   /* put_slab sets its next */
	}
	if (r->head == r->first->used) {   /* the run is empty */
		forget(o, r);
		o->heap[0] = o->heap[--o->nruns];
		o->spent_run = r;
	}
	if (o->nruns)
		sift_down(o->heap, o->nruns, 0);
	return &o->out;
}

uint64_t ptd_ordered_overflow(const struct ptd_ordered *o)
{
	uint64_t lo, hi;

	if (o->bytes <= PTD_ORDERED_MAX_BYTES || !o->len)
		return 0;
	lo = first_of(o->heap[0])->ts;
	hi = o->max_ts;
	return lo + (hi - lo) / 2;
}
