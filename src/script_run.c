/* The main job (see script_run.h): the session's records are noted as they
 * are read, then the Intel PT queues are replayed (ptq.h) and each sample
 * is resolved (thread comm, map, symbol) and printed by formats/out/script. */
#include "config.h"

#include "script_run.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/ending.h"
#include "common/err.h"
#include "disasm.h"
#include "dsofiles.h"
#include "formats/out/gap_report.h"
#include "gaps.h"
#include "export_run.h"
#include "formats/out/json.h"
#include "formats/out/script.h"
#include "formats/perf/abi.h"
#include "formats/perf/records.h"
#include "fullprog.h"
#include "idlist.h"
#include "itrace.h"
#include "progress.h"
#include "ptq.h"
#include "ptq_ahead.h"
#include "ptq_conf.h"
#include "rangeq.h"
#include "brinsn.h"
#include "resolve.h"
#include "srcline.h"
#include "session.h"
#include "symbols.h"
#include "synth_events.h"
#include "timerange.h"
#include "views.h"

#define CHAIN_MAX 1024

#define MAX_CPUS PTD_IDLIST_MAX_CPUS
#define MAX_IDS PTD_IDLIST_MAX_IDS

struct run {
	struct ptd_session *s;
	struct ptd_ptq *q;
	struct ptd_script ps;
	struct ptd_synth_events se;    /* the synthesized events */
	struct ptd_dsofiles *files;
	struct ptd_resolver rv;         /* addresses to maps, files and symbols */
	struct ptd_symcache *syms;
	struct ptd_disasm *dis;       /* -F disasm */
	struct ptd_srcline *srcl;     /* -F srcline */
	struct ptd_brinsn bi;         /* -F brstackinsn */
	char distext[256];
	FILE *out;
	int json;
	uint8_t cpus[MAX_CPUS / 8];
	int have_cpus;
	int32_t *pids, *tids;         /* MAX_IDS each, allocated for --pid, --tid (in
	                                 the struct, 8 KB more of stack touched) */
	int npids, ntids;             /* -1: no filter */
	struct ptd_timerange *ranges; /* --time */
	size_t nranges;
	unsigned nr_errors[2];
	uint64_t aux_lost, aux_partial, aux_collision;
	uint64_t nr_synth;            /* perf counts these among the events processed */
	struct ptd_script_frame *frames;   /* CHAIN_MAX, when a sample has a callchain */
	struct ptd_script_branch *brs;     /* PTD_ITRACE_MAX_LAST_BRANCH_SZ, when one has
	                                      a branch stack (allocated at the first: on
	                                      the stack, 190 KB of pages touched) */
	int32_t first_tid;
	struct ptd_gaps *gaps;        /* --gaps: the samples go to the gap report */
	struct ptd_export_run *exp;   /* --export */
	int exporting;                /* the samples go to exp */
	struct ptd_views *views;      /* the call views: the samples go there */
	struct ptd_err err;
};

/* -F srcline (formats/out/script.h's callback) */
static const char *srcline(void *ctx, const struct ptd_script_loc *loc)
{
	struct run *r = ctx;

	return ptd_resolve_srcline(&r->rv, r->srcl, loc);
}

/* -F brstackinsn (formats/out/script.h's callback) */
static void brstackinsn(void *ctx, FILE *out, const struct ptd_script_sample *s, uint64_t fields)
{
	struct run *r = ctx;

	if (r->bi.walk)
		ptd_brinsn_print(&r->bi, out, s, fields);
}

/* Where addr is at time now in process pid (resolve.h) */
static const struct ptd_map *resolve(struct run *r, int32_t pid, uint64_t addr, uint64_t now,
				     struct ptd_script_loc *loc)
{
	return ptd_resolve(&r->rv, pid, addr, now, loc, NULL);
}

/* perf's map__map_ip() as brstackoff applies it: the address in the file
 * of its map, unless perf adjusts the dso's symbols (an ET_EXEC file: its
 * addresses are the file's). */
static uint64_t map_ip(struct run *r, const struct ptd_map *map, uint64_t addr)
{
	struct ptd_dsofile *f;

	if (!map)
		return addr;
	f = ptd_resolve_file(&r->rv, map);
	if (f && f->is_exec)
		return addr;
	return addr - map->start + map->pgoff;
}

