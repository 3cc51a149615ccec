/* A small perf.data with an Intel PT AUX area whose faults are known:
 * tests check the AUX queues and gap entries against what was put in, and
 * --stats / --dump against perf on the same file.  `gen_aux OUT.data`
 * writes it (testdata/synthetic/gen_aux.data is its output).
 *
 * What it writes (perf times in ns):
 *   cpu 0: AUX [0,4096) at 1000 + AUXTRACE;  AUX [4096,8192) at 2000
 *          TRUNCATED + AUXTRACE;  AUX [8192,12288) at 3000, no AUXTRACE
 *   cpu 1: AUX [0,2048) at 1500 COLLISION|PARTIAL + AUXTRACE
 *   LOST (5 records) at 2500 on cpu 1, LOST_SAMPLES (3) at 2600 on cpu 0
 *   AUXTRACE_ERROR (code 7, overflow) at 2700 on cpu 0
 * and the AUXTRACE index feature listing the three AUXTRACE records.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/perf/abi.h"
#include "formats/perf/recbuf.h"
#include "formats/perf/writer.h"
#include "tests/synth_aux.h"

#define PT_PMU 8
#define ST (PTD_SAMPLE_TID | PTD_SAMPLE_TIME | PTD_SAMPLE_CPU | PTD_SAMPLE_IDENTIFIER)
#define ID 42

static struct ptd_writer *w;
static struct ptd_err err;
static int failed;
static uint64_t index_entries[2 * 8];   /* AUXTRACE index: file offset, size */
static unsigned nr_index;

static void die(void)
{
	if (!failed)
		fprintf(stderr, "gen_aux: %s\n", err.msg);
	failed = 1;
}

static void emit(struct ptd_recbuf *rb)
{
	size_t n = ptd_rb_finish(rb);

	if (!n || ptd_writer_data(w, rb->buf, n, NULL, &err))
		die();
}

static void trailer(struct ptd_recbuf *rb, uint32_t cpu, uint64_t time)
{
	struct ptd_sample_id sid = { .pid = 100, .tid = 100, .time = time, .id = ID, .cpu = cpu };

	ptd_rb_sample_id(rb, ST, &sid);
}

static void aux(uint32_t cpu, uint64_t time, uint64_t off, uint64_t size, uint64_t flags)
{
	struct ptd_recbuf rb;

	ptd_rb_start(&rb, PTD_REC_AUX, 0);
	ptd_rb_u64(&rb, off);
	ptd_rb_u64(&rb, size);
	ptd_rb_u64(&rb, flags);
	trailer(&rb, cpu, time);
	emit(&rb);
}

/* PSB+ then PAD bytes: valid Intel PT that decodes to nothing */
static void auxtrace(uint32_t idx, uint32_t cpu, uint64_t off, uint64_t size)
{
	static const uint8_t psb[16] = { 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
					 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82 };
	struct ptd_recbuf rb;
	uint8_t *payload = calloc(1, size);

	memcpy(payload, psb, sizeof(psb));
	payload[16] = 0x02;
	payload[17] = 0x23;   /* PSBEND; the rest are PAD (0) */
	ptd_rb_start(&rb, PTD_REC_AUXTRACE, 0);
	ptd_rb_u64(&rb, size);
	ptd_rb_u64(&rb, off);
	ptd_rb_u64(&rb, 0);       /* reference */
	ptd_rb_u32(&rb, idx);
	ptd_rb_u32(&rb, 100);     /* tid */
	ptd_rb_u32(&rb, cpu);
	ptd_rb_u32(&rb, 0);
	if (ptd_rb_finish(&rb) && nr_index < 8 &&
	    !ptd_writer_data(w, rb.buf, rb.len, &index_entries[2 * nr_index], &err)) {
		index_entries[2 * nr_index + 1] = rb.len;   /* the record, as perf writes it */
		nr_index++;
	} else {
		die();
	}
	if (ptd_writer_data(w, payload, size, NULL, &err))
		die();
	free(payload);
}

