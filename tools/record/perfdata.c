#include "config.h"
#include "tools/record/perfdata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "formats/perf/abi.h"
#include "formats/perf/recbuf.h"
#include "formats/perf/writer.h"
#include "tools/record/buildid.h"

#define MAX_BUILDIDS 4096
#define MAX_QUEUES 4096
#define ID_PT 1000000ULL       /* sample ids: event base + queue index */
#define ID_DUMMY 2000000ULL

struct bid {
	int32_t pid;
	int kernel;
	uint8_t size;
	uint8_t id[20];
	char *path;
};

struct ptd_pdw {
	struct ptd_pdw_config cfg;
	struct ptd_writer *w;
	uint64_t st;                   /* sample_type of both events */
	int32_t *queue_tid;            /* per-thread mode: the thread of each queue */
	unsigned nqueues;
	uint64_t index[2 * 8192];      /* AUXTRACE index: offset, size */
	unsigned nindex;
	struct bid bids[MAX_BUILDIDS];
	unsigned nbids;
	uint32_t ncpus_seen;
	uint64_t hw_id_sent[4];        /* CPUs whose AUX_OUTPUT_HW_ID is written */
};

uint64_t ptd_pdw_time(const struct ptd_pdw *w, uint64_t tsc)
{
	uint64_t quot = tsc >> w->cfg.time_shift;
	uint64_t rem = tsc & ((1ULL << w->cfg.time_shift) - 1);

	return w->cfg.time_zero + quot * w->cfg.time_mult +
	       ((rem * w->cfg.time_mult) >> w->cfg.time_shift);
}

static int emit(struct ptd_pdw *w, struct ptd_recbuf *rb, struct ptd_err *err)
{
	size_t n = ptd_rb_finish(rb);

	if (!n)
		return ptd_err_set(err, PTD_E_LIMIT, "record larger than 64 KiB");
	return ptd_writer_data(w->w, rb->buf, n, NULL, err);
}

/* which queue's ids a record on `cpu` for thread `tid` carries */
static int queue_of(struct ptd_pdw *w, int cpu, int32_t tid)
{
	unsigned i;

	if (!w->cfg.per_thread)
		return cpu;
	for (i = 0; i < w->nqueues; i++)
		if (w->queue_tid[i] == tid)
			return (int)i;
	return 0;
}

static void trailer(struct ptd_pdw *w, struct ptd_recbuf *rb, uint64_t base, int cpu,
		    uint64_t tsc, int32_t pid, int32_t tid)
{
	struct ptd_sample_id sid = {
		.pid = (uint32_t)pid, .tid = (uint32_t)tid, .time = ptd_pdw_time(w, tsc),
		.id = base + (uint64_t)queue_of(w, cpu, tid), .cpu = (uint32_t)cpu,
	};

	ptd_rb_sample_id(rb, w->st, &sid);
}

/* the kernel's CORESIGHT_ETM_PMU_SEED scheme (CORESIGHT_LEGACY_CPU_TRACE_ID) */
static uint8_t legacy_trace_id(int cpu)
{
	return (uint8_t)(0x10 + 2 * cpu);
}

uint8_t ptd_pdw_etm_trace_id(const struct ptd_pdw *w, int cpu)
{
	/* with AUX_OUTPUT_HW_ID, IDs the legacy scheme would not give, so
	 * that a reader has to take them from those records */
	return w->cfg.etm_hw_id ? (uint8_t)(0x41 + cpu) : legacy_trace_id(cpu);
}

/* AUXTRACE_INFO of cs_etm: perf's header (version 1, PMU type and CPU
 * count, snapshot) and each CPU's ETMv4 block: magic, cpu, the number of
 * parameters, TRCCONFIGR, TRCTRACEIDR and the ID registers of a
 * Cortex-A53's ETM (TRCIDR0: timestamps of 64 bits, COMMOPT 1; TRCIDR2:
 * 64-bit addresses, 32-bit context IDs, 8-bit VMIDs; TRCIDR8: no
 * speculation), TRCAUTHSTATUS */