/* perf 6.10's disasm text: capstone's AT&T "mnemonic operands", or
 * "mnemonic sym+0xoff" when the one operand is an immediate inside a
 * symbol; NULL when capstone cannot decode it (the bytes are printed). */
static const char *disasm(struct run *r, const struct ptd_synth *sy, const struct ptd_map *map)
{
	struct ptd_disasm_insn in;
	struct ptd_script_loc loc;
	struct ptd_dsofile *f = map ? ptd_resolve_file(&r->rv, map) : NULL;

	if (ptd_disasm_insn(r->dis, sy->insn, sy->insn_len, sy->ip, f && f->data ? f->is_64_bit : 1,
			    &in))
		return NULL;
	if (in.has_imm && (resolve(r, sy->pid, in.imm, sy->now, &loc), loc.sym))
		snprintf(r->distext, sizeof(r->distext), "%s %s+0x%" PRIx64, in.mnemonic, loc.sym,
			 loc.symoff);
	else
		snprintf(r->distext, sizeof(r->distext), "%s %s", in.mnemonic, in.op_str);
	return r->distext;
}

/* on_synth's sample s printed as JSON.  Out of line: its locations,
 * CHAIN_MAX of them (48 KB), would otherwise be in on_synth's frame, and
 * every call below it 48 KB further down the stack, on pages of their
 * own, each a page fault the first time (about 13 us on the bench's
 * machine). */
static __attribute__((noinline)) int json_sample(struct run *r, const char *json,
						 struct ptd_script_sample *s, const struct ptd_synth *sy)
{
	struct ptd_script_loc locs[CHAIN_MAX];
	size_t i;

	/* -F srcline: the ip's, as the text prints it (borrowed until the
	 * next lookup) */
	if (r->srcl && s->ip_loc.dso)
		s->ip_loc.srcline = ptd_resolve_srcline(&r->rv, r->srcl, &s->ip_loc);
	for (i = 0; i < s->callchain_nr; i++)
		locs[i] = r->frames[i].loc;
	return ptd_json_print_sample(r->out, json, s, sy->callchain, locs, s->callchain_nr);
}