static void feature_string(unsigned bit, const char *s)
{
	uint8_t buf[256] = { 0 };
	uint32_t len = (uint32_t)((strlen(s) + 1 + 63) & ~63u);

	memcpy(buf, &len, 4);
	memcpy(buf + 4, s, strlen(s));
	if (ptd_writer_feature(w, bit, buf, 4 + len, &err))
		die();
}

int ptd_test_write_aux(const char *path)
{
	return ptd_test_write_aux_index(path, 0);
}

int ptd_test_write_aux_index(const char *path, int reversed)
{
	uint8_t attr[128] = { 0 };
	uint64_t v, id = ID;
	uint32_t u;
	struct ptd_recbuf rb;
	int i;

	failed = 0;
	nr_index = 0;
	if (ptd_writer_open(&w, path, &err)) {
		die();
		return -1;
	}
	u = PT_PMU; memcpy(attr + 0, &u, 4);           /* type */
	u = 128; memcpy(attr + 4, &u, 4);              /* size */
	v = ST; memcpy(attr + 24, &v, 8);              /* sample_type */
	v = (1ULL << 18) | (1ULL << 8) | (1ULL << 9) | (1ULL << 23) | (1ULL << 5);
	memcpy(attr + 40, &v, 8);                      /* sample_id_all, mmap, comm, mmap2, exclude_kernel */
	if (ptd_writer_attr(w, attr, sizeof(attr), &id, 1, &err))
		die();

	/* AUXTRACE_INFO for intel_pt: 17 private words as perf writes them */
	ptd_rb_start(&rb, PTD_REC_AUXTRACE_INFO, 0);
	ptd_rb_u32(&rb, PTD_AUXTRACE_INTEL_PT);
	ptd_rb_u32(&rb, 0);
	ptd_rb_u64(&rb, PT_PMU);          /* pmu type */
	ptd_rb_u64(&rb, 31);              /* time_shift */
	ptd_rb_u64(&rb, 1u << 31);        /* time_mult: 1 ns per tick */
	ptd_rb_u64(&rb, 0);               /* time_zero */
	ptd_rb_u64(&rb, 1);               /* cap_user_time_zero */
	ptd_rb_u64(&rb, 1ULL << 10);      /* tsc bit */
	ptd_rb_u64(&rb, 1ULL << 11);      /* noretcomp bit */
	ptd_rb_u64(&rb, 0);               /* have_sched_switch */
	ptd_rb_u64(&rb, 0);               /* snapshot mode */
	ptd_rb_u64(&rb, 1);               /* per-cpu mmaps */
	ptd_rb_u64(&rb, 1ULL << 9);       /* mtc bit */
	ptd_rb_u64(&rb, 14);              /* mtc freq bits */
	ptd_rb_u64(&rb, 2);               /* tsc_ctc_ratio_n */
	ptd_rb_u64(&rb, 1);               /* tsc_ctc_ratio_d */
	ptd_rb_u64(&rb, 1ULL << 1);       /* cyc bit */
	ptd_rb_u64(&rb, 0);               /* max non-turbo ratio */
	ptd_rb_u64(&rb, 0);               /* filter string length */
	emit(&rb);

	ptd_rb_start(&rb, PTD_REC_TIME_CONV, 0);
	ptd_rb_u64(&rb, 31);
	ptd_rb_u64(&rb, 1u << 31);
	ptd_rb_u64(&rb, 0);
	emit(&rb);

	ptd_rb_start(&rb, PTD_REC_COMM, PTD_MISC_COMM_EXEC);
	ptd_rb_u32(&rb, 100);
	ptd_rb_u32(&rb, 100);
	ptd_rb_str(&rb, "loop");
	trailer(&rb, 0, 500);
	emit(&rb);

	ptd_rb_start(&rb, PTD_REC_MMAP2, PTD_MISC_USER);
	ptd_rb_u32(&rb, 100);
	ptd_rb_u32(&rb, 100);
	ptd_rb_u64(&rb, 0x400000);
	ptd_rb_u64(&rb, 0x1000);
	ptd_rb_u64(&rb, 0);
	ptd_rb_u32(&rb, 8);       /* maj */
	ptd_rb_u32(&rb, 1);       /* min */
	ptd_rb_u64(&rb, 1234);    /* ino */
	ptd_rb_u64(&rb, 0);
	ptd_rb_u32(&rb, 5);       /* PROT_READ | PROT_EXEC */
	ptd_rb_u32(&rb, 2);       /* MAP_PRIVATE */
	ptd_rb_str(&rb, "/usr/bin/loop");
	trailer(&rb, 0, 600);
	emit(&rb);

	for (i = 0; i < 2; i++) {
		ptd_rb_start(&rb, PTD_REC_ITRACE_START, 0);
		ptd_rb_u32(&rb, 100);
		ptd_rb_u32(&rb, 100);
		trailer(&rb, (uint32_t)i, 700 + (uint64_t)i);
		emit(&rb);
	}

	aux(0, 1000, 0, 4096, 0);
	aux(1, 1500, 0, 2048, PTD_AUX_FLAG_COLLISION | PTD_AUX_FLAG_PARTIAL);
	ptd_rb_start(&rb, PTD_REC_FINISHED_ROUND, 0);
	emit(&rb);
	auxtrace(0, 0, 0, 4096);
	auxtrace(1, 1, 0, 2048);
	aux(0, 2000, 4096, 4096, PTD_AUX_FLAG_TRUNCATED);

	ptd_rb_start(&rb, PTD_REC_LOST, 0);
	ptd_rb_u64(&rb, ID);
	ptd_rb_u64(&rb, 5);
	trailer(&rb, 1, 2500);
	emit(&rb);

	ptd_rb_start(&rb, PTD_REC_LOST_SAMPLES, 0);
	ptd_rb_u64(&rb, 3);
	trailer(&rb, 0, 2600);
	emit(&rb);

	ptd_rb_start(&rb, PTD_REC_AUXTRACE_ERROR, 0);
	ptd_rb_u32(&rb, 1);       /* type: instruction trace */
	ptd_rb_u32(&rb, 7);       /* code: overflow */
	ptd_rb_u32(&rb, 0);       /* cpu */
	ptd_rb_u32(&rb, 100);     /* pid */
	ptd_rb_u32(&rb, 100);     /* tid */
	ptd_rb_u32(&rb, 1);       /* fmt: with time */
	ptd_rb_u64(&rb, 0x400123);
	ptd_rb_u64(&rb, 2700);
	{
		char msg[64] = "Overflow packet";

		ptd_rb_bytes(&rb, msg, sizeof(msg));
	}
	ptd_rb_u32(&rb, 0);       /* machine_pid */
	ptd_rb_u32(&rb, 0);       /* vcpu */
	emit(&rb);

	aux(0, 3000, 8192, 4096, 0);
	ptd_rb_start(&rb, PTD_REC_FINISHED_ROUND, 0);
	emit(&rb);
	auxtrace(0, 0, 4096, 4096);

	feature_string(PTD_FEAT_HOSTNAME, "gen-aux");
	feature_string(PTD_FEAT_ARCH, "x86_64");
	feature_string(PTD_FEAT_CPUID, "GenuineIntel,6,85,4");
	{
		uint8_t pm[64] = { 0 };
		uint32_t nr = 1, type = PT_PMU, len = 16;

		memcpy(pm, &nr, 4);
		memcpy(pm + 4, &type, 4);
		memcpy(pm + 8, &len, 4);
		memcpy(pm + 12, "intel_pt", 8);
		if (ptd_writer_feature(w, PTD_FEAT_PMU_MAPPINGS, pm, 12 + len, &err))
			die();
	}
	{
		uint64_t idx[1 + 2 * 8];

		unsigned j;

		idx[0] = nr_index;
		for (j = 0; j < nr_index; j++)
			memcpy(idx + 1 + 2 * j, &index_entries[2 * (reversed ? nr_index - 1 - j : j)], 16);
		if (ptd_writer_feature(w, PTD_FEAT_AUXTRACE, idx, 8 + 16 * nr_index, &err))
			die();
	}
	if (ptd_writer_close(w, &err))
		die();
	return failed ? -1 : 0;
}

#ifndef PTD_SYNTH_AUX_LIB
int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen_aux OUT.data\n");
		return 1;
	}
	return ptd_test_write_aux(argv[1]) ? 1 : 0;
}
#endif
