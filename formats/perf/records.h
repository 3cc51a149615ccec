/* Typed views of the records ptdecode interprets.  Each parser checks the
 * record's size against the fields it reads and returns 0, or
 * -PTD_E_FORMAT with a message, never reading past the record.  Strings
 * point into the record (borrowed) and are NUL-terminated within it. */
#ifndef PTD_PERF_RECORDS_H
#define PTD_PERF_RECORDS_H

#include <stdint.h>

#include "common/err.h"
#include "formats/perf/reader.h"

struct ptd_rec_mmap {            /* MMAP and MMAP2 */
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	int mmap2;
	int has_build_id;            /* MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID */
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint8_t build_id_size;
	uint8_t build_id[20];
	uint32_t prot, flags;
	const char *filename;
};

struct ptd_rec_comm {
	uint32_t pid, tid;
	const char *comm;
	int exec;                    /* misc COMM_EXEC */
};

struct ptd_rec_fork {            /* FORK and EXIT */
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct ptd_rec_lost {            /* LOST: id, lost; LOST_SAMPLES: lost only */
	uint64_t id, lost;
};

struct ptd_rec_aux {
	uint64_t aux_offset, aux_size, flags;
};

struct ptd_rec_itrace_start {
	uint32_t pid, tid;
};

struct ptd_rec_switch {
	int out, preempt;            /* misc bits */
	int cpu_wide;
	uint32_t next_prev_pid, next_prev_tid;   /* SWITCH_CPU_WIDE only */
};

struct ptd_rec_text_poke {
	uint64_t addr;
	uint16_t old_len, new_len;
	const uint8_t *bytes;        /* old then new */
};

struct ptd_rec_auxtrace_info {
	uint32_t type;
	const uint8_t *priv;         /* nr_priv u64 values */
	uint64_t nr_priv;
};

struct ptd_rec_auxtrace {
	uint64_t size, offset, reference;
	uint32_t idx, tid, cpu;
};

struct ptd_rec_auxtrace_error {
	uint32_t type, code, cpu, pid, tid, fmt;
	uint64_t ip, time;
	const char *msg;
	int have_time;               /* fmt >= 1 */
	uint32_t machine_pid, vcpu;  /* fmt >= 2 */
};

struct ptd_rec_time_conv {
	uint64_t time_shift, time_mult, time_zero;
	uint64_t time_cycles, time_mask;
	uint8_t cap_user_time_zero, cap_user_time_short;
	int extended;                /* the record carries time_cycles and later fields */
};

int ptd_rec_mmap(const struct ptd_event *ev, struct ptd_rec_mmap *out, struct ptd_err *err);
int ptd_rec_comm(const struct ptd_event *ev, struct ptd_rec_comm *out, struct ptd_err *err);
int ptd_rec_fork(const struct ptd_event *ev, struct ptd_rec_fork *out, struct ptd_err *err);
int ptd_rec_lost(const struct ptd_event *ev, struct ptd_rec_lost *out, struct ptd_err *err);
int ptd_rec_aux(const struct ptd_event *ev, struct ptd_rec_aux *out, struct ptd_err *err);
int ptd_rec_itrace_start(const struct ptd_event *ev, struct ptd_rec_itrace_start *out, struct ptd_err *err);
int ptd_rec_switch(const struct ptd_event *ev, struct ptd_rec_switch *out, struct ptd_err *err);
int ptd_rec_text_poke(const struct ptd_event *ev, struct ptd_rec_text_poke *out, struct ptd_err *err);
int ptd_rec_aux_output_hw_id(const struct ptd_event *ev, uint64_t *hw_id, struct ptd_err *err);
int ptd_rec_auxtrace_info(const struct ptd_event *ev, struct ptd_rec_auxtrace_info *out, struct ptd_err *err);
int ptd_rec_auxtrace(const struct ptd_event *ev, struct ptd_rec_auxtrace *out, struct ptd_err *err);
int ptd_rec_auxtrace_error(const struct ptd_event *ev, struct ptd_rec_auxtrace_error *out, struct ptd_err *err);
int ptd_rec_time_conv(const struct ptd_event *ev, struct ptd_rec_time_conv *out, struct ptd_err *err);

/* Bytes of the record before its sample_id trailer. */
size_t ptd_rec_body_size(const struct ptd_event *ev);
/* A cursor over those bytes after the 8-byte header (none when there
 * are fewer). */
struct ptd_cursor;
void ptd_rec_body(const struct ptd_event *ev, struct ptd_cursor *c);

#endif
