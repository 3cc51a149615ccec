/* The call views: see views.h. */
#include "views.h"

#include <stdlib.h>
#include <string.h>

#include "callfeed.h"
#include "formats/out/folded.h"
#include "formats/out/timeline.h"
#include "latency.h"

#define CHAIN_MAX 1024

struct ptd_views {
	const struct ptd_machine *m;
	struct ptd_callfeed *feed;
	struct ptd_folded *folded;
	struct ptd_timeline *tl;
	struct ptd_latency *lat;
	char *frames[CHAIN_MAX];      /* the sample's frame names (owned while in use) */
};

int ptd_views_open(struct ptd_views **out, const struct ptd_views_opts *o, struct ptd_err *err)
{
	struct ptd_views *v = calloc(1, sizeof(*v));
	int rc;

	*out = NULL;
	if (!v || (o->folded && !(v->folded = ptd_folded_new())) ||
	    (o->latency && !(v->lat = ptd_latency_new(o->latency)))) {
		ptd_views_free(v);
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	}
	if (o->timeline && (rc = ptd_timeline_open(&v->tl, o->timeline, err))) {
		ptd_views_free(v);
		return rc;
	}
	*out = v;
	return 0;
}

void ptd_views_itrace(const struct ptd_views *v, struct ptd_itrace *it)
{
	if (v->tl || v->lat)
		it->branches = it->errors = 1;
	if (v->folded) {
		if (!it->instructions) {
			it->period_type = PTD_ITRACE_DEFAULT_PERIOD_TYPE;
			it->period = PTD_ITRACE_DEFAULT_PERIOD;
		}
		it->instructions = it->callchain = 1;
	}
	it->dont_decode = 0;
}

static int on_call(void *ctx, const struct ptd_callfeed_call *c)
{
	struct ptd_views *v = ctx;
	const struct ptd_call_return *cr = c->cr;

	if (v->tl)
		ptd_timeline_call(v->tl, cr->pid, cr->tid, c->name, c->ip, c->dso, cr->call_time,
				  cr->return_time, cr->flags, cr->insn_count);
	if (v->lat)
		ptd_latency_add(v->lat, c->name, cr->call_time, cr->return_time, cr->flags);
	return 0;
}

int ptd_views_begin(struct ptd_views *v, const struct ptd_machine *m, struct ptd_err *err)
{
	v->m = m;
	if ((v->tl || v->lat) && !(v->feed = ptd_callfeed_new(m, on_call, v)))
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	return 0;
}

/* stackcollapse.py's stack of an instruction sample: its call chain's
 * symbols, or without a chain the sample's own */
static int fold(struct ptd_views *v, struct ptd_resolver *rv, const struct ptd_synth *sy)
{
	struct ptd_script_loc loc;
	size_t i, n = sy->callchain ? sy->callchain_nr : 1;
	int rc = 0;

	if (n > CHAIN_MAX)
		n = CHAIN_MAX;
	for (i = 0; i < n && !rc; i++) {
		memset(&loc, 0, sizeof(loc));
		ptd_resolve(rv, sy->pid, sy->callchain ? sy->callchain[i] : sy->ip, sy->now, &loc, NULL);
		/* the cache's names are borrowed until its next lookup */
		if (loc.sym && !(v->frames[i] = strdup(loc.sym)))
			rc = -1;
	}
	if (!rc)
		rc = ptd_folded_add(v->folded, ptd_machine_sample_comm(v->m, sy->tid, sy->now),
				    (const char *const *)v->frames, n);
	for (i = 0; i < n; i++) {
		free(v->frames[i]);
		v->frames[i] = NULL;
	}
	return rc;
}

int ptd_views_sample(struct ptd_views *v, struct ptd_resolver *rv, const struct ptd_synth *sy,
		     struct ptd_err *err)
{
	if (v->tl && (sy->kind == PTD_SYN_BRANCH || sy->kind == PTD_SYN_ERROR) && sy->tid != -1 &&
	    ptd_timeline_thread(v->tl, sy->pid, sy->tid, ptd_machine_sample_comm(v->m, sy->tid, sy->now),
				ptd_machine_sample_comm(v->m, sy->pid, sy->now)))
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	if (sy->kind == PTD_SYN_ERROR) {
		if (v->tl)
			ptd_timeline_error(v->tl, sy->pid, sy->tid, sy->cpu, sy->time, sy->err_code,
					   sy->err_msg);
		return 0;
	}
	if (sy->kind == PTD_SYN_BRANCH && v->feed && ptd_callfeed_branch(v->feed, rv, sy))
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory (call stacks)");
	if (sy->kind == PTD_SYN_INSN && v->folded && fold(v, rv, sy))
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory (folded stacks: at most %u)",
				   PTD_FOLDED_MAX);
	return 0;
}

int ptd_views_end(struct ptd_views *v, FILE *out, struct ptd_err *err)
{
	int rc;

	if (v->feed && ptd_callfeed_finish(v->feed))
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory (call stacks)");
	if ((v->folded && ptd_folded_print(v->folded, out)) || (v->lat && ptd_latency_print(v->lat, out)))
		return ptd_err_set(err, PTD_E_IO, "writing output failed");
	if (v->tl) {
		rc = ptd_timeline_close(v->tl, err);
		ptd_timeline_free(v->tl);   /* closed (or removed): nothing left to remove */
		v->tl = NULL;
		return rc;
	}
	return 0;
}

void ptd_views_free(struct ptd_views *v)
{
	if (!v)
		return;
	ptd_callfeed_free(v->feed);
	ptd_folded_free(v->folded);
	ptd_latency_free(v->lat);
	ptd_timeline_free(v->tl);
	free(v);
}
