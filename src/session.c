#include "session.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/perf/abi.h"
#include "formats/perf/cursor.h"
#include "formats/perf/records.h"
#include "ordered.h"

struct ptd_session_priv {
	struct ptd_session pub;
	struct ptd_session_opts opts;
	struct ptd_ordered ordered;
	/* hash of a file name -> index + 1 of the header's host build id for it */
	struct ptd_u64map host_bids;
	int host_bids_made;
};

static void warn(struct ptd_session_priv *sp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct ptd_session_priv *sp, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (sp->opts.warn)
		sp->opts.warn(sp->opts.warn_ctx, msg);
	else
		fprintf(stderr, "ptdecode: warning: %s: %s\n",
			ptd_reader_path(sp->pub.reader), msg);
}

int ptd_session_open(struct ptd_session **out, const char *path,
		     const struct ptd_session_opts *opts, struct ptd_err *err)
{
	struct ptd_session_priv *sp = calloc(1, sizeof(*sp));
	struct ptd_reader_opts ro = { 0 };
	int rc;

	if (!sp)
		return ptd_err_set(err, PTD_E_NOMEM, "session");
	if (opts)
		sp->opts = *opts;
	ro.keep_payloads = sp->opts.keep_payloads;
	ro.warn = sp->opts.warn;
	ro.warn_ctx = sp->opts.warn_ctx;
	ptd_machine_init(&sp->pub.machine);
	ptd_auxq_init(&sp->pub.auxq);
	sp->pub.hw_ids = (struct ptd_vec)PTD_VEC_INIT(sizeof(struct ptd_hw_id));
	ptd_ordered_init(&sp->ordered);
	rc = ptd_reader_open(&sp->pub.reader, path, &ro, err);
	if (rc) {
		ptd_session_close(&sp->pub);
		return rc;
	}
	*out = &sp->pub;
	return 0;
}

void ptd_session_close(struct ptd_session *s)
{
	if (!s)
		return;
	ptd_ordered_fini(&((struct ptd_session_priv *)s)->ordered);
	ptd_u64map_fini(&((struct ptd_session_priv *)s)->host_bids);
	ptd_reader_close(s->reader);
	ptd_machine_fini(&s->machine);
	ptd_auxq_fini(&s->auxq);
	ptd_vec_fini(&s->hw_ids);
	{
		size_t i = 0;
		uint64_t k;
		void *v;

		while (ptd_u64map_next(&s->read_prev, &i, &k, &v))
			free(v);
		ptd_u64map_fini(&s->read_prev);
	}
	free(s->auxinfo.priv);
	free(s->stats.nr_samples);
	free(s->stats.nr_lost_samples);
	free(s);
}

static void count(struct ptd_session *s, const struct ptd_event *ev)
{
	struct ptd_session_stats *st = &s->stats;

	st->nr_total++;
	if (ev->type < PTD_NR_TYPES)
		st->nr[ev->type]++;
	if (ev->type >= PTD_NR_TYPES || !ptd_rec_name(ev->type))
		st->nr_unknown++;
	if (ev->compressed)
		st->nr_compressed_inner++;
	if (ev->sid.have & PTD_SAMPLE_TIME && ev->sid.time) {
		if (!st->first_time || ev->sid.time < st->first_time)
			st->first_time = ev->sid.time;
		if (ev->sid.time > st->last_time)
			st->last_time = ev->sid.time;
	}
}

/* per-evsel counters sized to the evlist; 0 or -PTD_E_NOMEM */
static int evsel_counters(struct ptd_session *s)
{
	struct ptd_session_stats *st = &s->stats;
	size_t n = ptd_reader_evlist(s->reader)->evsels.len;
	uint64_t *a, *b;

	if (n <= st->nr_evsels)
		return 0;
	a = realloc(st->nr_samples, n * sizeof(*a));
	if (a)
		st->nr_samples = a;
	b = realloc(st->nr_lost_samples, n * sizeof(*b));
	if (b)
		st->nr_lost_samples = b;
	if (!a || !b)
		return -PTD_E_NOMEM;
	memset(a + st->nr_evsels, 0, (n - st->nr_evsels) * sizeof(*a));
	memset(b + st->nr_evsels, 0, (n - st->nr_evsels) * sizeof(*b));
	st->nr_evsels = n;
	return 0;
}

