/* Header features of a perf.data file (file mode: sections after the data;
 * pipe mode: HEADER_FEATURE records).  Only the features ptdecode uses are
 * parsed; the rest are remembered as present and skipped. */
#ifndef PTD_PERF_FEATURES_H
#define PTD_PERF_FEATURES_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "formats/perf/evlist.h"

struct ptd_pmu_mapping {
	uint32_t type;
	char *name;
};

struct ptd_buildid {
	int32_t pid;
	uint16_t misc;           /* cpumode of the dso */
	uint8_t size;            /* bytes of id used (20 when unknown) */
	uint8_t id[20];
	char *filename;
};

struct ptd_auxtrace_index_entry {
	uint64_t file_offset;    /* of the AUXTRACE record */
	uint64_t size;           /* record + payload */
};

struct ptd_features {
	uint64_t bitmap[4];      /* feature bits present (file header or records seen) */
	char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	int have_nrcpus;
	uint32_t nr_cpus_avail, nr_cpus_online;
	uint64_t total_mem;      /* kB */
	uint64_t first_sample_time, last_sample_time;   /* SAMPLE_TIME, 0 when absent */
	char **cmdline; uint32_t nr_cmdline;
	struct ptd_pmu_mapping *pmus; uint32_t nr_pmus;
	struct ptd_buildid *buildids; size_t nr_buildids;
	struct ptd_auxtrace_index_entry *auxtrace_index; size_t nr_auxtrace_index;
	int have_compressed;
	uint32_t comp_version, comp_type, comp_level, comp_ratio, comp_mmap_len;
};

static inline int ptd_feat_has(const struct ptd_features *f, unsigned bit)
{
	return bit < 256 && (f->bitmap[bit / 64] >> (bit % 64)) & 1;
}

void ptd_features_fini(struct ptd_features *f);

/* Parse the body of feature `bit` (len bytes).  EVENT_DESC names are given
 * to the evlist's evsels.  Unknown features are accepted and ignored.
 * Returns 0 or a negative error with a message naming the feature. */
int ptd_features_parse(struct ptd_features *f, unsigned bit, const uint8_t *p,
		       size_t len, struct ptd_evlist *el, struct ptd_err *err);

/* Name of the PMU with perf_event_attr.type `type`, or NULL. */
const char *ptd_features_pmu_name(const struct ptd_features *f, uint32_t type);

#endif
