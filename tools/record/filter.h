/* Address filters for the emulated Intel PT recorder, as
 * `perf record -e intel_pt//u --filter 'filter main @ PROGRAM'` sets them:
 * regions of the traced program's file where packets are generated.
 *
 * --filter takes a comma-separated list of the program's function names
 * (from its .symtab) or OFFSET/SIZE file ranges.  The recorder writes the
 * bare filter string perf record stores in AUXTRACE_INFO ("filter
 * 0x1a40/0x80@/path", comma-separated), and asks ptd_rfilter_in() at every
 * control transfer whether its target is inside a region, given the
 * program's mappings seen so far. */
#ifndef PTD_RECORD_FILTER_H
#define PTD_RECORD_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "tools/record/xev.h"

#define PTD_RFILTER_MAX 8    /* regions (the hardware has 2 to 4) */

struct ptd_rfilter {
	char *path;              /* the program, canonical */
	char *name;              /* its name in the recording (MMAP2 and filter string) */
	uint64_t off[PTD_RFILTER_MAX], size[PTD_RFILTER_MAX];
	size_t n;
	uint64_t va[PTD_RFILTER_MAX * 4][2];   /* the regions in memory: [start, end) */
	size_t nva;
	char *str;               /* perf's filter string */
};

/* Resolve spec against program (recorded as `name`: its path, or its path
 * inside --root).  Returns 0 or an error. */
int ptd_rfilter_init(struct ptd_rfilter *f, const char *spec, const char *program,
		     const char *name, struct ptd_err *err);
void ptd_rfilter_fini(struct ptd_rfilter *f);

/* A mapping of the traced process: where the regions are in memory. */
void ptd_rfilter_map(struct ptd_rfilter *f, const struct ptd_xmap *m);

/* Is ip in a region?  (ctx: the struct ptd_rfilter) */
int ptd_rfilter_in(void *ctx, uint64_t ip);

#endif
