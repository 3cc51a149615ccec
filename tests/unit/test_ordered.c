/* The ordering queue (src/ordered.h) against a stable sort by timestamp:
 * records come out in time order, equal timestamps in arrival order, and
 * a pop never passes its limit.  Arrivals as perf record writes them
 * (each CPU's sorted stretch in turn, with equal timestamps across CPUs),
 * in random order (a run of its own for almost every record), and
 * interleaved with pops, as at each FINISHED_ROUND, the runs' space
 * taken again as records are released; each record comes out as it went
 * in (type, size, offset, bytes and sample_id trailer). */
#include <stdlib.h>
#include <string.h>

#include "ordered.h"
#include "tests/tap.h"
#include "xorshift.h"

#define N 20000

struct rec {
	uint64_t ts;
	uint32_t id;              /* arrival order */
};

static uint64_t x = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void)
{
	return xorshift64(&x);
}

static int by_ts(const void *a, const void *b)
{
	const struct rec *p = a, *q = b;

	if (p->ts != q->ts)
		return p->ts < q->ts ? -1 : 1;
	return p->id < q->id ? -1 : p->id > q->id;   /* stable: arrival order */
}

/* a record (type 99: not a sample) of 16 bytes, of 200 for every third,
 * of 300 for every seventh, of 1000 for every eleventh (more than a
 * run's first slab holds) and of 65535 for every 101st (more than any
 * slab), with its arrival number at byte 8 and, times 8, as its file
 * offset */
static uint16_t rec_size(uint32_t id)
{
	if (id % 101 == 0)
		return 65535;
	if (id % 11 == 0)
		return 1000;
	return id % 7 ? id % 3 ? 16 : 200 : 300;
}

static int push(struct ptd_ordered *o, const struct rec *r)
{
	static uint8_t data[65535];
	uint32_t type = 99, misc_size = (uint32_t)rec_size(r->id) << 16;
	struct ptd_event ev;

	memset(&ev, 0, sizeof(ev));
	memcpy(data, &type, 4);
	memcpy(data + 4, &misc_size, 4);
	memcpy(data + 8, &r->id, sizeof(r->id));
	memset(data + 12, 0x5a, rec_size(r->id) - 12u);
	ev.offset = (uint64_t)r->id * 8;
	ev.type = type;
	ev.size = rec_size(r->id);
	ev.data = data;
	ev.sid.have = r->id;
	ev.sid.pid = r->id + 1;
	ev.sid.tid = r->id + 2;
	ev.sid.time = r->ts;
	ev.sid.id = r->id + 3;
	ev.sid.stream_id = r->id + 4;
	ev.sid.cpu = r->id + 5;
	return ptd_ordered_push(o, &ev, r->ts);
}

/* ev is the record push made of arrival number id */
static int same_record(const struct ptd_event *ev, uint32_t id)
{
	size_t i;
	int good = ev->type == 99 && ev->size == rec_size(id) && ev->offset == (uint64_t)id * 8 &&
		   ev->sid.have == id && ev->sid.pid == id + 1 && ev->sid.tid == id + 2 &&
		   ev->sid.id == id + 3 && ev->sid.stream_id == id + 4 && ev->sid.cpu == id + 5;

	for (i = 12; good && i < ev->size; i++)
		good = ev->data[i] == 0x5a;
	return good;
}

/* pop everything up to limit into out[*n...]; 0 when a record passed it */
static int drain(struct ptd_ordered *o, uint64_t limit, struct rec *out, size_t *n,
		 const struct rec *by_id)
{
	const struct ptd_event *ev;
	int within = 1;

	while ((ev = ptd_ordered_pop(o, limit))) {
		uint32_t id;

		memcpy(&id, ev->data + 8, sizeof(id));
		out[(*n)++] = by_id[id];
		within &= by_id[id].ts <= limit && ev->sid.time == by_id[id].ts && same_record(ev, id);
	}
	return within;
}

/* push in[0..n) in arrival order, popping at each round's limit as the
 * session does when round > 0; compare with the stable sort */
static int check(const struct rec *in, size_t n, size_t round, const char *what)
{
	struct rec *want = malloc(n * sizeof(*want)), *got = malloc(n * sizeof(*got));
	struct ptd_ordered o;
	size_t i, k = 0;
	int good = 1, within = 1;

	ptd_ordered_init(&o);
	for (i = 0; i < n; i++) {
		good &= !push(&o, &in[i]);
		if (round && (i + 1) % round == 0)
			within &= drain(&o, ptd_ordered_round(&o), got, &k, in);
	}
	within &= drain(&o, UINT64_MAX, got, &k, in);
	memcpy(want, in, n * sizeof(*want));
	if (!round)
		qsort(want, n, sizeof(*want), by_ts);
	/* with rounds, what came out must be sorted and hold every record */
	for (i = 0; round && i + 1 < k; i++)
		good &= by_ts(&got[i], &got[i + 1]) < 0;
	if (round)
		qsort(got, k, sizeof(*got), by_ts), qsort(want, n, sizeof(*want), by_ts);
	good &= k == n && !memcmp(want, got, n * sizeof(*got)) && within;
	ok(good, "%s: %zu records out of %zu, in order%s", what, k, n,
	   within ? "" : ", but a pop passed its limit or changed a record");
	ptd_ordered_fini(&o);
	free(want);
	free(got);
	return good;
}

int main(void)
{
	static struct rec in[N];
	uint64_t cpu_ts[8] = { 0 };
	struct ptd_ordered o;
	struct rec r;
	size_t i, c;

	/* 8 CPUs' buffers, 100 records each in turn, timestamps from a
	 * coarse clock so that CPUs share some */
	for (i = 0; i < N; i++) {
		c = (i / 100) % 8;
		cpu_ts[c] += rnd() % 3;
		in[i].ts = 1000 + cpu_ts[c];
		in[i].id = (uint32_t)i;
	}
	check(in, N, 0, "8 CPUs' sorted stretches");
	for (i = 0; i < N; i++)
		in[i].ts = 1 + rnd() % 500;
	check(in, N, 0, "random timestamps, many equal");
	for (i = 0; i < N; i++)
		in[i].ts = N - i;
	check(in, N, 0, "falling timestamps (a run for each)");
	/* rounds: a flush releases up to the largest timestamp seen before the
	 * previous round, as perf's does; each round's records are later than
	 * all of the round before the previous one */
	for (i = 0; i < N; i++) {
		c = (i / 100) % 8;
		if (i % 800 == 0)
			memset(cpu_ts, 0, sizeof(cpu_ts));
		cpu_ts[c] += rnd() % 5;
		in[i].ts = 1000 * (i / 800) + cpu_ts[c];
	}
	check(in, N, 800, "8 CPUs, a FINISHED_ROUND every 800 records");

	/* the limit: nothing later than it comes out */
	ptd_ordered_init(&o);
	for (i = 0; i < 10; i++) {
		r.ts = 100 - i * 10;
		r.id = (uint32_t)i;
		push(&o, &r);
	}
	c = 0;
	while (ptd_ordered_pop(&o, 50))
		c++;
	ok(c == 5, "limit 50: the 5 records at 10 to 50 come out (%zu)", c);
	ok(!ptd_ordered_pop(&o, 0), "limit 0: none");
	ptd_ordered_fini(&o);   /* the other 5 are freed (leak check under ASan) */
	return done_testing();
}