static void etm_info(struct ptd_recbuf *rb, const struct ptd_pdw_config *cfg)
{
	unsigned i;

	ptd_rb_start(rb, PTD_REC_AUXTRACE_INFO, 0);
	ptd_rb_u32(rb, PTD_AUXTRACE_CS_ETM);
	ptd_rb_u32(rb, 0);
	ptd_rb_u64(rb, cfg->etm_hw_id ? 2 : 1);                   /* header version */
	ptd_rb_u64(rb, (uint64_t)PTD_ETM_PMU_TYPE << 32 | cfg->ncpus);
	ptd_rb_u64(rb, 0);                                        /* snapshot */
	for (i = 0; i < cfg->ncpus; i++) {
		ptd_rb_u64(rb, 0x4040404040404040ULL);            /* ETMv4 magic */
		ptd_rb_u64(rb, i);
		ptd_rb_u64(rb, 7);
		ptd_rb_u64(rb, (cfg->etm_ctxtid ? PTD_ETM4_CFG_CTXTID : 0) |
			       (cfg->etm_ts ? PTD_ETM4_CFG_TS : 0));
		ptd_rb_u64(rb, legacy_trace_id((int)i) |
			       (cfg->etm_hw_id ? 1ULL << 31 : 0));       /* CORESIGHT_TRACE_ID_UNUSED_FLAG */
		ptd_rb_u64(rb, 0x28000ea1);                       /* TRCIDR0 */
		ptd_rb_u64(rb, 0x4100f421);                       /* TRCIDR1 */
		ptd_rb_u64(rb, 0x00000488);                       /* TRCIDR2 */
		ptd_rb_u64(rb, 0);                                /* TRCIDR8 */
		ptd_rb_u64(rb, 0xcc);                             /* TRCAUTHSTATUS */
	}
}

/* perf_event_attr as perf record sets it for the two events */
static void make_attr(uint8_t a[128], const struct ptd_pdw *w, int pt)
{
	uint64_t v;
	uint32_t u;
	uint64_t flags = (1ULL << 0)   /* disabled */
		| (1ULL << 1)          /* inherit */
		| (w->cfg.kernel ? 0 : 1ULL << 5)   /* exclude_kernel */
		| (1ULL << 6)          /* exclude_hv */
		| (1ULL << 12)         /* enable_on_exec */
		| (1ULL << 18)         /* sample_id_all */
		| (1ULL << 20);        /* exclude_guest */

	memset(a, 0, 128);
	u = pt ? (w->cfg.etm ? PTD_ETM_PMU_TYPE : PTD_PT_PMU_TYPE) : 1;
	memcpy(a, &u, 4);
	u = 128;
	memcpy(a + 4, &u, 4);
	v = pt && w->cfg.etm ? (w->cfg.etm_ctxtid ? PTD_ETM_OPT_CTXTID : 0) |
			       (w->cfg.etm_ts ? PTD_ETM_OPT_TS : 0)
	    : pt ? (PTD_PT_CFG_PT | PTD_PT_CFG_BRANCH | (w->cfg.no_tsc ? 0 : PTD_PT_CFG_TSC) |
		  (w->cfg.ptw ? PTD_PT_CFG_PTW | PTD_PT_CFG_FUP_ON_PTW : 0) |
		  (w->cfg.pwr_evt ? PTD_PT_CFG_PWR_EVT : 0) |
		  ((uint64_t)w->cfg.psb_period_code << PTD_PT_CFG_PSB_SHIFT) |
		  (w->cfg.noretcomp ? PTD_PT_CFG_NORETCOMP : 0) |
		  (w->cfg.mtc ? PTD_PT_CFG_MTC | ((uint64_t)w->cfg.mtc_period << PTD_PT_CFG_MTC_SHIFT) : 0) |
		  (w->cfg.cyc ? PTD_PT_CFG_CYC : 0))
	       : 9;   /* PERF_COUNT_SW_DUMMY */
	memcpy(a + 8, &v, 8);
	v = 1;                                          /* sample_period */
	memcpy(a + 16, &v, 8);
	memcpy(a + 24, &w->st, 8);
	v = PTD_FORMAT_ID;
	memcpy(a + 32, &v, 8);
	/* the tracking event: mmap, comm, task, mmap2, comm_exec, and in
	 * per-CPU mode with timing, context_switch */
	if (!pt)
		flags |= (1ULL << 8) | (1ULL << 9) | (1ULL << 13) | (1ULL << 23) | (1ULL << 24) |
			 (w->cfg.per_thread || w->cfg.no_tsc || w->cfg.etm ? 0 : (1ULL << 26));
	memcpy(a + 40, &flags, 8);
}

