/* The Intel PT backend: a thin layer over libipt's instruction flow decoder.
 *
 * The decode loop is ptxed's: synchronize at a PSB (pt_insn_sync_forward),
 * take pending events (pt_insn_event) before each instruction
 * (pt_insn_next), report an error with the trace offset and go back to
 * synchronizing at the next PSB; give up resynchronizing only when it makes
 * no progress.  It runs as a state machine so that next() returns one
 * sample at a time. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "decoders/intel-pt/intel_pt.h"
#include "decoders/intel-pt/ipt_priv.h"

#define QUEUE_LEN 4

enum state {
	ST_IDLE,      /* nothing fed, or the fed trace is used up */
	ST_SYNC,      /* synchronize at the next PSB */
	ST_DECODE,    /* events and instructions */
};

struct ptd_decoder {
	struct pt_config config;              /* begin/end set by each feed */
	struct pt_image_section_cache *iscache;
	struct pt_image *image;
	struct pt_insn_decoder *insn;         /* over the fed buffer */
	uint8_t *copy;                        /* the fed buffer with slack (see readable_end()) */
	const struct ptd_image *src;          /* the caller's image, for its callback */
	uint64_t base;                        /* stream offset of the fed buffer */
	enum state state;
	int status;                           /* libipt status flags in ST_DECODE */
	uint64_t sync;                        /* where the last failed sync left off */
	uint64_t last_ip;                     /* of the last instruction since the last sync */
	/* never-ending loops (see stuck()) */
	uint64_t run_off;                     /* trace offset during the current run */
	uint64_t cyc_ip, cyc_power, cyc_len;  /* Brent's cycle finding over the run's ips */
	struct ptd_trace_sample queue[QUEUE_LEN];   /* samples ready to hand out */
	unsigned qhead, qlen;
};

static struct ptd_trace_sample *push(struct ptd_decoder *d)
{
	struct ptd_trace_sample *s;

	/* never more than 2 queued: next() drains before it decodes further */
	s = &d->queue[(d->qhead + d->qlen) % QUEUE_LEN];
	d->qlen++;
	ptd_trace_sample_init(s);
	return s;
}

/* The trace offset for a sample: libipt's position plus the buffer's. */
static void set_offset(struct ptd_decoder *d, struct ptd_trace_sample *s)
{
	uint64_t off;

	if (d->insn && pt_insn_get_offset(d->insn, &off) >= 0)
		s->offset = d->base + off;
	else
		s->flags |= PTD_SF_NO_OFFSET;
}

static void push_error(struct ptd_decoder *d, int kind, int code, uint64_t ip)
{
	struct ptd_trace_sample *s = push(d);

	s->kind = PTD_TS_GAP;
	s->gap_kind = (uint16_t)kind;
	s->ip = ip;
	s->err.code = code;
	s->err.msg = pt_errstr(pt_errcode(code));
	set_offset(d, s);
}

/* Code that jumps to itself, or loops through direct branches only, runs
 * for ever without consuming trace: libipt would decode it for ever.  In a
 * run of instructions that take nothing from the trace (not conditional,
 * not a return, no packet consumed: the offset stays put), each ip decides
 * the next, so an ip seen twice is such a loop; Brent's cycle finding sees
 * it within a few times the loop's length, in constant memory.  It is
 * reported as an error and decoding resynchronizes at the next PSB, as
 * perf's decoder does with its "Never-ending loop".  Returns 1 when stuck
 * (error pushed). */
static int stuck(struct ptd_decoder *d, const struct pt_insn *in)
{
	uint64_t off = d->run_off;

	if (pt_insn_get_offset(d->insn, &off) < 0 || off != d->run_off ||
	    (in->iclass != ptic_other && in->iclass != ptic_call && in->iclass != ptic_jump)) {
		d->run_off = off;
		d->cyc_ip = in->ip;
		d->cyc_power = 1;
		d->cyc_len = 0;
		return 0;
	}
	if (in->ip == d->cyc_ip) {
		push_error(d, PTD_GAPK_DECODE, -pte_internal, in->ip);
		d->queue[(d->qhead + d->qlen - 1) % QUEUE_LEN].err.msg =
			"never-ending loop (code that consumes no trace)";
		d->cyc_power = 1;
		d->cyc_len = 0;
		return 1;
	}
	if (++d->cyc_len == d->cyc_power) {
		d->cyc_ip = in->ip;
		d->cyc_power *= 2;
		d->cyc_len = 0;
	}
	return 0;
}

static int read_cb(uint8_t *buffer, size_t size, const struct pt_asid *asid,
		   uint64_t ip, void *context)
{
	struct ptd_decoder *d = context;
	ptd_image_read_fn fn;
	void *ctx;
	int n;

	fn = ptd_image_reader(d->src, &ctx);
	if (!fn)
		return -pte_nomap;
	n = fn(ctx, buffer, size, ip, asid && asid->cr3 != pt_asid_no_cr3 ? asid->cr3 : 0);
	return n > 0 ? n : -pte_nomap;
}

