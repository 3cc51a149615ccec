/* --export for the main job: see export_run.h. */
#include "export_run.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/vec.h"
#include "export.h"
#include "formats/perf/records.h"
#include "symfile.h"

/* A context switch record, exported after the samples. */
struct xswitch {
	uint64_t time;
	int32_t cpu, pid, tid, np_pid, np_tid;
	int out, preempt;
};

struct ptd_export_run {
	struct ptd_db *db;
	struct ptd_export *exp;
	struct ptd_vec switches;      /* struct xswitch */
	struct ptd_dsofiles *files;
};

/* perf's dso__load: a dso without a build id takes that of the file it
 * reads (under --symfs), when the recorded path is a regular file here */
static size_t file_build_id(void *ctx, const struct ptd_map *map, uint8_t id[20])
{
	struct ptd_export_run *x = ctx;
	struct ptd_dsofile *f;
	struct stat st;

	if (!x->files || stat(map->filename, &st) || !S_ISREG(st.st_mode))
		return 0;
	f = ptd_dsofiles_get(x->files, map);
	return f && f->data ? ptd_elf_build_id(f->data, f->size, id) : 0;
}

/* perf's dso__load_vmlinux names the kernel's dso by the vmlinux it read */
static const char *long_name(void *ctx, const struct ptd_map *map)
{
	struct ptd_export_run *x = ctx;
	struct ptd_dsofile *f;

	if (!x->files || !ptd_dsofiles_kernel_name(x->files) || strcmp(map->filename, PTD_KERNEL_MAP_NAME))
		return NULL;
	f = ptd_dsofiles_get(x->files, map);
	return f && f->data ? ptd_dsofiles_kernel_name(x->files) : NULL;
}

int ptd_export_run_open(struct ptd_export_run **out, enum ptd_db_kind kind, const char *target,
			int replace, int quiet, int writer, struct ptd_err *err)
{
	struct ptd_export_run *x = calloc(1, sizeof(*x));
	int rc;

	*out = NULL;
	if (!x)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	x->switches = (struct ptd_vec)PTD_VEC_INIT(sizeof(struct xswitch));
	if ((rc = ptd_db_open(&x->db, kind, target, replace, quiet, writer, err))) {
		free(x);
		return rc;
	}
	*out = x;
	return 0;
}

int ptd_export_run_note(struct ptd_export_run *x, const struct ptd_event *ev)
{
	struct ptd_rec_switch sw;
	struct xswitch *s;

	if ((ev->type != PTD_REC_SWITCH && ev->type != PTD_REC_SWITCH_CPU_WIDE) ||
	    ptd_rec_switch(ev, &sw, NULL) || !(ev->sid.have & PTD_SAMPLE_TIME))
		return 0;
	if (!(s = ptd_vec_push(&x->switches)))
		return -PTD_E_NOMEM;
	s->time = ev->sid.time;
	s->cpu = ev->sid.have & PTD_SAMPLE_CPU ? (int32_t)ev->sid.cpu : -1;
	s->pid = ev->sid.have & PTD_SAMPLE_TID ? (int32_t)ev->sid.pid : -1;
	s->tid = ev->sid.have & PTD_SAMPLE_TID ? (int32_t)ev->sid.tid : -1;
	s->np_pid = sw.cpu_wide ? (int32_t)sw.next_prev_pid : -1;
	s->np_tid = sw.cpu_wide ? (int32_t)sw.next_prev_tid : -1;
	s->out = sw.out;
	s->preempt = sw.preempt;
	return 0;
}

int ptd_export_run_begin(struct ptd_export_run *x, const struct ptd_machine *m,
			 struct ptd_dsofiles *files, int quiet, struct ptd_err *err)
{
	x->files = files;
	return ptd_export_new(&x->exp, x->db, m, quiet, file_build_id, long_name, x, err);
}

int ptd_export_run_sample(struct ptd_export_run *x, struct ptd_resolver *rv,
			  const struct ptd_synth *sy, const struct ptd_script_evsel *ev,
			  struct ptd_err *err)
{
	struct ptd_export_sample xs;
	struct ptd_script_loc loc;
	struct ptd_sym_info si;
	struct ptd_export_loc *xl[2];
	const struct ptd_map *m;
	uint64_t addrs[2], adj;
	char *names[2] = { NULL, NULL };
	int i, rc = 0;

	memset(&xs, 0, sizeof(xs));
	xs.evsel = ev;
	xs.evsel_name = ev->name;
	xs.synth_config = ev->type == PTD_SCRIPT_TYPE_SYNTH ? (int)ev->config : -1;
	xs.is_branch = sy->kind == PTD_SYN_BRANCH;   /* perf: addr correlates with a symbol */
	xs.sy = sy;
	xl[0] = &xs.ip;
	xl[1] = &xs.addr;
	addrs[0] = sy->ip;
	addrs[1] = sy->addr;
	for (i = 0; i < 1 + xs.is_branch && !rc; i++) {
		memset(&si, 0, sizeof(si));
		xl[i]->map = ptd_resolve(rv, sy->pid, addrs[i], sy->now, &loc, &si);
		if (!xl[i]->map)
			continue;
		/* perf's map_ip and symbol values: file offsets (the kernel's by
		 * its address from kallsyms alone), kcore's symbols cut at its end */
		m = xl[i]->map;
		adj = m->file_adj - m->sym_adj;
		xl[i]->off = ptd_map_file_off(m, addrs[i]);
		/* the cache's names are borrowed until its next lookup */
		if (loc.sym && !(xl[i]->sym = names[i] = strdup(loc.sym)))
			rc = ptd_err_set(err, PTD_E_NOMEM, "out of memory");
		xl[i]->sym_start = si.start + adj;
		xl[i]->sym_end = si.end + adj;
		if (m->kcore && xl[i]->sym_end > ptd_map_file_off(m, m->end))
			xl[i]->sym_end = ptd_map_file_off(m, m->end);
		xl[i]->sym_bind = si.bind;
	}
	if (!rc)
		rc = ptd_export_sample(x->exp, &xs, err);
	free(names[0]);
	free(names[1]);
	return rc;
}

int ptd_export_run_end(struct ptd_export_run *x, struct ptd_err *err)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < x->switches.len && !rc; i++) {
		const struct xswitch *s = ptd_vec_at(&x->switches, i);

		rc = ptd_export_switch(x->exp, s->out, s->preempt, s->time, s->cpu, s->pid, s->tid,
				       s->np_pid, s->np_tid, err);
	}
	if (!rc)
		rc = ptd_export_finish(x->exp, err);
	if (!rc) {
		rc = ptd_db_finish(x->db, err);
		x->db = NULL;   /* freed, whatever happened */
	}
	return rc;
}

void ptd_export_run_free(struct ptd_export_run *x)
{
	if (!x)
		return;
	ptd_export_free(x->exp);
	ptd_db_abort(x->db);
	ptd_vec_fini(&x->switches);
	free(x);
}