int ptd_pdw_open(struct ptd_pdw **out, const char *path, const struct ptd_pdw_config *cfg,
		 struct ptd_err *err)
{
	struct ptd_pdw *w = calloc(1, sizeof(*w));
	struct ptd_recbuf rb;
	uint8_t attr[128];
	unsigned i;
	int rc;

	if (!w)
		return ptd_err_set(err, PTD_E_NOMEM, "perf.data writer");
	w->cfg = *cfg;
	w->st = PTD_SAMPLE_IP | PTD_SAMPLE_TID | PTD_SAMPLE_TIME | PTD_SAMPLE_IDENTIFIER |
		(cfg->per_thread && !(cfg->etm && cfg->etm_hw_id) ? 0 : PTD_SAMPLE_CPU);
	w->queue_tid = calloc(MAX_QUEUES, sizeof(*w->queue_tid));
	if (!w->queue_tid) {
		rc = ptd_err_set(err, PTD_E_NOMEM, "perf.data writer");
		goto fail;
	}
	if ((rc = ptd_writer_open(&w->w, path, err)))
		goto fail;
	for (i = 0; i < 2; i++) {
		make_attr(attr, w, i == 0);
		if ((rc = ptd_writer_attr(w->w, attr, sizeof(attr), NULL, 0, err)))
			goto fail;
	}
	if (!cfg->per_thread) {
		for (i = 0; i < cfg->ncpus; i++)
			if ((rc = ptd_writer_attr_id(w->w, 0, ID_PT + i, err)) ||
			    (rc = ptd_writer_attr_id(w->w, 1, ID_DUMMY + i, err)))
				goto fail;
		w->nqueues = cfg->ncpus;
	}

	/* what perf record writes first: the trace configuration, then time conversion */
	if (cfg->etm) {
		etm_info(&rb, cfg);
		if ((rc = emit(w, &rb, err)))
			goto fail;
		goto time_conv;
	}
	ptd_rb_start(&rb, PTD_REC_AUXTRACE_INFO, 0);
	ptd_rb_u32(&rb, PTD_AUXTRACE_INTEL_PT);
	ptd_rb_u32(&rb, 0);
	ptd_rb_u64(&rb, PTD_PT_PMU_TYPE);
	ptd_rb_u64(&rb, cfg->time_shift);
	ptd_rb_u64(&rb, cfg->time_mult);
	ptd_rb_u64(&rb, cfg->time_zero);
	ptd_rb_u64(&rb, 1);                        /* cap_user_time_zero */
	/* the tsc bit of the PMU's format whatever the config; have_sched_switch:
	 * cpu-wide switch events, only asked for in per-CPU mode with timing */
	ptd_rb_u64(&rb, PTD_PT_CFG_TSC);
	ptd_rb_u64(&rb, PTD_PT_CFG_NORETCOMP);
	ptd_rb_u64(&rb, cfg->per_thread || cfg->no_tsc ? 0 : 3);
	ptd_rb_u64(&rb, cfg->snapshot ? 1 : 0);
	ptd_rb_u64(&rb, cfg->per_thread ? 0 : 1);  /* per-cpu mmaps */
	ptd_rb_u64(&rb, 1ULL << 9);                /* mtc bit */
	ptd_rb_u64(&rb, 0xfULL << 14);             /* mtc_period bits */
	ptd_rb_u64(&rb, cfg->ctc_n);               /* TSC:CTC ratio n */
	ptd_rb_u64(&rb, cfg->ctc_d);               /* ... d */
	ptd_rb_u64(&rb, 1ULL << 1);                /* cyc bit */
	ptd_rb_u64(&rb, cfg->max_nonturbo_ratio);
	if (cfg->filter && *cfg->filter) {
		/* its length, then the string NUL-padded to 8 bytes */
		size_t n = strlen(cfg->filter), k;

		ptd_rb_u64(&rb, n);
		for (k = 0; k < (n + 1 + 7) / 8; k++) {
			uint8_t word[8] = { 0 };

			memcpy(word, cfg->filter + 8 * k, n - 8 * k < 8 ? n - 8 * k : 8);
			ptd_rb_bytes(&rb, word, 8);
		}
	} else {
		ptd_rb_u64(&rb, 0);                /* no address filter */
	}
	ptd_rb_u64(&rb, 0);                        /* event_trace */
	if ((rc = emit(w, &rb, err)))
		goto fail;
time_conv:
	ptd_rb_start(&rb, PTD_REC_TIME_CONV, 0);
	ptd_rb_u64(&rb, cfg->time_shift);
	ptd_rb_u64(&rb, cfg->time_mult);
	ptd_rb_u64(&rb, cfg->time_zero);
	ptd_rb_u64(&rb, 0);                        /* time_cycles */
	ptd_rb_u64(&rb, ~0ULL);                    /* time_mask */
	ptd_rb_u8(&rb, 1);                         /* cap_user_time_zero */
	ptd_rb_u8(&rb, 0);                         /* cap_user_time_short */
	ptd_rb_pad8(&rb);
	if ((rc = emit(w, &rb, err)))
		goto fail;
	*out = w;
	return 0;
fail:
	ptd_writer_close(w->w, NULL);
	free(w->queue_tid);
	free(w);
	return rc;
}

