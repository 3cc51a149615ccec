#include "formats/out/dump.h"

#include <inttypes.h>
#include <string.h>

#include "formats/perf/abi.h"
#include "formats/perf/cursor.h"
#include "formats/perf/records.h"

void ptd_dump_init(struct ptd_dump *d, FILE *out)
{
	memset(d, 0, sizeof(*d));
	d->out = out;
}

/* perf prints the CPU/TIME prefix by the sample_type of all attrs
 * together, and "-1 -1 " for kernel records without a sample_id */
static void settle(struct ptd_dump *d, struct ptd_session *s)
{
	struct ptd_evlist *el = ptd_reader_evlist(s->reader);
	size_t i;

	d->prefix_type = 0;
	d->sample_id_all = 0;
	for (i = 0; i < el->evsels.len; i++) {
		const struct ptd_evsel *ev = *(struct ptd_evsel **)ptd_vec_at(&el->evsels, i);

		d->prefix_type |= ev->sample_type;
		if (i == 0)
			d->sample_id_all = ev->sample_id_all;
	}
}

static void prefix(struct ptd_dump *d, const struct ptd_event *ev)
{
	uint32_t cpu = 0;
	uint64_t time = 0;

	if (ev->type < PTD_REC_HEADER_ATTR) {
		if (ev->type != PTD_REC_SAMPLE && !d->sample_id_all) {
			fputs("-1 -1 ", d->out);
			return;
		}
		cpu = ev->sid.cpu;
		time = (ev->sid.have & PTD_SAMPLE_TIME) ? ev->sid.time : UINT64_MAX;
	}
	if (d->prefix_type & PTD_SAMPLE_CPU)
		fprintf(d->out, "%u ", cpu);
	if (d->prefix_type & PTD_SAMPLE_TIME)
		fprintf(d->out, "%" PRIu64 " ", time);
}

/* %#lx as perf prints it: 0 without the 0x */
static void hex(FILE *f, uint64_t v)
{
	if (v)
		fprintf(f, "%#" PRIx64, v);
	else
		fputc('0', f);
}

static void p_mmap(FILE *f, const struct ptd_event *ev)
{
	struct ptd_rec_mmap m;
	struct ptd_err e;

	if (ptd_rec_mmap(ev, &m, &e)) {
		fprintf(f, ": (bad record: %s)\n", e.msg);
		return;
	}
	fprintf(f, " %d/%d: [", (int)m.pid, (int)m.tid);
	hex(f, m.start);
	fputc('(', f);
	hex(f, m.len);
	fputs(") @ ", f);
	hex(f, m.pgoff);
	if (!m.mmap2) {
		fprintf(f, "]: %c %s\n", (ev->misc & PTD_MISC_MMAP_DATA) ? 'r' : 'x', m.filename);
		return;
	}
	if (m.has_build_id) {
		unsigned i;

		fputs(" <", f);
		for (i = 0; i < m.build_id_size; i++)
			fprintf(f, "%02x", m.build_id[i]);
		fputc('>', f);
	} else {
		fprintf(f, " %02x:%02x %" PRIu64 " %" PRIu64, m.maj, m.min, m.ino, m.ino_generation);
	}
	fprintf(f, "]: %c%c%c%c %s\n",
		(m.prot & 1) ? 'r' : '-', (m.prot & 2) ? 'w' : '-', (m.prot & 4) ? 'x' : '-',
		(m.flags & 1) ? 's' : 'p', m.filename);
}

static void p_sample(FILE *f, struct ptd_session *s, const struct ptd_event *ev)
{
	const struct ptd_sample *sm = &ev->sample;
	const char *comm;
	const struct ptd_map *map;

	if (!ev->sample_ok) {
		fprintf(f, "(IP, 0x%x): (unparsed)\n", ev->misc);
		return;
	}
	fprintf(f, "(IP, 0x%x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64 "\n",
		ev->misc, (int)sm->pid, (int)sm->tid, sm->ip, sm->period, sm->addr);
	if (sm->type & PTD_SAMPLE_CALLCHAIN) {
		uint64_t i;

		fprintf(f, "... FP chain: nr:%" PRIu64 "\n", sm->nr_callchain);
		for (i = 0; i < sm->nr_callchain; i++)
			fprintf(f, "..... %2" PRIu64 ": %016" PRIx64 "\n", i,
				ptd_load_u64(sm->callchain + 8 * i));
	}
	comm = ptd_machine_comm_at(&s->machine, (int32_t)sm->tid, sm->time);
	fprintf(f, " ... thread: %s:%d\n", comm ? comm : ":-1", (int)sm->tid);
	map = ptd_machine_find_map(&s->machine, (int32_t)sm->pid, sm->ip, sm->time);
	fprintf(f, " ...... dso: %s\n", map ? map->filename : "<not found>");
}

