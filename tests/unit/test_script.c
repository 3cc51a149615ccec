/* perf script text (formats/out/script.h).  Every expected string is a
 * line real perf printed, copied from its output, and each sample is
 * built by hand from the numbers in that line:
 *   - perf 6.1 (Debian 6.1.192) on testdata/record, run from that
 *     directory as `perf script -i FILE --symfs . OPTIONS`; the options
 *     are given next to each group of lines;
 *   - /work/shared/testdata/perf-script-text (magic-trace's test files, MIT):
 *     demo_sampling_with_branch_misses_and_cache_misses.perf has perf
 *     6.1's layout and is compared whole; the Intel PT files were printed
 *     by an older perf (flags column "  %-19s " instead of 6.1's
 *     "  %-21s ", and a period/event column no perf 6.1 name width gives),
 *     so only their "pid/tid time: " start and everything after the flags
 *     column are compared, each verbatim. */
#include "tests/unit/script_test.h"

#include "common/err.h"
#include "formats/out/json.h"

static char *errbuf;
static size_t errlen;
static FILE *errf;

static void err_open(void)
{
	errf = open_memstream(&errbuf, &errlen);
}

static const char *err_text(void)
{
	fflush(errf);
	return errbuf;
}

static void err_close(void)
{
	fclose(errf);
	free(errbuf);
	errbuf = NULL;
}

/* perf script -i loops.data --symfs . --itrace=b -F comm,tid,time,cpu,ip,sym,symoff,dso,addr,flags
 * (and threads-2cpu.data, recursion-per-thread.data with the same options) */
static void test_branch_flags(void)
{
	static const char *const F[] = { "comm,tid,time,cpu,ip,sym,symoff,dso,addr,flags", NULL };
	struct ptd_script ps;
	struct ptd_script_sample s;
	static struct ptd_script_evsel ev_pt[] = {   /* recursion-per-thread.data: no CPU */
		{ 8, 0x2401, 1, ST_PT & ~PTD_SAMPLE_CPU, "unknown attr type: 8" },
		{ 1, 9, 1, ST_PT & ~PTD_SAMPLE_CPU, "dummy:uH" },
		{ 0, 4, 1, ST_BR & ~PTD_SAMPLE_CPU, "branches:uH" },
	};

	ok(setup(&ps, F, 0, ev_loops, NLOOPS, 2) != NULL, "setup -F ...,flags");
	s = S(EV_BR, "loops", 13625, 0, T0, BR | IPF(TRACE_BEGIN), 0, U, 0x401510,
	      L("_start", 0, LOOPS));
	check(&ps, &s, "           loops 13625 [000]  2000.001000:   tr strt                               0 [unknown] ([unknown]) =>           401510 _start+0x0 (/bin/loops)", "tr strt");
	s = S(EV_BR, "loops", 13625, 0, T0, BR | IPF(CALL), 0x40152b, L("_start", 0x1b, LOOPS),
	      0x402890, L("__libc_start_main_impl", 0, LOOPS));
	check(&ps, &s, "           loops 13625 [000]  2000.001000:   call                             40152b _start+0x1b (/bin/loops) =>           402890 __libc_start_main_impl+0x0 (/bin/loops)", "call");
	s = S(EV_BR, "loops", 13625, 0, T0, BR | IPF(CONDITIONAL), 0x4028d9,
	      L("__libc_start_main_impl", 0x49, LOOPS), 0x4028d0,
	      L("__libc_start_main_impl", 0x40, LOOPS));
	check(&ps, &s, "           loops 13625 [000]  2000.001000:   jcc                              4028d9 __libc_start_main_impl+0x49 (/bin/loops) =>           4028d0 __libc_start_main_impl+0x40 (/bin/loops)", "jcc");
	s = S(EV_BR, "loops", 13625, 0, T0, BR | IPF(RETURN), 0x43c162,
	      L("_dl_aux_init", 0x162, LOOPS), 0x4028e0, L("__libc_start_main_impl", 0x50, LOOPS));
	check(&ps, &s, "           loops 13625 [000]  2000.001000:   return                           43c162 _dl_aux_init+0x162 (/bin/loops) =>           4028e0 __libc_start_main_impl+0x50 (/bin/loops)", "return");
	s = S(EV_BR, "loops", 13625, 0, T0, BR, 0x43b570, L("__tunables_init", 0x60, LOOPS),
	      0x43b57d, L("__tunables_init", 0x6d, LOOPS));
	check(&ps, &s, "           loops 13625 [000]  2000.001000:   jmp                              43b570 __tunables_init+0x60 (/bin/loops) =>           43b57d __tunables_init+0x6d (/bin/loops)", "jmp");
	s = S(EV_BR, "threads", 13628, 0, 2000001021000ULL,
	      BR | IPF(CALL) | IPF(SYSCALLRET) | IPF(TRACE_END), 0x444ad9,
	      L("_dl_early_allocate", 0x39, "/bin/threads"), 0, U);
	check(&ps, &s, "         threads 13628 [000]  2000.001021:   tr end  syscall                  444ad9 _dl_early_allocate+0x39 (/bin/threads) =>                0 [unknown] ([unknown])", "tr end  syscall");
	s = S(EV_BR, "threads", 13628, 0, 2000001074000ULL, BR | IPF(ASYNC) | IPF(TRACE_END),
	      0x461680, L("__pthread_attr_destroy", 0, "/bin/threads"), 0, U);
	check(&ps, &s, "         threads 13628 [000]  2000.001074:   tr end  async                    461680 __pthread_attr_destroy+0x0 (/bin/threads) =>                0 [unknown] ([unknown])", "tr end  async");
	/* the same with --ns, threads-2cpu.data on cpu 1 */
	ps.ns = 1;
	s = S(EV_BR, "threads", 13629, 1, 2000001047259ULL, BR | IPF(TRACE_BEGIN), 0, U, 0x467282,
	      L("__clone", 0x32, "/bin/threads"));
	check(&ps, &s, "         threads 13629 [001]  2000.001047259:   tr strt                               0 [unknown] ([unknown]) =>           467282 __clone+0x32 (/bin/threads)", "--ns, cpu 1");

	/* per-thread: cpu asked for (kept: the file has AUX data), is -1 */
	ok(setup(&ps, F, 0, ev_pt, 3, 2) != NULL, "setup per-thread");
	s = S(&ev_pt[2], "recursion", 13634, -1, 2000001021000ULL,
	      BR | IPF(CALL) | IPF(SYSCALLRET) | IPF(TRACE_END), 0x43bca9,
	      L("_dl_early_allocate", 0x39, "/bin/recursion"), 0, U);
	check(&ps, &s, "       recursion 13634 [-01]  2000.001021:   tr end  syscall                  43bca9 _dl_early_allocate+0x39 (/bin/recursion) =>                0 [unknown] ([unknown])", "[-01]");
	/* default fields: the cpu column is dropped */
	ok(setup(&ps, NULL, 0, ev_pt, 3, 2) != NULL, "setup per-thread, no -F");
	s = S(&ev_pt[2], "recursion", 13634, -1, 2000001000013ULL, BR | IPF(CALL), 0x40152b,
	      L("_start", 0x1b, "/bin/recursion"), 0x4028b0,
	      L("__libc_start_main_impl", 0, "/bin/recursion"));
	check(&ps, &s, "       recursion 13634  2000.001000:          1          branches:uH:            40152b _start+0x1b (/bin/recursion) =>           4028b0 __libc_start_main_impl+0x0 (/bin/recursion)", "per-thread default");
}

