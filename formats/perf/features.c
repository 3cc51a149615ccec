#include "formats/perf/features.h"

#include <stdlib.h>
#include <string.h>

#include "formats/perf/abi.h"
#include "formats/perf/cursor.h"

#define MAX_STRINGS (1u << 20)

static void free_cmdline(struct ptd_features *f)
{
	uint32_t i;

	for (i = 0; i < f->nr_cmdline; i++)
		free(f->cmdline[i]);
	free(f->cmdline);
	f->cmdline = NULL;
	f->nr_cmdline = 0;
}

static void free_pmus(struct ptd_features *f)
{
	uint32_t i;

	for (i = 0; i < f->nr_pmus; i++)
		free(f->pmus[i].name);
	free(f->pmus);
	f->pmus = NULL;
	f->nr_pmus = 0;
}

void ptd_features_fini(struct ptd_features *f)
{
	size_t i;

	free(f->hostname); free(f->osrelease); free(f->version);
	free(f->arch); free(f->cpudesc); free(f->cpuid);
	free_cmdline(f);
	free_pmus(f);
	for (i = 0; i < f->nr_buildids; i++)
		free(f->buildids[i].filename);
	free(f->buildids);
	free(f->auxtrace_index);
	memset(f, 0, sizeof(*f));
}

/* perf's do_read_string: u32 len (padded length), then len bytes holding a
 * NUL-terminated string.  Returns a malloc'd copy or NULL (cursor bad). */
static char *read_string(struct ptd_cursor *c)
{
	uint32_t len = ptd_cur_u32(c);
	const uint8_t *p = ptd_cur_take(c, len);
	char *s;

	if (!p)
		return NULL;
	s = malloc((size_t)len + 1);
	if (!s) {
		c->bad = 1;
		return NULL;
	}
	memcpy(s, p, len);
	s[len] = '\0';
	return s;
}

static int parse_string(char **dst, struct ptd_cursor *c)
{
	free(*dst);
	*dst = read_string(c);
	return *dst ? 0 : -1;
}

/* a feature given again (pipe mode can) replaces the earlier one */
static int parse_cmdline(struct ptd_features *f, struct ptd_cursor *c)
{
	uint32_t nr = ptd_cur_u32(c), i;

	free_cmdline(f);
	if (c->bad || nr > MAX_STRINGS || nr > ptd_cur_left(c) / 4)
		return -1;
	f->cmdline = calloc(nr ? nr : 1, sizeof(char *));
	if (!f->cmdline)
		return -1;
	for (i = 0; i < nr; i++) {
		f->cmdline[i] = read_string(c);
		if (!f->cmdline[i])
			return -1;
		f->nr_cmdline = i + 1;
	}
	return 0;
}

static int parse_pmu_mappings(struct ptd_features *f, struct ptd_cursor *c)
{
	uint32_t nr = ptd_cur_u32(c), i;

	free_pmus(f);
	if (c->bad || nr > MAX_STRINGS || nr > ptd_cur_left(c) / 8)
		return -1;
	f->pmus = calloc(nr ? nr : 1, sizeof(*f->pmus));
	if (!f->pmus)
		return -1;
	for (i = 0; i < nr; i++) {
		f->pmus[i].type = ptd_cur_u32(c);
		f->pmus[i].name = read_string(c);
		if (!f->pmus[i].name)
			return -1;
		f->nr_pmus = i + 1;
	}
	return 0;
}

/* A sequence of build_id records: header, s32 pid, 24 bytes of id (the
 * last 4: size, reserved), NUL-padded file name, each header.size long. */
static int parse_build_ids(struct ptd_features *f, struct ptd_cursor *c)
{
	while (ptd_cur_left(c) >= 8) {
		struct ptd_cursor rc;
		const uint8_t *rec;
		uint16_t misc, size;
		struct ptd_buildid *b;
		const char *name;

		rec = c->p + c->pos;
		misc = (uint16_t)(ptd_load_u32(rec) >> 16);
		size = (uint16_t)(ptd_load_u32(rec + 4) >> 16);
		if (size < 8 + 4 + 24 || !ptd_cur_take(c, size))
			return -1;
		/* capacity is the next power of two >= 16: grow at those sizes */
		if (f->nr_buildids < 16 ? !f->buildids
		    : !(f->nr_buildids & (f->nr_buildids - 1))) {
			size_t ncap = f->nr_buildids < 16 ? 16 : f->nr_buildids * 2;
			void *n;

			if (ncap > MAX_STRINGS)
				return -1;
			n = realloc(f->buildids, ncap * sizeof(*b));
			if (!n)
				return -1;
			f->buildids = n;
		}
		b = &f->buildids[f->nr_buildids];
		memset(b, 0, sizeof(*b));
		ptd_cur_init(&rc, rec + 8, size - 8u);
		b->misc = misc;
		b->pid = (int32_t)ptd_cur_u32(&rc);
		memcpy(b->id, ptd_cur_take(&rc, 20), 20);
		b->size = ptd_cur_u8(&rc);
		ptd_cur_take(&rc, 3);
		if (!(misc & PTD_MISC_BUILD_ID_SIZE) || b->size == 0 || b->size > 20)
			b->size = 20;
		name = (const char *)rc.p + rc.pos;
		b->filename = strndup(name, ptd_cur_left(&rc));
		if (!b->filename)
			return -1;
		f->nr_buildids++;
	}
	return 0;
}

/* perf writes u64 nr then nr x {file_offset, size}; Android's simpleperf
 * writes the entries alone */
