/* --format=folded: folded stacks for flame graphs, as Brendan Gregg's
 * stackcollapse-perf.pl and perf's stackcollapse.py write them: one line
 * per distinct stack, "comm;outermost;...;innermost count", sorted as
 * strings (byte order).  As stackcollapse.py: spaces in the comm become
 * '_', ';' in a symbol ':', a frame without a symbol "[unknown]"; the
 * count is the number of samples with that stack.
 *
 * The stacks are kept in a hash map (at most PTD_FOLDED_MAX distinct). */
#ifndef PTD_FORMATS_OUT_FOLDED_H
#define PTD_FORMATS_OUT_FOLDED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PTD_FOLDED_MAX (1u << 24)

struct ptd_folded;

struct ptd_folded *ptd_folded_new(void);   /* NULL when out of memory */
void ptd_folded_free(struct ptd_folded *f); /* NULL-safe */

/* One sample: its thread's comm (NULL: "[unknown]") and frames, innermost
 * first (a NULL frame: no symbol).  Returns 0, or -1 when out of memory
 * or over PTD_FOLDED_MAX stacks. */
int ptd_folded_add(struct ptd_folded *f, const char *comm, const char *const *frames, size_t n);

/* Every stack, sorted.  Returns 0, or -1 when out of memory or out is in
 * error. */
int ptd_folded_print(const struct ptd_folded *f, FILE *out);

#endif