static int on_synth(void *ctx, const struct ptd_synth *sy)
{
	if (((struct run *)ctx)->gaps)
		return ptd_gaps_sample(((struct run *)ctx)->gaps, sy) ? -1 : 0;
	struct run *r = ctx;
	struct ptd_script_sample s;
	const char *json;
	const struct ptd_map *map;

	r->nr_synth++;
	if (sy->kind == PTD_SYN_ERROR) {
		struct ptd_script_auxerr e;

		memset(&e, 0, sizeof(e));
		e.type = 1;
		e.code = (uint32_t)sy->err_code;
		e.cpu = sy->cpu;
		e.pid = sy->pid;
		e.tid = sy->tid;
		e.ip = sy->ip;
		e.time = sy->time;
		e.fmt = 1;
		e.msg = sy->err_msg;
		r->nr_errors[1]++;
		if (r->views)
			return ptd_views_sample(r->views, &r->rv, sy, &r->err) ? -2 : 0;
		if (r->exporting)
			return 0;   /* not in the database (perf's script gets no AUX errors) */
		if (r->json)
			return ptd_json_print_error(r->out, &e);
		return ptd_script_print_auxerr(r->out, &e) ? -1 : 0;
	}
	/* perf script's filters (errors are not filtered) */
	if (r->have_cpus && sy->cpu != -1 &&
	    (sy->cpu >= MAX_CPUS || !(r->cpus[sy->cpu / 8] & (1u << (sy->cpu % 8)))))
		return 0;
	if ((r->npids >= 0 && !ptd_in_ids(r->pids, r->npids, sy->pid)) ||
	    (r->ntids >= 0 && !ptd_in_ids(r->tids, r->ntids, sy->tid)) ||
	    ptd_timerange_skip(r->ranges, r->nranges, sy->time))
		return 0;
	memset(&s, 0, sizeof(s));
	if (!(s.evsel = ptd_synth_event(&r->se, sy->kind, &json)))
		return 0;   /* not an event of this recording (perf has no id for it) */
	if (r->exporting)
		return ptd_export_run_sample(r->exp, &r->rv, sy, s.evsel, &r->err) ? -2 : 0;
	if (r->views)
		return ptd_views_sample(r->views, &r->rv, sy, &r->err) ? -2 : 0;
	s.comm = ptd_machine_sample_comm(&r->s->machine, sy->tid, sy->now);
	s.pid = sy->pid;
	s.tid = sy->tid;
	s.cpu = sy->cpu;
	s.time = sy->time;
	s.ip = sy->ip;
	s.addr = sy->addr;
	s.period = sy->period;
	s.flags = sy->flags;
	s.insn = sy->insn;
	s.insn_len = sy->insn_len;
	s.insn_cnt = sy->insn_cnt;
	s.cyc_cnt = sy->cyc_cnt;
	s.call_depth = sy->call_depth;
	s.no_tstack = sy->no_tstack;
	s.raw = sy->raw_size ? sy->raw : NULL;
	s.raw_size = sy->raw_size;
	if ((sy->callchain_nr && !r->frames && !(r->frames = calloc(CHAIN_MAX, sizeof(*r->frames)))) ||
	    (sy->brstack_nr && !r->brs &&
	     !(r->brs = calloc(PTD_ITRACE_MAX_LAST_BRANCH_SZ, sizeof(*r->brs))))) {
		ptd_err_set(&r->err, PTD_E_NOMEM, "out of memory");
		return -2;
	}
	if (sy->callchain_nr) {
		size_t i;

		for (i = 0; i < sy->callchain_nr && i < CHAIN_MAX; i++) {
			const struct ptd_map *fm = resolve(r, sy->pid, sy->callchain[i], sy->now,
							   &r->frames[i].loc);

			r->frames[i].addr = fm ? sy->callchain[i] - fm->start + fm->pgoff : sy->callchain[i];
		}
		s.callchain = r->frames;
		s.callchain_nr = i;
	}
	if (sy->brstack_nr) {
		size_t i;

		for (i = 0; i < sy->brstack_nr && i < PTD_ITRACE_MAX_LAST_BRANCH_SZ; i++) {
			struct ptd_script_branch *b = &r->brs[i];
			const struct ptd_map *bm;

			memset(b, 0, sizeof(*b));
			b->from = sy->brstack[i].from;
			b->to = sy->brstack[i].to;
			b->in_tx = sy->brstack[i].in_tx;
			b->abort = sy->brstack[i].abort;
			bm = resolve(r, sy->pid, b->from, sy->now, &b->from_loc);
			b->from_off = map_ip(r, bm, b->from);
			bm = resolve(r, sy->pid, b->to, sy->now, &b->to_loc);
			b->to_off = map_ip(r, bm, b->to);
		}
		s.brstack = r->brs;
		s.brstack_nr = i;
	}
	map = resolve(r, sy->pid, sy->ip, sy->now, &s.ip_loc);
	/* the address's symbol is printed for branches and page faults, and
	 * in JSON for branches; the other samples' (instructions': 0) are not
	 * looked up */
	if (r->json || ptd_script_addr_correlates(s.evsel))
		resolve(r, sy->pid, sy->addr, sy->now, &s.addr_loc);
	if (r->dis && sy->insn_len)
		s.disasm = disasm(r, sy, map);
	r->bi.pid = sy->pid;
	r->bi.now = sy->now;
	if (r->json)
		return json_sample(r, json, &s, sy);
	r->ps.sym_gen = ptd_symcache_generation(r->syms);   /* its names of symbols */
	return ptd_script_print(&r->ps, r->out, &s) ? -1 : 0;
}

static int note(void *ctx, struct ptd_session *s, const struct ptd_event *ev)
{
	struct run *r = ctx;
	struct ptd_rec_aux aux;

	(void)s;
	if (r->exp && ptd_export_run_note(r->exp, ev))
		return -1;
	if (ev->type == PTD_REC_AUX && !ptd_rec_aux(ev, &aux, NULL)) {
		r->aux_lost += !!(aux.flags & PTD_AUX_FLAG_TRUNCATED);
		r->aux_partial += !!(aux.flags & PTD_AUX_FLAG_PARTIAL);
		r->aux_collision += !!(aux.flags & PTD_AUX_FLAG_COLLISION);
	}
	return ptd_ptq_note(r->q, ev, NULL) ? -1 : 0;
}