/* perf script -i loops.data --symfs .          (default fields and itrace)
 * ... --ns; recursion-faults.data; loops.data --itrace=i100us [--ns] */
static void test_defaults(void)
{
	struct ptd_script ps;
	struct ptd_script_sample s;
	uint8_t psb[12] = { 0 }, cbr[12] = { 20, 0, 20, 0, 0x80, 0x84, 0x1e, 0 };

	ok(setup(&ps, NULL, 0, ev_loops, NLOOPS, 2) != NULL, "setup default");
	is_u64(ps.name_width, 20, "name width: 'unknown attr type: 8'");
	s = S(EV_PSB, "loops", 13625, 0, 2000001000012ULL, 0, 0, U, 0, U);
	s.raw = psb;
	s.raw_size = sizeof(psb);
	check(&ps, &s, "           loops 13625 [000]  2000.001000:                  psb:  psb offs: 0                                      0 [unknown] ([unknown])", "psb");
	s.evsel = EV_CBR;
	s.raw = cbr;                                    /* cbr 20, max 20, 2000000 kHz */
	check(&ps, &s, "           loops 13625 [000]  2000.001000:                  cbr:  cbr: 20 freq: 2000 MHz (100%)                    0 [unknown] ([unknown])", "cbr");
	s = S(EV_BR, "loops", 13625, 0, T0, BR | IPF(CALL), 0x40152b, L("_start", 0x1b, LOOPS),
	      0x402890, L("__libc_start_main_impl", 0, LOOPS));
	check(&ps, &s, "           loops 13625 [000]  2000.001000:          1          branches:uH:            40152b _start+0x1b (/bin/loops) =>           402890 __libc_start_main_impl+0x0 (/bin/loops)", "branches");
	s = S(EV_IN, "loops", 13625, 0, 2000001044430ULL, 0, 0x40164b, L("count_down", 0xb, LOOPS),
	      0, U);
	check(&ps, &s, "           loops 13625 [000]  2000.001044:      57245      instructions:uH:            40164b count_down+0xb (/bin/loops)", "instructions");
	ps.ns = 1;
	check(&ps, &s, "           loops 13625 [000]  2000.001044430:      57245      instructions:uH:            40164b count_down+0xb (/bin/loops)", "instructions --ns");
	s = S(EV_BR, "loops", 13625, 0, T0, BR | IPF(CALL), 0x40152b, L("_start", 0x1b, LOOPS),
	      0x402890, L("__libc_start_main_impl", 0, LOOPS));
	check(&ps, &s, "           loops 13625 [000]  2000.001000013:          1          branches:uH:            40152b _start+0x1b (/bin/loops) =>           402890 __libc_start_main_impl+0x0 (/bin/loops)", "branches --ns");
	/* recursion-faults.data: a psb after an overflow, truncated to us and in ns */
	psb[4] = 0x75;
	s = S(EV_PSB, "recursion", 13637, 0, 2000001001414ULL, 0, 0x43b578,
	      L("__tunables_init", 0x68, "/bin/recursion"), 0, U);
	s.raw = psb;
	s.raw_size = sizeof(psb);
	check(&ps, &s, "       recursion 13637 [000]  2000.001001414:                  psb:  psb offs: 0x75                              43b578 __tunables_init+0x68 (/bin/recursion)", "psb --ns");
	ps.ns = 0;
	check(&ps, &s, "       recursion 13637 [000]  2000.001001:                  psb:  psb offs: 0x75                              43b578 __tunables_init+0x68 (/bin/recursion)", "psb");
}

/* -F +insn --itrace=b; --itrace=i0ns -F +insnlen; loops-snapshot-timing.data
 * --itrace=b -F +ipc; -F comm,tid,ip,insn,addr --itrace=b; -F hw:comm -F hw:+ip */
