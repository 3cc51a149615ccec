/* PERF_RECORD_SAMPLE parsed by the attr's sample_type. */
#ifndef PTD_PERF_SAMPLE_H
#define PTD_PERF_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "formats/perf/evlist.h"

struct ptd_branch_entry {
	uint64_t from, to, flags;
};

/* Pointers point into the record and are borrowed from it. */
struct ptd_sample {
	uint64_t type;               /* sample_type the record was parsed with */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t id, stream_id;
	uint32_t cpu;
	uint64_t period;
	const uint8_t *read; size_t read_size;       /* raw read_format values */
	uint64_t nr_callchain; const uint8_t *callchain;   /* nr u64 ips */
	uint32_t raw_size; const uint8_t *raw;
	uint64_t nr_branch; int has_hw_idx; uint64_t hw_idx;
	const uint8_t *branches;     /* nr_branch x 24 bytes (from, to, flags) */
	uint64_t user_regs_abi; const uint8_t *user_regs; size_t nr_user_regs;
	uint64_t user_stack_size; const uint8_t *user_stack; uint64_t user_stack_dyn_size;
	uint64_t weight;
	uint64_t data_src;
	uint64_t transaction;
	uint64_t intr_regs_abi; const uint8_t *intr_regs; size_t nr_intr_regs;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size, code_page_size;
	uint64_t aux_size; const uint8_t *aux;
};

/* Parse a whole SAMPLE record (header included) of `size` bytes.
 * Returns 0 or -PTD_E_FORMAT (message in err) when a field runs past the
 * record or a count is impossible. */
int ptd_sample_parse(const struct ptd_evsel *ev, const uint8_t *rec, size_t size,
		     struct ptd_sample *s, struct ptd_err *err);

#endif
