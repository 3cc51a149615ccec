/* The ptxed writer (formats/out/ptxed.c): each kind of sample printed the
 * way libipt's ptxed prints it (ptxed.c's print_insn, print_event and
 * diagnose), with and without --event:ip / --event:time, --quiet and the
 * instruction statistics. */
#include <stdlib.h>
#include <string.h>

#include "formats/out/ptxed.h"
#include "tests/tap.h"

static struct ptd_trace_sample ev(int event, uint64_t ip)
{
	struct ptd_trace_sample s;

	ptd_trace_sample_init(&s);
	s.kind = PTD_TS_EVENT;
	s.event = (uint16_t)event;
	s.ip = ip;
	return s;
}

/* print samples with opts; returns the text (static buffer) */
static const char *print(const struct ptd_ptxed_opts *opts, const struct ptd_trace_sample *s, size_t n)
{
	static char text[4096];
	struct ptd_ptxed w;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	ptd_ptxed_init(&w, f, opts);
	for (i = 0; i < n; i++)
		ptd_ptxed_sample(&w, &s[i]);
	ptd_ptxed_finish(&w);
	fclose(f);
	snprintf(text, sizeof(text), "%s", buf ? buf : "");
	free(buf);
	return text;
}

int main(void)
{
	struct ptd_ptxed_opts plain = { 0 }, ips = { 0 }, times = { 0 }, quiet = { 0 };
	struct ptd_trace_sample s[16];
	size_t n = 0;

	ips.event_ip = 1;
	times.event_time = 1;
	quiet.quiet = 1;
	quiet.stat_insn = 1;

	ptd_trace_sample_init(&s[n]);
	s[n].kind = PTD_TS_INSN;
	s[n++].ip = 0x100000;
	ptd_trace_sample_init(&s[n]);
	s[n].kind = PTD_TS_INSN;
	s[n].flags = PTD_SF_SPECULATIVE;
	s[n++].ip = 0x100005;
	is_str(print(&plain, s, n), "0000000000100000\n? 0000000000100005\n", "instructions, speculative with '? '");

	n = 0;
	s[n++] = ev(PTD_EV_ENABLED, 0x1000);
	s[n++] = ev(PTD_EV_RESUMED, 0x1000);
	s[n] = ev(PTD_EV_DISABLED, 0);
	s[n++].flags = PTD_SF_IP_SUPPRESSED;
	s[n] = ev(PTD_EV_ASYNC_DISABLED, 0x1001);
	s[n++].to_ip = 0x2000;
	s[n] = ev(PTD_EV_INTERRUPT, 0x1002);
	s[n++].to_ip = 0x3000;
	s[n] = ev(PTD_EV_EXEC_MODE, 0x1003);
	s[n++].u.exec_mode.mode = PTD_MODE_32;
	s[n] = ev(PTD_EV_TSX, 0x1004);
	s[n++].u.tsx.aborted = 1;
	s[n] = ev(PTD_EV_PWRE, 0);
	s[n].u.pwre.state = 0;
	s[n].u.pwre.sub_state = 0xf;
	s[n++].u.pwre.hw = 1;
	s[n] = ev(PTD_EV_PWRX, 0);
	s[n].u.pwrx.interrupt = 1;
	s[n].u.pwrx.last = 0;
	s[n++].u.pwrx.deepest = 0xf;
	s[n] = ev(PTD_EV_PAGING, 0);
	s[n].u.paging.cr3 = 0x1234000;
	s[n++].u.paging.non_root = 1;
	s[n] = ev(PTD_EV_PTWRITE, 0x1005);
	s[n++].u.ptwrite.payload = 0xabcd;
	s[n] = ev(PTD_EV_OVERFLOW, 0x1006);
	s[n].flags = PTD_SF_STATUS_UPDATE;   /* not printed */
	n++;
	is_str(print(&plain, s, n),
	       "[enabled]\n[resumed]\n[disabled]\n[disabled]\n[interrupt]\n[exec mode: 32-bit]\n[aborted]\n"
	       "[pwre c1.0 hw]\n[pwrx int: c1 (c0)]\n[paging, cr3: 0000000001234000, nr]\n[ptwrite: abcd]\n",
	       "events, plain");
	is_str(print(&ips, s, n),
	       "[enabled, ip: 0000000000001000]\n[resumed, ip: 0000000000001000]\n[disabled]\n"
	       "[disabled, at: 0000000000001001, ip: 0000000000002000]\n"
	       "[interrupt, from: 0000000000001002, to: 0000000000003000]\n"
	       "[exec mode: 32-bit, ip: 0000000000001003]\n[aborted, ip: 0000000000001004]\n"
	       "[pwre c1.0 hw]\n[pwrx int: c1 (c0)]\n[paging, cr3: 0000000001234000, nr]\n"
	       "[ptwrite: abcd, ip: 0000000000001005]\n",
	       "events with --event:ip");

	n = 0;
	s[n] = ev(PTD_EV_TICK, 0x1000);
	s[n].flags = PTD_SF_TIME;
	s[n++].tsc = 0xa008;
	s[n++] = ev(PTD_EV_TICK, 0x1000);
	s[n] = ev(PTD_EV_END_OF_TRACE, 0);
	s[n].flags = PTD_SF_TIME;
	n++;
	s[n] = ev(PTD_EV_END_OF_TRACE, 0);
	s[n++].flags = PTD_SF_IP_SUPPRESSED;
	is_str(print(&times, s, n), "[000000000000a008  tick]\n[tick]\n[end of trace]\n",
	       "--event:time; end of trace only with tracing on");

	n = 0;
	ptd_trace_sample_init(&s[n]);
	s[n].kind = PTD_TS_DIAG;
	s[n++].err.msg = "unknown cpu";
	ptd_trace_sample_init(&s[n]);
	s[n].kind = PTD_TS_INSN;
	s[n++].ip = 0x100000;
	ptd_trace_sample_init(&s[n]);
	s[n].kind = PTD_TS_GAP;
	s[n].gap_kind = PTD_GAPK_DECODE;
	s[n].offset = 0x22;
	s[n].ip = 0x100100;
	s[n++].err.msg = "no memory mapped at this address";
	ptd_trace_sample_init(&s[n]);
	s[n].kind = PTD_TS_GAP;
	s[n].gap_kind = PTD_GAPK_SYNC;
	s[n].offset = 0x40;
	s[n++].err.msg = "unexpected packet context";
	s[n++] = ev(PTD_EV_DISABLED, 0);
	is_str(print(&plain, s, n),
	       "[0, 0: config error: unknown cpu]\n0000000000100000\n"
	       "[22, 100100: error: no memory mapped at this address]\n"
	       "[40, 0: sync error: unexpected packet context]\n[disabled]\n",
	       "diagnostics and errors: offset and ip in hex");
	is_str(print(&quiet, s, n),
	       "[0, 0: config error: unknown cpu]\n"
	       "[22, 100100: error: no memory mapped at this address]\n"
	       "[40, 0: sync error: unexpected packet context]\ninsn: 1.\n",
	       "--quiet keeps errors and statistics");
	return done_testing();
}
