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

#include <stdlib.h>
#include <string.h>

#include "formats/perf/abi.h"

/* A record waits as its bytes and what its event needs besides them;
 * the event is parsed again when it comes out (ptd_event_fill).  Records
 * that fit a block of 128 or 256 bytes (context switches, comms, forks,
 * maps with their names: class_data) are copied into one, which the
 * queue keeps for the next records when they are released (up to
 * MAX_SPARE of each size) instead of freeing it: malloc and free of a
 * few hundred bytes cost more than the rest of a record's way through
 * the queue. */
#define NCLASS PTD_ORDERED_CLASSES
#define MAX_SPARE 4096

struct queued {
	uint64_t offset;
	struct ptd_evsel *evsel;
	uint32_t size;
	uint16_t compressed;
	uint16_t cls;               /* its block's size class, NCLASS: malloc'd */
	uint8_t data[];             /* 8-byte aligned, as the reader's */
};

/* the size classes' blocks: 128 and 256 bytes */
static const size_t class_data[NCLASS] = { 128 - sizeof(struct queued), 256 - sizeof(struct queued) };

struct ptd_ordered_spare {
	struct ptd_ordered_spare *next;
};

struct ent {
	uint64_t ts, seq;
	struct queued *q;
};

struct ptd_ordered_run {
	struct ent *e;
	size_t head, len, cap;
};

void ptd_ordered_init(struct ptd_ordered *o)
{
	memset(o, 0, sizeof(*o));
}

static void free_run(struct ptd_ordered_run *r)
{
	free(r->e);
	free(r);
}

void ptd_ordered_fini(struct ptd_ordered *o)
{
	size_t i, j;
	unsigned c;

	for (i = 0; i < o->nruns; i++) {
		for (j = o->heap[i]->head; j < o->heap[i]->len; j++)
			free(o->heap[i]->e[j].q);
		free_run(o->heap[i]);
	}
	free(o->out_block);
	for (c = 0; c < NCLASS; c++)
		while (o->spare[c]) {
			struct ptd_ordered_spare *n = o->spare[c]->next;

			free(o->spare[c]);
			o->spare[c] = n;
		}
	free(o->heap);
	memset(o, 0, sizeof(*o));
}

/* run a comes out before run b */
static int before(const struct ptd_ordered_run *a, const struct ptd_ordered_run *b)
{
	const struct ent *x = &a->e[a->head], *y = &b->e[b->head];

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

static int append(struct ptd_ordered_run *r, const struct ent *e)
{
	if (r->len == r->cap) {
		size_t live = r->len - r->head, ncap;
		struct ent *n;

		if (r->head && r->head >= live) {   /* half of it is spent: slide */
			memmove(r->e, r->e + r->head, live * sizeof(*r->e));
			r->head = 0;
			r->len = live;
		} else {
			ncap = r->cap ? 2 * r->cap : 64;
			if (!(n = realloc(r->e, ncap * sizeof(*n))))
				return -1;
			r->e = n;
			r->cap = ncap;
		}
	}
	r->e[r->len++] = *e;
	return 0;
}

/* the run the record with timestamp ts joins, or NULL to start one */
static struct ptd_ordered_run *find_run(const struct ptd_ordered *o, uint64_t ts)
{
	size_t i;

	for (i = o->nrecent; i--;)
		if (o->recent[i]->e[o->recent[i]->len - 1].ts <= ts)
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

static struct queued *take_block(struct ptd_ordered *o, size_t size)
{
	struct queued *q;
	unsigned c = 0;

	while (c < NCLASS && size > class_data[c])
		c++;
	if (c < NCLASS && o->spare[c]) {
		q = (struct queued *)o->spare[c];
		o->spare[c] = o->spare[c]->next;
		o->nspare[c]--;
	} else {
		q = malloc(sizeof(*q) + (c < NCLASS ? class_data[c] : size));
	}
	if (q)
		q->cls = (uint16_t)c;
	return q;
}

static void put_block(struct ptd_ordered *o, struct queued *q)
{
	struct ptd_ordered_spare *b = (struct ptd_ordered_spare *)q;

	if (!q)
		return;
	if (q->cls >= NCLASS || o->nspare[q->cls] >= MAX_SPARE) {
		free(q);
		return;
	}
	b->next = o->spare[q->cls];
	o->spare[q->cls] = b;
	o->nspare[q->cls]++;
}

int ptd_ordered_push(struct ptd_ordered *o, const struct ptd_event *ev, uint64_t ts)
{
	struct queued *q = take_block(o, ev->size);
	struct ptd_ordered_run *r;
	struct ent ent;

	if (!q)
		return -PTD_E_NOMEM;
	q->offset = ev->offset;
	q->evsel = ev->evsel;
	q->size = ev->size;
	q->compressed = !!ev->compressed;
	memcpy(q->data, ev->data, ev->size);
	ent.ts = ts;
	ent.seq = o->seq++;
	ent.q = q;
	if ((r = find_run(o, ts))) {
		if (append(r, &ent))
			goto nomem;
	} else {
		if (o->nruns == o->cap) {
			size_t ncap = o->cap ? 2 * o->cap : 16;
			struct ptd_ordered_run **n = realloc(o->heap, ncap * sizeof(*n));

			if (!n)
				goto nomem;
			o->heap = n;
			o->cap = ncap;
		}
		if (!(r = calloc(1, sizeof(*r))) || append(r, &ent)) {
			free(r);
			goto nomem;
		}
		o->heap[o->nruns++] = r;
		sift_up(o->heap, o->nruns - 1);
	}
	touch(o, r);
	if (!o->len++ || ts > o->max_ts)
		o->max_ts = ts;
	o->bytes += sizeof(*q) + ev->size;
	return 0;
nomem:
	put_block(o, q);
	return -PTD_E_NOMEM;
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
	struct queued *q;

	put_block(o, o->out_block);
	o->out_block = NULL;
	if (!o->len || !limit)
		return NULL;
	r = o->heap[0];
	if (r->e[r->head].ts > limit)
		return NULL;
	q = r->e[r->head++].q;
	if (r->head == r->len) {
		forget(o, r);
		free_run(r);
		o->heap[0] = o->heap[--o->nruns];
	}
	if (o->nruns)
		sift_down(o->heap, o->nruns, 0);
	o->len--;
	o->bytes -= sizeof(*q) + q->size;
	o->out_block = q;
	/* parsed as the reader parsed it: the same bytes and evsel */
	(void)ptd_event_fill(&o->out, q->data, q->size, q->offset, q->compressed, q->evsel, NULL);
	return &o->out;
}

uint64_t ptd_ordered_overflow(const struct ptd_ordered *o)
{
	uint64_t lo, hi;

	if (o->bytes <= PTD_ORDERED_MAX_BYTES || !o->len)
		return 0;
	lo = o->heap[0]->e[o->heap[0]->head].ts;
	hi = o->max_ts;
	return lo + (hi - lo) / 2;
}
