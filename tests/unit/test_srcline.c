/* Source lines (src/srcline.c): addresses of testdata/record/bin/loops
 * whose srcline perf script prints for testdata/record/loops.data (perf
 * 6.1 through binutils' addr2line: the line table, a file symbol, nothing,
 * the "dso[addr]" fallback), and perf's give-up rule (util/srcline.c
 * A2L_FAIL_LIMIT): 123 failed lookups in a row without a success turn a
 * dso's lookups off; a success before that keeps them on for good. */
#include <stdlib.h>

#include "src/srcline.h"
#include "tests/tap.h"

#define DSO "/bin/loops"

int main(void)
{
	const char *top = getenv("top_srcdir");
	char bin[4096];
	struct ptd_srcline *s;
	int i, disabled = 1;

	if (!ptd_srcline_available()) {
		printf("1..0 # SKIP built without libdw\n");
		return 0;
	}
	snprintf(bin, sizeof(bin), "%s/testdata/record/bin/loops", top ? top : ".");

	/* file offsets; the binary's .text is at 0x401100, file offset 0x1100 */
	s = ptd_srcline_new(0);
	ok(s != NULL, "new");
	is_str(ptd_srcline_get(s, DSO, bin, bin, 0x164e), "loops.c:16", "count_down: the line table");
	is_str(ptd_srcline_get(s, DSO, bin, bin, 0x18d61), "malloc.o:0",
	       "ptmalloc_init (no DWARF): its file symbol");
	ok(ptd_srcline_get(s, DSO, bin, bin, 0x28d9) == NULL,
	   "__libc_start_main_impl (global, no DWARF): nothing");
	is_str(ptd_srcline_get(s, DSO, bin, bin, 0x1038), "loops[401038]", "the PLT: perf's fallback");
	is_str(ptd_srcline_get(s, DSO, bin, bin, 0x164e), "loops.c:16", "again, from the cache");
	ok(ptd_srcline_get(s, "[kernel.kallsyms]", NULL, NULL, 0x10) != NULL &&
	   !strcmp(ptd_srcline_get(s, "[kernel.kallsyms]", NULL, NULL, 0x10), "[kernel.kallsyms][10]"),
	   "a dso perf does not ask about: the fallback");
	ptd_srcline_free(s);

	/* 123 failures in a row from the start: off for good */
	s = ptd_srcline_new(0);
	for (i = 0; i < 123; i++)
		if (strcmp(ptd_srcline_get(s, DSO, bin, bin, 0x1038), "loops[401038]"))
			disabled = 0;
	ok(disabled, "123 failures give the fallback");
	is_str(ptd_srcline_get(s, DSO, bin, bin, 0x164e), "loops[40164e]",
	       "after 123 failures the dso is not asked again");
	ptd_srcline_free(s);

	/* 122 failures, then a success: on for good */
	s = ptd_srcline_new(0);
	for (i = 0; i < 122; i++)
		ptd_srcline_get(s, DSO, bin, bin, 0x1038);
	is_str(ptd_srcline_get(s, DSO, bin, bin, 0x164e), "loops.c:16", "122 failures: still asked");
	for (i = 0; i < 300; i++)
		ptd_srcline_get(s, DSO, bin, bin, 0x1038);
	is_str(ptd_srcline_get(s, DSO, bin, bin, 0x164e), "loops.c:16",
	       "after a success, failures never turn it off");
	ptd_srcline_free(s);

	/* --full-source-path: the whole path, from the DWARF */
	s = ptd_srcline_new(1);
	{
		const char *t = ptd_srcline_get(s, DSO, bin, bin, 0x164e);

		ok(t && t[0] == '/' && strlen(t) > 11 && !strcmp(t + strlen(t) - 11, "/loops.c:16"),
		   "full path ends in /loops.c:16 (%s)", t ? t : "(null)");
	}
	ptd_srcline_free(s);
	ptd_srcline_free(NULL);
	return done_testing();
}