static void test_insn_ipc(void)
{
	static const char *const Finsn[] = { "+insn", NULL }, *const Flen[] = { "+insnlen", NULL },
		*const Fipc[] = { "+ipc", NULL }, *const Fia[] = { "comm,tid,ip,insn,addr", NULL },
		*const Fhw[] = { "hw:comm", "hw:+ip", NULL };
	static const uint8_t call[] = { 0x67, 0xe8, 0x5f, 0x13, 0, 0 }, jcc[] = { 0x75, 0xf5 };
	struct ptd_script ps;
	struct ptd_script_sample s;

	ok(setup(&ps, Finsn, 1, ev_loops, NLOOPS, 2) != NULL, "setup +insn");
	s = S(EV_BR, "loops", 13625, 0, T0, BR | IPF(CALL), 0x40152b, L("_start", 0x1b, LOOPS),
	      0x402890, L("__libc_start_main_impl", 0, LOOPS));
	s.insn = call;
	s.insn_len = sizeof(call);
	check(&ps, &s, "           loops 13625 [000]  2000.001000013:          1          branches:uH:            40152b _start+0x1b (/bin/loops) insn: 67 e8 5f 13 00 00", "+insn: no => once -F is given");
	s = S(EV_BR, "loops", 13625, 0, T0, BR | IPF(CONDITIONAL), 0x4028d9,
	      L("__libc_start_main_impl", 0x49, LOOPS), 0x4028d0, L(NULL, 0, NULL));
	s.insn = jcc;
	s.insn_len = sizeof(jcc);
	check(&ps, &s, "           loops 13625 [000]  2000.001000013:          1          branches:uH:            4028d9 __libc_start_main_impl+0x49 (/bin/loops) insn: 75 f5", "+insn jcc");

	ok(setup(&ps, Flen, 1, ev_loops, NLOOPS, 2) != NULL, "setup +insnlen");
	ev_loops[3].sample_period = 1;
	s = S(EV_IN, "loops", 13625, 0, T0, 0, 0x401510, L("_start", 0, LOOPS), 0, U);
	s.insn_len = 2;
	check(&ps, &s, "           loops 13625 [000]  2000.001000013:          1      instructions:uH:            401510 _start+0x0 (/bin/loops) ilen: 2", "+insnlen");
	ev_loops[3].sample_period = 57245;

	ok(setup(&ps, Fipc, 0, ev_loops, NLOOPS, 2) != NULL, "setup +ipc");
	s = S(EV_BR, "loops", 13640, 0, 2000001000047ULL, BR | IPF(CONDITIONAL), 0x4028d9,
	      L("__libc_start_main_impl", 0x49, LOOPS), 0, U);
	s.insn_cnt = 31;
	s.cyc_cnt = 70;
	check(&ps, &s, "           loops 13640 [000]  2000.001000:          1          branches:uH:            4028d9 __libc_start_main_impl+0x49 (/bin/loops) \t IPC: 0.44 (31/70) ", "+ipc");
	s.cyc_cnt = 0;
	check(&ps, &s, "           loops 13640 [000]  2000.001000:          1          branches:uH:            4028d9 __libc_start_main_impl+0x49 (/bin/loops)", "+ipc without cycles");

	ok(setup(&ps, Fia, 0, ev_loops, NLOOPS, 2) != NULL, "setup comm,tid,ip,insn,addr");
	s = S(EV_BR, "loops", 13625, 0, T0, BR | IPF(CALL), 0x40152b, L("_start", 0x1b, LOOPS),
	      0x402890, L("__libc_start_main_impl", 0, LOOPS));
	s.insn = call;
	s.insn_len = sizeof(call);
	check(&ps, &s, "           loops 13625            40152b =>           402890 insn: 67 e8 5f 13 00 00", "addr without sym");
	s = S(EV_BR, "loops", 13625, 0, T0, BR | IPF(TRACE_BEGIN), 0, U, 0x401510,
	      L("_start", 0, LOOPS));
	check(&ps, &s, "           loops 13625                 0 =>           401510", "ip 0, no insn");

	ok(setup(&ps, Fhw, 0, ev_loops, NLOOPS, 2) != NULL, "setup hw:comm hw:+ip");
	check(&ps, &s, "           loops                 0", "typed -F");
}

/* loops.data --itrace=cr -F +callindent, the first 12 lines (the depth and
 * the flags read from the same lines printed with -F +flags,+addr) */
static void test_callindent(void)
{
	static const char *const F[] = { "+callindent", NULL };
	static const struct {
		uint32_t fl; unsigned depth; uint64_t ip; const char *sym; uint64_t off; const char *name;
		const char *want;
	} L12[] = {
		{ IPF(TRACE_BEGIN), 0, 0, NULL, 0, "_start", "_start                                          0 [unknown] ([unknown])" },
		{ IPF(CALL), 1, 0x40152b, "_start", 0x1b, "__libc_start_main_impl", "    __libc_start_main_impl                 40152b _start+0x1b (/bin/loops)" },
		{ IPF(CALL), 2, 0x4028db, "__libc_start_main_impl", 0x4b, "_dl_aux_init", "        _dl_aux_init                       4028db __libc_start_main_impl+0x4b (/bin/loops)" },
		{ IPF(RETURN), 1, 0x43c162, "_dl_aux_init", 0x162, NULL, "        _dl_aux_init                       43c162 _dl_aux_init+0x162 (/bin/loops)" },
		{ IPF(CALL), 2, 0x4028e7, "__libc_start_main_impl", 0x57, "__tunables_init", "        __tunables_init                    4028e7 __libc_start_main_impl+0x57 (/bin/loops)" },
		{ IPF(RETURN), 1, 0x43b5a7, "__tunables_init", 0x97, NULL, "        __tunables_init                    43b5a7 __tunables_init+0x97 (/bin/loops)" },
		{ IPF(CALL), 2, 0x403206, "__libc_start_main_impl", 0x976, "get_common_indices.constprop.0", "        get_common_indices.constprop.0                                     403206 __libc_start_main_impl+0x976 (/bin/loops)" },
		{ IPF(RETURN), 1, 0x401c4f, "get_common_indices.constprop.0", 0x15f, NULL, "        get_common_indices.constprop.0                                     401c4f get_common_indices.constprop.0+0x15f (/bin/loops)" },
		{ IPF(CALL), 2, 0x40320b, "__libc_start_main_impl", 0x97b, "get_extended_indices.constprop.0", "        get_extended_indices.constprop.0                                   40320b __libc_start_main_impl+0x97b (/bin/loops)" },
		{ IPF(RETURN), 1, 0x401aef, "get_extended_indices.constprop.0", 0x7f, NULL, "        get_extended_indices.constprop.0                                   401aef get_extended_indices.constprop.0+0x7f (/bin/loops)" },
		{ IPF(CALL), 2, 0x403210, "__libc_start_main_impl", 0x980, "update_active.constprop.0", "        update_active.constprop.0                                          403210 __libc_start_main_impl+0x980 (/bin/loops)" },
		{ IPF(RETURN), 1, 0x4025c3, "update_active.constprop.0", 0x203, NULL, "        update_active.constprop.0                                          4025c3 update_active.constprop.0+0x203 (/bin/loops)" },
	};
	struct ptd_script ps;
	size_t i;

	ok(setup(&ps, F, 0, ev_loops, NLOOPS, 2) != NULL, "setup +callindent");
	for (i = 0; i < sizeof(L12) / sizeof(L12[0]); i++) {
		struct ptd_script_sample s = S(EV_BR, "loops", 13625, 0, T0, BR | L12[i].fl, L12[i].ip,
					       L(L12[i].sym, L12[i].off, L12[i].sym ? LOOPS : NULL),
					       0x400000, L(L12[i].name, 0, LOOPS));
		char want[512], what[64];

		s.call_depth = L12[i].depth;
		snprintf(want, sizeof(want), "           loops 13625 [000]  2000.001000:          1          branches:uH: %s", L12[i].want);
		snprintf(what, sizeof(what), "callindent line %zu", i + 1);
		check(&ps, &s, want, what);
	}
}

