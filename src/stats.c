#include "stats.h"

#include <inttypes.h>
#include <string.h>

#include "formats/perf/abi.h"
#include "formats/perf/evname.h"

void ptd_stats_print_counts(FILE *out, struct ptd_session *s)
{
	const struct ptd_session_stats *st = &s->stats;
	struct ptd_evlist *el = ptd_reader_evlist(s->reader);
	const struct ptd_file_header *h = ptd_reader_header(s->reader);
	unsigned t;
	size_t i;

	/* perf adds this remark when the file header has the auxtrace feature */
	fprintf(out, "\nAggregated stats:%s\n",
		!h->pipe && ptd_feat_has(ptd_reader_features(s->reader), PTD_FEAT_AUXTRACE) ?
		" (excludes AUX area (e.g. instruction trace) decoded / synthesized events)" : "");
	fprintf(out, "%16s events: %10" PRIu64 "\n", "TOTAL", st->nr_total);
	for (t = 1; t < PTD_REC_MAX; t++) {
		const char *name = ptd_rec_name(t);

		if (!name || !st->nr[t])
			continue;
		fprintf(out, "%16s events: %10" PRIu64 "  (%4.1f%%)\n", name, st->nr[t],
			st->nr_total ? 100.0 * (double)st->nr[t] / (double)st->nr_total : 0.0);
	}
	for (i = 0; i < el->evsels.len; i++) {
		const struct ptd_evsel *ev = *(struct ptd_evsel **)ptd_vec_at(&el->evsels, i);
		uint64_t n = i < st->nr_evsels ? st->nr_samples[i] : 0;
		uint64_t lost = i < st->nr_evsels ? st->nr_lost_samples[i] : 0;
		char buf[64];

		if (!n && !lost)
			continue;   /* perf skips events with neither */
		fprintf(out, "%s stats:\n", ptd_evsel_name(ev, buf, sizeof(buf)));
		if (n)
			fprintf(out, "%16s events: %10" PRIu64 "\n", "SAMPLE", n);
		if (lost)
			fprintf(out, "%16s events: %10" PRIu64 "\n", "LOST_SAMPLES", lost);
	}
}

static void print_time(FILE *out, uint64_t t)
{
	fprintf(out, "%" PRIu64 ".%09" PRIu64, t / UINT64_C(1000000000), t % UINT64_C(1000000000));
}

