/* The calls of a run for the call views (--timeline, --latency): branch
 * samples are resolved to symbols and drive the call/return pairing
 * (callstack.h) exactly as the database export does (export.c), and each
 * finished call is handed on with its names.
 *
 * Symbols are keyed as perf's export keys them: one per (dso, symbol
 * start); an address in a map without a symbol is an "unknown" symbol of
 * its own; an address in no map has no symbol (the call is named by its
 * address).  The comm key that flushes a main thread's stack at an exec is
 * the index of the thread's newest exec comm. */
#ifndef PTD_CALLFEED_H
#define PTD_CALLFEED_H

#include <stdint.h>

#include "callstack.h"
#include "machine.h"
#include "ptq.h"
#include "resolve.h"

/* One finished call. */
struct ptd_callfeed_call {
	const struct ptd_call_return *cr;   /* the pairing's record (times, counts, flags) */
	const char *name;                   /* symbol name, "unknown", or NULL: no map */
	uint64_t ip;                        /* the address entered when name is NULL */
	const char *dso;                    /* the symbol's dso, NULL: none */
};

/* Called for each finished call; a non-zero return stops the run. */
typedef int (*ptd_callfeed_fn)(void *ctx, const struct ptd_callfeed_call *c);

struct ptd_callfeed;

/* NULL when out of memory.  m must outlive the feed. */
struct ptd_callfeed *ptd_callfeed_new(const struct ptd_machine *m, ptd_callfeed_fn fn, void *ctx);
void ptd_callfeed_free(struct ptd_callfeed *f);   /* NULL-safe */

/* One branch sample, resolved with rv.  Returns 0, fn's value, or -1 when
 * out of memory (or over the call stacks' limits). */
int ptd_callfeed_branch(struct ptd_callfeed *f, struct ptd_resolver *rv, const struct ptd_synth *sy);

/* The end of the run: every stack flushed.  Returns 0, fn's value or -1. */
int ptd_callfeed_finish(struct ptd_callfeed *f);

#endif
