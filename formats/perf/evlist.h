/* Event attributes (perf_event_attr) of a recording, the sample ids that map
 * records to them, and parsing of the sample_id trailer that sample_id_all
 * appends to every non-sample record. */
#ifndef PTD_PERF_EVLIST_H
#define PTD_PERF_EVLIST_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "common/u64map.h"
#include "common/vec.h"

struct ptd_evsel {
	int idx;                 /* position in the evlist */
	uint32_t type;           /* attr.type: PMU type */
	uint32_t attr_size;      /* attr.size as recorded */
	uint64_t config, config1, config2;
	uint64_t sample_period;
	uint64_t sample_type;    /* PTD_SAMPLE_* */
	uint64_t read_format;    /* PTD_FORMAT_* */
	uint64_t flags;          /* the attr bit-field word */
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint64_t sample_regs_intr;
	uint32_t sample_stack_user;
	uint32_t aux_sample_size;
	int sample_id_all;       /* attr.sample_id_all */
	char *name;              /* from EVENT_DESC or EVENT_UPDATE; may be NULL */
	uint64_t *ids;           /* owned */
	size_t nr_ids;
	size_t id_hdr_size;      /* bytes of the sample_id trailer */
};

/* attr.flags bits we look at */
#define PTD_ATTR_FREQ          (1ULL << 10)
#define PTD_ATTR_SAMPLE_ID_ALL (1ULL << 18)
#define PTD_ATTR_MMAP2         (1ULL << 23)
#define PTD_ATTR_CONTEXT_SWITCH (1ULL << 26)

/* The fields of a sample_id trailer or of a SAMPLE record that identify
 * where and when.  `have` says which were present (PTD_SAMPLE_* bits). */
struct ptd_sample_id {
	uint64_t have;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
};

struct ptd_evlist {
	struct ptd_vec evsels;      /* struct ptd_evsel * */
	struct ptd_u64map idmap;    /* sample id -> struct ptd_evsel */
	int id_pos;                 /* u64 index of the id in a SAMPLE, -1 none */
	int is_pos;                 /* u64 index of the id from a trailer's end, -1 none */
};

void ptd_evlist_init(struct ptd_evlist *el);
void ptd_evlist_fini(struct ptd_evlist *el);

/* Parse one perf_event_attr of attr_size bytes (any perf version: at least
 * 64 bytes) and append it.  ids are copied.  On success *out (if non-NULL)
 * is the new evsel, owned by the evlist. */
int ptd_evlist_add(struct ptd_evlist *el, const uint8_t *attr, size_t attr_size,
		   const uint64_t *ids, size_t nr_ids, struct ptd_evsel **out,
		   struct ptd_err *err);

/* Attach more sample ids to an evsel (EVENT_DESC / HEADER_ATTR). */
int ptd_evlist_add_ids(struct ptd_evlist *el, struct ptd_evsel *ev,
		       const uint64_t *ids, size_t nr_ids, struct ptd_err *err);

/* Evsel with a given sample id, or NULL. */
struct ptd_evsel *ptd_evlist_by_id(const struct ptd_evlist *el, uint64_t id);

/* The evsel a record belongs to: for SAMPLE records (is_sample) from the id
 * at id_pos, otherwise from the trailer.  With a single evsel, or id 0
 * (records perf synthesized), the first one.
 * Returns NULL when the id is unknown or the record is too short. */
struct ptd_evsel *ptd_evlist_for_record(const struct ptd_evlist *el,
					const uint8_t *rec, size_t size,
					int is_sample);

/* Parse the sample_id trailer at the end of a non-sample record of `size`
 * bytes (header included).  Returns 0, or -PTD_E_FORMAT when the record is
 * too short for the trailer. */
int ptd_parse_sample_id(const struct ptd_evsel *ev, const uint8_t *rec,
			size_t size, struct ptd_sample_id *sid);

#endif
