#include "formats/out/dump_priv.h"

#include <inttypes.h>
#include <string.h>

#include "formats/perf/abi.h"
#include "formats/perf/cursor.h"
#include "formats/perf/evname.h"
#include "formats/perf/records.h"

void ptd_dump_init(struct ptd_dump *d, FILE *out)
{
	memset(d, 0, sizeof(*d));
	d->out = out;
	d->arch = "";
}

const char *ptd_dump_evsel_name(struct ptd_session *s, const struct ptd_evsel *ev)
{
	static char buf[64];

	(void)s;
	return ptd_evsel_name(ev, buf, sizeof(buf));
}

/* perf prints the CPU/TIME prefix by the sample_type of all attrs
 * together, and "-1 -1 " for kernel records when the first attr has no
 * sample_id_all.  Attrs can arrive as records (pipe mode): settle again
 * whenever their number changed. */
static void settle(struct ptd_dump *d, struct ptd_session *s, const struct ptd_event *ev)
{
	struct ptd_evlist *el = ptd_reader_evlist(s->reader);
	const struct ptd_features *f = ptd_reader_features(s->reader);
	size_t i, n = el->evsels.len;

	/* perf prints an ATTR record before it takes the attr in */
	if (ev->type == PTD_REC_HEADER_ATTR && n)
		n--;
	if (d->nr_evsels == n && d->settled)
		return;
	d->settled = 1;
	d->nr_evsels = n;
	d->prefix_type = 0;
	d->sample_id_all = 0;
	for (i = 0; i < n; i++) {
		const struct ptd_evsel *es = *(struct ptd_evsel **)ptd_vec_at(&el->evsels, i);

		d->prefix_type |= es->sample_type;
		if (i == 0)
			d->sample_id_all = es->sample_id_all;
	}
	/* perf's normalized architecture names, for register names */
	d->arch = "";
	if (f->arch) {
		if (!strcmp(f->arch, "x86_64") || !strncmp(f->arch, "i", 1))
			d->arch = "x86";
		else if (!strcmp(f->arch, "aarch64") || !strcmp(f->arch, "arm64"))
			d->arch = "arm64";
		else
			d->arch = f->arch;
	}
}

static void prefix(struct ptd_dump *d, const struct ptd_event *ev)
{
	uint32_t cpu = 0;
	uint64_t time = 0;

	if (ev->type != PTD_REC_SAMPLE && !d->sample_id_all) {
		fputs("-1 -1 ", d->out);
		return;
	}
	if (ev->type < PTD_REC_HEADER_ATTR) {
		cpu = ev->sid.cpu;
		time = (ev->sid.have & PTD_SAMPLE_TIME) ? ev->sid.time : UINT64_MAX;
	}
	if (d->prefix_type & PTD_SAMPLE_CPU)
		fprintf(d->out, "%u ", cpu);
	if (d->prefix_type & PTD_SAMPLE_TIME)
		fprintf(d->out, "%" PRIu64 " ", time);
}

static void p_mmap(FILE *f, const struct ptd_event *ev, const struct ptd_rec_mmap *m)
{
	fprintf(f, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int)m->pid, (int)m->tid,
		m->start, m->len, m->pgoff);
	if (!m->mmap2) {
		fprintf(f, "]: %c %s\n", (ev->misc & PTD_MISC_MMAP_DATA) ? 'r' : 'x', m->filename);
		return;
	}
	if (m->has_build_id) {
		unsigned i;

		fputs(" <", f);
		for (i = 0; i < m->build_id_size; i++)
			fprintf(f, "%02x", m->build_id[i]);
		fputc('>', f);
	} else {
		fprintf(f, " %02x:%02x %" PRIu64 " %" PRIu64, m->maj, m->min, m->ino, m->ino_generation);
	}
	fprintf(f, "]: %c%c%c%c %s\n",
		(m->prot & 1) ? 'r' : '-', (m->prot & 2) ? 'w' : '-', (m->prot & 4) ? 'x' : '-',
		(m->flags & 1) ? 's' : 'p', m->filename);
}

