/* The script printer's texts kept and written again (formats/out/script.c:
 * a line's start, an address with its symbol and dso), checked against the
 * lines perf 6.1 printed that test_script.c checks one at a time (see its
 * header for where they come from). */
#include "tests/unit/script_test.h"

/* The texts kept of line starts and addresses (script.c) once thousands of
 * lines are printed: perf's lines from test_defaults, printed again and
 * again in turn, each as perf printed it; a symbol name that changes at the
 * same address after the caller's sym_gen changes; dso padding changed on
 * the way, against a script that has kept nothing yet */
static void test_kept_texts(void)
{
	struct ptd_script ps, fresh;
	struct ptd_script_sample s[3];
	const char *want[3] = {
		"           loops 13625 [000]  2000.001000:          1          branches:uH:            40152b _start+0x1b (/bin/loops) =>           402890 __libc_start_main_impl+0x0 (/bin/loops)\n",
		"           loops 13625 [000]  2000.001044:      57245      instructions:uH:            40164b count_down+0xb (/bin/loops)\n",
		"       recursion 13637 [000]  2000.001001:                  psb:  psb offs: 0x75                              43b578 __tunables_init+0x68 (/bin/recursion)\n",
	};
	uint8_t psb[12] = { 0, 0, 0, 0, 0x75 };
	char name[32] = "count_down", *got, *got2;
	int i, differ = 0;

	ok(setup(&ps, NULL, 0, ev_loops, NLOOPS, 2) != NULL, "setup default");
	s[0] = S(EV_BR, "loops", 13625, 0, T0, BR | IPF(CALL), 0x40152b, L("_start", 0x1b, LOOPS),
		 0x402890, L("__libc_start_main_impl", 0, LOOPS));
	s[1] = S(EV_IN, "loops", 13625, 0, 2000001044430ULL, 0, 0x40164b, L(name, 0xb, LOOPS), 0, U);
	s[2] = S(EV_PSB, "recursion", 13637, 0, 2000001001414ULL, 0, 0x43b578,
		 L("__tunables_init", 0x68, "/bin/recursion"), 0, U);
	s[2].raw = psb;
	s[2].raw_size = sizeof(psb);
	for (i = 0; i < 10000; i++) {
		got = render(&ps, &s[i % 3]);
		differ += strcmp(got, want[i % 3]) != 0;
		free(got);
	}
	is_u64((uint64_t)differ, 0, "10,000 lines in turn, each perf's");
	ok(ps.loctext != NULL, "the addresses' texts are kept");
	strcpy(name, "count_up__");
	ps.sym_gen++;
	got = render(&ps, &s[1]);
	is_str(got, "           loops 13625 [000]  2000.001044:      57245      instructions:uH:            40164b count_up__+0xb (/bin/loops)\n",
	       "a name changed at the same address, with sym_gen");
	free(got);
	ps.pad_dso = 50;
	ok(setup(&fresh, NULL, 0, ev_loops, NLOOPS, 2) != NULL, "setup another");
	fresh.pad_dso = 50;
	for (i = 0, differ = 0; i < 3; i++) {
		got = render(&ps, &s[i]);
		got2 = render(&fresh, &s[i]);
		differ += strcmp(got, got2) != 0;
		free(got);
		free(got2);
	}
	is_u64((uint64_t)differ, 0, "dso padding changed: as a script that kept nothing prints");
	ptd_script_fini(&ps);
	ptd_script_fini(&fresh);
}

int main(void)
{
	test_kept_texts();
	return done_testing();
}