int ptd_pdw_thread_queue(struct ptd_pdw *w, int32_t tid, struct ptd_err *err)
{
	int rc;

	if (w->nqueues == MAX_QUEUES)
		return ptd_err_set(err, PTD_E_LIMIT, "more than %d threads", MAX_QUEUES);
	w->queue_tid[w->nqueues] = tid;
	if ((rc = ptd_writer_attr_id(w->w, 0, ID_PT + w->nqueues, err)) ||
	    (rc = ptd_writer_attr_id(w->w, 1, ID_DUMMY + w->nqueues, err)))
		return rc;
	return (int)w->nqueues++;
}

int ptd_pdw_comm(struct ptd_pdw *w, int cpu, uint64_t tsc, int32_t pid, int32_t tid,
		 const char *comm, int exec, struct ptd_err *err)
{
	struct ptd_recbuf rb;
	char name[16];

	snprintf(name, sizeof(name), "%s", comm);   /* TASK_COMM_LEN */
	ptd_rb_start(&rb, PTD_REC_COMM, exec ? PTD_MISC_COMM_EXEC : 0);
	ptd_rb_u32(&rb, (uint32_t)pid);
	ptd_rb_u32(&rb, (uint32_t)tid);
	ptd_rb_str(&rb, name);
	trailer(w, &rb, ID_DUMMY, cpu, tsc, pid, tid);
	return emit(w, &rb, err);
}

/* a HEADER_BUILD_ID entry for path (a file's, or the kernel's name) with
 * file's build id, once */
static int add_buildid(struct ptd_pdw *w, const char *path, const char *file, int kernel)
{
	struct bid *b;
	unsigned i;

	for (i = 0; i < w->nbids; i++)
		if (!strcmp(w->bids[i].path, path))
			return 0;
	if (w->nbids == MAX_BUILDIDS || (!kernel && path[0] != '/'))
		return 0;
	b = &w->bids[w->nbids];
	b->size = (uint8_t)ptd_buildid_read(file, b->id);
	if (!b->size)
		return 0;
	b->path = strdup(path);
	if (!b->path)
		return -PTD_E_NOMEM;
	b->pid = -1;   /* the host machine's, as perf record writes them */
	b->kernel = kernel;
	w->nbids++;
	return 0;
}

static const struct bid *find_buildid(const struct ptd_pdw *w, const char *path)
{
	unsigned i;

	for (i = 0; i < w->nbids; i++)
		if (!strcmp(w->bids[i].path, path))
			return &w->bids[i];
	return NULL;
}

int ptd_pdw_mmap(struct ptd_pdw *w, int cpu, uint64_t tsc, int32_t pid, int32_t tid,
		 const struct ptd_xmap *m, const char *file, struct ptd_err *err)
{
	struct ptd_recbuf rb;

	const struct bid *b;

	if (add_buildid(w, m->path, file ? file : m->path, 0))
		return ptd_err_set(err, PTD_E_NOMEM, "build ids");
	b = find_buildid(w, m->path);
	ptd_rb_start(&rb, PTD_REC_MMAP2, (uint16_t)(PTD_MISC_USER |
		     (w->cfg.buildid_mmap && b ? PTD_MISC_MMAP_BUILD_ID : 0)));
	ptd_rb_u32(&rb, (uint32_t)pid);
	ptd_rb_u32(&rb, (uint32_t)tid);
	ptd_rb_u64(&rb, m->start);
	ptd_rb_u64(&rb, m->len);
	ptd_rb_u64(&rb, m->pgoff);
	if (w->cfg.buildid_mmap && b) {
		uint8_t id[20] = { 0 };

		ptd_rb_u8(&rb, b->size);
		ptd_rb_u8(&rb, 0);
		ptd_rb_u16(&rb, 0);
		memcpy(id, b->id, b->size);
		ptd_rb_bytes(&rb, id, 20);
	} else {
		ptd_rb_u32(&rb, m->maj);
		ptd_rb_u32(&rb, m->min);
		ptd_rb_u64(&rb, m->ino);
		ptd_rb_u64(&rb, 0);    /* ino_generation */
	}
	ptd_rb_u32(&rb, m->prot);
	ptd_rb_u32(&rb, m->flags);
	ptd_rb_str(&rb, m->path);
	trailer(w, &rb, ID_DUMMY, cpu, tsc, pid, tid);
	return emit(w, &rb, err);
}

