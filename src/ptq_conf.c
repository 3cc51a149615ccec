/* Intel PT settings of a recording, as perf reads them from AUXTRACE_INFO
 * and the intel_pt event's attr (intel_pt_process_auxtrace_info, the
 * intel_pt_*() config helpers): see ptq_conf.h. */
#include "ptq_conf.h"

#include <inttypes.h>
#include <string.h>

#include "formats/perf/abi.h"

/* AUXTRACE_INFO priv[] of Intel PT */
enum {
	PRIV_PMU_TYPE, PRIV_TIME_SHIFT, PRIV_TIME_MULT, PRIV_TIME_ZERO, PRIV_CAP_USER_TIME_ZERO,
	PRIV_TSC_BIT, PRIV_NORETCOMP_BIT, PRIV_HAVE_SCHED_SWITCH, PRIV_SNAPSHOT_MODE,
	PRIV_PER_CPU_MMAPS, PRIV_MTC_BIT, PRIV_MTC_FREQ_BITS, PRIV_TSC_CTC_N, PRIV_TSC_CTC_D,
	PRIV_CYC_BIT, PRIV_MAX_NONTURBO_RATIO, PRIV_FILTER_STR_LEN,
};

#define CFG_PASS_THRU (1ULL << 0)
#define CFG_BRANCH_EN (1ULL << 13)
#define CFG_TNT_DIS    (1ULL << 55)


uint64_t ptd_ptq_ns_to_ticks(const struct ptd_time_conv *tc, uint64_t ns)
{
	uint64_t quot, rem;

	if (!tc->time_mult)
		return 0;
	quot = ns / tc->time_mult;
	rem = ns % tc->time_mult;
	return (quot << tc->time_shift) + (rem << tc->time_shift) / tc->time_mult;
}

int ptd_ptq_timeless(const struct ptd_session *s, int force)
{
	const struct ptd_auxtrace_info *ai = &s->auxinfo;
	const struct ptd_evlist *el = ptd_reader_evlist(s->reader);
	uint64_t tsc_bit;
	size_t i;
	int timeless = 1;

	if (force || !ai->present || ai->type != 1 || ai->nr_priv <= PRIV_PER_CPU_MMAPS)
		return 1;
	tsc_bit = ai->priv[PRIV_TSC_BIT];
	if (!tsc_bit || !ai->priv[PRIV_CAP_USER_TIME_ZERO])
		return 1;
	for (i = 0; i < el->evsels.len; i++) {
		const struct ptd_evsel *ev = *(struct ptd_evsel **)ptd_vec_at(&el->evsels, i);

		if (!(ev->sample_type & PTD_SAMPLE_TIME))
			return 1;
		if (ev->type == ai->priv[PRIV_PMU_TYPE]) {
			if (!(ev->config & tsc_bit))
				return 1;
			timeless = 0;
		}
	}
	return timeless;
}

/* perf's address filter string after the FILTER_STR_LEN word: its length
 * then the string, NUL-terminated and padded to 8 bytes */
static int filters(struct ptd_ptq_conf *q, const struct ptd_auxtrace_info *ai, struct ptd_err *err)
{
	uint64_t len, words;
	const char *str;

	memset(&q->filters, 0, sizeof(q->filters));
	if (ai->nr_priv <= PRIV_FILTER_STR_LEN || !(len = ai->priv[PRIV_FILTER_STR_LEN]))
		return 0;
	words = len < UINT64_MAX - 8 ? (len + 1 + 7) / 8 : UINT64_MAX;
	if (words > ai->nr_priv - PRIV_FILTER_STR_LEN - 1)
		return ptd_err_set(err, PTD_E_FORMAT, "AUXTRACE_INFO at file offset %#" PRIx64
				   ": bad filter string length %" PRIu64, ai->file_offset, len);
	str = (const char *)&ai->priv[PRIV_FILTER_STR_LEN + 1];
	if (str[words * 8 - 1])
		return ptd_err_set(err, PTD_E_FORMAT, "AUXTRACE_INFO at file offset %#" PRIx64
				   ": filter string not null terminated", ai->file_offset);
	if (ptd_addrfilters_parse(&q->filters, str))
		return ptd_err_set(err, PTD_E_FORMAT, "AUXTRACE_INFO at file offset %#" PRIx64
				   ": bad address filter string '%.100s'", ai->file_offset, str);
	return 0;
}

int ptd_ptq_conf(struct ptd_ptq_conf *q, const struct ptd_session *s, const struct ptd_ptq_cfg *cfg,
		 struct pdec_params *pp, struct ptd_err *err)
{
	const struct ptd_auxtrace_info *ai = &s->auxinfo;
	const uint64_t *priv = ai->priv;
	const struct ptd_evsel *pt = NULL;
	const struct ptd_evlist *el;
	uint64_t noretcomp_bit, mtc_freq_bits, bits;
	unsigned shift;
	size_t i;

