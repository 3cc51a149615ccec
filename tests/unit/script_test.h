/* What the script printer's unit tests share (test_script.c,
 * test_script_kept.c): the events of testdata/record/loops.data as perf
 * 6.1 names them, and samples built by hand, printed as one line. */
#ifndef PTD_TESTS_UNIT_SCRIPT_TEST_H
#define PTD_TESTS_UNIT_SCRIPT_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/out/script.h"
#include "formats/perf/abi.h"
#include "tests/tap.h"

#define ST_PT (PTD_SAMPLE_IP | PTD_SAMPLE_TID | PTD_SAMPLE_TIME | PTD_SAMPLE_CPU | \
	       PTD_SAMPLE_IDENTIFIER)
#define ST_BR (ST_PT | PTD_SAMPLE_PERIOD | PTD_SAMPLE_ADDR)
#define ST_IN (ST_PT | PTD_SAMPLE_PERIOD)
#define ST_SY (ST_PT | PTD_SAMPLE_RAW)
#define BR PTD_IPF_BRANCH
#define IPF(x) PTD_IPF_##x

/* loops.data: the file's two events, then what the decoder synthesizes
 * (perf 6.1 names the intel_pt event "unknown attr type: 8": width 20) */
static struct ptd_script_evsel ev_loops[] = {
	{ 8, 0x2401, 1, ST_PT, "unknown attr type: 8" },
	{ 1, 9, 1, ST_PT, "dummy:uH" },
	{ 0, 4, 1, ST_BR, "branches:uH" },
	{ 0, 1, 57245, ST_IN, "instructions:uH" },
	{ PTD_SCRIPT_TYPE_SYNTH, PTD_SCRIPT_SYNTH_CBR, 1, ST_SY, "cbr" },
	{ PTD_SCRIPT_TYPE_SYNTH, PTD_SCRIPT_SYNTH_PSB, 1, ST_SY, "psb" },
};
#define EV_BR (&ev_loops[2])
#define EV_IN (&ev_loops[3])
#define EV_CBR (&ev_loops[4])
#define EV_PSB (&ev_loops[5])
#define NLOOPS (sizeof(ev_loops) / sizeof(ev_loops[0]))

/* Options as a perf command line has them, checked against ev (n_file
 * of them from the file); NULL on a refusal. */
static inline struct ptd_script *setup(struct ptd_script *ps, const char *const *F, int ns,
				const struct ptd_script_evsel *ev, size_t n, size_t n_file)
{
	FILE *sink = fopen("/dev/null", "w");   /* perf's warnings are tested elsewhere */
	int rc = 0;

	ptd_script_init(ps);
	for (; F && *F && !rc; F++)
		rc = ptd_script_parse_fields(ps, *F, sink);
	ps->ns = ns;
	if (!rc)
		rc = ptd_script_setup(ps, ev, n, n_file, 1, sink);
	if (sink)
		fclose(sink);
	return rc ? NULL : ps;
}

static inline char *render(struct ptd_script *ps, const struct ptd_script_sample *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (ptd_script_print(ps, f, s))
		ok(0, "print failed");
	fclose(f);
	return buf;
}

static inline void check(struct ptd_script *ps, const struct ptd_script_sample *s, const char *want,
		  const char *what)
{
	char *got = render(ps, s);
	char line[4096];

	snprintf(line, sizeof(line), "%s\n", want);
	is_str(got, line, "%s", what);
	free(got);
}

static inline struct ptd_script_loc L(const char *sym, uint64_t off, const char *dso)
{
	struct ptd_script_loc l = { sym, off, dso, NULL };

	return l;
}

static inline struct ptd_script_sample S(const struct ptd_script_evsel *ev, const char *comm, int tid,
				  int cpu, uint64_t time, uint32_t flags, uint64_t ip,
				  struct ptd_script_loc il, uint64_t addr, struct ptd_script_loc al)
{
	struct ptd_script_sample s;

	memset(&s, 0, sizeof(s));
	s.evsel = ev;
	s.comm = comm;
	s.pid = s.tid = tid;
	s.cpu = cpu;
	s.time = time;
	s.flags = flags;
	s.ip = ip;
	s.ip_loc = il;
	s.addr = addr;
	s.addr_loc = al;
	s.period = ev->sample_period;
	return s;
}

#define LOOPS "/bin/loops"
#define U L(NULL, 0, NULL)
#define T0 2000001000013ULL

#endif