/* loops.data --call-trace and --call-ret-trace: the first lines */
static void test_call_traces(void)
{
	static const struct {
		uint32_t fl; unsigned depth; uint64_t ip; const char *name; const char *ct, *crt;
	} Lc[] = {
		{ IPF(TRACE_BEGIN), 0, 0, "_start", NULL,
		  "  tr strt               ([unknown])\t_start                          " },
		{ IPF(CALL), 1, 0x40152b, "__libc_start_main_impl",
		  "(/bin/loops                                        )\t    __libc_start_main_impl      ",
		  "  call                  (/bin/loops)\t    __libc_start_main_impl      " },
		{ IPF(CALL), 2, 0x4028db, "_dl_aux_init",
		  "(/bin/loops                                        )\t        _dl_aux_init            ",
		  "  call                  (/bin/loops)\t        _dl_aux_init            " },
		{ IPF(RETURN), 1, 0x43c162, NULL, NULL,
		  "  return                (/bin/loops)\t        _dl_aux_init            " },
		{ IPF(CALL), 2, 0x4028e7, "__tunables_init",
		  "(/bin/loops                                        )\t        __tunables_init         ",
		  "  call                  (/bin/loops)\t        __tunables_init         " },
		{ IPF(RETURN), 1, 0x43b5a7, NULL, NULL,
		  "  return                (/bin/loops)\t        __tunables_init         " },
		{ IPF(CALL), 2, 0x403206, "get_common_indices.constprop.0",
		  "(/bin/loops                                        )\t        get_common_indices.constprop.0                          ", NULL },
		{ IPF(CALL), 2, 0x40320b, "get_extended_indices.constprop.0",
		  "(/bin/loops                                        )\t        get_extended_indices.constprop.0                        ", NULL },
	};
	static const char *const rets[8] = { [3] = "_dl_aux_init", [5] = "__tunables_init" };
	uint8_t psb[12] = { 0 }, cbr[12] = { 20, 0, 20, 0, 0x80, 0x84, 0x1e, 0 };
	struct ptd_script ps;
	int which;
	size_t i;

	for (which = PTD_SCRIPT_CALL_TRACE; which <= PTD_SCRIPT_CALLRET_TRACE; which++) {
		const char *pre = which == PTD_SCRIPT_CALL_TRACE ?
			"           loops 13625 [000]  2000.001000012: " :
			"           loops 13625 [000]  2000.001000012:                         ";
		struct ptd_script_sample s;
		char want[512], what[64];

		ptd_script_init(&ps);
		ok(!ptd_script_preset(&ps, which, stderr) &&
		   !ptd_script_setup(&ps, ev_loops, NLOOPS, 2, 1, stderr), "setup preset %d", which);
		s = S(EV_PSB, "loops", 13625, 0, 2000001000012ULL, 0, 0, U, 0, U);
		s.raw = psb;
		s.raw_size = sizeof(psb);
		snprintf(want, sizeof(want), "%s psb offs: 0                      ", pre);
		check(&ps, &s, want, "preset psb");
		s.evsel = EV_CBR;
		s.raw = cbr;
		snprintf(want, sizeof(want), "%s cbr: 20 freq: 2000 MHz (100%%)    ", pre);
		check(&ps, &s, want, "preset cbr");
		for (i = 0; i < sizeof(Lc) / sizeof(Lc[0]); i++) {
			const char *w = which == PTD_SCRIPT_CALL_TRACE ? Lc[i].ct : Lc[i].crt;

			s = S(EV_BR, "loops", 13625, 0, T0, BR | Lc[i].fl, Lc[i].ip,
			      Lc[i].ip ? L("x", 0, LOOPS) : U, 0x400000, L(Lc[i].name, 0, LOOPS));
			if (rets[i])
				s.ip_loc.sym = rets[i];
			s.call_depth = Lc[i].depth;
			if (!w)
				continue;
			snprintf(want, sizeof(want), "           loops 13625 [000]  2000.001000013: %s", w);
			snprintf(what, sizeof(what), "preset %d line %zu", which, i + 1);
			check(&ps, &s, want, what);
		}
	}
}

/* loops.data --itrace=i100usg (callchain, map-relative addresses); and
 * demo_sampling_with_branch_misses_and_cache_misses.perf lines 16-27 (-F
 * pid,tid,time,period,event,ip,sym,symoff,dso --ns, three events) */
