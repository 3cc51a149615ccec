/* The session on the synthetic AUX recording (tests/gen_aux.c): queues,
 * chunk times and flags, gaps and the sideband model must be exactly what
 * the recording was made of. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/perf/abi.h"
#include "session.h"
#include "tests/synth_aux.h"
#include "tests/tap.h"

static const struct ptd_aux_queue *queue(struct ptd_session *s, size_t i)
{
	return *(struct ptd_aux_queue **)ptd_vec_at(&s->auxq.queues, i);
}

static const struct ptd_aux_chunk *chunk(const struct ptd_aux_queue *q, size_t i)
{
	return ptd_vec_at(&q->chunks, i);
}

/* The recording's checks, with its AUXTRACE index in order or reversed
 * (the reader reads up to the next payload the index lists: only a hint) */
static void check(int reversed)
{
	char path[] = "/tmp/ptd-aux-XXXXXX";
	struct ptd_session *s = NULL;
	struct ptd_err err = { 0 };
	struct ptd_session_opts so = { 0 };
	const struct ptd_aux_queue *q0, *q1;
	const struct ptd_aux_chunk *c;
	struct ptd_auxq_iter it;
	const struct ptd_map *m;
	uint8_t head[2];
	static const struct { int cause; uint64_t time; int32_t cpu; int32_t queue; uint64_t bytes, count; } want[] = {
		{ PTD_GAP_AUX_COLLISION, 1500, 1, 1, 0, 0 },
		{ PTD_GAP_AUX_PARTIAL, 1500, 1, 1, 0, 0 },
		{ PTD_GAP_AUX_TRUNCATED, 2000, 0, 0, 0, 0 },
		{ PTD_GAP_LOST, 2500, 1, -1, 0, 5 },
		{ PTD_GAP_LOST_SAMPLES, 2600, 0, -1, 0, 3 },
		{ PTD_GAP_AUXTRACE_ERROR, 2700, 0, -1, 0, 7 },
		{ PTD_GAP_NO_PAYLOAD, 3000, 0, 0, 4096, 0 },
	};
	size_t i;
	int fd = mkstemp(path);


	if (fd < 0 || ptd_test_write_aux_index(path, reversed)) {
		ok(0, "write the synthetic recording");
		return;
	}
	close(fd);
	ok(!ptd_session_open(&s, path, &so, &err), "open (index %s): %s",
	   reversed ? "reversed" : "in order", err.msg);
	is_u64(ptd_reader_features(s->reader)->nr_auxtrace_index, 3, "the index's 3 entries kept");
	ok(!ptd_session_run(s, &err), "run: %s", err.msg);

	is_u64(s->stats.nr_total, 18, "18 records");
	is_u64(s->stats.nr[PTD_REC_AUX], 4, "4 AUX records");
	is_u64(s->stats.nr[PTD_REC_AUXTRACE], 3, "3 AUXTRACE records");
	ok(s->auxinfo.present && s->auxinfo.type == PTD_AUXTRACE_INTEL_PT, "AUXTRACE_INFO intel_pt");
	is_u64(s->auxinfo.nr_priv, 17, "17 private words");
	ok(s->have_time_conv && s->time_conv.time_mult == (1u << 31), "TIME_CONV taken");
	is_u64(ptd_tsc_to_perf_time(123456, &s->time_conv), 123456, "1:1 clock");

	is_u64(s->auxq.queues.len, 2, "two queues");
	q0 = queue(s, 0);
	q1 = queue(s, 1);
	ok(q0->cpu == 0 && q1->cpu == 1, "queues by cpu");
	is_u64(q0->chunks.len, 2, "cpu 0: two chunks");
	c = chunk(q0, 0);
	ok(c->aux_offset == 0 && c->size == 4096 && c->time == 1000 && c->flags == 0,
	   "cpu 0 chunk 0: [0,4096) at 1000, no flags");
	c = chunk(q0, 1);
	ok(c->aux_offset == 4096 && c->size == 4096 && c->time == 2000 &&
	   c->flags == PTD_AUX_FLAG_TRUNCATED, "cpu 0 chunk 1: [4096,8192) at 2000, truncated");
	is_u64(q0->nr_aux, 3, "cpu 0: three AUX records");
	is_u64(q0->aux_bytes, 12288, "cpu 0: AUX announces 12288 bytes");
	c = chunk(q1, 0);
	ok(c->size == 2048 && c->time == 1500 &&
	   c->flags == (PTD_AUX_FLAG_COLLISION | PTD_AUX_FLAG_PARTIAL), "cpu 1 chunk: collision+partial at 1500");

	ok(!ptd_reader_read_payload(s->reader, &chunk(q0, 0)->payload, 0, head, 2, &err) &&
	   head[0] == 2 && head[1] == 0x82, "payload starts with a PSB");
	ok(ptd_reader_read_payload(s->reader, &chunk(q0, 0)->payload, 4095, head, 2, &err) < 0,
	   "reading past a payload fails");

	is_u64(s->auxq.gaps.len, sizeof(want) / sizeof(want[0]), "gap count");
	for (i = 0; i < s->auxq.gaps.len && i < sizeof(want) / sizeof(want[0]); i++) {
		const struct ptd_gap *g = ptd_vec_at(&s->auxq.gaps, i);

		ok(g->cause == want[i].cause && g->time == want[i].time && g->cpu == want[i].cpu &&
		   g->queue == want[i].queue && g->bytes == want[i].bytes && g->count == want[i].count,
		   "gap %zu: %s at %llu", i, ptd_gap_cause_name(want[i].cause),
		   (unsigned long long)want[i].time);
	}

	ok(!ptd_auxq_iter_init(&it, &s->auxq), "iterator");
	{
		const struct ptd_aux_queue *q;
		uint64_t times[3] = { 0 };
		int n = 0;

		while (n < 3 && ptd_auxq_iter_next(&it, &q, &c) > 0)
			times[n++] = c->time;
		ok(n == 3 && times[0] == 1000 && times[1] == 1500 && times[2] == 2000,
		   "chunks come in time order across queues");
	}
	ptd_auxq_iter_fini(&it);

	is_str(ptd_machine_comm_at(&s->machine, 100, 650), "loop", "comm of tid 100");
	m = ptd_machine_find_map(&s->machine, 100, 0, 0x400123, 650);
	ok(m && !strcmp(m->filename, "/usr/bin/loop"), "map of 0x400123 after the MMAP2");
	ok(!ptd_machine_find_map(&s->machine, 100, 0, 0x400123, 599), "no map before the MMAP2");
	ok(!ptd_machine_find_map(&s->machine, 100, 0, 0x401000, 650), "map end is exclusive");

	ptd_session_close(s);
	unlink(path);
}

int main(void)
{
	check(0);
	check(1);
	return done_testing();
}