/* A counter value of a PERF_SAMPLE_READ sample: delivered when its id is
 * known and the value changed since the previous sample of that id. */
static struct ptd_evsel *read_value_delivered(struct ptd_session *s, uint64_t id, uint64_t value)
{
	struct ptd_evsel *es = ptd_evlist_by_id(ptd_reader_evlist(s->reader), id);
	uint64_t *prev;

	if (!es)
		return NULL;
	prev = ptd_u64map_get(&s->read_prev, id);
	if (!prev) {
		prev = calloc(1, sizeof(*prev));
		if (!prev || ptd_u64map_put(&s->read_prev, id, prev)) {
			free(prev);
			return es;
		}
	}
	if (value == *prev)
		return NULL;
	*prev = value;
	return es;
}

static void count_delivery(struct ptd_session *s, struct ptd_evsel *es)
{
	if (es && (size_t)es->idx < s->stats.nr_evsels) {
		s->stats.nr_samples[es->idx]++;
		s->cur_deliveries++;
	}
}

/* perf's evlist__deliver_sample, as far as counting goes */
static void deliver_sample(struct ptd_session *s, const struct ptd_event *ev)
{
	const struct ptd_sample *sm = &ev->sample;
	uint64_t rf, nr, i;
	size_t entry, skip;

	s->cur_deliveries = 0;
	if (!ev->sample_ok || evsel_counters(s))
		return;
	if (!(ev->evsel->sample_type & PTD_SAMPLE_READ)) {
		count_delivery(s, ev->evsel);
		return;
	}
	rf = ev->evsel->read_format;
	if (!(rf & PTD_FORMAT_ID))
		return;
	entry = 8 + ((rf & PTD_FORMAT_ID) ? 8 : 0) + ((rf & PTD_FORMAT_LOST) ? 8 : 0);
	skip = ((rf & PTD_FORMAT_TOTAL_TIME_ENABLED) ? 8 : 0) +
	       ((rf & PTD_FORMAT_TOTAL_TIME_RUNNING) ? 8 : 0);
	if (!(rf & PTD_FORMAT_GROUP)) {
		count_delivery(s, read_value_delivered(s, ptd_load_u64(sm->read + 8 + skip),
						ptd_load_u64(sm->read)));
		return;
	}
	nr = ptd_load_u64(sm->read);
	for (i = 0; i < nr && 8 + skip + (i + 1) * entry <= sm->read_size; i++) {
		const uint8_t *v = sm->read + 8 + skip + i * entry;

		count_delivery(s, read_value_delivered(s, ptd_load_u64(v + 8), ptd_load_u64(v)));
	}
}

/* perf's is_anon_memory and is_no_dso_memory */
static int is_anon(const char *name)
{
	return !strcmp(name, "//anon") || !strncmp(name, "/dev/zero", 9) ||
	       !strncmp(name, "/anon_hugepage", 14) || !strncmp(name, "[stack", 6) ||
	       !strncmp(name, "/SYSV", 5) || !strcmp(name, "[heap]");
}

/* MMAP2 says PROT_EXEC; MMAP without the data flag is code */
static int is_exec(const struct ptd_event *ev, const struct ptd_rec_mmap *m)
{
	if (m->mmap2)
		return (m->prot & 4) != 0;
	return !(ev->misc & PTD_MISC_MMAP_DATA);
}

/* The build id the file header's HEADER_BUILD_ID gives for a file of the
 * host (pid -1, as perf record writes them; perf keeps other pids for guest
 * machines), when the MMAP record has none: perf looks up binaries in the
 * build-id cache by it.  First entry for a name wins. */
static void header_build_id(struct ptd_session_priv *sp, struct ptd_map *map)
{
	const struct ptd_features *f = ptd_reader_features(sp->pub.reader);
	const struct ptd_buildid *b;
	size_t i;
	void *v;

	if (!f || !f->nr_buildids || !map->filename)
		return;
	if (!sp->host_bids_made) {
		sp->host_bids_made = 1;
		for (i = f->nr_buildids; i-- > 0;)
			if (f->buildids[i].pid == -1 && f->buildids[i].filename &&
			    ptd_u64map_put(&sp->host_bids, ptd_u64map_str_key(f->buildids[i].filename),
					   (void *)(uintptr_t)(i + 1)))
				break;
	}
	v = ptd_u64map_get(&sp->host_bids, ptd_u64map_str_key(map->filename));
	if (!v)
		return;
	b = &f->buildids[(uintptr_t)v - 1];
	if (strcmp(b->filename, map->filename) || !b->size || b->size > sizeof(map->build_id))
		return;
	map->build_id_size = b->size;
	memcpy(map->build_id, b->id, b->size);
}