void ptd_stats_print_details(FILE *out, struct ptd_session *s)
{
	const struct ptd_file_header *h = ptd_reader_header(s->reader);
	const struct ptd_features *f = ptd_reader_features(s->reader);
	const struct ptd_session_stats *st = &s->stats;
	size_t i, nq = s->auxq.queues.len;
	uint64_t by_cause[PTD_GAP_NR] = { 0 };
	unsigned bit;

	fprintf(out, "\n# ptdecode: file\n");
	fprintf(out, "mode: %s\n", h->pipe ? "pipe" : "file");
	if (!h->pipe)
		fprintf(out, "size: %" PRIu64 " bytes, data at %#" PRIx64 " (%" PRIu64 " bytes)\n",
			h->file_size, h->data.offset, h->data.size);
	fprintf(out, "features:");
	for (bit = 0; bit < PTD_FEAT_BITS; bit++) {
		const char *n = ptd_feat_name(bit);

		if (!ptd_feat_has(f, bit))
			continue;
		if (n)
			fprintf(out, " %s", n);
		else
			fprintf(out, " %u", bit);
	}
	fputc('\n', out);
	if (f->hostname)
		fprintf(out, "hostname: %s\n", f->hostname);
	if (f->osrelease)
		fprintf(out, "os release: %s\n", f->osrelease);
	if (f->arch)
		fprintf(out, "arch: %s\n", f->arch);
	if (f->cpuid)
		fprintf(out, "cpuid: %s\n", f->cpuid);
	if (f->have_nrcpus)
		fprintf(out, "nrcpus online: %u, available: %u\n", f->nr_cpus_online, f->nr_cpus_avail);
	if (f->nr_cmdline) {
		fprintf(out, "cmdline:");
		for (i = 0; i < f->nr_cmdline; i++)
			fprintf(out, " %s", f->cmdline[i]);
		fputc('\n', out);
	}
	for (i = 0; i < f->nr_pmus; i++)
		fprintf(out, "pmu mapping: %u = %s\n", f->pmus[i].type, f->pmus[i].name);
	fprintf(out, "build ids: %zu\n", f->nr_buildids);
	if (f->have_compressed)
		fprintf(out, "compressed: %s, level %u, ratio %u\n",
			f->comp_type == 1 ? "zstd" : "unknown", f->comp_level, f->comp_ratio);
	if (ptd_feat_has(f, PTD_FEAT_AUXTRACE))
		fprintf(out, "auxtrace index: %zu entries\n", f->nr_auxtrace_index);

	fprintf(out, "\n# ptdecode: records\n");
	fprintf(out, "records: %" PRIu64 " (%" PRIu64 " from compressed records, %" PRIu64
		" of unknown type, %" PRIu64 " unparsable)\n",
		st->nr_total, st->nr_compressed_inner, st->nr_unknown, st->nr_bad);
	if (st->first_time) {
		fprintf(out, "time: ");
		print_time(out, st->first_time);
		fprintf(out, " .. ");
		print_time(out, st->last_time);
		fprintf(out, " (%.6f s)\n", (double)(st->last_time - st->first_time) / 1e9);
	}
	fprintf(out, "threads: %zu, processes: %zu, maps: %" PRIu64 "\n",
		s->machine.threads.used, s->machine.procs.used, s->machine.nr_maps);

	if (s->auxinfo.present) {
		static const char *const types[] = { "unknown", "intel_pt", "intel_bts", "cs_etm",
						     "arm_spe", "s390_cpumsf", "hisi_ptt" };
		uint32_t t = s->auxinfo.type;

		fprintf(out, "\n# ptdecode: AUX area\n");
		fprintf(out, "auxtrace type: %u (%s), %" PRIu64 " private words\n", t,
			t < sizeof(types) / sizeof(types[0]) ? types[t] : "unknown", s->auxinfo.nr_priv);
	}
	if (nq || s->auxq.gaps.len)
		fprintf(out, "AUX queues: %zu, AUXTRACE bytes: %" PRIu64 "\n", nq, st->auxtrace_bytes);
	for (i = 0; i < nq; i++) {
		const struct ptd_aux_queue *q = *(struct ptd_aux_queue **)ptd_vec_at(&s->auxq.queues, i);

		fprintf(out, "queue %u: cpu %d tid %d: %zu chunks, %" PRIu64 " bytes; %" PRIu64
			" AUX records announcing %" PRIu64 " bytes; flags%s%s%s%s%s; time ",
			q->idx, (int)q->cpu, (int)q->tid, q->chunks.len, q->bytes, q->nr_aux, q->aux_bytes,
			q->flags & PTD_AUX_FLAG_TRUNCATED ? " truncated" : "",
			q->flags & PTD_AUX_FLAG_OVERWRITE ? " overwrite" : "",
			q->flags & PTD_AUX_FLAG_PARTIAL ? " partial" : "",
			q->flags & PTD_AUX_FLAG_COLLISION ? " collision" : "",
			q->flags & ~(uint64_t)0xf & ~(uint64_t)PTD_AUX_FLAG_PMU_FORMAT_MASK ? " other" :
			!(q->flags & 0xf) ? " none" : "");
		print_time(out, q->first_time);
		fprintf(out, " .. ");
		print_time(out, q->last_time);
		fputc('\n', out);
	}
	if (s->auxq.nr_unmatched_aux)
		fprintf(out, "AUX records with no AUXTRACE queue: %" PRIu64 "\n", s->auxq.nr_unmatched_aux);
	for (i = 0; i < s->auxq.gaps.len; i++) {
		const struct ptd_gap *g = ptd_vec_at(&s->auxq.gaps, i);

		by_cause[g->cause]++;
	}
	if (s->auxq.gaps.len) {
		fprintf(out, "gaps: %zu (", s->auxq.gaps.len);
		for (bit = 0, i = 0; bit < PTD_GAP_NR; bit++)
			if (by_cause[bit])
				fprintf(out, "%s%s %" PRIu64, i++ ? ", " : "", ptd_gap_cause_name((int)bit),
					by_cause[bit]);
		fprintf(out, ")\n");
	}
}