static void test_callchain(void)
{
	static const char *const F[] = { "pid,tid,time,period,event,ip,sym,symoff,dso", NULL };
	static const struct ptd_script_frame fr[] = {
		{ 0x164b, { "count_down", 0xb, LOOPS, NULL } }, { 0x16ea, { "run", 0x1a, LOOPS, NULL } },
		{ 0x14f9, { "main", 0x9, LOOPS, NULL } },
		{ 0x1a34, { "__libc_start_call_main", 0x64, LOOPS, NULL } },
		{ 0x3130, { "__libc_start_main_impl", 0x8a0, LOOPS, NULL } },
		{ 0x1531, { "_start", 0x21, LOOPS, NULL } },
	};
#define LD "/usr/lib64/ld-2.28.so"
#define LC "/usr/lib64/libc-2.28.so"
#define DL "/usr/lib64/libdl-2.28.so"
	static const struct ptd_script_frame fd[] = {
		{ 0x7f8bd9626f60, { NULL, 0, LD, NULL } },
		{ 0x7f8bd963eac2, { "dl_open_worker", 0x32, LD, NULL } },
		{ 0x7f8bd91c71a2, { "_dl_catch_exception", 0x82, LC, NULL } },
		{ 0x7f8bd963ed0c, { "_dl_open", 0xac, LD, NULL } },
		{ 0x7f8bd94231e8, { "dlopen_doit", 0x58, DL, NULL } },
		{ 0x7f8bd91c71a2, { "_dl_catch_exception", 0x82, LC, NULL } },
		{ 0x7f8bd91c725e, { "_dl_catch_error", 0x2e, LC, NULL } },
		{ 0x7f8bd9423964, { "_dlerror_run", 0x64, DL, NULL } },
		{ 0x7f8bd9423285, { "dlopen@@GLIBC_2.2.5", 0x45, DL, NULL } },
		{ 0x4008de, { "main", 0x87, "/usr/local/home/demo", NULL } },
	};
	static const struct ptd_script_evsel ev_demo[] = {
		{ 0, 0, 4000, ST_IN | PTD_SAMPLE_CALLCHAIN, "cycles:u" },
		{ 0, 5, 50, ST_IN | PTD_SAMPLE_CALLCHAIN, "branch-misses/period=50/u" },
		{ 0, 3, 50, ST_IN | PTD_SAMPLE_CALLCHAIN, "cache-misses/period=50/u" },
	};
	struct ptd_script_evsel ev_g[NLOOPS];
	struct ptd_script ps;
	struct ptd_script_sample s;

	memcpy(ev_g, ev_loops, sizeof(ev_g));
	ev_g[3].sample_type |= PTD_SAMPLE_CALLCHAIN;
	ok(setup(&ps, NULL, 0, ev_g, NLOOPS, 2) != NULL, "setup --itrace=i100usg");
	s = S(&ev_g[3], "loops", 13625, 0, 2000001044430ULL, 0, 0x40164b, U, 0, U);
	s.callchain = fr;
	s.callchain_nr = 6;
	check(&ps, &s, "loops 13625 [000]  2000.001044:      57245      instructions:uH: \n"
	      "\t            164b count_down+0xb (/bin/loops)\n"
	      "\t            16ea run+0x1a (/bin/loops)\n"
	      "\t            14f9 main+0x9 (/bin/loops)\n"
	      "\t            1a34 __libc_start_call_main+0x64 (/bin/loops)\n"
	      "\t            3130 __libc_start_main_impl+0x8a0 (/bin/loops)\n"
	      "\t            1531 _start+0x21 (/bin/loops)\n", "callchain");

	ok(setup(&ps, F, 1, ev_demo, 3, 3) != NULL, "setup demo");
	s = S(&ev_demo[1], NULL, 1161248, 0, 443929906744194ULL, 0, 0x7f8bd9626f60, U, 0, U);
	s.callchain = fd;
	s.callchain_nr = 10;
	check(&ps, &s, "1161248/1161248 443929.906744194:         50 branch-misses/period=50/u: \n"
	      "\t    7f8bd9626f60 [unknown] (/usr/lib64/ld-2.28.so)\n"
	      "\t    7f8bd963eac2 dl_open_worker+0x32 (/usr/lib64/ld-2.28.so)\n"
	      "\t    7f8bd91c71a2 _dl_catch_exception+0x82 (/usr/lib64/libc-2.28.so)\n"
	      "\t    7f8bd963ed0c _dl_open+0xac (/usr/lib64/ld-2.28.so)\n"
	      "\t    7f8bd94231e8 dlopen_doit+0x58 (/usr/lib64/libdl-2.28.so)\n"
	      "\t    7f8bd91c71a2 _dl_catch_exception+0x82 (/usr/lib64/libc-2.28.so)\n"
	      "\t    7f8bd91c725e _dl_catch_error+0x2e (/usr/lib64/libc-2.28.so)\n"
	      "\t    7f8bd9423964 _dlerror_run+0x64 (/usr/lib64/libdl-2.28.so)\n"
	      "\t    7f8bd9423285 dlopen@@GLIBC_2.2.5+0x45 (/usr/lib64/libdl-2.28.so)\n"
	      "\t          4008de main+0x87 (/usr/local/home/demo)\n", "demo callchain");
}

/* magic-trace's Intel PT files (older perf): the start and the part after
 * the flags column, each compared verbatim */
static void test_magic_trace(void)
{
	static const char *const F[] = { "pid,tid,time,ip,sym,symoff,dso,addr,flags", NULL };
	static const struct {
		const char *line;   /* the file's line */
		int flags_w;        /* its flags column: 22 (older perf) or 24 (perf 6.1) */
		int pid;
		uint64_t time;
		uint32_t fl;
		uint64_t ip; struct ptd_script_loc il;
		uint64_t addr; struct ptd_script_loc al;
	} M[] = {
		/* hello_world_userspace.perf line 1, 2, 4 */
		{ "30549/30549 174427.938460376:                           1    branches:uH:   tr strt                             0 [unknown] ([unknown]) =>     7ffff7ddc140 _start+0x0 (/usr/lib64/ld-2.17.so)",
		  22, 30549, 174427938460376ULL, IPF(TRACE_BEGIN), 0, { NULL, 0, NULL, NULL },
		  0x7ffff7ddc140, { "_start", 0, "/usr/lib64/ld-2.17.so", NULL } },
		{ "30549/30549 174427.938460812:                           1    branches:uH:   tr end                   7ffff7ddc140 _start+0x0 (/usr/lib64/ld-2.17.so) =>                0 [unknown] ([unknown])",
		  22, 30549, 174427938460812ULL, IPF(TRACE_END), 0x7ffff7ddc140,
		  { "_start", 0, "/usr/lib64/ld-2.17.so", NULL }, 0, { NULL, 0, NULL, NULL } },
		{ "30549/30549 174427.938462629:                           1    branches:uH:   call                     7ffff7ddc143 _start+0x3 (/usr/lib64/ld-2.17.so) =>     7ffff7ddc850 _dl_start+0x0 (/usr/lib64/ld-2.17.so)",
		  22, 30549, 174427938462629ULL, IPF(CALL), 0x7ffff7ddc143,
		  { "_start", 3, "/usr/lib64/ld-2.17.so", NULL },
		  0x7ffff7ddc850, { "_dl_start", 0, "/usr/lib64/ld-2.17.so", NULL } },
		/* ocaml_exceptions_poptrap_corner_case.perf line 5 */
		{ " 8849/8849    175.567417363:                             1 branches:uH:   return                           cb4179 Module.foo_exn_224_547_code+0x39 (foo.so) =>           cb4599 Module.get_229_552_code+0xe9 (foo.so)",
		  24, 8849, 175567417363ULL, IPF(RETURN), 0xcb4179,
		  { "Module.foo_exn_224_547_code", 0x39, "foo.so", NULL },
		  0xcb4599, { "Module.get_229_552_code", 0xe9, "foo.so", NULL } },
		/* page_fault.perf line 4: kernel addresses */
		{ "1439745/1439745 2472089.651285037:                            1   branches:uH:   call                 ffffffffae200ab3 asm_exc_page_fault+0x3 (foo.so) => ffffffffae201310 error_entry+0x0 (foo.so)",
		  22, 1439745, 2472089651285037ULL, IPF(CALL), 0xffffffffae200ab3,
		  { "asm_exc_page_fault", 3, "foo.so", NULL },
		  0xffffffffae201310, { "error_entry", 0, "foo.so", NULL } },
		/* simple_gogo.perf line 1: a map without a symbol */
		{ "3109264/3109264 3363099.849998148:                            1   branches:uH:   tr strt                             0 [unknown] (foo.so) =>           404bf2 runtime.chanrecv+0x372 (foo.so)",
		  22, 3109264, 3363099849998148ULL, IPF(TRACE_BEGIN), 0, { NULL, 0, "foo.so", NULL },
		  0x404bf2, { "runtime.chanrecv", 0x372, "foo.so", NULL } },
	};
	static const struct ptd_script_evsel ev = { 0, 4, 1, ST_BR, "branches:uH" };
	struct ptd_script ps;
	size_t i;

	ok(setup(&ps, F, 1, &ev, 1, 1) != NULL, "setup magic-trace");
	for (i = 0; i < sizeof(M) / sizeof(M[0]); i++) {
		struct ptd_script_sample s = S(&ev, NULL, M[i].pid, 0, M[i].time, BR | M[i].fl, M[i].ip,
					       M[i].il, M[i].addr, M[i].al);
		const char *lf = strstr(M[i].line, "branches:uH: ") + 13;
		size_t start = (size_t)(strchr(M[i].line, ':') - M[i].line) + 2;
		char *got = render(&ps, &s);
		char want[512], what[64];

		/* got: "pid/tid time: " + 24 columns of flags + the rest */
		snprintf(want, sizeof(want), "%.*s%s\n", (int)start, M[i].line, lf + M[i].flags_w);
		char word[32], mine[64];
		int n;

		memmove(got + start, got + start + 24, strlen(got + start + 24) + 1);
		snprintf(what, sizeof(what), "magic-trace line %zu", i + 1);
		is_str(got, want, "%s", what);
		free(got);
		/* the flags word itself: "  %-Ns " less the padding */
		snprintf(word, sizeof(word), "%.*s", M[i].flags_w - 2, lf + 2);
		ptd_script_flags_str(BR | M[i].fl, mine, sizeof(mine));
		for (n = (int)strlen(word); n && word[n - 1] == ' '; n--)
			word[n - 1] = '\0';
		for (n = (int)strlen(mine); n && mine[n - 1] == ' '; n--)
			mine[n - 1] = '\0';
		is_str(mine, word, "magic-trace flags word %zu", i + 1);
	}
}

