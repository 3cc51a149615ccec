/* libFuzzer harness: a kallsyms file (--kallsyms, a perf.data directory's
 * kcore_dir/kallsyms) read as perf reads it (src/kallsyms.c: the parser,
 * the end and duplicate fix-ups, perf's symbol tree for overlaps), then
 * looked up at every symbol's start and end and around them, and a kcore
 * segment chosen from the same bytes read as an ELF image
 * (ptd_kcore_segment). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols.h"
#include "symfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

/* the input's file goes at a normal exit; after a crash it stays */
static void cleanup(void)
{
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ptd_symtab *t = NULL;
	struct ptd_kallsyms_info ki;
	struct ptd_err err = { 0 };
	uint64_t vaddr, len, off, a;
	const char *name;
	uint64_t symoff;
	FILE *f;
	int i;

	if (!path[0]) {
		snprintf(path, sizeof(path), "/tmp/fuzz_kallsyms.%d", (int)getpid());
		atexit(cleanup);
	}
	f = fopen(path, "w");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f))
		abort();
	if (!ptd_symtab_load_kallsyms(path, &t, &err)) {
		if (ptd_symtab_kallsyms_info(t, &ki))
			abort();   /* a kallsyms table always answers */
		for (i = 0; i < 64; i++) {
			a = ki.first + (uint64_t)i * ((ki.end - ki.first) / 64 + 1);
			if (!ptd_symtab_lookup(t, a, &name, &symoff) && (!name || symoff > a - ki.first))
				abort();   /* a symbol found starts at or before the address */
			ptd_symtab_lookup(t, a - 1, &name, &symoff);
		}
		if (ki.nsyms && ptd_symtab_lookup(t, ki.first, &name, &symoff) == 0 && symoff)
			abort();   /* the first symbol holds its own start */
		ptd_symtab_free(t);
	}
	ptd_kcore_segment(data, size, size > 8, size > 8 ? data[8] * 0x1000ULL : 0, &vaddr, &len, &off);
	return 0;
}
