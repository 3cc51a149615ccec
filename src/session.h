/* A session: one perf.data file read through once, building the sideband
 * model (machine), the AUX queues and the record counts, and lending each
 * record to an optional observer (--dump) as it goes.
 *
 * Records are counted as they are read, and taken in (and shown to the
 * observer) in time order as perf does it (ordered.h): perf-written records
 * and records without a timestamp at once, the others a round later. */
#ifndef PTD_SESSION_H
#define PTD_SESSION_H

#include <stdint.h>

#include "auxqueue.h"
#include "common/err.h"
#include "formats/perf/reader.h"
#include "machine.h"
#include "tsc.h"

#define PTD_NR_TYPES 256

struct ptd_session_stats {
	uint64_t nr[PTD_NR_TYPES];  /* records by type (types >= 256 in nr_unknown) */
	uint64_t nr_total;
	uint64_t nr_unknown;        /* types ptdecode does not know */
	uint64_t nr_compressed_inner;   /* records that came out of COMPRESSED ones */
	uint64_t nr_bad;            /* records whose contents could not be parsed */
	uint64_t *nr_samples;       /* per evsel index: samples delivered (see below) */
	uint64_t *nr_lost_samples;  /* per evsel index: sum of LOST_SAMPLES' lost */
	size_t nr_evsels;
	uint64_t first_time, last_time;   /* range of sample/sample_id times; 0 if none */
	uint64_t auxtrace_bytes;
};

struct ptd_auxtrace_info {
	int present;
	uint32_t type;              /* PTD_AUXTRACE_* */
	uint64_t *priv;             /* owned copy */
	uint64_t nr_priv;
	uint64_t file_offset;
};

/* A PERF_RECORD_AUX_OUTPUT_HW_ID: the hardware ID (CoreSight: the trace
 * ID) a CPU's AUX data carries */
struct ptd_hw_id {
	int32_t cpu;                /* from the sample ID; -1 when it has none */
	uint64_t hw_id;
	uint64_t file_offset;
};

struct ptd_session {
	struct ptd_reader *reader;
	struct ptd_machine machine;
	struct ptd_auxq auxq;
	struct ptd_auxtrace_info auxinfo;
	struct ptd_vec hw_ids;      /* struct ptd_hw_id, in delivery order */
	int have_time_conv;
	struct ptd_time_conv time_conv;
	struct ptd_session_stats stats;
	/* How many times the current SAMPLE is handed on, as perf delivers it:
	 * once, or with PERF_SAMPLE_READ once per counter whose value changed
	 * since its previous sample; 0 for an unknown id.  Valid during the
	 * on_record call of a SAMPLE. */
	unsigned cur_deliveries;
	struct ptd_u64map read_prev;   /* sample id -> last counter value (u64 *) */
};

/* Called for every record in delivery order, after the session took it in.
 * A non-zero return stops the walk and is returned by ptd_session_run. */
typedef int (*ptd_record_fn)(void *ctx, struct ptd_session *s, const struct ptd_event *ev);

struct ptd_session_opts {
	int keep_payloads;          /* pipe mode: keep AUX payloads for decoding */
	ptd_record_fn on_record;
	void *ctx;
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
	/* each kernel map before the machine takes it (may change it) */
	void (*kernel_map)(void *ctx, struct ptd_map *map);
	void *kernel_ctx;
};

/* Open the file and read its header.  Returns 0 or a negative error. */
int ptd_session_open(struct ptd_session **out, const char *path,
		     const struct ptd_session_opts *opts, struct ptd_err *err);

/* Read every record, then match AUX data.  Returns 0, a negative error, or
 * the observer's non-zero value. */
int ptd_session_run(struct ptd_session *s, struct ptd_err *err);

void ptd_session_close(struct ptd_session *s);   /* NULL-safe */

#endif
