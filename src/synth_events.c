/* The events perf synthesizes for a trace: see synth_events.h. */
#include "synth_events.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/perf/abi.h"
#include "formats/perf/evname.h"
#include "ptq.h"
#include "ptq_conf.h"

#define SAMPLE_MASK (PTD_SAMPLE_IP | PTD_SAMPLE_TID | PTD_SAMPLE_TIME | PTD_SAMPLE_ADDR | \
		     PTD_SAMPLE_ID | PTD_SAMPLE_STREAM_ID | PTD_SAMPLE_CPU | PTD_SAMPLE_PERIOD | \
		     PTD_SAMPLE_IDENTIFIER)

/* attr bit-field word: exclude_user 4, exclude_kernel 5, exclude_hv 6,
 * precise_ip 15-16, exclude_host 19, exclude_guest 20 */
#define ATTR_BIT(w, n) (((w) >> (n)) & 1)

/* evsel__name() of a PERF_TYPE_SYNTH attr before perf names the event */
#define SYNTH_CHECK_NAME "unknown attr type: -2147483648"

#define PT_CFG_PWR_EVT_EN (1ULL << 4)   /* intel_pt config: power events */

/* Each kind of synthesized sample: its event, and its "type" in JSON. */
static const struct { int ev; const char *json; } kinds[] = {
	[PTD_SYN_BRANCH] = { PTD_SEV_BRANCHES, "branch" },
	[PTD_SYN_INSN] = { PTD_SEV_INSTRUCTIONS, "instruction" },
	[PTD_SYN_PSB] = { PTD_SEV_PSB, "psb" },
	[PTD_SYN_CBR] = { PTD_SEV_CBR, "cbr" },
	[PTD_SYN_TRANSACTION] = { PTD_SEV_TRANSACTIONS, "transaction" },
	[PTD_SYN_PTWRITE] = { PTD_SEV_PTWRITE, "ptwrite" },
	[PTD_SYN_MWAIT] = { PTD_SEV_MWAIT, "mwait" },
	[PTD_SYN_PWRE] = { PTD_SEV_PWRE, "pwre" },
	[PTD_SYN_EXSTOP] = { PTD_SEV_EXSTOP, "exstop" },
	[PTD_SYN_PWRX] = { PTD_SEV_PWRX, "pwrx" },
};

const struct ptd_script_evsel *ptd_synth_event(const struct ptd_synth_events *se, int kind,
					       const char **json)
{
	const struct ptd_script_evsel *ev;

	if (kind <= 0 || (size_t)kind >= sizeof(kinds) / sizeof(kinds[0]) || !kinds[kind].json)
		return NULL;
	ev = &se->ev[kinds[kind].ev];
	*json = kinds[kind].json;
	return ev->name ? ev : NULL;
}

/* perf's evsel__add_modifiers */
static void modifiers(uint64_t w, char *buf, size_t n)
{
	size_t r = 0;
	int colon = 0, guest_default = 0;
	uint64_t k;

#define MOD(bit, ch) do { if (!ATTR_BIT(w, bit) && r + 2 < n) { if (!colon) colon = (int)++r; buf[r++] = (ch); } } while (0)
	if (ATTR_BIT(w, 5) || ATTR_BIT(w, 4) || ATTR_BIT(w, 6)) {
		MOD(5, 'k');
		MOD(4, 'u');
		MOD(6, 'h');
		guest_default = 1;
	}
	for (k = 0; k < ((w >> 15) & 3) && r + 2 < n; k++) {
		if (!colon)
			colon = (int)++r;
		buf[r++] = 'p';
	}
	if (ATTR_BIT(w, 19) || (int)ATTR_BIT(w, 20) == guest_default) {
		MOD(19, 'H');
		MOD(20, 'G');
	}
#undef MOD
	if (colon)
		buf[colon - 1] = ':';
	buf[r] = 0;
}