static int load_image(struct ptd_decoder *d, const struct ptd_image *im, struct ptd_err *err)
{
	size_t i, n = ptd_image_nsections(im);
	void *ctx;

	for (i = 0; i < n; i++) {
		const struct ptd_image_section *s = ptd_image_section(im, i);
		int isid, rc;

		isid = pt_iscache_add_file(d->iscache, s->path, s->offset, s->size, s->vaddr);
		if (isid < 0)
			return ptd_err_set(err, pt_errcode(isid) == pte_nomem ? PTD_E_NOMEM : PTD_E_IO,
					   "%s: libipt cannot map offset %#" PRIx64 " size %#" PRIx64 " at %#" PRIx64 ": %s",
					   s->path, s->offset, s->size, s->vaddr, pt_errstr(pt_errcode(isid)));
		rc = pt_image_add_cached(d->image, d->iscache, isid, NULL);
		if (rc < 0)
			return ptd_err_set(err, pt_errcode(rc) == pte_nomem ? PTD_E_NOMEM : PTD_E_IO,
					   "%s: libipt cannot add the section at %#" PRIx64 ": %s",
					   s->path, s->vaddr, pt_errstr(pt_errcode(rc)));
	}
	if (ptd_image_reader(im, &ctx))
		pt_image_set_callback(d->image, read_cb, d);
	return 0;
}

static void ipt_destroy(struct ptd_decoder *d)
{
	if (!d)
		return;
	pt_insn_free_decoder(d->insn);
	free(d->copy);
	pt_image_free(d->image);
	pt_iscache_free(d->iscache);
	free(d);
}

static int ipt_create(struct ptd_decoder **out, const struct ptd_auxinfo *info,
		      const struct ptd_decoder_env *env, struct ptd_err *err)
{
	struct ptd_decoder *d;
	int rc;

	if (info && info->npriv)
		return ptd_err_set(err, PTD_E_UNSUPPORTED,
				   "intel-pt: AUXTRACE_INFO settings are not read yet (raw mode only)");
	if ((rc = ptd_ipt_load(err)))
		return rc;
	d = calloc(1, sizeof(*d));
	if (!d)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory for the Intel PT decoder");
	pt_config_init(&d->config);
	rc = ptd_ipt_apply_opts(&d->config, env->opts, env->nopts, err);
	if (rc)
		goto fail;
	if (env->cpu.vendor == PTD_CPU_INTEL) {
		d->config.cpu.vendor = pcv_intel;
		d->config.cpu.family = env->cpu.family;
		d->config.cpu.model = env->cpu.model;
		d->config.cpu.stepping = env->cpu.stepping;
		if (ptd_ipt_errata(&d->config.errata, &d->config.cpu) < 0) {
			struct ptd_trace_sample *s = push(d);

			s->kind = PTD_TS_DIAG;
			s->err.code = -pte_bad_cpu;
			s->err.msg = pt_errstr(pte_bad_cpu);
		}
	}
	d->iscache = pt_iscache_alloc(NULL);
	d->image = pt_image_alloc(NULL);
	if (!d->iscache || !d->image) {
		rc = ptd_err_set(err, PTD_E_NOMEM, "out of memory for the Intel PT image");
		goto fail;
	}
	d->src = env->image;
	if (env->image) {
		rc = load_image(d, env->image, err);
		if (rc)
			goto fail;
	}
	d->state = ST_IDLE;
	*out = d;
	return 0;
fail:
	ipt_destroy(d);
	return rc;
}

/* libipt 2.0.5's pt_sync_forward, when the PSB payload pattern fills the
 * 8-byte word that ends where the buffer ends (an 8-aligned address), reads
 * the byte after the buffer.  Such a buffer is decoded from a copy with
 * slack after it; any other is safe as it is. */
static int readable_end(const uint8_t *data, size_t size)
{
	const uint8_t *w = data + size - 8;
	int i;

	if (size < 8 || ((uintptr_t)(data + size) & 7))
		return 1;
	if (!((w[0] == 0x02 && w[1] == 0x82) || (w[0] == 0x82 && w[1] == 0x02)))
		return 1;
	for (i = 2; i < 8; i++)
		if (w[i] != w[i - 2])
			return 1;
	return 0;
}