/* loops/recursion-faults.data --itrace=e (stdout, and stderr at the end);
 * btree_rebalance_decode_error.perf line 26 (a per-thread recording) */
static void test_auxerr(void)
{
	struct ptd_script_auxerr e = { 1, 7, 0, 13637, 13637, 0x43b578, 2000001000013ULL, 1, 0, -1,
				       NULL };
	unsigned nr[2] = { 0, 50 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	e.msg = "Overflow packet";   /* perf's text for code 7 */
	ptd_script_print_auxerr(f, &e);
	e.cpu = -1;
	e.pid = e.tid = 364691;
	e.ip = 0x7ffff7327730;
	e.time = 62709735347760ULL;
	ptd_script_print_auxerr(f, &e);
	fclose(f);
	is_str(buf, " instruction trace error type 1 time 2000.001000013 cpu 0 pid 13637 tid 13637 ip 0x43b578 code 7: Overflow packet\n"
	       " instruction trace error type 1 time 62709.735347760 cpu -1 pid 364691 tid 364691 ip 0x7ffff7327730 code 7: Overflow packet\n",
	       "error lines");
	free(buf);
	err_open();
	ptd_script_auxerr_warn(errf, nr, 2);
	is_str(err_text(), "Warning:\n50 instruction trace errors\n", "error count warning");
	err_close();
}

/* Branch stacks (-F brstack, brstacksym, brstackoff).  No trace hardware
 * here to have perf print these, so each expectation is spelled out from
 * perf 6.1's printf formats, quoted beside it (builtin-script.c unless
 * named), not from our output.  The sample: loops.data decoded with
 * --itrace=i100usl (perf's instructions event then has
 * PERF_SAMPLE_BRANCH_STACK), /bin/loops mapped at 0x401000, pgoff 0x1000. */
#define BRB(f, fs, t, ts) { f, t, L("count_down", fs, LOOPS), L("count_down", ts, LOOPS), \
			     f - 0x400000, t - 0x400000, 0, 0, 0, 0, 0, 0, 0 }