int ptd_synth_events_setup(struct ptd_synth_events *se, struct ptd_script *ps,
			   struct ptd_session *s, const struct ptd_itrace *it,
			   const struct ptd_decoder_ops *rops, struct ptd_err *err)
{
	struct ptd_evlist *el = ptd_reader_evlist(s->reader);
	const struct ptd_evsel *pt = NULL;
	struct ptd_script_evsel *all;
	size_t i, n = 0, nfile = el->evsels.len;
	uint64_t st;
	char mods[16], (*namebufs)[64];
	int rc;

	all = calloc(nfile + PTD_SEV_NSYNTH, sizeof(*all));
	namebufs = calloc(nfile ? nfile : 1, sizeof(*namebufs));
	if (!all || !namebufs) {
		free(all);
		free(namebufs);
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	}
	for (i = 0; i < nfile; i++) {
		const struct ptd_evsel *ev = *(struct ptd_evsel **)ptd_vec_at(&el->evsels, i);

		all[n].type = ev->type;
		all[n].config = ev->config;
		all[n].sample_period = ev->sample_period;
		all[n].sample_type = ev->sample_type;
		ps->branch_sample_type |= ev->branch_sample_type;
		all[n++].name = ptd_evsel_name(ev, namebufs[i], sizeof(namebufs[i]));
	}
	pt = ptd_rangeq_trace_evsel(s, rops);
	if (pt && rops) {
		modifiers(pt->flags, mods, sizeof(mods));
		ptd_rangeq_events(pt, ptd_rangeq_timeless(pt, it->timeless_decoding), it->branches,
				  it->instructions, it->period, mods, se->names[PTD_SEV_BRANCHES],
				  se->names[PTD_SEV_INSTRUCTIONS], &se->ev[PTD_SEV_BRANCHES],
				  &se->ev[PTD_SEV_INSTRUCTIONS]);
		if (it->branches)
			all[n++] = se->ev[PTD_SEV_BRANCHES];
		if (it->instructions)
			all[n++] = se->ev[PTD_SEV_INSTRUCTIONS];
	} else if (pt) {
		/* perf's intel_pt_synth_events: each event's sample type */
		st = (pt->sample_type & SAMPLE_MASK) | PTD_SAMPLE_IP | PTD_SAMPLE_TID | PTD_SAMPLE_PERIOD;
		if (ptd_ptq_timeless(s, it->timeless_decoding))
			st &= ~PTD_SAMPLE_TIME;
		else
			st |= PTD_SAMPLE_TIME;
		if (s->auxinfo.nr_priv > 9 && !s->auxinfo.priv[9])
			st &= ~PTD_SAMPLE_CPU;
		modifiers(pt->flags, mods, sizeof(mods));
		if (it->branches) {
			snprintf(se->names[PTD_SEV_BRANCHES], sizeof(se->names[0]), "branches%s", mods);
			se->ev[PTD_SEV_BRANCHES] = (struct ptd_script_evsel){ 0, 4, 1, st | PTD_SAMPLE_ADDR,
									 se->names[PTD_SEV_BRANCHES], NULL };
			all[n++] = se->ev[PTD_SEV_BRANCHES];
		}
		if (it->callchain)
			st |= PTD_SAMPLE_CALLCHAIN;
		if (it->last_branch)
			st |= PTD_SAMPLE_BRANCH_STACK;
		if (it->instructions) {
			snprintf(se->names[PTD_SEV_INSTRUCTIONS], sizeof(se->names[0]), "instructions%s", mods);
			se->ev[PTD_SEV_INSTRUCTIONS] = (struct ptd_script_evsel){ 0, 1, it->period, st,
									     se->names[PTD_SEV_INSTRUCTIONS], NULL };
			all[n++] = se->ev[PTD_SEV_INSTRUCTIONS];
		}
		st &= ~PTD_SAMPLE_PERIOD;
		if (it->transactions) {
			snprintf(se->names[PTD_SEV_TRANSACTIONS], sizeof(se->names[0]), "instructions%s", mods);
			se->ev[PTD_SEV_TRANSACTIONS] = (struct ptd_script_evsel){ 0, 1, 1, st, "transactions",
									     se->names[PTD_SEV_TRANSACTIONS] };
			all[n++] = se->ev[PTD_SEV_TRANSACTIONS];
		}
		st |= PTD_SAMPLE_RAW;
		if (it->ptwrites) {
			se->ev[PTD_SEV_PTWRITE] = (struct ptd_script_evsel){ PTD_SCRIPT_TYPE_SYNTH,
				PTD_SCRIPT_SYNTH_PTWRITE, 1, st, "ptwrite", SYNTH_CHECK_NAME };
			all[n++] = se->ev[PTD_SEV_PTWRITE];
		}
		if (it->pwr_events) {
			se->ev[PTD_SEV_CBR] = (struct ptd_script_evsel){ PTD_SCRIPT_TYPE_SYNTH,
				PTD_SCRIPT_SYNTH_CBR, 1, st, "cbr", SYNTH_CHECK_NAME };
			se->ev[PTD_SEV_PSB] = (struct ptd_script_evsel){ PTD_SCRIPT_TYPE_SYNTH,
				PTD_SCRIPT_SYNTH_PSB, 1, st, "psb", SYNTH_CHECK_NAME };
			all[n++] = se->ev[PTD_SEV_CBR];
			all[n++] = se->ev[PTD_SEV_PSB];
		}
		if (it->pwr_events && (pt->config & PT_CFG_PWR_EVT_EN)) {
			se->ev[PTD_SEV_MWAIT] = (struct ptd_script_evsel){ PTD_SCRIPT_TYPE_SYNTH,
				PTD_SCRIPT_SYNTH_MWAIT, 1, st, "mwait", SYNTH_CHECK_NAME };
			se->ev[PTD_SEV_PWRE] = (struct ptd_script_evsel){ PTD_SCRIPT_TYPE_SYNTH,
				PTD_SCRIPT_SYNTH_PWRE, 1, st, "pwre", SYNTH_CHECK_NAME };
			se->ev[PTD_SEV_EXSTOP] = (struct ptd_script_evsel){ PTD_SCRIPT_TYPE_SYNTH,
				PTD_SCRIPT_SYNTH_EXSTOP, 1, st, "exstop", SYNTH_CHECK_NAME };
			se->ev[PTD_SEV_PWRX] = (struct ptd_script_evsel){ PTD_SCRIPT_TYPE_SYNTH,
				PTD_SCRIPT_SYNTH_PWRX, 1, st, "pwrx", SYNTH_CHECK_NAME };
			all[n++] = se->ev[PTD_SEV_MWAIT];
			all[n++] = se->ev[PTD_SEV_PWRE];
			all[n++] = se->ev[PTD_SEV_EXSTOP];
			all[n++] = se->ev[PTD_SEV_PWRX];
		}
	}
	se->nr_attrs = n - nfile;
	rc = ptd_script_setup(ps, all, n, nfile,
			      ptd_feat_has(ptd_reader_features(s->reader), PTD_FEAT_AUXTRACE), stderr);
	if (rc == -PTD_E_INVAL && ps->failed != (size_t)-1) {
		/* perf synthesizes the events while processing AUXTRACE_INFO */
		const char *name = all[ps->failed].name;

		/* (perf's cs-etm says nothing of its own there) */
		if (!rops)
			fprintf(stderr, "intel_pt_synth_event: failed to synthesize '%.*s' event type\n",
				(int)strcspn(name, ":"), name);
		fprintf(stderr, "%#" PRIx64 " [%#" PRIx64 "]: failed to process type: %u [Invalid argument]\n",
			s->auxinfo.file_offset, 16 + 8 * s->auxinfo.nr_priv, PTD_REC_AUXTRACE_INFO);
	}
	free(all);
	free(namebufs);
	return rc;
}