static int take_mmap(struct ptd_session *s, const struct ptd_event *ev, struct ptd_err *err)
{
	struct ptd_session_priv *sp = (struct ptd_session_priv *)s;
	struct ptd_rec_mmap m;
	struct ptd_map map = { 0 };
	char jitmap[32];
	int32_t pid;
	int kernel;

	if (ptd_rec_mmap(ev, &m, err))
		return -err->code;
	map.start = m.start;
	map.end = m.start + m.len < m.start ? UINT64_MAX : m.start + m.len;
	map.pgoff = m.pgoff;
	map.time = ev->sid.time;
	map.prot = m.prot;
	map.flags = m.flags;
	map.maj = m.maj;
	map.min = m.min;
	map.ino = m.ino;
	map.ino_generation = m.ino_generation;
	if (m.has_build_id) {
		map.build_id_size = m.build_id_size;
		memcpy(map.build_id, m.build_id, sizeof(map.build_id));
	}
	map.filename = m.filename;
	pid = (int32_t)m.pid;
	/* perf names executable anonymous memory by the process's JIT map file */
	if (is_exec(ev, &m) && is_anon(m.filename)) {
		snprintf(jitmap, sizeof(jitmap), "/tmp/perf-%d.map", (int)pid);
		map.filename = jitmap;
	}
	kernel = (ev->misc & PTD_MISC_CPUMODE_MASK) == PTD_MISC_KERNEL ||
		 (ev->misc & PTD_MISC_CPUMODE_MASK) == PTD_MISC_GUEST_KERNEL;
	/* "[kernel.kallsyms]_text": the kernel image, named as perf names it */
	if (kernel && !strncmp(m.filename, PTD_KERNEL_MAP_NAME, strlen(PTD_KERNEL_MAP_NAME)))
		map.filename = PTD_KERNEL_MAP_NAME;
	if (!map.build_id_size)
		header_build_id(sp, &map);
	if (kernel) {
		pid = PTD_KERNEL_PID;
		if (sp->opts.kernel_map)
			sp->opts.kernel_map(sp->opts.kernel_ctx, &map);
	}
	return ptd_machine_mmap(&s->machine, pid, (int32_t)m.tid, &map);
}

static int take_auxtrace_info(struct ptd_session *s, const struct ptd_event *ev, struct ptd_err *err)
{
	struct ptd_rec_auxtrace_info ai = { 0 };
	uint64_t *priv;

	if (ptd_rec_auxtrace_info(ev, &ai, err))
		return -err->code;
	priv = malloc(ai.nr_priv ? ai.nr_priv * 8 : 1);
	if (!priv)
		return ptd_err_set(err, PTD_E_NOMEM, "AUXTRACE_INFO");
	memcpy(priv, ai.priv, ai.nr_priv * 8);
	free(s->auxinfo.priv);
	s->auxinfo.present = 1;
	s->auxinfo.type = ai.type;
	s->auxinfo.priv = priv;
	s->auxinfo.nr_priv = ai.nr_priv;
	s->auxinfo.file_offset = ev->offset;
	return 0;
}