static void test_brstack(void)
{
	static const char *const Fb[] = { "ip,brstack,brstacksym,brstackoff,insnlen", NULL },
		*const Fbd[] = { "ip,dso,brstack", NULL }, *const Fs[] = { "ip,sym,brstacksym", NULL },
		*const Fsd[] = { "ip,sym,dso,brstacksym,brstackoff", NULL },
		*const Fo[] = { "ip,brstackoff", NULL }, *const Fod[] = { "ip,dso,brstackoff", NULL },
		*const Fp[] = { "+brstack", NULL }, *const Fbts[] = { "ip,addr,brstack", NULL },
		*const Fi[] = { "+brstackinsn", NULL };
	struct ptd_script_branch br[6] = {
		BRB(0x401646, 0x6, 0x401640, 0), BRB(0x401658, 0x18, 0x401641, 1),
		BRB(0x40165a, 0x1a, 0x401642, 2), BRB(0x40165c, 0x1c, 0x401643, 3),
		BRB(0x40165e, 0x1e, 0x401644, 4),
		{ 0xffffffff81000000ULL, 0x401000, U, L(NULL, 0, LOOPS), 0xffffffff81000000ULL,
		  0x1000, 0, 0, 0, 0, 65535, 15, 3 },
	};
	struct ptd_script_evsel ev[NLOOPS], ev_file[] = {
		{ 0, 0, 4000, ST_IN | PTD_SAMPLE_BRANCH_STACK, "cycles:u" } };
	static const struct ptd_script_frame fr[] = { { 0x164b, { "count_down", 0xb, LOOPS, NULL } } };
	struct ptd_script ps;
	struct ptd_script_sample s;
	char *got, *buf = NULL;
	size_t len = 0;
	FILE *f;

	br[1].mispred = 1;
	br[2].predicted = 1;
	br[2].type = 5;
	br[3].mispred = br[3].predicted = 1;
	br[3].type = 7;
	br[4].in_tx = br[4].abort = 1;
	br[4].cycles = 123;
	br[4].type = 1;
	memcpy(ev, ev_loops, sizeof(ev));
	ev[3].sample_type |= PTD_SAMPLE_BRANCH_STACK;
	s = S(&ev[3], "loops", 13625, 0, 2000001044430ULL, 0, 0x40164b, L("count_down", 0xb, LOOPS),
	      0, U);
	s.brstack = br;
	s.brstack_nr = 6;
	s.insn_len = 2;
	/* perf_sample__fprintf_brstack: " 0x%"PRIx64 from, "/0x%"PRIx64 to, then
	 * print_bstack_flags: "/%c/%c/%c/%d/%s ", mispred_str() ('-' when
	 * neither, predicted ? 'P' : 'M'), in_tx 'X', abort 'A', cycles,
	 * get_branch_type() (util/branch.c: "" for PERF_BR_UNKNOWN, 5 "IND_CALL",
	 * 7 "SYSCALL", 1 "COND", 15 EXTEND_ABI: new names, 3 "ARCH_1" on x86).
	 * process_event: "if (PRINT_FIELD(BRSTACK)) ... else if (BRSTACKSYM) ...
	 * else if (BRSTACKOFF)", after IP, before perf_sample__fprintf_insn. */
	ok(setup(&ps, Fb, 0, ev, NLOOPS, 2) != NULL, "setup ip,brstack,brstacksym,brstackoff");
	check(&ps, &s, "           40164b 0x401646/0x401640/-/-/-/0/  0x401658/0x401641/M/-/-/0/  0x40165a/0x401642/P/-/-/0/IND_CALL  0x40165c/0x401643/P/-/-/0/SYSCALL  0x40165e/0x401644/-/X/A/123/COND  0xffffffff81000000/0x401000/-/-/-/65535/ARCH_1  ilen: 2", "brstack");
	/* with DSO: "(" map__fprintf_dsoname() ")" after each address,
	 * "[unknown]" without a map */
	ok(setup(&ps, Fbd, 0, ev, NLOOPS, 2) != NULL, "setup ip,dso,brstack");
	s.brstack_nr = 2;
	br[1] = br[5];
	check(&ps, &s, "           40164b (/bin/loops) 0x401646(/bin/loops)/0x401640(/bin/loops)/-/-/-/0/  0xffffffff81000000([unknown])/0x401000(/bin/loops)/-/-/-/65535/ARCH_1 ", "brstack dso");
	/* perf_sample__fprintf_brstacksym: symbol__fprintf_symname_offs()
	 * (util/symbol_fprintf.c: "%s" "+0x%lx", always the offset, no space
	 * before; "[unknown]" without a symbol), '/', the same for to */
	ok(setup(&ps, Fs, 0, ev, NLOOPS, 2) != NULL, "setup ip,sym,brstacksym");
	check(&ps, &s, "           40164b count_downcount_down+0x6/count_down+0x0/-/-/-/0/ [unknown]/[unknown]/-/-/-/65535/ARCH_1 ", "brstacksym");
	ok(setup(&ps, Fsd, 0, ev, NLOOPS, 2) != NULL, "setup ip,sym,dso,brstacksym");
	check(&ps, &s, "           40164b count_down (/bin/loops)count_down+0x6(/bin/loops)/count_down+0x0(/bin/loops)/-/-/-/0/ [unknown]([unknown])/[unknown](/bin/loops)/-/-/-/65535/ARCH_1 ", "brstacksym dso");
	/* perf_sample__fprintf_brstackoff: map__map_ip() of addresses with a
	 * map, as brstack otherwise */
	ok(setup(&ps, Fo, 0, ev, NLOOPS, 2) != NULL, "setup ip,brstackoff");
	check(&ps, &s, "           40164b 0x1646/0x1640/-/-/-/0/  0xffffffff81000000/0x1000/-/-/-/65535/ARCH_1 ", "brstackoff");
	ok(setup(&ps, Fod, 0, ev, NLOOPS, 2) != NULL, "setup ip,dso,brstackoff");
	check(&ps, &s, "           40164b (/bin/loops) 0x1646(/bin/loops)/0x1640(/bin/loops)/-/-/-/0/  0xffffffff81000000([unknown])/0x1000(/bin/loops)/-/-/-/65535/ARCH_1 ", "brstackoff dso");
	/* "if (!(br && br->nr)) return 0;" */
	s.brstack_nr = 0;
	check(&ps, &s, "           40164b (/bin/loops)", "no entries");
	/* default fields +brstack; the callchain first ("\n" after each frame) */
	s.brstack_nr = 1;
	s.insn_len = 0;
	ok(setup(&ps, Fp, 0, ev, NLOOPS, 2) != NULL, "setup +brstack");
	check(&ps, &s, "           loops 13625 [000]  2000.001044:      57245      instructions:uH:            40164b count_down+0xb (/bin/loops) 0x401646(/bin/loops)/0x401640(/bin/loops)/-/-/-/0/ ", "+brstack");
	ev[3].sample_type |= PTD_SAMPLE_CALLCHAIN;
	ok(setup(&ps, Fp, 0, ev, NLOOPS, 2) != NULL, "setup +brstack, callchain");
	s.callchain = fr;
	s.callchain_nr = 1;
	check(&ps, &s, "loops 13625 [000]  2000.001044:      57245      instructions:uH: \n\t            164b count_down+0xb (/bin/loops)\n 0x401646(/bin/loops)/0x401640(/bin/loops)/-/-/-/0/ ", "+brstack after a callchain");
	/* evsel__check_attr() has no check for these: an event without branch
	 * stacks prints nothing for them, and nothing is said */
	err_open();
	ptd_script_init(&ps);
	ok(!ptd_script_parse_fields(&ps, "ip,brstack", errf) &&
	   !ptd_script_setup(&ps, ev_loops, NLOOPS, 2, 1, errf), "brstack without branch stacks");
	is_str(err_text(), "", "brstack without branch stacks: no message");
	err_close();
	/* branches go through perf_sample__fprintf_bts, which has no brstack */
	ok(setup(&ps, Fbts, 0, ev, NLOOPS, 2) != NULL, "setup ip,addr,brstack");
	s = S(EV_BR, "loops", 13625, 0, T0, BR | IPF(CALL), 0x40152b, U, 0x402890, U);
	s.brstack = br;
	s.brstack_nr = 1;
	check(&ps, &s, "           40152b =>           402890", "no brstack for branches");
	/* brstackinsn: perf's check on files without AUX data, else ours */
	ptd_script_init(&ps);
	err_open();
	ok(!ptd_script_parse_fields(&ps, Fi[0], errf) &&
	   ptd_script_setup(&ps, ev_file, 1, 1, 0, errf) == -PTD_E_INVAL, "brstackinsn, no -b");
	is_str(err_text(), "Display of branch stack assembler requested, but non all-branch filter set\nHint: run 'perf record -b ...'\n", "brstackinsn, no -b: message");
	err_close();
	ps.branch_sample_type = 1 << 3;   /* PERF_SAMPLE_BRANCH_ANY */
	err_open();
	ok(ptd_script_setup(&ps, ev_file, 1, 1, 0, errf) == -PTD_E_UNSUPPORTED, "brstackinsn: ours");
	is_str(err_text(), "ptdecode: perf script field 'brstackinsn' is not supported\n",
	       "brstackinsn: not printed");
	err_close();

	/* --format=json */
	s = S(&ev[3], "loops", 13625, 0, 2000001044430ULL, 0, 0x40164b, L("count_down", 0xb, LOOPS),
	      0, U);
	s.brstack = br + 3;
	s.brstack_nr = 3;
	f = open_memstream(&buf, &len);
	ptd_json_print_sample(f, "instruction", &s, NULL, NULL, 0);
	fclose(f);
	got = strstr(buf, ",\"brstack\"");
	is_str(got, ",\"brstack\":[{\"from\":\"0x40165c\",\"from_sym\":\"count_down\",\"from_symoff\":28,\"from_dso\":\"/bin/loops\",\"to\":\"0x401643\",\"to_sym\":\"count_down\",\"to_symoff\":3,\"to_dso\":\"/bin/loops\",\"mispred\":true,\"predicted\":true,\"in_tx\":false,\"abort\":false,\"cycles\":0,\"type\":\"SYSCALL\"},"
	       "{\"from\":\"0x40165e\",\"from_sym\":\"count_down\",\"from_symoff\":30,\"from_dso\":\"/bin/loops\",\"to\":\"0x401644\",\"to_sym\":\"count_down\",\"to_symoff\":4,\"to_dso\":\"/bin/loops\",\"mispred\":false,\"predicted\":false,\"in_tx\":true,\"abort\":true,\"cycles\":123,\"type\":\"COND\"},"
	       "{\"from\":\"0xffffffff81000000\",\"from_sym\":null,\"from_dso\":null,\"to\":\"0x401000\",\"to_sym\":null,\"to_dso\":\"/bin/loops\",\"mispred\":false,\"predicted\":false,\"in_tx\":false,\"abort\":false,\"cycles\":65535,\"type\":\"ARCH_1\"}]}\n", "json brstack");
	free(buf);
}
#undef BRB

