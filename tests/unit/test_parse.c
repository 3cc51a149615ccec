/* Parsing of attrs, sample ids, samples and records from bytes: layouts as
 * the perf_event ABI defines them, and refusal of what does not fit. */
#include <string.h>

#include "formats/perf/abi.h"
#include "formats/perf/evlist.h"
#include "formats/perf/recbuf.h"
#include "formats/perf/records.h"
#include "formats/perf/sample.h"
#include "tests/tap.h"
#include "tsc.h"

static struct ptd_evsel *add(struct ptd_evlist *el, uint64_t st, uint64_t id)
{
	uint8_t attr[112] = { 0 };
	uint64_t flags = 1ULL << 18;   /* sample_id_all */
	uint32_t size = sizeof(attr);
	struct ptd_evsel *ev = NULL;
	struct ptd_err err;

	memcpy(attr + 4, &size, 4);
	memcpy(attr + 24, &st, 8);
	memcpy(attr + 40, &flags, 8);
	ptd_evlist_add(el, attr, sizeof(attr), &id, 1, &ev, &err);
	return ev;
}

int main(void)
{
	struct ptd_evlist el;
	struct ptd_evsel *a, *b;
	struct ptd_recbuf rb;
	struct ptd_sample_id sid = { .pid = 7, .tid = 8, .time = 99, .id = 2, .cpu = 3 }, out;
	struct ptd_sample s;
	struct ptd_err err;
	uint64_t st = PTD_SAMPLE_IDENTIFIER | PTD_SAMPLE_IP | PTD_SAMPLE_TID | PTD_SAMPLE_TIME |
		      PTD_SAMPLE_CPU | PTD_SAMPLE_PERIOD | PTD_SAMPLE_CALLCHAIN | PTD_SAMPLE_RAW;
	size_t n;

	ptd_evlist_init(&el);
	a = add(&el, st, 1);
	b = add(&el, st, 2);
	ok(a && b && el.id_pos == 0 && el.is_pos == 1, "IDENTIFIER: id first in samples, last in trailers");
	is_u64(a->id_hdr_size, 32, "trailer: tid, time, cpu, identifier");

	/* a COMM with a trailer that names evsel b */
	ptd_rb_start(&rb, PTD_REC_COMM, 0);
	ptd_rb_u32(&rb, 7);
	ptd_rb_u32(&rb, 8);
	ptd_rb_str(&rb, "prog");
	ptd_rb_sample_id(&rb, st, &sid);
	n = ptd_rb_finish(&rb);
	ok(ptd_evlist_for_record(&el, rb.buf, n, 0) == b, "trailer id selects the evsel");
	ok(!ptd_parse_sample_id(b, rb.buf, n, &out) && out.pid == 7 && out.tid == 8 &&
	   out.time == 99 && out.cpu == 3 && out.id == 2, "trailer fields");
	ok(ptd_parse_sample_id(b, rb.buf, 16, &out) < 0, "trailer longer than the record is refused");
	memset(rb.buf + n - 8, 0, 8);
	ok(ptd_evlist_for_record(&el, rb.buf, n, 0) == a, "id 0 (perf-synthesized) means the first evsel");

	/* a sample with a 2-entry callchain and 5 raw bytes */
	ptd_rb_start(&rb, PTD_REC_SAMPLE, PTD_MISC_USER);
	ptd_rb_u64(&rb, 2);            /* identifier */
	ptd_rb_u64(&rb, 0x401000);     /* ip */
	ptd_rb_u32(&rb, 7);
	ptd_rb_u32(&rb, 8);
	ptd_rb_u64(&rb, 1234);         /* time */
	ptd_rb_u32(&rb, 1);            /* cpu */
	ptd_rb_u32(&rb, 0);
	ptd_rb_u64(&rb, 4000);         /* period */
	ptd_rb_u64(&rb, 2);            /* callchain nr */
	ptd_rb_u64(&rb, 0x401000);
	ptd_rb_u64(&rb, 0x402000);
	ptd_rb_u32(&rb, 5);            /* raw size */
	ptd_rb_bytes(&rb, "abcde", 5);
	ptd_rb_pad8(&rb);
	n = ptd_rb_finish(&rb);
	ok(ptd_evlist_for_record(&el, rb.buf, n, 1) == b, "sample id selects the evsel");
	ok(!ptd_sample_parse(b, rb.buf, n, &s, &err), "sample parses: %s", err.msg);
	ok(s.ip == 0x401000 && s.pid == 7 && s.tid == 8 && s.time == 1234 && s.cpu == 1 &&
	   s.period == 4000 && s.nr_callchain == 2 && s.raw_size == 5 && !memcmp(s.raw, "abcde", 5),
	   "sample fields");
	ok(ptd_sample_parse(b, rb.buf, n - 8, &s, &err) < 0, "a cut sample is refused");
	{
		uint64_t huge = UINT64_MAX / 4;

		memcpy(rb.buf + 8 + 6 * 8, &huge, 8);   /* callchain nr */
		ok(ptd_sample_parse(b, rb.buf, n, &s, &err) < 0, "an impossible callchain length is refused");
	}

	/* MMAP2 with a name that is not terminated inside the record */
	ptd_rb_start(&rb, PTD_REC_MMAP2, 0);
	ptd_rb_u32(&rb, 1);
	ptd_rb_u32(&rb, 1);
	ptd_rb_u64(&rb, 0x1000);
	ptd_rb_u64(&rb, 0x1000);
	ptd_rb_u64(&rb, 0);
	ptd_rb_u32(&rb, 0);
	ptd_rb_u32(&rb, 0);
	ptd_rb_u64(&rb, 0);
	ptd_rb_u64(&rb, 0);
	ptd_rb_u32(&rb, 5);
	ptd_rb_u32(&rb, 2);
	ptd_rb_bytes(&rb, "/bin/xxx", 8);
	n = ptd_rb_finish(&rb);
	{
		struct ptd_event ev = { .type = PTD_REC_MMAP2, .size = (uint16_t)n, .data = rb.buf };
		struct ptd_rec_mmap m;

		ok(ptd_rec_mmap(&ev, &m, &err) < 0, "MMAP2 without a terminated name is refused");
		rb.buf[n - 1] = 0;
		ok(!ptd_rec_mmap(&ev, &m, &err) && !strcmp(m.filename, "/bin/xx") && m.prot == 5,
		   "MMAP2 fields");
	}

	{
		struct ptd_time_conv tc = { .time_shift = 10, .time_mult = 600, .time_zero = 1000 };
		uint64_t t = ptd_tsc_to_perf_time(1ULL << 40, &tc);

		is_u64(t, 1000 + (1ULL << 30) * 600, "tsc to perf time");
		is_u64(ptd_perf_time_to_tsc(t, &tc), 1ULL << 40, "and back");
	}
	ptd_evlist_fini(&el);
	return done_testing();
}
