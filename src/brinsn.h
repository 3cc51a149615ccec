/* perf script's -F brstackinsn and brstackinsnlen: the instructions
 * between the entries of a sample's branch stack, read from the binaries
 * as perf reads them (builtin-script.c, perf_sample__fprintf_brstackinsn
 * of perf 6.1), with perf's x86 lengths and its quirks kept: the symbol
 * line is printed when an address leaves the last symbol's range (compared
 * by offset only), the last block stops at the first branch that is not
 * the sample's ip, a block the binary contradicts is reported as perf
 * reports it. */
#ifndef PTD_BRINSN_H
#define PTD_BRINSN_H

#include <stdint.h>
#include <stdio.h>

#include "formats/out/script.h"
#include "resolve.h"

struct ptd_pinsn;
struct ptd_brinsn_walk;
struct ptd_srcline;

struct ptd_brinsn {
	struct ptd_resolver *rv;     /* borrowed */
	struct ptd_srcline *srcl;    /* -F srcline with it (NULL: none) */
	struct ptd_pinsn *pinsn;     /* owned: ptd_brinsn_init / _fini */
	int max_blocks;              /* --max-blocks (0: all) */
	struct ptd_brinsn_walk *walk; /* owned: the code buffer and per-sample state */
	/* the sample being printed: its process and sideband time */
	int32_t pid;
	uint64_t now;
};

/* Returns 0, or -1 when out of memory. */
int ptd_brinsn_init(struct ptd_brinsn *b, struct ptd_resolver *rv, struct ptd_srcline *srcl,
		    int max_blocks);
void ptd_brinsn_fini(struct ptd_brinsn *b);

/* Print s's branch stack instructions to out (nothing without one).
 * what: PTD_SCRIPT_BRSTACKINSNLEN set adds "ilen: N"; PTD_SCRIPT_SRCLINE
 * adds the symbol lines' source lines. */
void ptd_brinsn_print(struct ptd_brinsn *b, FILE *out, const struct ptd_script_sample *s,
		      uint64_t what);

#endif