static int take_gap(struct ptd_session *s, const struct ptd_event *ev, struct ptd_err *err)
{
	struct ptd_gap g = { 0 };

	g.time = ev->sid.time;
	g.cpu = (int32_t)ev->sid.cpu;
	g.tid = (int32_t)ev->sid.tid;
	g.queue = -1;
	g.file_offset = ev->offset;
	if (ev->type == PTD_REC_AUXTRACE_ERROR) {
		struct ptd_rec_auxtrace_error ae;

		if (ptd_rec_auxtrace_error(ev, &ae, err))
			return -err->code;
		g.cause = PTD_GAP_AUXTRACE_ERROR;
		g.cpu = (int32_t)ae.cpu;
		g.tid = (int32_t)ae.tid;
		g.time = ae.have_time ? ae.time : 0;
		g.count = ae.code;
	} else {
		struct ptd_rec_lost l;

		if (ptd_rec_lost(ev, &l, err))
			return -err->code;
		g.cause = ev->type == PTD_REC_LOST ? PTD_GAP_LOST : PTD_GAP_LOST_SAMPLES;
		g.count = l.lost;
		if (ev->type == PTD_REC_LOST_SAMPLES) {
			struct ptd_evlist *el = ptd_reader_evlist(s->reader);
			struct ptd_evsel *es = el->evsels.len == 1 ? ev->evsel :
				ptd_evlist_by_id(el, ev->sid.id);

			if (es && !evsel_counters(s))
				s->stats.nr_lost_samples[es->idx] += l.lost;
		}
	}
	return ptd_auxq_add_gap(&s->auxq, &g, err);
}

static int take_time_conv(struct ptd_session *s, const struct ptd_event *ev, struct ptd_err *err)
{
	struct ptd_rec_time_conv t;

	if (ptd_rec_time_conv(ev, &t, err))
		return -err->code;
	s->have_time_conv = 1;
	s->time_conv.time_shift = (uint16_t)t.time_shift;
	s->time_conv.time_mult = (uint32_t)t.time_mult;
	s->time_conv.time_zero = t.time_zero;
	s->time_conv.time_cycles = t.time_cycles;
	s->time_conv.time_mask = t.time_mask;
	s->time_conv.cap_user_time_zero = t.cap_user_time_zero;
	s->time_conv.cap_user_time_short = t.cap_user_time_short;
	return 0;
}

/* Take one record into the model.  Contents that do not parse are a
 * warning (the record is skipped); only limits and memory stop the run. */
static int take(struct ptd_session_priv *sp, const struct ptd_event *ev, struct ptd_err *err)
{
	struct ptd_session *s = &sp->pub;
	struct ptd_err e;
	int rc = 0;

	ptd_err_clear(&e);   /* not = { 0 }, which clears its 2 KB for every record */
	switch (ev->type) {
	case PTD_REC_SAMPLE:
		deliver_sample(s, ev);
		break;
	case PTD_REC_COMM: {
		struct ptd_rec_comm c;

		rc = ptd_rec_comm(ev, &c, &e);
		if (!rc)
			rc = ptd_machine_comm(&s->machine, (int32_t)c.pid, (int32_t)c.tid, c.comm,
					      c.exec, ev->sid.time);
		break;
	}
	case PTD_REC_FORK:
	case PTD_REC_EXIT: {
		struct ptd_rec_fork f;

		rc = ptd_rec_fork(ev, &f, &e);
		if (!rc && ev->type == PTD_REC_FORK)
			rc = ptd_machine_fork(&s->machine, (int32_t)f.pid, (int32_t)f.ppid,
					      (int32_t)f.tid, (int32_t)f.ptid, f.time);
		else if (!rc)
			rc = ptd_machine_exit(&s->machine, (int32_t)f.pid, (int32_t)f.tid, f.time);
		break;
	}
	case PTD_REC_MMAP:
	case PTD_REC_MMAP2:
		rc = take_mmap(s, ev, &e);
		break;
	case PTD_REC_AUX: {
		struct ptd_rec_aux a;

		rc = ptd_rec_aux(ev, &a, &e);
		if (!rc)
			rc = ptd_auxq_add_aux(&s->auxq, &a, &ev->sid, ev->offset, &e);
		break;
	}
	case PTD_REC_AUXTRACE: {
		struct ptd_rec_auxtrace a;

		rc = ptd_rec_auxtrace(ev, &a, &e);
		if (!rc) {
			s->stats.auxtrace_bytes += a.size;
			rc = ptd_auxq_add_chunk(&s->auxq, &a, &ev->payload, ev->offset, &e);
		}
		break;
	}
	case PTD_REC_AUXTRACE_INFO:
		rc = take_auxtrace_info(s, ev, &e);
		break;
	case PTD_REC_AUX_OUTPUT_HW_ID: {
		uint64_t hw_id;
		struct ptd_hw_id *h;

		rc = ptd_rec_aux_output_hw_id(ev, &hw_id, &e);
		if (rc)
			break;
		h = ptd_vec_push(&s->hw_ids);
		if (!h)
			return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
		h->cpu = (ev->sid.have & PTD_SAMPLE_CPU) ? (int32_t)ev->sid.cpu : -1;
		h->hw_id = hw_id;
		h->file_offset = ev->offset;
		break;
	}
	case PTD_REC_TIME_CONV:
		rc = take_time_conv(s, ev, &e);
		break;
	case PTD_REC_LOST:
	case PTD_REC_LOST_SAMPLES:
	case PTD_REC_AUXTRACE_ERROR:
		rc = take_gap(s, ev, &e);
		break;
	default:
		break;
	}
	if (rc == -PTD_E_FORMAT) {
		s->stats.nr_bad++;
		warn(sp, "%s; skipped", e.msg);
		return 0;
	}
	if (rc) {
		if (!e.msg[0])
			ptd_err_set(&e, -rc, "%s", ptd_strerror(rc));
		return ptd_err_set(err, -rc, "record at offset %#llx: %s",
				   (unsigned long long)ev->offset, e.msg);
	}
	return 0;
}