int ptd_pdw_kernel_mmap(struct ptd_pdw *w, uint64_t tsc, uint64_t start, uint64_t len,
			const char *file, struct ptd_err *err)
{
	struct ptd_recbuf rb;

	if (add_buildid(w, "[kernel.kallsyms]", file, 1))
		return ptd_err_set(err, PTD_E_NOMEM, "build ids");
	ptd_rb_start(&rb, PTD_REC_MMAP, PTD_MISC_KERNEL);
	ptd_rb_u32(&rb, UINT32_MAX);
	ptd_rb_u32(&rb, 0);
	ptd_rb_u64(&rb, start);
	ptd_rb_u64(&rb, len);
	ptd_rb_u64(&rb, start);
	ptd_rb_str(&rb, "[kernel.kallsyms]_text");
	trailer(w, &rb, ID_DUMMY, 0, tsc, -1, 0);
	return emit(w, &rb, err);
}

int ptd_pdw_fork(struct ptd_pdw *w, int cpu, uint64_t tsc, int32_t pid, int32_t ppid,
		 int32_t tid, int32_t ptid, int exit, struct ptd_err *err)
{
	struct ptd_recbuf rb;

	ptd_rb_start(&rb, exit ? PTD_REC_EXIT : PTD_REC_FORK, 0);
	ptd_rb_u32(&rb, (uint32_t)pid);
	ptd_rb_u32(&rb, (uint32_t)ppid);
	ptd_rb_u32(&rb, (uint32_t)tid);
	ptd_rb_u32(&rb, (uint32_t)ptid);
	ptd_rb_u64(&rb, ptd_pdw_time(w, tsc));
	trailer(w, &rb, ID_DUMMY, cpu, tsc, exit ? pid : ppid, exit ? tid : ptid);
	return emit(w, &rb, err);
}

int ptd_pdw_itrace_start(struct ptd_pdw *w, int cpu, uint64_t tsc, int32_t pid, int32_t tid,
			 struct ptd_err *err)
{
	struct ptd_recbuf rb;

	int rc;

	ptd_rb_start(&rb, PTD_REC_ITRACE_START, 0);
	ptd_rb_u32(&rb, (uint32_t)pid);
	ptd_rb_u32(&rb, (uint32_t)tid);
	trailer(w, &rb, ID_PT, cpu, tsc, pid, tid);
	rc = emit(w, &rb, err);
	/* the kernel's etm_event_start: the CPU's trace ID, once (version 0) */
	if (!rc && w->cfg.etm && w->cfg.etm_hw_id && cpu >= 0 && cpu < 256 &&
	    !(w->hw_id_sent[cpu / 64] >> (cpu % 64) & 1)) {
		w->hw_id_sent[cpu / 64] |= 1ULL << (cpu % 64);
		ptd_rb_start(&rb, PTD_REC_AUX_OUTPUT_HW_ID, 0);
		ptd_rb_u64(&rb, ptd_pdw_etm_trace_id(w, cpu));
		trailer(w, &rb, ID_PT, cpu, tsc, pid, tid);
		rc = emit(w, &rb, err);
	}
	return rc;
}

int ptd_pdw_switch(struct ptd_pdw *w, int cpu, uint64_t tsc, int32_t pid, int32_t tid, int out,
		   int preempt, int32_t np_pid, int32_t np_tid, struct ptd_err *err)
{
	struct ptd_recbuf rb;

	if (w->cfg.no_tsc)
		return 0;
	ptd_rb_start(&rb, PTD_REC_SWITCH_CPU_WIDE,
		     (uint16_t)((out ? PTD_MISC_SWITCH_OUT : 0) | (out && preempt ? PTD_MISC_SWITCH_OUT_PREEMPT : 0)));
	ptd_rb_u32(&rb, (uint32_t)np_pid);
	ptd_rb_u32(&rb, (uint32_t)np_tid);
	trailer(w, &rb, ID_DUMMY, cpu, tsc, pid, tid);
	return emit(w, &rb, err);
}