static void p_body(struct ptd_dump *d, struct ptd_session *s, const struct ptd_event *ev)
{
	FILE *f = d->out;
	struct ptd_err e;

	switch (ev->type) {
	case PTD_REC_MMAP:
	case PTD_REC_MMAP2:
		p_mmap(f, ev);
		return;
	case PTD_REC_COMM: {
		struct ptd_rec_comm c;

		if (!ptd_rec_comm(ev, &c, &e)) {
			fprintf(f, "%s: %s:%d/%d\n", c.exec ? " exec" : "", c.comm, (int)c.pid, (int)c.tid);
			return;
		}
		break;
	}
	case PTD_REC_FORK:
	case PTD_REC_EXIT: {
		struct ptd_rec_fork k;

		if (!ptd_rec_fork(ev, &k, &e)) {
			fprintf(f, "(%d:%d):(%d:%d)\n", (int)k.pid, (int)k.tid, (int)k.ppid, (int)k.ptid);
			return;
		}
		break;
	}
	case PTD_REC_SAMPLE:
		p_sample(f, s, ev);
		return;
	case PTD_REC_AUX: {
		struct ptd_rec_aux a;

		if (!ptd_rec_aux(ev, &a, &e)) {
			fputs(" offset: ", f);
			hex(f, a.aux_offset);
			fputs(" size: ", f);
			hex(f, a.aux_size);
			fputs(" flags: ", f);
			hex(f, a.flags);
			fprintf(f, " [%s%s%s]\n",
				(a.flags & PTD_AUX_FLAG_TRUNCATED) ? "T" : "",
				(a.flags & PTD_AUX_FLAG_OVERWRITE) ? "O" : "",
				(a.flags & PTD_AUX_FLAG_PARTIAL) ? "P" : "");
			return;
		}
		break;
	}
	case PTD_REC_ITRACE_START: {
		struct ptd_rec_itrace_start it;

		if (!ptd_rec_itrace_start(ev, &it, &e)) {
			fprintf(f, " pid: %u tid: %u\n", it.pid, it.tid);
			return;
		}
		break;
	}
	case PTD_REC_AUXTRACE: {
		struct ptd_rec_auxtrace a;

		if (!ptd_rec_auxtrace(ev, &a, &e)) {
			fputs(" size: ", f);
			hex(f, a.size);
			fputs("  offset: ", f);
			hex(f, a.offset);
			fputs("  ref: ", f);
			hex(f, a.reference);
			fprintf(f, "  idx: %u  tid: %d  cpu: %d\n", a.idx, (int)a.tid, (int)a.cpu);
			return;
		}
		break;
	}
	default:
		fputc('\n', f);
		return;
	}
	fprintf(f, ": (bad record: %s)\n", e.msg);
}

int ptd_dump_record(void *ctx, struct ptd_session *s, const struct ptd_event *ev)
{
	struct ptd_dump *d = ctx;
	const char *name = ptd_rec_name(ev->type);

	if (ev->type == PTD_REC_COMPRESSED || ev->type == PTD_REC_COMPRESSED2)
		return 0;   /* perf prints the records inside, not the container */
	settle(d, s);
	prefix(d, ev);
	fprintf(d->out, "%#" PRIx64 " [%#x]: PERF_RECORD_", ev->offset, ev->size);
	if (name)
		fputs(name, d->out);
	else
		fprintf(d->out, "%u", ev->type);
	p_body(d, s, ev);
	return ferror(d->out) ? -PTD_E_IO : 0;
}
