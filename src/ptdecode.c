/* ptdecode: the command line. */
#include "config.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "etmraw.h"
#include "fullprog.h"
#include "formats/out/dump.h"
#include "options.h"
#include "progress.h"
#include "rawdecode.h"
#include "script_run.h"
#include "snapdecode.h"
#include "session.h"
#include "stats.h"

static void warn_stderr(void *ctx, const char *msg)
{
	const char *path = ctx;

	fprintf(stderr, "ptdecode: warning: %s: %s\n", path, msg);
}

/* The output options of the CoreSight modes (--snapshot, --etm) */
static void cs_out_opts(struct ptd_cs_out_opts *out, const struct ptd_options *o)
{
	out->itrace = o->itrace;
	out->nitrace = o->nitrace;
	out->fields = o->fields;
	out->nfields = o->nfields;
	out->json = o->format == PTD_FORMAT_JSON;
	out->ranges = o->format == PTD_FORMAT_RANGES;
}

/* Raw mode; returns the exit status. */
static int run_raw(const struct ptd_options *o)
{
	struct ptd_raw_opts ro = { 0 };
	struct ptd_err err = { 0 };
	int rc;

	ro.pt = o->pt;
	ro.images = o->images;
	ro.nimages = o->nimages;
	ro.cpu = o->cpu;
	ro.dopts = o->dopts;
	ro.ndopts = o->ndopts;
	ro.ptxed = o->ptxed;
	ro.ptxed.quiet = o->quiet;
	rc = ptd_raw_decode(&ro, stdout, &err);
	if (!rc)
		return 0;
	fflush(stdout);
	fprintf(stderr, "ptdecode: %s\n", err.msg[0] ? err.msg : ptd_strerror(rc));
	return rc == -PTD_E_INVAL ? 1 : 2;
}

/* The main job; returns the exit status. */
static int run_script(const struct ptd_options *o)
{
#ifdef HAVE_PT_PERF
	struct ptd_script_run_opts so;

	memset(&so, 0, sizeof(so));
	so.input = o->input;
	so.itrace = o->itrace;
	so.nitrace = o->nitrace;
	so.fields = o->fields;
	so.nfields = o->nfields;
	so.shortcut = o->shortcut;
	so.shortcut_arg = o->shortcut_arg;
	so.ns = o->ns;
	so.full_source_path = o->full_source_path;
	so.max_blocks = o->max_blocks;
	so.jobs = o->jobs;
	so.symfs = o->symfs;
	so.vmlinux = o->vmlinux;
	so.kallsyms = o->kallsyms;
	so.buildid_dir = o->buildid_dir;
	so.quiet = o->quiet;
	so.json = o->format == PTD_FORMAT_JSON;
	so.ranges = o->format == PTD_FORMAT_RANGES;
	so.cpu_list = o->cpu_list;
	so.pid_list = o->pid_list;
	so.tid_list = o->tid_list;
	so.time_str = o->time_str;
	so.gaps = o->gaps;
	so.export_kind = o->export_kind;
	so.export_target = o->export_target;
	so.export_replace = o->export_replace;
	so.views.folded = o->format == PTD_FORMAT_FOLDED;
	so.views.timeline = o->timeline;
	so.views.latency = o->latency;
	so.at_exit = 1;
	return ptd_script_run(&so, stdout);
#else
	fprintf(stderr, "ptdecode: decoding perf.data traces needs libipt and capstone, "
		"which this build was configured without\n");
	return 2;
#endif
}

int main(int argc, char **argv)
{
	struct ptd_options o;
	struct ptd_err err = { 0 };
	struct ptd_session_opts so = { 0 };
	struct ptd_session *s = NULL;
	struct ptd_progress prog;
	struct ptd_dump dump;
	const char *why;
	int rc;

	/* Memory freed goes back to malloc, not to the kernel: a page new to
	 * the process costs a fault (about 10 us on a virtual machine that
	 * hands guest pages back to its host), and the same sizes come again
	 * (records queued round after round, chunks, symbol tables); the peak
	 * is the same */
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	ptd_fullprog_init(argv);

	if (ptd_options_parse(&o, argc, argv, &err)) {
		fprintf(stderr, "ptdecode: %s\n", err.msg);
		fprintf(stderr, "Try 'ptdecode --help'.\n");
		ptd_options_fini(&o);
		return 1;
	}
	if (o.action == PTD_ACTION_HELP) {
		ptd_options_usage(stdout);
		ptd_options_fini(&o);
		return 0;
	}
	if (o.action == PTD_ACTION_VERSION) {
		printf("ptdecode %s\n", PACKAGE_VERSION);
		ptd_options_fini(&o);
		return 0;
	}
	if ((why = ptd_fullprog_wanted(&o))) {
		ptd_fullprog_run(why);
		ptd_options_fini(&o);
		return 2;
	}
	if (o.action == PTD_ACTION_RAW) {
		rc = run_raw(&o);
		ptd_options_fini(&o);
		return rc;
	}
	if (o.action == PTD_ACTION_ETM) {
		struct ptd_etm_raw_opts eo = { 0 };

		eo.trace = o.etm;
		eo.images = o.images;
		eo.nimages = o.nimages;
		eo.settings = o.dopts;
		eo.nsettings = o.ndopts;
		cs_out_opts(&eo.out, &o);
		rc = ptd_etm_raw_decode(&eo, stdout);
		ptd_options_fini(&o);
		return rc;
	}
	if (o.action == PTD_ACTION_SNAPSHOT) {
		struct ptd_snap_opts sn = { 0 };

		sn.dir = o.snapshot;
		cs_out_opts(&sn.out, &o);
		rc = ptd_snap_decode(&sn, stdout);
		ptd_options_fini(&o);
		return rc;
	}
	if (o.action == PTD_ACTION_SCRIPT) {
		rc = run_script(&o);
		ptd_options_fini(&o);
		return rc;
	}
	ptd_options_fini(&o);

	ptd_progress_init(&prog, "reading", o.quiet || o.action == PTD_ACTION_DUMP);
	so.warn = warn_stderr;
	so.warn_ctx = (void *)o.input;
	so.progress = ptd_progress_update;
	so.progress_ctx = &prog;
	if (o.action == PTD_ACTION_DUMP) {
		ptd_dump_init(&dump, stdout);
		so.on_record = ptd_dump_record;
		so.ctx = &dump;
	}
	rc = ptd_session_open(&s, o.input, &so, &err);
	if (!rc)
		rc = ptd_session_run(s, &err);
	ptd_progress_done(&prog);
	if (rc) {
		fflush(stdout);
		fprintf(stderr, "ptdecode: %s: %s\n", o.input, err.msg[0] ? err.msg : ptd_strerror(rc));
		ptd_session_close(s);
		return 2;
	}
	if (o.action == PTD_ACTION_STATS) {
		ptd_stats_print_counts(stdout, s);
		ptd_stats_print_details(stdout, s);
	}
	ptd_session_close(s);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "ptdecode: writing output failed\n");
		return 2;
	}
	return 0;
}