int ptd_pdw_lost(struct ptd_pdw *w, int cpu, uint64_t tsc, int32_t pid, int32_t tid,
		 uint64_t lost, struct ptd_err *err)
{
	struct ptd_recbuf rb;

	ptd_rb_start(&rb, PTD_REC_LOST, 0);
	ptd_rb_u64(&rb, ID_DUMMY + (uint64_t)queue_of(w, cpu, tid));
	ptd_rb_u64(&rb, lost);
	trailer(w, &rb, ID_DUMMY, cpu, tsc, pid, tid);
	return emit(w, &rb, err);
}

int ptd_pdw_aux(struct ptd_pdw *w, int queue, int cpu, uint64_t tsc, int32_t pid, int32_t tid,
		uint64_t offset, const uint8_t *data, size_t len, uint64_t flags, int drop,
		struct ptd_err *err)
{
	struct ptd_recbuf rb;
	int rc;

	if (queue < 0 || (unsigned)queue >= w->nqueues)
		return ptd_err_set(err, PTD_E_INVAL, "no AUX queue %d", queue);
	if (w->cfg.snapshot)
		flags |= PTD_AUX_FLAG_OVERWRITE;
	ptd_rb_start(&rb, PTD_REC_AUX, 0);
	ptd_rb_u64(&rb, offset);
	ptd_rb_u64(&rb, len);
	ptd_rb_u64(&rb, flags);
	trailer(w, &rb, ID_PT, cpu, tsc, pid, tid);
	if ((rc = emit(w, &rb, err)))
		return rc;
	if (!drop && len) {
		ptd_rb_start(&rb, PTD_REC_AUXTRACE, 0);
		ptd_rb_u64(&rb, len);
		ptd_rb_u64(&rb, offset);
		ptd_rb_u64(&rb, tsc);                                  /* reference */
		ptd_rb_u32(&rb, (uint32_t)queue);
		ptd_rb_u32(&rb, (uint32_t)(w->cfg.per_thread ? tid : -1));
		ptd_rb_u32(&rb, (uint32_t)(w->cfg.per_thread ? -1 : cpu));
		ptd_rb_u32(&rb, 0);
		if (w->nindex < sizeof(w->index) / 16) {
			if ((rc = ptd_writer_data(w->w, rb.buf, ptd_rb_finish(&rb),
						  &w->index[2 * w->nindex], err)))
				return rc;
			w->index[2 * w->nindex + 1] = PTD_AUXTRACE_REC_SIZE;   /* the record, as perf writes it */
			w->nindex++;
		} else if ((rc = emit(w, &rb, err))) {
			return rc;
		}
		if ((rc = ptd_writer_data(w->w, data, len, NULL, err)))
			return rc;
	}
	return 0;
}

int ptd_pdw_finished_round(struct ptd_pdw *w, struct ptd_err *err)
{
	struct ptd_recbuf rb;

	ptd_rb_start(&rb, PTD_REC_FINISHED_ROUND, 0);
	return emit(w, &rb, err);
}

/* ---- features --------------------------------------------------------- */

struct fbuf {
	uint8_t *p;
	size_t len, cap;
};

