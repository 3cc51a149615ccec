/* --dump of the records perf itself writes (types 64 and up): the detail
 * perf report -D prints for each. */
#include "formats/out/dump_priv.h"

#include <inttypes.h>
#include <string.h>

#include "formats/perf/abi.h"
#include "formats/perf/cursor.h"

#define MAX_CPUS_PRINTED 4096

/* perf's cpu_map__snprint: ranges "0-3,5" of a sorted list */
static void cpu_list(FILE *f, const int *cpu, size_t n)
{
	size_t i, start = 0;
	int first = 1;

	if (!n) {
		fputc('\n', f);
		return;
	}
	for (i = 1; i <= n; i++) {
		if (i < n && cpu[i] - cpu[start] == (int)(i - start))
			continue;
		if (i - 1 == start)
			fprintf(f, "%s%d", first ? "" : ",", cpu[start]);
		else
			fprintf(f, "%s%d-%d", first ? "" : ",", cpu[start], cpu[i - 1]);
		first = 0;
		start = i;
	}
	fputc('\n', f);
}

/* struct perf_record_cpu_map_data: u16 type, then by type a u16 list, a
 * u32/u64 mask array or a range */
static int cpu_map(FILE *f, const uint8_t *p, size_t len)
{
	static int cpus[MAX_CPUS_PRINTED];
	struct ptd_cursor c;
	size_t n = 0;
	uint16_t type, nr;

	ptd_cur_init(&c, p, len);
	type = ptd_cur_u16(&c);
	switch (type) {
	case 0: {       /* list of u16 */
		unsigned i;

		nr = ptd_cur_u16(&c);
		for (i = 0; i < nr && n < MAX_CPUS_PRINTED; i++) {
			uint16_t v = ptd_cur_u16(&c);

			cpus[n++] = v == 0xffff ? -1 : v;
		}
		break;
	}
	case 1: {       /* masks: u16 nr, u16 long_size, then nr masks */
		uint16_t long_size;
		unsigned i, b;

		nr = ptd_cur_u16(&c);
		long_size = ptd_cur_u16(&c);
		if (long_size == 8)
			ptd_cur_u32(&c);   /* legacy padding before 64-bit masks */
		for (i = 0; i < nr && !c.bad; i++) {
			uint64_t m = long_size == 8 ? ptd_cur_u64(&c) : ptd_cur_u32(&c);

			for (b = 0; b < 64 && n < MAX_CPUS_PRINTED; b++)
				if ((m >> b) & 1)
					cpus[n++] = (int)(b + i * long_size * 8);
		}
		break;
	}
	case 2: {       /* range: u8 any_cpu, u8 pad, u16 start, u16 end */
		uint8_t any = ptd_cur_u8(&c);
		int start, end, cpu;

		ptd_cur_u8(&c);
		start = ptd_cur_u16(&c);
		end = ptd_cur_u16(&c);
		if (any)
			cpus[n++] = -1;
		for (cpu = start; cpu <= end && n < MAX_CPUS_PRINTED; cpu++)
			cpus[n++] = cpu;
		break;
	}
	default:
		return -1;
	}
	if (c.bad)
		return -1;
	cpu_list(f, cpus, n);
	return 0;
}

static void id_index(FILE *f, const struct ptd_event *ev)
{
	size_t sz = ev->size - 16u, i, nr;
	const uint8_t *e2 = NULL;
	uint64_t n = ptd_load_u64(ev->data + 8);

	if (ev->size < 16 || n > sz / 32) {
		fputc('\n', f);
		return;
	}
	nr = (size_t)n;
	if (sz >= nr * 48)      /* newer perf appends machine_pid and vcpu */
		e2 = ev->data + 16 + nr * 32;
	fprintf(f, " nr: %zu\n", nr);
	for (i = 0; i < nr; i++) {
		const uint8_t *e = ev->data + 16 + i * 32;

		fprintf(f, " ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64 "  tid: %" PRId64,
			ptd_load_u64(e), ptd_load_u64(e + 8), (int64_t)ptd_load_u64(e + 16),
			(int64_t)ptd_load_u64(e + 24));
		if (e2)
			fprintf(f, "  machine_pid: %" PRId64 "  vcpu: %" PRIu64 "\n",
				(int64_t)ptd_load_u64(e2 + 16 * i), ptd_load_u64(e2 + 16 * i + 8));
		else
			fputc('\n', f);
	}
}

/* THREAD_MAP: u64 nr, then nr x {u64 pid, char comm[16]} */
static void thread_map(FILE *f, const struct ptd_event *ev)
{
	uint64_t nr = ev->size >= 16 ? ptd_load_u64(ev->data + 8) : 0, i;

	if (nr > (ev->size - 16u) / 24) {
		fprintf(f, " nr: failed to get threads from event\n");
		return;
	}
	fprintf(f, " nr: %d thread%s: ", (int)nr, nr > 1 ? "s" : "");
	for (i = 0; i < nr; i++)
		fprintf(f, "%s%d", i ? ", " : "", (int)ptd_load_u64(ev->data + 16 + 24 * i));
	fputc('\n', f);
}

