/* The gap report's text and JSON: see gap_report.h. */
#include "formats/out/gap_report.h"

#include <inttypes.h>

struct sum {
	uint64_t n, bytes, insns, count;
};

static void add_to(struct sum *x, const struct ptd_gap_rep *r)
{
	x->n++;
	x->bytes += r->bytes_known ? r->bytes : 0;
	x->insns += r->insns_known ? r->insns : 0;
	x->count += r->count;
}

/* s[kind] per cause, s[PTD_GK_NR] the total */
static void sums(const struct ptd_gaps *g, struct sum *s)
{
	size_t i;

	for (i = 0; i < g->gaps.len; i++) {
		const struct ptd_gap_rep *r = ptd_vec_at(&g->gaps, i);

		add_to(&s[r->kind], r);
		add_to(&s[PTD_GK_NR], r);
	}
}

static void queue_name(char *buf, size_t n, const struct ptd_gap_rep *r)
{
	if (r->cpu >= 0)
		snprintf(buf, n, "cpu %d", r->cpu);
	else if (r->tid >= 0)
		snprintf(buf, n, "tid %d", r->tid);
	else
		snprintf(buf, n, "-");
}

static void time_str(char *buf, size_t n, uint64_t t)
{
	if (t)
		snprintf(buf, n, "%" PRIu64 ".%09" PRIu64, t / 1000000000, t % 1000000000);
	else
		snprintf(buf, n, "-");
}

static void num(char *buf, size_t n, int known, uint64_t v)
{
	if (known)
		snprintf(buf, n, "%" PRIu64, v);
	else
		snprintf(buf, n, "-");
}

int ptd_gaps_print_text(FILE *out, const struct ptd_gaps *g)
{
	struct sum s[PTD_GK_NR + 1] = { { 0 } };
	size_t i;
	int k;

	fprintf(out, "# %-10s %-18s %-20s %-20s %12s %10s %10s  %s\n", "queue", "cause", "start", "end",
		"span(ns)", "bytes", "insns~", "detail");
	for (i = 0; i < g->gaps.len; i++) {
		const struct ptd_gap_rep *r = ptd_vec_at(&g->gaps, i);
		char q[32], t0[32], t1[32], span[32], b[32], in[32];

		queue_name(q, sizeof(q), r);
		time_str(t0, sizeof(t0), r->start);
		time_str(t1, sizeof(t1), r->end);
		num(span, sizeof(span), r->start && r->end && r->end >= r->start, r->end - r->start);
		num(b, sizeof(b), r->bytes_known, r->bytes);
		num(in, sizeof(in), r->insns_known, r->insns);
		fprintf(out, "  %-10s %-18s %-20s %-20s %12s %10s %10s ", q, ptd_gap_kind_name(r->kind), t0,
			t1, span, b, in);
		if (r->count)
			fprintf(out, " %" PRIu64 " records lost;", r->count);
		if (r->ip)
			fprintf(out, " ip %#" PRIx64 ";", r->ip);
		if (r->msg)
			fprintf(out, " %s;", r->msg);
		if (r->file_offset)
			fprintf(out, " record at %#" PRIx64 ";", r->file_offset);
		fputc('\n', out);
	}
	sums(g, s);
	fprintf(out, "# summary\n# %-18s %8s %12s %12s %12s\n", "cause", "gaps", "bytes", "insns~",
		"records");
	for (k = 0; k <= PTD_GK_NR; k++)
		if (s[k].n || k == PTD_GK_NR)
			fprintf(out, "  %-18s %8" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n",
				k < PTD_GK_NR ? ptd_gap_kind_name(k) : "total", s[k].n, s[k].bytes,
				s[k].insns, s[k].count);
	if (g->nr_dropped)
		fprintf(out, "# %" PRIu64 " more gaps not listed (more than %u)\n", g->nr_dropped,
			PTD_GAPS_MAX);
	return ferror(out) ? -1 : 0;
}

static void jnum(FILE *out, const char *name, int known, uint64_t v)
{
	if (known)
		fprintf(out, ",\"%s\":%" PRIu64, name, v);
	else
		fprintf(out, ",\"%s\":null", name);
}

int ptd_gaps_print_json(FILE *out, const struct ptd_gaps *g)
{
	struct sum s[PTD_GK_NR + 1] = { { 0 } };
	size_t i;
	int k;

	for (i = 0; i < g->gaps.len; i++) {
		const struct ptd_gap_rep *r = ptd_vec_at(&g->gaps, i);

		fprintf(out, "{\"type\":\"gap\",\"cause\":\"%s\",\"cpu\":%d,\"tid\":%d",
			ptd_gap_kind_name(r->kind), r->cpu, r->tid);
		jnum(out, "time_ns", r->when != 0, r->when);
		jnum(out, "start_ns", r->start != 0, r->start);
		jnum(out, "end_ns", r->end != 0, r->end);
		jnum(out, "span_ns", r->start && r->end && r->end >= r->start, r->end - r->start);
		jnum(out, "bytes", r->bytes_known, r->bytes);
		jnum(out, "insns_lost_estimate", r->insns_known, r->insns);
		jnum(out, "records_lost", r->count != 0, r->count);
		jnum(out, "ip", r->ip != 0, r->ip);
		jnum(out, "file_offset", r->file_offset != 0, r->file_offset);
		if (r->msg)
			fprintf(out, ",\"message\":\"%s\"", r->msg);   /* perf's fixed messages: no escaping needed */
		fputs("}\n", out);
	}
	sums(g, s);
	for (k = 0; k <= PTD_GK_NR; k++)
		if (s[k].n || k == PTD_GK_NR)
			fprintf(out, "{\"type\":\"gap-summary\",\"cause\":\"%s\",\"gaps\":%" PRIu64
				",\"bytes\":%" PRIu64 ",\"insns_lost_estimate\":%" PRIu64
				",\"records_lost\":%" PRIu64 "}\n",
				k < PTD_GK_NR ? ptd_gap_kind_name(k) : "total", s[k].n, s[k].bytes,
				s[k].insns, s[k].count);
	if (g->nr_dropped)
		fprintf(out, "{\"type\":\"gap-summary\",\"cause\":\"not-listed\",\"gaps\":%" PRIu64 "}\n",
			g->nr_dropped);
	return ferror(out) ? -1 : 0;
}