/* -F arguments perf refuses or warns about: perf script -i loops.data
 * --symfs . --itrace=b -F ARG, its stderr (before the usage text) */
static void test_bad_fields(void)
{
	static const struct { const char *F[3]; int rc; const char *err; } B[] = {
		{ { "foo" }, -1, "Invalid field requested.\n" },
		{ { "+disasmx" }, -1, "Invalid field requested.\n" },
		{ { "bogus:ip" }, -1, "Invalid event type in field string.\n" },
		{ { "ip,+sym" }, -1, "Cannot mix +-field with overridden fields\n" },
		{ { "hw:ip,-sym" }, -1, "Cannot mix +-field with overridden fields\n" },
		{ { "" }, -1, "Cannot set fields to 'none' for all event types.\n" },
		{ { "hw:trace" }, -1, "'trace' not valid for hardware events.\n" },
		{ { "hw:bpf-output" }, -1, "'bpf-output' not valid for hardware events.\n" },
		{ { "comm,trace" }, 0,
		  "'trace' not valid for hardware events. Ignoring.\n"
		  "'trace' not valid for software events. Ignoring.\n"
		  "'trace' not valid for hardware-cache events. Ignoring.\n"
		  "'trace' not valid for unknown events. Ignoring.\n"
		  "'trace' not valid for unknown events. Ignoring.\n"
		  "'trace' not valid for unknown events. Ignoring.\n"
		  "'trace' not valid for unknown events. Ignoring.\n" },
		{ { "hw:comm,ip", "comm,tid" }, 0, "Overriding previous field request for all events.\n" },
		{ { "hw:comm", "hw:+ip" }, 0, "Overriding previous field request for hardware events.\n" },
		{ { "synth:comm", "synth:tid" }, 0, "Overriding previous field request for unknown events.\n" },
		/* refused when checked against the file's events */
		{ { "hw:" }, 1, "hardware events do not exist. Remove corresponding -F option to proceed.\n" },
		{ { "sw:" }, 1, "software events do not exist. Remove corresponding -F option to proceed.\n" },
		{ { "symoff" }, 1, "Display of offsets requested but symbol is notselected.\n" },
		{ { "comm,srcline" }, 1, "Display of source line number requested but sample IP is not\n"
		  "selected. Hence, no address to lookup the source line number.\n" },
		{ { "synth:" }, 0, "" },
		{ { "trace:ip" }, 0, "" },
	};
	size_t i;

	for (i = 0; i < sizeof(B) / sizeof(B[0]); i++) {
		struct ptd_script ps;
		int rc = 0, j;

		ptd_script_init(&ps);
		err_open();
		for (j = 0; j < 3 && B[i].F[j] && !rc; j++)
			rc = ptd_script_parse_fields(&ps, B[i].F[j], errf);
		if (!rc)
			rc = ptd_script_setup(&ps, ev_loops, NLOOPS, 2, 1, errf) ? 1 : 0;
		ok(B[i].rc < 0 ? rc == -PTD_E_INVAL : rc == B[i].rc, "-F %s: result", B[i].F[0]);
		is_str(err_text(), B[i].err, "-F %s: message", B[i].F[0]);
		err_close();
	}
}

/* perf script -i loops.data --symfs . --itrace=b -F flags: nothing;
 * -F -flags,-ip: "... branches:uH: " */
static void test_empty(void)
{
	static const char *const F1[] = { "flags", NULL }, *const F2[] = { "-flags,-ip", NULL };
	struct ptd_script ps;
	struct ptd_script_sample s = S(EV_BR, "loops", 13625, 0, T0, BR | IPF(CALL), 0x40152b,
				       L("_start", 0x1b, LOOPS), 0x402890, U);
	char *got;

	ok(setup(&ps, F1, 0, ev_loops, NLOOPS, 2) != NULL, "setup -F flags");
	got = render(&ps, &s);
	is_str(got, "", "-F flags prints nothing");
	free(got);
	ok(setup(&ps, F2, 0, ev_loops, NLOOPS, 2) != NULL, "setup -F -flags,-ip");
	check(&ps, &s, "           loops 13625 [000]  2000.001000:          1          branches:uH: ", "-F -flags,-ip");
}

int main(void)
{
	test_branch_flags();
	test_defaults();
	test_insn_ipc();
	test_callindent();
	test_call_traces();
	test_callchain();
	test_magic_trace();
	test_auxerr();
	test_brstack();
	test_bad_fields();
	test_empty();
	return done_testing();
}