static int ipt_feed(struct ptd_decoder *d, const struct ptd_auxbuf *buf, struct ptd_err *err)
{
	pt_insn_free_decoder(d->insn);
	d->insn = NULL;
	free(d->copy);
	d->copy = NULL;
	d->state = ST_IDLE;
	d->sync = 0;
	d->last_ip = 0;
	d->base = buf->offset;
	if (!buf->size)
		return 0;
	/* libipt only reads the buffer, whatever its pointer's type says */
	d->config.begin = (uint8_t *)(uintptr_t)buf->data;
	if (!readable_end(buf->data, buf->size)) {
		d->copy = calloc(1, buf->size + 8);
		if (!d->copy)
			return ptd_err_set(err, PTD_E_NOMEM, "out of memory for a copy of %zu bytes of trace",
					   buf->size);
		memcpy(d->copy, buf->data, buf->size);
		d->config.begin = d->copy;
	}
	d->config.end = d->config.begin + buf->size;
	d->insn = pt_insn_alloc_decoder(&d->config);
	if (!d->insn)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory for a libipt instruction decoder");
	if (pt_insn_set_image(d->insn, d->image) < 0)
		return ptd_err_set(err, PTD_E_NOMEM, "libipt refused the image");
	d->state = ST_SYNC;
	return 0;
}

static void do_sync(struct ptd_decoder *d)
{
	uint64_t off;
	int st;

	d->last_ip = 0;
	st = pt_insn_sync_forward(d->insn);
	if (st >= 0) {
		d->status = st;
		d->state = ST_DECODE;
		return;
	}
	if (st == -pte_eos) {
		d->state = ST_IDLE;
		return;
	}
	push_error(d, PTD_GAPK_SYNC, st, 0);
	/* No progress since the last failed sync: there never will be. */
	if (pt_insn_get_offset(d->insn, &off) < 0 || off <= d->sync)
		d->state = ST_IDLE;
	else
		d->sync = off;
}

static void do_event(struct ptd_decoder *d)
{
	struct pt_event ev;
	struct ptd_trace_sample *s;
	int st;

	memset(&ev, 0, sizeof(ev));
	st = pt_insn_event(d->insn, &ev, sizeof(ev));
	if (st < 0) {
		push_error(d, PTD_GAPK_DECODE, st, d->last_ip);
		d->state = ST_SYNC;
		return;
	}
	s = push(d);
	set_offset(d, s);
	ptd_ipt_event(s, &ev);
	d->status = st;
}

static void do_insn(struct ptd_decoder *d)
{
	struct ptd_trace_sample *s;
	struct pt_insn in;
	uint64_t tsc;
	uint32_t lost_mtc, lost_cyc;
	int st;

	memset(&in, 0, sizeof(in));
	st = pt_insn_next(d->insn, &in, sizeof(in));
	/* even a failed call may have decoded the instruction */
	if (st >= 0 || in.iclass != ptic_error) {
		s = push(d);
		s->kind = PTD_TS_INSN;
		s->ip = in.ip;
		s->mode = ptd_ipt_mode(in.mode);
		s->iclass = ptd_ipt_iclass(in.iclass);
		s->size = in.size <= sizeof(s->raw) ? in.size : sizeof(s->raw);
		memcpy(s->raw, in.raw, s->size);
		s->insn_count = 1;
		if (in.speculative)
			s->flags |= PTD_SF_SPECULATIVE;
		if (in.truncated)
			s->flags |= PTD_SF_TRUNCATED;
		if (pt_insn_time(d->insn, &tsc, &lost_mtc, &lost_cyc) >= 0) {
			s->tsc = tsc;
			s->flags |= PTD_SF_TIME;
		}
		set_offset(d, s);
		d->last_ip = in.ip;
	}
	if (st >= 0) {
		d->status = st;
		if (stuck(d, &in))
			d->state = ST_SYNC;
		return;
	}
	if (st == -pte_eos) {
		d->state = ST_IDLE;
		return;
	}
	push_error(d, PTD_GAPK_DECODE, st, in.ip);
	d->state = ST_SYNC;
}

static int ipt_next(struct ptd_decoder *d, struct ptd_trace_sample *out, struct ptd_err *err)
{
	(void)err;   /* nothing here fails for good: errors become GAP samples */
	for (;;) {
		if (d->qlen) {
			*out = d->queue[d->qhead];
			d->qhead = (d->qhead + 1) % QUEUE_LEN;
			d->qlen--;
			return 1;
		}
		switch (d->state) {
		case ST_IDLE:
			return 0;
		case ST_SYNC:
			do_sync(d);
			break;
		case ST_DECODE:
			if (d->status & pts_event_pending) {
				do_event(d);
			} else if (d->status & pts_eos) {
				struct ptd_trace_sample *s = push(d);

				s->kind = PTD_TS_EVENT;
				s->event = PTD_EV_END_OF_TRACE;
				if (d->status & pts_ip_suppressed)
					s->flags |= PTD_SF_IP_SUPPRESSED;
				set_offset(d, s);
				d->state = ST_IDLE;
			} else {
				do_insn(d);
			}
			break;
		}
	}
}

const struct ptd_decoder_ops ptd_intel_pt_ops = {
	.name = "intel-pt",
	.auxtrace_type = 1,
	.create = ipt_create,
	.feed = ipt_feed,
	.next = ipt_next,
	.destroy = ipt_destroy,
};