/* perf's perf_session__warn_about_errors, as far as these files reach */
static void warn_about_errors(const struct run *r)
{
	const struct ptd_session_stats *st = &r->s->stats;

	if (st->nr[PTD_REC_LOST])
		fprintf(stderr, "Warning:\nProcessed %u events and lost %u chunks!\n\n"
			"Check IO/CPU overload!\n\n",
			(unsigned)(st->nr_total + r->se.nr_attrs + r->nr_synth),
			(unsigned)st->nr[PTD_REC_LOST]);
	if (r->aux_lost)
		fprintf(stderr, "Warning:\nAUX data lost %" PRIu64 " times out of %u!\n\n",
			r->aux_lost, (unsigned)st->nr[PTD_REC_AUX]);
	if (r->aux_partial)
		fprintf(stderr, "Warning:\nAUX data had gaps in it %" PRIu64 " times out of %u!\n\n"
			"Are you running a KVM guest in the background?\n\n",
			r->aux_partial, (unsigned)st->nr[PTD_REC_AUX]);
	if (r->aux_collision)
		fprintf(stderr, "Warning:\nAUX data detected collision  %" PRIu64 " times out of %u!\n\n",
			r->aux_collision, (unsigned)st->nr[PTD_REC_AUX]);
	ptd_script_auxerr_warn(stderr, r->nr_errors, 2);
}

/* A range backend's queues (rangeq.h) */
static int run_ranges(struct run *r, const struct ptd_decoder_ops *rops, const struct ptd_itrace *it,
		      const struct ptd_script_run_opts *o, struct ptd_err *err)
{
	struct ptd_rangeq_cfg rc;

	memset(&rc, 0, sizeof(rc));
	rc.branches = it->branches;
	rc.instructions = it->instructions;
	rc.period = it->period ? it->period : 1;
	/* perf 6.1 gives no CoreSight error samples: only when asked */
	rc.errors = it->errors && o->nitrace;
	rc.timeless = ptd_rangeq_timeless(ptd_rangeq_trace_evsel(r->s, rops), it->timeless_decoding);
	rc.cpu_bitmap = r->have_cpus ? r->cpus : NULL;
	rc.cpu_bitmap_bits = MAX_CPUS;
	rc.ranges = o->ranges ? r->out : NULL;
	return ptd_rangeq_run(r->s, rops, &rc, &r->rv, on_synth, r, err);
}

static int bad_option(const char *msg)
{
	fprintf(stderr, "%s\n", msg);
	return 1;
}

/* A --pid or --tid list into *ids (allocated, MAX_IDS): their number, or
 * -1 said on stderr */
static int id_list(const char *s, const char *what, int32_t **ids)
{
	int n;

	if (!(*ids = malloc(MAX_IDS * sizeof(**ids)))) {
		fprintf(stderr, "ptdecode: out of memory for the --%s list\n", what);
		return -1;
	}
	if ((n = ptd_parse_ids(s, *ids)) < 0)
		fprintf(stderr, "ptdecode: bad --%s list (1,2,3)\n", what);
	return n;
}

static void kernel_map(void *ctx, struct ptd_map *map)
{
	struct run *r = ctx;

	ptd_dsofiles_kernel_map(r->files, r->syms, map);
}