static void fb_put(struct fbuf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		size_t ncap = b->cap ? b->cap * 2 : 256;
		uint8_t *q;

		while (ncap < b->len + n)
			ncap *= 2;
		q = realloc(b->p, ncap);
		if (!q)
			return;
		b->p = q;
		b->cap = ncap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

/* perf's do_write_string: u32 length padded to 64, then the string */
static void fb_string(struct fbuf *b, const char *s)
{
	static const uint8_t zero[64];
	uint32_t len = (uint32_t)((strlen(s) + 1 + 63) & ~63u);

	fb_put(b, &len, 4);
	fb_put(b, s, strlen(s));
	fb_put(b, zero, len - strlen(s));
}

static int feature(struct ptd_pdw *w, unsigned bit, struct fbuf *b, struct ptd_err *err)
{
	int rc = b->p ? ptd_writer_feature(w->w, bit, b->p, b->len, err)
		      : ptd_err_set(err, PTD_E_NOMEM, "feature %u", bit);

	free(b->p);
	memset(b, 0, sizeof(*b));
	return rc;
}

static int write_features(struct ptd_pdw *w, struct ptd_err *err)
{
	struct fbuf b = { 0 };
	struct utsname u;
	uint32_t v32;
	uint64_t v64;
	unsigned i;
	int rc;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	fb_string(&b, u.nodename);
	if ((rc = feature(w, PTD_FEAT_HOSTNAME, &b, err)))
		return rc;
	fb_string(&b, u.release);
	if ((rc = feature(w, PTD_FEAT_OSRELEASE, &b, err)))
		return rc;
	fb_string(&b, "ptdecode-record " PACKAGE_VERSION);
	if ((rc = feature(w, PTD_FEAT_VERSION, &b, err)))
		return rc;
	fb_string(&b, w->cfg.etm ? "aarch64" : "x86_64");
	if ((rc = feature(w, PTD_FEAT_ARCH, &b, err)))
		return rc;
	v32 = w->cfg.per_thread ? 1 : w->cfg.ncpus;
	fb_put(&b, &v32, 4);
	fb_put(&b, &v32, 4);
	if ((rc = feature(w, PTD_FEAT_NRCPUS, &b, err)))
		return rc;
	/* an emulated Skylake server; perf and libipt pick errata by it */
	/* (a Cortex-A53 r0p4's MIDR_EL1 as perf writes it on arm64) */
	fb_string(&b, w->cfg.etm ? "0x00000000410fd034" : "GenuineIntel,6,85,4");
	if ((rc = feature(w, PTD_FEAT_CPUID, &b, err)))
		return rc;
	v32 = 1;
	fb_put(&b, &v32, 4);
	fb_string(&b, w->cfg.cmdline ? w->cfg.cmdline : "ptdecode-record");
	if ((rc = feature(w, PTD_FEAT_CMDLINE, &b, err)))
		return rc;
	v32 = 2;
	fb_put(&b, &v32, 4);
	v32 = 1;
	fb_put(&b, &v32, 4);
	fb_string(&b, "software");
	v32 = w->cfg.etm ? PTD_ETM_PMU_TYPE : PTD_PT_PMU_TYPE;
	fb_put(&b, &v32, 4);
	fb_string(&b, w->cfg.etm ? "cs_etm" : "intel_pt");
	if ((rc = feature(w, PTD_FEAT_PMU_MAPPINGS, &b, err)))
		return rc;
	/* BUILD_ID: records {header, pid, id[20] + size + pad, name padded to 64} */
	for (i = 0; i < w->nbids; i++) {
		static const uint8_t zero[64];
		size_t name = (strlen(w->bids[i].path) + 1 + 63) & ~(size_t)63;
		uint16_t misc = (w->bids[i].kernel ? PTD_MISC_KERNEL : PTD_MISC_USER) |
				PTD_MISC_BUILD_ID_SIZE;
		uint16_t size = (uint16_t)(8 + 4 + 24 + name);
		uint8_t id[24] = { 0 };

		v32 = 0;
		fb_put(&b, &v32, 4);
		fb_put(&b, &misc, 2);
		fb_put(&b, &size, 2);
		fb_put(&b, &w->bids[i].pid, 4);
		memcpy(id, w->bids[i].id, w->bids[i].size);
		id[20] = w->bids[i].size;
		fb_put(&b, id, 24);
		fb_put(&b, w->bids[i].path, strlen(w->bids[i].path));
		fb_put(&b, zero, name - strlen(w->bids[i].path));
	}
	if (w->nbids && (rc = feature(w, PTD_FEAT_BUILD_ID, &b, err)))
		return rc;
	v64 = w->nindex;
	fb_put(&b, &v64, 8);
	fb_put(&b, w->index, 16 * (size_t)w->nindex);
	return feature(w, PTD_FEAT_AUXTRACE, &b, err);
}

int ptd_pdw_close(struct ptd_pdw *w, struct ptd_err *err)
{
	unsigned i;
	int rc;

	if (!w)
		return 0;
	rc = write_features(w, err);
	if (!rc)
		rc = ptd_writer_close(w->w, err);
	else
		ptd_writer_close(w->w, NULL);
	for (i = 0; i < w->nbids; i++)
		free(w->bids[i].path);
	free(w->queue_tid);
	free(w);
	return rc;
}