/* Take a record in and show it to the observer. */
static int deliver(struct ptd_session_priv *sp, const struct ptd_event *ev, struct ptd_err *err)
{
	int rc = take(sp, ev, err);

	if (!rc && sp->opts.on_record)
		rc = sp->opts.on_record(sp->opts.ctx, &sp->pub, ev);
	return rc;
}

/* Deliver the queued records with a timestamp up to limit. */
static int release(struct ptd_session_priv *sp, uint64_t limit, struct ptd_err *err)
{
	const struct ptd_event *q;
	int rc = 0;

	while (!rc && (q = ptd_ordered_pop(&sp->ordered, limit)))
		rc = deliver(sp, q, err);
	return rc;
}

/* perf's timestamp for ordering: 0 or UINT64_MAX mean "none, deliver now" */
static uint64_t timestamp(const struct ptd_event *ev)
{
	if (!ev->evsel || !(ev->evsel->sample_type & PTD_SAMPLE_TIME))
		return UINT64_MAX;
	if (ev->type == PTD_REC_SAMPLE)
		return ev->sample_ok ? ev->sample.time : UINT64_MAX;
	return ev->evsel->sample_id_all ? ev->sid.time : UINT64_MAX;
}

/* Records are ordered by time when the first attr has sample_id_all. */
static int ordered(struct ptd_session *s)
{
	struct ptd_evlist *el = ptd_reader_evlist(s->reader);

	return el->evsels.len && (*(struct ptd_evsel **)ptd_vec_at(&el->evsels, 0))->sample_id_all;
}

int ptd_session_run(struct ptd_session *s, struct ptd_err *err)
{
	struct ptd_session_priv *sp = (struct ptd_session_priv *)s;
	const struct ptd_file_header *h = ptd_reader_header(s->reader);
	uint64_t total = h->pipe ? 0 : h->data.offset + h->data.size, n = 0, ts, over;
	struct ptd_event ev;
	int rc;

	while ((rc = ptd_reader_next(s->reader, &ev, err)) > 0) {
		count(s, &ev);
		ts = timestamp(&ev);
		if (ev.type < PTD_REC_HEADER_ATTR && ts && ts != UINT64_MAX && ordered(s)) {
			if (ptd_ordered_push(&sp->ordered, &ev, ts))
				return ptd_err_set(err, PTD_E_NOMEM, "record at offset %#llx: ordering queue",
						   (unsigned long long)ev.offset);
			over = ptd_ordered_overflow(&sp->ordered);
			if (over && (rc = release(sp, over, err)))
				return rc;
		} else {
			if ((rc = deliver(sp, &ev, err)))
				return rc;
			if (ev.type == PTD_REC_FINISHED_ROUND && ordered(s) &&
			    (rc = release(sp, ptd_ordered_round(&sp->ordered), err)))
				return rc;
		}
		if (sp->opts.progress && !(++n & 1023))
			sp->opts.progress(sp->opts.progress_ctx, ev.offset, total);
	}
	if (rc < 0)
		return rc;
	if ((rc = release(sp, UINT64_MAX, err)))
		return rc;
	if (sp->opts.progress)
		sp->opts.progress(sp->opts.progress_ctx, total, total);
	return ptd_auxq_finish(&s->auxq, err);
}