static void event_update(FILE *f, const struct ptd_event *ev)
{
	uint64_t type, id;
	const uint8_t *p = ev->data + 24;
	size_t len = ev->size > 24 ? ev->size - 24u : 0;

	if (ev->size < 24) {
		fputc('\n', f);
		return;
	}
	type = ptd_load_u64(ev->data + 8);
	id = ptd_load_u64(ev->data + 16);
	fprintf(f, "\n... id:    %" PRIu64 "\n", id);
	switch (type) {       /* PERF_EVENT_UPDATE__UNIT, SCALE, NAME, CPUS */
	case 0:
		fprintf(f, "... unit:  %.*s\n", (int)strnlen((const char *)p, len), (const char *)p);
		break;
	case 1: {
		double scale = 0;

		if (len >= 8)
			memcpy(&scale, p, 8);
		fprintf(f, "... scale: %f\n", scale);
		break;
	}
	case 2:
		fprintf(f, "... name:  %.*s\n", (int)strnlen((const char *)p, len), (const char *)p);
		break;
	case 3:
		fputs("... ", f);
		if (cpu_map(f, p, len))
			fputs("failed to get cpus\n", f);
		break;
	default:
		fputs("... unknown type\n", f);
		break;
	}
}

static void stat_config(FILE *f, const struct ptd_event *ev)
{
	uint64_t nr = ev->size >= 16 ? ptd_load_u64(ev->data + 8) : 0, i;
	uint64_t aggr = 0, scale = 0, interval = 0;

	for (i = 0; i < nr && 16 + 16 * (i + 1) <= ev->size; i++) {
		uint64_t tag = ptd_load_u64(ev->data + 16 + 16 * i);
		uint64_t val = ptd_load_u64(ev->data + 24 + 16 * i);

		if (tag == 0)
			aggr = val;
		else if (tag == 1)
			interval = val;
		else if (tag == 2)
			scale = val;
	}
	fprintf(f, "\n... aggr_mode %d\n... scale     %d\n... interval  %u\n",
		(int)aggr, (int)scale, (unsigned)interval);
}

static uint64_t at(const struct ptd_event *ev, size_t off)
{
	return off + 8 <= ev->size ? ptd_load_u64(ev->data + off) : 0;
}

int ptd_dump_synth(struct ptd_dump *d, struct ptd_session *s, const struct ptd_event *ev)
{
	FILE *f = d->out;

	switch (ev->type) {
	case PTD_REC_ID_INDEX:
		id_index(f, ev);
		return 1;
	case PTD_REC_THREAD_MAP:
		thread_map(f, ev);
		return 1;
	case PTD_REC_CPU_MAP:
		fputs(": ", f);
		if (cpu_map(f, ev->data + 8, ev->size - 8u))
			fputs("failed to get cpumap from event\n", f);
		return 1;
	case PTD_REC_EVENT_UPDATE:
		event_update(f, ev);
		return 1;
	case PTD_REC_STAT_CONFIG:
		stat_config(f, ev);
		return 1;
	case PTD_REC_STAT:
		/* id, cpu (u32), thread (u32), val, ena, run */
		fprintf(f, "\n... id %" PRIu64 ", cpu %d, thread %d\n", at(ev, 8),
			ev->size >= 24 ? (int)ptd_load_u32(ev->data + 16) : 0,
			ev->size >= 24 ? (int)ptd_load_u32(ev->data + 20) : 0);
		fprintf(f, "... value %" PRIu64 ", enabled %" PRIu64 ", running %" PRIu64 "\n",
			at(ev, 24), at(ev, 32), at(ev, 40));
		return 1;
	case PTD_REC_STAT_ROUND:
		fprintf(f, "\n... time %" PRIu64 ", type %s\n", at(ev, 16),
			at(ev, 8) == 1 ? "FINAL" : "INTERVAL");
		return 1;
	case PTD_REC_TIME_CONV:
		fprintf(f, "\n... Time Shift      %" PRIu64 "\n", at(ev, 8));
		fprintf(f, "... Time Muliplier  %" PRIu64 "\n", at(ev, 16));   /* sic, as perf */
		fprintf(f, "... Time Zero       %" PRIu64 "\n", at(ev, 24));
		if (ev->size > 32) {
			fprintf(f, "... Time Cycles     %" PRIu64 "\n", at(ev, 32));
			fprintf(f, "... Time Mask       %#" PRIx64 "\n", at(ev, 40));
			fprintf(f, "... Cap Time Zero   %d\n", ev->size > 48 ? ev->data[48] : 0);
			fprintf(f, "... Cap Time Short  %d\n", ev->size > 49 ? ev->data[49] : 0);
		}
		return 1;
	case PTD_REC_AUXTRACE_INFO:
		fprintf(f, " type: %u\n", ev->size >= 12 ? ptd_load_u32(ev->data + 8) : 0);
		return 1;
	default:
		(void)s;
		return 0;
	}
}
