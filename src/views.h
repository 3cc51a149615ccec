/* The call views of the main job, instead of printing its samples:
 * --format=folded (formats/out/folded.h: the instruction samples' call
 * chains), --timeline=FILE (formats/out/timeline.h) and --latency=SYMBOL
 * (latency.h), both from the calls the branch samples make (callfeed.h).
 * Any of them together: one pass over the trace. */
#ifndef PTD_VIEWS_H
#define PTD_VIEWS_H

#include <stdio.h>

#include "common/err.h"
#include "itrace.h"
#include "machine.h"
#include "ptq.h"
#include "resolve.h"

struct ptd_views_opts {
	int folded;                 /* --format=folded */
	const char *timeline;       /* --timeline=FILE, NULL: none */
	const char *latency;        /* --latency=SYMBOL, NULL: none */
};

struct ptd_views;

/* Create the timeline file.  Returns 0, -PTD_E_IO or -PTD_E_NOMEM. */
int ptd_views_open(struct ptd_views **out, const struct ptd_views_opts *o, struct ptd_err *err);
/* What the views need of the trace, added to it: the calls come from
 * every branch (b, and e for the timeline's gaps), the folded stacks
 * from the instruction samples' call chains (g; i at perf's default
 * period 100us when no i was asked for). */
void ptd_views_itrace(const struct ptd_views *v, struct ptd_itrace *it);
/* Before the first sample: m must outlive the views.  Returns 0 or
 * -PTD_E_NOMEM. */
int ptd_views_begin(struct ptd_views *v, const struct ptd_machine *m, struct ptd_err *err);
/* One sample (errors too), resolved with rv.  Returns 0 or an error. */
int ptd_views_sample(struct ptd_views *v, struct ptd_resolver *rv, const struct ptd_synth *sy,
		     struct ptd_err *err);
/* The end: calls still open are ended, the folded stacks and the latency
 * report printed to out, the timeline closed. */
int ptd_views_end(struct ptd_views *v, FILE *out, struct ptd_err *err);
void ptd_views_free(struct ptd_views *v);   /* NULL-safe; an unfinished timeline is removed */

#endif
