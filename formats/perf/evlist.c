#include "formats/perf/evlist.h"

#include <stdlib.h>
#include <string.h>

#include "formats/perf/abi.h"
#include "formats/perf/cursor.h"

/* perf accepts at most this many ids per attr; more is hostile */
#define MAX_IDS_PER_ATTR (1u << 20)
#define MAX_EVSELS 4096

void ptd_evlist_init(struct ptd_evlist *el)
{
	memset(el, 0, sizeof(*el));
	el->evsels.elsize = sizeof(struct ptd_evsel *);
	el->evsels.limit = MAX_EVSELS;
	el->id_pos = el->is_pos = -1;
}

void ptd_evlist_fini(struct ptd_evlist *el)
{
	size_t i;

	for (i = 0; i < el->evsels.len; i++) {
		struct ptd_evsel *ev = *(struct ptd_evsel **)ptd_vec_at(&el->evsels, i);

		free(ev->ids);
		free(ev->name);
		free(ev);
	}
	ptd_vec_fini(&el->evsels);
	ptd_u64map_fini(&el->idmap);
	memset(el, 0, sizeof(*el));
}

struct ptd_evsel *ptd_evlist_by_id(const struct ptd_evlist *el, uint64_t id)
{
	return ptd_u64map_get(&el->idmap, id);
}

static int popcount64(uint64_t v)
{
	return __builtin_popcountll(v);
}

/* perf's evsel__calc_id_pos */
static void calc_id_pos(uint64_t st, int *id_pos, int *is_pos)
{
	*id_pos = *is_pos = -1;
	if (st & PTD_SAMPLE_IDENTIFIER) {
		*id_pos = 0;
		*is_pos = 1;
		return;
	}
	if (st & PTD_SAMPLE_ID) {
		*id_pos = popcount64(st & (PTD_SAMPLE_IP | PTD_SAMPLE_TID |
					  PTD_SAMPLE_TIME | PTD_SAMPLE_ADDR));
		*is_pos = 1 + popcount64(st & (PTD_SAMPLE_CPU | PTD_SAMPLE_STREAM_ID));
	}
}

static size_t calc_id_hdr_size(uint64_t st)
{
	size_t n = 0;

	if (st & PTD_SAMPLE_TID)
		n += 8;
	if (st & PTD_SAMPLE_TIME)
		n += 8;
	if (st & PTD_SAMPLE_ID)
		n += 8;
	if (st & PTD_SAMPLE_STREAM_ID)
		n += 8;
	if (st & PTD_SAMPLE_CPU)
		n += 8;
	if (st & PTD_SAMPLE_IDENTIFIER)
		n += 8;
	return n;
}

int ptd_evlist_add_ids(struct ptd_evlist *el, struct ptd_evsel *ev,
		       const uint64_t *ids, size_t nr_ids, struct ptd_err *err)
{
	uint64_t *nids;
	size_t i;

	if (!nr_ids)
		return 0;
	if (nr_ids > MAX_IDS_PER_ATTR || ev->nr_ids + nr_ids > MAX_IDS_PER_ATTR)
		return ptd_err_set(err, PTD_E_LIMIT, "%zu sample ids for one event (limit %u)",
				   ev->nr_ids + nr_ids, MAX_IDS_PER_ATTR);
	nids = realloc(ev->ids, (ev->nr_ids + nr_ids) * sizeof(*nids));
	if (!nids)
		return ptd_err_set(err, PTD_E_NOMEM, "sample ids");
	ev->ids = nids;
	for (i = 0; i < nr_ids; i++) {
		uint64_t id;

		memcpy(&id, &ids[i], 8);   /* ids may be unaligned */
		ev->ids[ev->nr_ids++] = id;
		if (ptd_u64map_put(&el->idmap, id, ev))
			return ptd_err_set(err, PTD_E_NOMEM, "sample id map");
	}
	return 0;
}

int ptd_evlist_add(struct ptd_evlist *el, const uint8_t *attr, size_t attr_size,
		   const uint64_t *ids, size_t nr_ids, struct ptd_evsel **out,
		   struct ptd_err *err)
{
	struct ptd_evsel *ev, **slot;
	uint8_t a[136];   /* PERF_ATTR_SIZE_VER8; newer fields are ignored */
	struct ptd_cursor c;
	int id_pos, is_pos;