int ptd_script_run(const struct ptd_script_run_opts *o, FILE *out)
{
	struct ptd_itrace cmd, it;
	struct ptd_itrace_shortcut_fx fx;
	struct ptd_session_opts so = { 0 };
	struct ptd_ptq_cfg cfg;
	struct ptd_err err = { 0 };
	struct ptd_gaps gaps;
	const struct ptd_decoder_ops *rops = NULL;
	const char *kallsyms = o->kallsyms, *why;
	char kdir[4096];
	struct run r;
	size_t i;
	int rc, status = 2;

	memset(&r, 0, sizeof(r));
	r.out = out;
	r.json = o->json;
	ptd_itrace_init(&cmd);
	ptd_script_init(&r.ps);
	r.ps.brstackinsn = brstackinsn;
	r.ps.brstackinsn_ctx = &r;
	memset(&fx, 0, sizeof(fx));
	if (o->shortcut >= 0) {
		if (ptd_itrace_shortcut(&cmd, (enum ptd_itrace_shortcut)o->shortcut, o->shortcut_arg, &fx, &err))
			return bad_option(err.msg);
		if (ptd_script_preset(&r.ps, o->shortcut == PTD_ITRACE_INSN_TRACE ? PTD_SCRIPT_INSN_TRACE :
				      o->shortcut == PTD_ITRACE_CALL_TRACE ? PTD_SCRIPT_CALL_TRACE :
				      PTD_SCRIPT_CALLRET_TRACE, stderr))
			return 1;
	}
	for (i = 0; i < o->nitrace; i++)
		if (ptd_itrace_parse(&cmd, o->itrace[i], &err))
			return bad_option(err.msg);
	for (i = 0; i < o->nfields; i++)
		if (ptd_script_parse_fields(&r.ps, o->fields[i], stderr))
			return 1;
	r.npids = r.ntids = -1;
	if (o->cpu_list) {
		if (ptd_parse_cpus(o->cpu_list, r.cpus))
			return bad_option("ptdecode: bad CPU list (0-2,4)");
		r.have_cpus = 1;
	}
	if ((o->pid_list && (r.npids = id_list(o->pid_list, "pid", &r.pids)) < 0) ||
	    (o->tid_list && (r.ntids = id_list(o->tid_list, "tid", &r.tids)) < 0)) {
		free(r.pids);
		free(r.tids);
		return 1;
	}
	if (o->ns)
		r.ps.ns = 1;
	if (r.ps.out[PTD_SCRIPT_OT_HW].fields & PTD_SCRIPT_CALLINDENT)
		cmd.thread_stack = 1;   /* perf script keeps call stacks for callindent */
	ptd_itrace_resolve(&cmd, &it);
	if (o->gaps) {   /* branches and every error: where each gap begins and ends */
		ptd_itrace_init(&it);
		it.branches = 1;
		it.errors = 1;
		it.period_type = PTD_ITRACE_PERIOD_INSTRUCTIONS;
		it.period = 1;
	}

	r.q = ptd_ptq_new();
	r.files = ptd_dsofiles_new(o->symfs, o->buildid_dir);
	r.syms = ptd_symcache_new(0, 0);
	/* perf.data directories of perf record --kcore name their kallsyms */
	if (!o->kallsyms && !o->vmlinux && ptd_kcore_dir_kallsyms(o->input, kdir, sizeof(kdir)))
		kallsyms = kdir;
	if (!r.q || !r.files || !r.syms ||
	    (kallsyms ? ptd_dsofiles_set_kallsyms(r.files, kallsyms) ||
			ptd_symcache_set_kallsyms(r.syms, kallsyms)
		      : o->vmlinux && ptd_dsofiles_set_kernel(r.files, o->vmlinux))) {
		fprintf(stderr, "ptdecode: out of memory\n");
		goto out;
	}
	if (o->gaps && o->export_kind)
		return bad_option("ptdecode: --gaps and --export cannot be combined");
	if (o->views.folded || o->views.timeline || o->views.latency) {
		if (o->gaps || o->export_kind || o->json)
			return bad_option("ptdecode: --format=folded, --timeline and --latency cannot be "
					  "combined with --gaps, --export or --format=json");
		if (ptd_views_open(&r.views, &o->views, &err)) {
			fprintf(stderr, "ptdecode: %s\n", err.msg);
			goto out;
		}
		ptd_views_itrace(r.views, &it);
	}
	if (o->export_kind) {
		/* the rows written on a thread of their own but with -j 1 */
		int writer = (o->jobs > 0 ? (unsigned)o->jobs : ptd_online_cpus()) > 1;

		if (ptd_export_run_open(&r.exp, (enum ptd_db_kind)o->export_kind, o->export_target,
					o->export_replace, o->quiet, writer, &err)) {
			fprintf(stderr, "ptdecode: %s\n", err.msg);
			status = err.code == PTD_E_INVAL || err.code == PTD_E_UNSUPPORTED ? 1 : 2;
			goto out;
		}
	}
	so.on_record = note;
	so.ctx = &r;
	so.kernel_map = kernel_map;
	so.kernel_ctx = &r;
	/* pipe mode: the trace is decoded after the last record, so its
	 * payloads are kept (in a spill file) as they stream past */
	so.keep_payloads = 1;
	rc = ptd_session_open(&r.s, o->input, &so, &err);
	if (!rc) {
		r.rv.m = &r.s->machine;
		r.rv.files = r.files;
		r.rv.syms = r.syms;
		rc = ptd_session_run(r.s, &err);
	}
	if (rc) {
		fprintf(stderr, "ptdecode: %s: %s\n", o->input, err.msg[0] ? err.msg : ptd_strerror(rc));
		goto out;
	}
	if (r.s->auxinfo.present && (why = ptd_fullprog_wanted_trace(r.s->auxinfo.type))) {
		ptd_fullprog_run(why);
		goto out;
	}
	if (o->time_str) {
		const struct ptd_features *ft = ptd_reader_features(r.s->reader);

		if (ptd_timerange_parse(o->time_str, ft->first_sample_time, ft->last_sample_time, 0,
					&r.ranges, &r.nranges, &err)) {
			fprintf(stderr, "%s\n", err.msg);
			status = 1;
			goto out;
		}
	}
	if (r.s->auxinfo.present && !ptd_decoder_for_auxtrace(r.s->auxinfo.type)) {
		fprintf(stderr, "ptdecode: %s: no decoder for its trace (AUXTRACE type %u) in this build "
			"(CoreSight needs OpenCSD)\n", o->input, r.s->auxinfo.type);
		goto out;
	}
	if (r.s->auxinfo.present && (rops = ptd_decoder_for_auxtrace(r.s->auxinfo.type)) && !rops->queue_opts)
		rops = NULL;   /* a backend with its own replay (Intel PT: ptq.h) */
	if (o->ranges && !rops) {
		fprintf(stderr, "ptdecode: %s: --format=ranges needs a trace decoded as instruction "
			"ranges (CoreSight)\n", o->input);
		status = 1;
		goto out;
	}
	if (ptd_synth_events_setup(&r.se, &r.ps, r.s, &it, rops, &err)) {
		status = 1;
		goto out;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.instructions = it.instructions;
	cfg.branches = it.branches;
	cfg.calls = it.calls;
	cfg.returns = it.returns;
	cfg.errors = it.errors;
	cfg.pwr_events = it.pwr_events;
	cfg.transactions = it.transactions;
	cfg.ptwrites = it.ptwrites;
	cfg.period_type = it.period_type == PTD_ITRACE_PERIOD_INSTRUCTIONS ? 1 :
			  it.period_type == PTD_ITRACE_PERIOD_TICKS ? 2 : 3;
	cfg.period = it.period;
	cfg.quick = it.quick;
	cfg.timeless = it.timeless_decoding;
	cfg.no_overflow_errors = !!(it.error_minus_flags & PTD_ITRACE_ERR_OVERFLOW);
	cfg.no_lost_errors = !!(it.error_minus_flags & PTD_ITRACE_ERR_DATA_LOST);
	cfg.initial_skip = it.initial_skip;
	cfg.cpu_bitmap = r.have_cpus ? r.cpus : NULL;
	cfg.cpu_bitmap_bits = MAX_CPUS;
	cfg.jobs = o->jobs > 0 ? (unsigned)o->jobs : 0;
	cfg.callchain = it.callchain;
	cfg.callchain_sz = it.callchain_sz;
	cfg.thread_stack = it.callchain || it.thread_stack;
	cfg.last_branch = it.last_branch;
	cfg.last_branch_sz = it.last_branch_sz;
	cfg.ranges = r.ranges;
	cfg.nranges = r.nranges;
	cfg.files = r.files;
	cfg.no_cycles = !o->json && !o->export_kind;
	for (i = 0; i < PTD_SCRIPT_OT_MAX; i++)
		if (r.ps.out[i].fields & PTD_SCRIPT_IPC)
			cfg.no_cycles = 0;
	if ((r.ps.out[PTD_SCRIPT_OT_HW].fields & PTD_SCRIPT_DISASM) && !(r.dis = ptd_disasm_new())) {
		fprintf(stderr, "ptdecode: out of memory\n");
		goto out;
	}
	for (i = 0; i < PTD_SCRIPT_OT_MAX; i++)
		if (r.ps.out[i].fields & PTD_SCRIPT_SRCLINE)
			break;
	if (i < PTD_SCRIPT_OT_MAX) {
		if (!ptd_srcline_available()) {
			fprintf(stderr, "ptdecode: -F srcline needs libdw, which this build was "
				"configured without\n");
			status = 1;
			goto out;
		}
		if (!(r.srcl = ptd_srcline_new(o->full_source_path))) {
			fprintf(stderr, "ptdecode: out of memory\n");
			goto out;
		}
		r.ps.srcline = srcline;
		r.ps.srcline_ctx = &r;
	}
	for (i = 0; i < PTD_SCRIPT_OT_MAX; i++)
		if (r.ps.out[i].fields & (PTD_SCRIPT_BRSTACKINSN | PTD_SCRIPT_BRSTACKINSNLEN))
			break;
	if (i < PTD_SCRIPT_OT_MAX && ptd_brinsn_init(&r.bi, &r.rv, r.srcl, o->max_blocks)) {
		fprintf(stderr, "ptdecode: out of memory\n");
		goto out;
	}
	if (it.dont_decode && !r.exp) {
		status = 0;
		goto out;
	}
	if (o->gaps) {
		r.gaps = &gaps;
		ptd_gaps_init(&gaps);
		if (ptd_gaps_preload(&gaps, r.s)) {
			fprintf(stderr, "ptdecode: out of memory\n");
			goto out;
		}
	}
	if (r.exp && ptd_export_run_begin(r.exp, &r.s->machine, r.files, o->quiet, &err)) {
		fprintf(stderr, "ptdecode: %s\n", err.msg);
		goto out;
	}
	r.exporting = !!r.exp;
	if (r.views && ptd_views_begin(r.views, &r.s->machine, &err)) {
		fprintf(stderr, "ptdecode: %s\n", err.msg);
		goto out;
	}
	if (it.dont_decode)
		rc = 0;
	else if (rops)
		rc = run_ranges(&r, rops, &it, o, &err);
	else
		rc = ptd_ptq_run(r.q, r.s, &cfg, on_synth, &r, &err);
	if (rc == -2 && (r.exporting || r.views || r.err.code)) {
		fprintf(stderr, "ptdecode: %s\n", r.err.msg);
		goto out;
	}
	if (rc > 0 || rc == -1) {
		fprintf(stderr, "ptdecode: writing output failed\n");
		goto out;
	}
	if (rc) {
		fflush(out);
		fprintf(stderr, "ptdecode: %s: %s\n", o->input, err.msg[0] ? err.msg : ptd_strerror(rc));
		goto out;
	}
	if (fflush(out) || ferror(out)) {
		fprintf(stderr, "ptdecode: writing output failed\n");
		goto out;
	}
	if (r.exp && ptd_export_run_end(r.exp, &r.err)) {
		fprintf(stderr, "ptdecode: %s\n", r.err.msg);
		goto out;
	}
	if (r.views && ptd_views_end(r.views, out, &r.err)) {
		fprintf(stderr, "ptdecode: %s\n", r.err.msg);
		goto out;
	}
	if (r.gaps) {
		ptd_gaps_finish(r.gaps);
		if ((o->json ? ptd_gaps_print_json(out, r.gaps) : ptd_gaps_print_text(out, r.gaps)) ||
		    fflush(out)) {
			fprintf(stderr, "ptdecode: writing output failed\n");
			goto out;
		}
	} else {
		warn_about_errors(&r);
	}
	status = 0;
out:
	if (o->at_exit)
		ptd_ending_set();
	if (r.gaps)
		ptd_gaps_fini(r.gaps);
	ptd_export_run_free(r.exp);
	ptd_views_free(r.views);
	ptd_session_close(r.s);
	ptd_ptq_free(r.q);
	ptd_resolver_fini(&r.rv);
	ptd_script_fini(&r.ps);
	ptd_dsofiles_free(r.files);
	ptd_symcache_free(r.syms);
	free(r.ranges);
	free(r.pids);
	free(r.tids);
	free(r.frames);
	free(r.brs);
	ptd_disasm_free(r.dis);
	ptd_srcline_free(r.srcl);
	ptd_brinsn_fini(&r.bi);
	return status;
}