static void p_namespaces(FILE *f, const struct ptd_event *ev)
{
	static const char *const ns[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
	struct ptd_cursor c;
	uint64_t nr, i;
	uint32_t pid, tid;

	ptd_rec_body(ev, &c);
	pid = ptd_cur_u32(&c);
	tid = ptd_cur_u32(&c);
	nr = ptd_cur_u64(&c);
	if (c.bad || nr > ptd_cur_left(&c) / 16) {
		fputs(": bad record\n", f);
		return;
	}
	fprintf(f, " %d/%d - nr_namespaces: %u\n\t\t[", (int)pid, (int)tid, (unsigned)nr);
	for (i = 0; i < nr; i++) {
		uint64_t dev = ptd_cur_u64(&c), ino = ptd_cur_u64(&c);

		if (i && i % 4 == 0)
			fputs("\n\t\t ", f);
		fprintf(f, "%u/%s: %" PRIu64 "/%#" PRIx64 "%s", (unsigned)i,
			i < 7 ? ns[i] : "UNKNOWN", dev, ino, i + 1 != nr ? ", " : "]\n");
	}
}

static void p_read(FILE *f, struct ptd_session *s, const struct ptd_event *ev)
{
	uint64_t rf = ev->evsel ? ev->evsel->read_format : 0;
	uint64_t v[5] = { 0 };
	size_t i;

	/* perf prints the fields of struct perf_record_read at fixed places */
	for (i = 0; i < 5; i++)
		if (16 + 8 * (i + 1) <= ev->size)
			v[i] = ptd_load_u64(ev->data + 16 + 8 * i);
	fprintf(f, ": %d %d %s %" PRIu64 "\n", ev->size >= 16 ? (int)ptd_load_u32(ev->data + 8) : 0,
		ev->size >= 16 ? (int)ptd_load_u32(ev->data + 12) : 0,
		ptd_dump_evsel_name(s, ev->evsel), v[0]);
	if (!ev->evsel)
		return;
	if (rf & PTD_FORMAT_TOTAL_TIME_ENABLED)
		fprintf(f, "... time enabled : %" PRIu64 "\n", v[1]);
	if (rf & PTD_FORMAT_TOTAL_TIME_RUNNING)
		fprintf(f, "... time running : %" PRIu64 "\n", v[2]);
	if (rf & PTD_FORMAT_ID)
		fprintf(f, "... id           : %" PRIu64 "\n", v[3]);
	if (rf & PTD_FORMAT_LOST)
		fprintf(f, "... lost         : %" PRIu64 "\n", v[4]);
}

static void p_text_poke(FILE *f, const struct ptd_rec_text_poke *t)
{
	unsigned part, i;

	fprintf(f, " %" PRIx64 "  old len %u new len %u\n", t->addr, t->old_len, t->new_len);
	for (part = 0; part < 2; part++) {
		const uint8_t *b = t->bytes + (part ? t->old_len : 0);
		unsigned n = part ? t->new_len : t->old_len;

		for (i = 0; i < n; i++) {
			if (i % 16 == 0)
				fprintf(f, "            %s bytes:", part ? "New" : "Old");
			fprintf(f, " %02x", b[i]);
			if (i % 16 == 15 || i + 1 == n)
				fputc('\n', f);
		}
	}
}

/* perf report -D prints only the record name; the error itself follows on a
 * line of its own, worded as perf script words it */
static void p_auxtrace_error(FILE *f, const struct ptd_rec_auxtrace_error *e)
{
	fprintf(f, "\n  %s error type %u", e->type == 1 ? "instruction trace" : "unknown", e->type);
	if (e->fmt && e->time)
		fprintf(f, " time %" PRIu64 ".%09" PRIu64, e->time / 1000000000, e->time % 1000000000);
	else
		fputs(" time 0", f);
	if (e->fmt >= 2 && e->machine_pid)
		fprintf(f, " machine_pid %d vcpu %d", (int)e->machine_pid, (int)e->vcpu);
	fprintf(f, " cpu %d pid %d tid %d ip %#" PRIx64 " code %u: %s\n", (int)e->cpu, (int)e->pid,
		(int)e->tid, e->ip, e->code, e->msg);
}

/* The part after "PERF_RECORD_NAME" for records the kernel writes. */
static int p_kernel(struct ptd_dump *d, struct ptd_session *s, const struct ptd_event *ev,
		    struct ptd_err *e)
{
	FILE *f = d->out;
	union {
		struct ptd_rec_mmap mmap;
		struct ptd_rec_comm comm;
		struct ptd_rec_fork fork;
		struct ptd_rec_lost lost;
		struct ptd_rec_aux aux;
		struct ptd_rec_itrace_start it;
		struct ptd_rec_switch sw;
		struct ptd_rec_text_poke tp;
		uint64_t hw_id;
	} r;
	struct ptd_cursor c;

	switch (ev->type) {
	case PTD_REC_MMAP:
	case PTD_REC_MMAP2:
		if (ptd_rec_mmap(ev, &r.mmap, e))
			return -1;
		p_mmap(f, ev, &r.mmap);
		return 0;
	case PTD_REC_COMM:
		if (ptd_rec_comm(ev, &r.comm, e))
			return -1;
		fprintf(f, "%s: %s:%d/%d\n", r.comm.exec ? " exec" : "", r.comm.comm,
			(int)r.comm.pid, (int)r.comm.tid);
		return 0;
	case PTD_REC_FORK:
	case PTD_REC_EXIT:
		if (ptd_rec_fork(ev, &r.fork, e))
			return -1;
		fprintf(f, "(%d:%d):(%d:%d)\n", (int)r.fork.pid, (int)r.fork.tid,
			(int)r.fork.ppid, (int)r.fork.ptid);
		return 0;
	case PTD_REC_SAMPLE:
		ptd_dump_sample(d, s, ev);
		return 0;
	case PTD_REC_LOST:
		if (ptd_rec_lost(ev, &r.lost, e))
			return -1;
		fprintf(f, ": id:%" PRIu64 ": lost:%" PRIu64 "\n", r.lost.id, r.lost.lost);
		return 0;
	case PTD_REC_LOST_SAMPLES:
		if (ptd_rec_lost(ev, &r.lost, e))
			return -1;
		fprintf(f, ": id:%" PRIu64 ": lost samples :%" PRIu64 "\n",
			(ev->sid.have & (PTD_SAMPLE_ID | PTD_SAMPLE_IDENTIFIER)) ? ev->sid.id : UINT64_MAX,
			r.lost.lost);
		return 0;
	case PTD_REC_AUX:
		if (ptd_rec_aux(ev, &r.aux, e))
			return -1;
		fprintf(f, " offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64 " [%s%s%s]\n",
			r.aux.aux_offset, r.aux.aux_size, r.aux.flags,
			(r.aux.flags & PTD_AUX_FLAG_TRUNCATED) ? "T" : "",
			(r.aux.flags & PTD_AUX_FLAG_OVERWRITE) ? "O" : "",
			(r.aux.flags & PTD_AUX_FLAG_PARTIAL) ? "P" : "");
		return 0;
	case PTD_REC_ITRACE_START:
		if (ptd_rec_itrace_start(ev, &r.it, e))
			return -1;
		fprintf(f, " pid: %u tid: %u\n", r.it.pid, r.it.tid);
		return 0;
	case PTD_REC_SWITCH:
	case PTD_REC_SWITCH_CPU_WIDE: {
		const char *in_out;

		if (ptd_rec_switch(ev, &r.sw, e))
			return -1;
		in_out = !r.sw.out ? "IN         " : !r.sw.preempt ? "OUT        " : "OUT preempt";
		if (!r.sw.cpu_wide)
			fprintf(f, " %s\n", in_out);
		else
			fprintf(f, " %s  %s pid/tid: %5d/%-5d\n", in_out, r.sw.out ? "next" : "prev",
				(int)r.sw.next_prev_pid, (int)r.sw.next_prev_tid);
		return 0;
	}
	case PTD_REC_KSYMBOL: {
		uint64_t addr;
		uint32_t len;
		uint16_t type, flags;
		const char *name;

		ptd_rec_body(ev, &c);
		addr = ptd_cur_u64(&c);
		len = ptd_cur_u32(&c);
		type = ptd_cur_u16(&c);
		flags = ptd_cur_u16(&c);
		name = ptd_cur_cstr(&c);
		if (c.bad)
			return ptd_err_set(e, PTD_E_FORMAT, "KSYMBOL too short"), -1;
		fprintf(f, " addr %" PRIx64 " len %u type %u flags 0x%x name %s\n",
			addr, len, type, flags, name);
		return 0;
	}
	case PTD_REC_BPF_EVENT:
		ptd_rec_body(ev, &c);
		{
			uint16_t type = ptd_cur_u16(&c), flags = ptd_cur_u16(&c);
			uint32_t id = ptd_cur_u32(&c);

			if (c.bad)
				return ptd_err_set(e, PTD_E_FORMAT, "BPF_EVENT too short"), -1;
			fprintf(f, " type %u, flags %u, id %u\n", type, flags, id);
		}
		return 0;
	case PTD_REC_CGROUP:
		ptd_rec_body(ev, &c);
		{
			uint64_t id = ptd_cur_u64(&c);
			const char *path = ptd_cur_cstr(&c);

			if (c.bad)
				return ptd_err_set(e, PTD_E_FORMAT, "CGROUP too short"), -1;
			fprintf(f, " cgroup: %" PRIu64 " %s\n", id, path);
		}
		return 0;
	case PTD_REC_NAMESPACES:
		p_namespaces(f, ev);
		return 0;
	case PTD_REC_READ:
		p_read(f, s, ev);
		return 0;
	case PTD_REC_TEXT_POKE:
		if (ptd_rec_text_poke(ev, &r.tp, e))
			return -1;
		p_text_poke(f, &r.tp);
		return 0;
	case PTD_REC_AUX_OUTPUT_HW_ID:
		if (ptd_rec_aux_output_hw_id(ev, &r.hw_id, e))
			return -1;
		fprintf(f, " hw_id: %#" PRIx64 "\n", r.hw_id);
		return 0;
	default:
		fputc('\n', f);
		return 0;
	}
}

/* A summary of an AUXTRACE payload, on a line of ptdecode's own: where it
 * is and how it begins (the trace packets come with the decoders). */
static void p_payload(FILE *f, struct ptd_session *s, const struct ptd_event *ev)
{
	uint8_t head[16];
	size_t n = ev->payload.size < sizeof(head) ? (size_t)ev->payload.size : sizeof(head), i;
	struct ptd_err e;

	if (!ev->payload.available || ev->payload.spilled) {
		fprintf(f, "  payload: %#" PRIx64 " bytes after the record\n", ev->payload.size);
		return;
	}
	fprintf(f, "  payload: %#" PRIx64 " bytes at file offset %#" PRIx64 ":",
		ev->payload.size, ev->payload.offset);
	if (ptd_reader_read_payload(s->reader, &ev->payload, 0, head, n, &e)) {
		fprintf(f, " unreadable: %s\n", e.msg);
		return;
	}
	for (i = 0; i < n; i++)
		fprintf(f, " %02x", head[i]);
	fputs(n < ev->payload.size ? " ...\n" : "\n", f);
}

static void p_user(struct ptd_dump *d, struct ptd_session *s, const struct ptd_event *ev)
{
	FILE *f = d->out;
	struct ptd_err e;

	if (ptd_dump_synth(d, s, ev))
		return;
	switch (ev->type) {
	case PTD_REC_AUXTRACE: {
		struct ptd_rec_auxtrace a;

		if (ptd_rec_auxtrace(ev, &a, &e))
			break;
		fprintf(f, " size: %#" PRIx64 "  offset: %#" PRIx64 "  ref: %#" PRIx64
			"  idx: %u  tid: %d  cpu: %d\n", a.size, a.offset, a.reference, a.idx,
			(int)a.tid, (int)a.cpu);
		p_payload(f, s, ev);
		return;
	}
	case PTD_REC_AUXTRACE_ERROR: {
		struct ptd_rec_auxtrace_error ae;

		if (ptd_rec_auxtrace_error(ev, &ae, &e))
			break;
		p_auxtrace_error(f, &ae);
		return;
	}
	default:
		fputc('\n', f);
		return;
	}
	fprintf(f, ": bad record: %s\n", e.msg);
}

int ptd_dump_record(void *ctx, struct ptd_session *s, const struct ptd_event *ev)
{
	struct ptd_dump *d = ctx;
	const char *name = ptd_rec_name(ev->type);
	uint64_t off = ev->offset;
	struct ptd_err e;

	if (ev->type == PTD_REC_COMPRESSED || ev->type == PTD_REC_COMPRESSED2)
		return 0;   /* perf prints the records inside, not the container */
	memset(&d->cur, 0, sizeof(d->cur));
	settle(d, s, ev);
	/* in pipe mode perf counts offsets from the end of the 16-byte header */
	if (ptd_reader_header(s->reader)->pipe && off >= PTD_PIPE_HEADER_SIZE)
		off -= PTD_PIPE_HEADER_SIZE;
	prefix(d, ev);
	fputs(off ? "" : "0", d->out);
	if (off)
		fprintf(d->out, "%#" PRIx64, off);
	fprintf(d->out, " [%#x]: PERF_RECORD_", ev->size);
	if (name)
		fputs(name, d->out);
	else
		fprintf(d->out, "%u", ev->type);
	if (ev->type >= PTD_REC_HEADER_ATTR)
		p_user(d, s, ev);
	else if (p_kernel(d, s, ev, &e))
		fprintf(d->out, ": bad record: %s\n", e.msg);
	ptd_dump_resolve(d, s, &d->cur);
	return ferror(d->out) ? -PTD_E_IO : 0;
}