	if (!ai->present || ai->type != 1)
		return ptd_err_set(err, PTD_E_UNSUPPORTED, "no Intel PT trace in this file");
	if (ai->nr_priv <= PRIV_PER_CPU_MMAPS)
		return ptd_err_set(err, PTD_E_FORMAT, "Intel PT AUXTRACE_INFO has %" PRIu64 " words, "
				   "fewer than perf writes", ai->nr_priv);
	el = ptd_reader_evlist(s->reader);
	for (i = 0; i < el->evsels.len; i++) {
		const struct ptd_evsel *ev = *(struct ptd_evsel **)ptd_vec_at(&el->evsels, i);

		if (ev->type == priv[PRIV_PMU_TYPE]) {
			pt = ev;
			break;
		}
	}
	if (!pt)
		return ptd_err_set(err, PTD_E_FORMAT, "no event of the Intel PT PMU (type %" PRIu64 ")",
				   priv[PRIV_PMU_TYPE]);
	memset(&q->tc, 0, sizeof(q->tc));
	q->tc.time_shift = (uint16_t)priv[PRIV_TIME_SHIFT];
	q->tc.time_mult = (uint32_t)priv[PRIV_TIME_MULT];
	q->tc.time_zero = priv[PRIV_TIME_ZERO];
	q->tc.cap_user_time_zero = !!priv[PRIV_CAP_USER_TIME_ZERO];
	noretcomp_bit = priv[PRIV_NORETCOMP_BIT];
	q->have_sched_switch = (int)priv[PRIV_HAVE_SCHED_SWITCH];
	q->snapshot = !!priv[PRIV_SNAPSHOT_MODE];
	q->per_cpu_mmaps = !!priv[PRIV_PER_CPU_MMAPS];
	q->timeless = ptd_ptq_timeless(s, cfg->timeless);
	if (q->timeless && !q->tc.time_mult)
		q->tc.time_mult = 1;
	memset(pp, 0, sizeof(*pp));
	pp->return_compression = !(noretcomp_bit && (pt->config & noretcomp_bit));
	pp->branch_enable = !((pt->config & CFG_PASS_THRU) && !(pt->config & CFG_BRANCH_EN));
	if (ai->nr_priv > PRIV_CYC_BIT) {
		mtc_freq_bits = priv[PRIV_MTC_FREQ_BITS];
		pp->tsc_ctc_ratio_n = (uint32_t)priv[PRIV_TSC_CTC_N];
		pp->tsc_ctc_ratio_d = (uint32_t)priv[PRIV_TSC_CTC_D];
		if (mtc_freq_bits) {
			for (shift = 0, bits = mtc_freq_bits; !(bits & 1); shift++)
				bits >>= 1;
			pp->mtc_period = (unsigned)((pt->config & mtc_freq_bits) >> shift);
		}
	}
	if (ai->nr_priv > PRIV_MAX_NONTURBO_RATIO)
		pp->max_non_turbo_ratio = (unsigned)priv[PRIV_MAX_NONTURBO_RATIO];
	if (!pp->max_non_turbo_ratio && q->tc.time_mult)
		pp->max_non_turbo_ratio = (unsigned)((ptd_ptq_ns_to_ticks(&q->tc, 1000000000) + 50000000) / 100000000);
	q->max_non_turbo_ratio = pp->max_non_turbo_ratio;
	if (q->tc.time_mult && pp->max_non_turbo_ratio)
		q->cbr2khz = ptd_ptq_ns_to_ticks(&q->tc, 1000000000) / pp->max_non_turbo_ratio / 1000;
	pp->max_loops = cfg->max_loops;
	pp->quick = (int)cfg->quick;
	if (pp->branch_enable && (pt->config & CFG_TNT_DIS) && !pp->quick)
		pp->quick = 1;   /* code cannot be walked without TNT */
	if (cfg->instructions) {
		switch (cfg->period_type) {
		case 1:
			pp->period_type = PDEC_PERIOD_INSTRUCTIONS;
			pp->period = cfg->period;
			break;
		case 2:
			pp->period_type = PDEC_PERIOD_TICKS;
			pp->period = cfg->period;
			break;
		case 3:
			pp->period_type = PDEC_PERIOD_TICKS;
			pp->period = ptd_ptq_ns_to_ticks(&q->tc, cfg->period);
			break;
		}
		if (!pp->period) {
			pp->period_type = PDEC_PERIOD_INSTRUCTIONS;
			pp->period = 1;
		}
	}
	if (cfg->calls)
		q->branches_filter |= PTD_IPF_CALL | PTD_IPF_ASYNC | PTD_IPF_TRACE_END;
	if (cfg->returns)
		q->branches_filter |= PTD_IPF_RETURN | PTD_IPF_TRACE_BEGIN;
	return filters(q, ai, err);
}

void ptd_ptq_conf_fini(struct ptd_ptq_conf *q)
{
	ptd_addrfilters_fini(&q->filters);
}