	if (attr_size < PTD_ATTR_SIZE_VER0)
		return ptd_err_set(err, PTD_E_FORMAT, "perf_event_attr of %zu bytes (at least %d expected)",
				   attr_size, PTD_ATTR_SIZE_VER0);
	memset(a, 0, sizeof(a));
	memcpy(a, attr, attr_size < sizeof(a) ? attr_size : sizeof(a));
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return ptd_err_set(err, PTD_E_NOMEM, "evsel");
	ptd_cur_init(&c, a, sizeof(a));
	ev->type = ptd_cur_u32(&c);
	ev->attr_size = ptd_cur_u32(&c);
	ev->config = ptd_cur_u64(&c);
	ev->sample_period = ptd_cur_u64(&c);
	ev->sample_type = ptd_cur_u64(&c);
	ev->read_format = ptd_cur_u64(&c);
	ev->flags = ptd_cur_u64(&c);
	ptd_cur_u32(&c);              /* wakeup_events */
	ptd_cur_u32(&c);              /* bp_type */
	ev->config1 = ptd_cur_u64(&c);
	ev->config2 = ptd_cur_u64(&c);
	ev->branch_sample_type = ptd_cur_u64(&c);
	ev->sample_regs_user = ptd_cur_u64(&c);
	ev->sample_stack_user = ptd_cur_u32(&c);
	ptd_cur_u32(&c);              /* clockid */
	ev->sample_regs_intr = ptd_cur_u64(&c);
	ptd_cur_u32(&c);              /* aux_watermark */
	ptd_cur_u32(&c);              /* sample_max_stack, reserved */
	ev->aux_sample_size = ptd_cur_u32(&c);
	ev->sample_id_all = !!(ev->flags & PTD_ATTR_SAMPLE_ID_ALL);
	ev->id_hdr_size = ev->sample_id_all ? calc_id_hdr_size(ev->sample_type) : 0;

	slot = ptd_vec_push(&el->evsels);
	if (!slot) {
		free(ev);
		return ptd_err_set(err, PTD_E_LIMIT, "more than %d event attributes", MAX_EVSELS);
	}
	*slot = ev;
	ev->idx = (int)el->evsels.len - 1;
	calc_id_pos(ev->sample_type, &id_pos, &is_pos);
	if (ev->idx == 0) {
		el->id_pos = id_pos;
		el->is_pos = is_pos;
	}
	if (ptd_evlist_add_ids(el, ev, ids, nr_ids, err))
		return -err->code;
	if (out)
		*out = ev;
	return 0;
}

struct ptd_evsel *ptd_evlist_for_record(const struct ptd_evlist *el,
					const uint8_t *rec, size_t size,
					int is_sample)
{
	struct ptd_evsel *first;
	size_t words;
	uint64_t id;

	if (!el->evsels.len)
		return NULL;
	first = *(struct ptd_evsel **)ptd_vec_at(&el->evsels, 0);
	if (el->evsels.len == 1)
		return first;
	if (size < 8)
		return NULL;
	words = (size - 8) / 8;
	if (is_sample) {
		if (el->id_pos < 0 || (size_t)el->id_pos >= words)
			return NULL;
		id = ptd_load_u64(rec + 8 + 8 * (size_t)el->id_pos);
	} else {
		if (!first->sample_id_all)
			return first;
		if (el->is_pos < 0 || (size_t)el->is_pos > words)
			return NULL;
		id = ptd_load_u64(rec + size - 8 * (size_t)el->is_pos);
	}
	if (!id)
		return first;   /* records perf synthesized carry id 0 */
	return ptd_evlist_by_id(el, id);
}

int ptd_parse_sample_id(const struct ptd_evsel *ev, const uint8_t *rec,
			size_t size, struct ptd_sample_id *sid)
{
	uint64_t st = ev ? ev->sample_type : 0;
	const uint8_t *p;

	memset(sid, 0, sizeof(*sid));
	sid->pid = sid->tid = (uint32_t)-1;
	sid->cpu = (uint32_t)-1;
	if (!ev || !ev->sample_id_all)
		return 0;
	if (size < 8 + ev->id_hdr_size)
		return -PTD_E_FORMAT;
	/* id_hdr_size is what the fields below take (calc_id_hdr_size) */
	p = rec + size - ev->id_hdr_size;
	if (st & PTD_SAMPLE_TID) {
		sid->pid = ptd_load_u32(p);
		sid->tid = ptd_load_u32(p + 4);
		p += 8;
	}
	if (st & PTD_SAMPLE_TIME)
		sid->time = ptd_load_u64(p), p += 8;
	if (st & PTD_SAMPLE_ID)
		sid->id = ptd_load_u64(p), p += 8;
	if (st & PTD_SAMPLE_STREAM_ID)
		sid->stream_id = ptd_load_u64(p), p += 8;
	if (st & PTD_SAMPLE_CPU)
		sid->cpu = ptd_load_u32(p), p += 8;
	if (st & PTD_SAMPLE_IDENTIFIER)
		sid->id = ptd_load_u64(p);
	sid->have = st & (PTD_SAMPLE_TID | PTD_SAMPLE_TIME | PTD_SAMPLE_ID |
			  PTD_SAMPLE_STREAM_ID | PTD_SAMPLE_CPU | PTD_SAMPLE_IDENTIFIER);
	return 0;
}