static int parse_auxtrace(struct ptd_features *f, struct ptd_cursor *c)
{
	uint64_t nr = ptd_cur_u64(c), i;

	if (!c->bad && nr != ptd_cur_left(c) / 16 && c->len % 16 == 0) {
		c->pos = 0;
		nr = c->len / 16;
	}
	if (c->bad || nr > ptd_cur_left(c) / 16)
		return -1;
	free(f->auxtrace_index);
	f->auxtrace_index = calloc(nr ? nr : 1, sizeof(*f->auxtrace_index));
	if (!f->auxtrace_index)
		return -1;
	for (i = 0; i < nr; i++) {
		f->auxtrace_index[i].file_offset = ptd_cur_u64(c);
		f->auxtrace_index[i].size = ptd_cur_u64(c);
	}
	f->nr_auxtrace_index = nr;
	return 0;
}

/* EVENT_DESC: u32 nr, u32 attr_size, then nr x {attr, u32 nr_ids,
 * string name, u64 ids[nr_ids]}.  Names go to the evsel owning the ids. */
static int parse_event_desc(struct ptd_cursor *c, struct ptd_evlist *el)
{
	uint32_t nr = ptd_cur_u32(c), attr_size = ptd_cur_u32(c), i, j;

	if (c->bad || attr_size < PTD_ATTR_SIZE_VER0 || nr > ptd_cur_left(c) / attr_size)
		return -1;
	for (i = 0; i < nr; i++) {
		uint32_t nr_ids;
		char *name;
		struct ptd_evsel *ev = NULL;

		ptd_cur_take(c, attr_size);
		nr_ids = ptd_cur_u32(c);
		name = read_string(c);
		if (!name)
			return -1;
		if (nr_ids > ptd_cur_left(c) / 8) {
			free(name);
			return -1;
		}
		for (j = 0; j < nr_ids; j++) {
			uint64_t id = ptd_cur_u64(c);

			if (!ev)
				ev = ptd_evlist_by_id(el, id);
		}
		if (!ev && i < el->evsels.len)
			ev = *(struct ptd_evsel **)ptd_vec_at(&el->evsels, i);
		if (ev && !ev->name)
			ev->name = name;
		else
			free(name);
	}
	return 0;
}

int ptd_features_parse(struct ptd_features *f, unsigned bit, const uint8_t *p,
		       size_t len, struct ptd_evlist *el, struct ptd_err *err)
{
	struct ptd_cursor c;
	int rc = 0;

	if (bit >= PTD_FEAT_BITS)
		return 0;
	f->bitmap[bit / 64] |= 1ULL << (bit % 64);
	ptd_cur_init(&c, p, len);
	switch (bit) {
	case PTD_FEAT_HOSTNAME: rc = parse_string(&f->hostname, &c); break;
	case PTD_FEAT_OSRELEASE: rc = parse_string(&f->osrelease, &c); break;
	case PTD_FEAT_VERSION: rc = parse_string(&f->version, &c); break;
	case PTD_FEAT_ARCH: rc = parse_string(&f->arch, &c); break;
	case PTD_FEAT_CPUDESC: rc = parse_string(&f->cpudesc, &c); break;
	case PTD_FEAT_CPUID: rc = parse_string(&f->cpuid, &c); break;
	case PTD_FEAT_NRCPUS:
		f->nr_cpus_avail = ptd_cur_u32(&c);
		f->nr_cpus_online = ptd_cur_u32(&c);
		f->have_nrcpus = !c.bad;
		rc = c.bad ? -1 : 0;
		break;
	case PTD_FEAT_TOTAL_MEM:
		f->total_mem = ptd_cur_u64(&c);
		rc = c.bad ? -1 : 0;
		break;
	case PTD_FEAT_SAMPLE_TIME:
		f->first_sample_time = ptd_cur_u64(&c);
		f->last_sample_time = ptd_cur_u64(&c);
		rc = c.bad ? -1 : 0;
		break;
	case PTD_FEAT_CMDLINE: rc = parse_cmdline(f, &c); break;
	case PTD_FEAT_PMU_MAPPINGS: rc = parse_pmu_mappings(f, &c); break;
	case PTD_FEAT_BUILD_ID: rc = parse_build_ids(f, &c); break;
	case PTD_FEAT_AUXTRACE: rc = parse_auxtrace(f, &c); break;
	case PTD_FEAT_EVENT_DESC: rc = el ? parse_event_desc(&c, el) : 0; break;
	case PTD_FEAT_COMPRESSED:
		f->comp_version = ptd_cur_u32(&c);
		f->comp_type = ptd_cur_u32(&c);
		f->comp_level = ptd_cur_u32(&c);
		f->comp_ratio = ptd_cur_u32(&c);
		f->comp_mmap_len = ptd_cur_u32(&c);
		f->have_compressed = !c.bad;
		rc = c.bad ? -1 : 0;
		break;
	default:
		break;
	}
	if (rc || c.bad) {
		const char *n = ptd_feat_name(bit);

		return ptd_err_set(err, PTD_E_FORMAT, "feature %s (%u): malformed or truncated (%zu bytes)",
				   n ? n : "?", bit, len);
	}
	return 0;
}

const char *ptd_features_pmu_name(const struct ptd_features *f, uint32_t type)
{
	uint32_t i;

	for (i = 0; i < f->nr_pmus; i++)
		if (f->pmus[i].type == type)
			return f->pmus[i].name;
	return NULL;
}
