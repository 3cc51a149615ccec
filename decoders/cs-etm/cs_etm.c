/* The CoreSight ETM backend: OpenCSD's push callbacks turned into the pull
 * model of decoders/decoder.h.  Each generic trace element OpenCSD hands
 * over becomes at most one sample in a small ring; when the ring is nearly
 * full the callback answers OCSD_RESP_WAIT, OpenCSD stops, and next()
 * drains the ring before it lets OpenCSD go on (OCSD_OP_FLUSH, then more
 * data).  See cs_etm.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decoders/cs-etm/csetm_priv.h"
#include "decoders/cs-etm/ocsd_load.h"

#define RING 256            /* samples queued at most */
#define RING_WAIT (RING - 4)
#define MEMCACHE 4096       /* bytes of code cached per read */

/* Where a source traces the thread ID, as perf reads its configuration */
enum { CTX_NONE, CTX_CONTEXTID, CTX_VMID };

struct ptd_decoder {
	struct csetm_config cfg;
	dcd_tree_handle_t tree;
	const struct ptd_image *image;
	int32_t cpu_of_id[128];         /* trace ID -> CPU */
	uint8_t v3_of_id[128];          /* trace ID -> ETMv3 or PTM */
	uint8_t ctx_of_id[128];         /* trace ID -> CTX_* : where the thread ID is traced */
	uint64_t asid_of_id[128];       /* trace ID -> its thread ID + 1 (0: not known yet) */
	/* the fed buffer */
	struct ptd_auxbuf buf;
	size_t pos;                     /* bytes OpenCSD took */
	int fed, need_flush, eot_sent, need_reset, fatal;
	/* env->wait: perf's use of the decoder (decoder.h) */
	int (*wait)(void *ctx, const struct ptd_trace_sample *s);
	void *wait_ctx;
	int waited;                     /* wait stopped OpenCSD in its last call */
	int ending;                     /* with wait: only ends of trace are kept */
	/* the ring */
	struct ptd_trace_sample ring[RING];
	unsigned head, count;
	/* timestamps */
	uint64_t tsc;
	int have_tsc;
	/* one cached block of code */
	uint64_t mc_addr;
	uint32_t mc_len;
	uint8_t mc[MEMCACHE];
};

static struct ptd_trace_sample *ring_push(struct ptd_decoder *d)
{
	struct ptd_trace_sample *s;

	if (d->count == RING)
		return NULL;   /* cannot happen: WAIT is answered well before */
	s = &d->ring[(d->head + d->count++) % RING];
	ptd_trace_sample_init(s);
	return s;
}

static uint8_t map_isa(ocsd_isa isa)
{
	switch (isa) {
	case ocsd_isa_arm: return PTD_ISA_A32;
	case ocsd_isa_thumb2: return PTD_ISA_T32;
	case ocsd_isa_aarch64: return PTD_ISA_A64;
	case ocsd_isa_tee: return PTD_ISA_TEE;
	case ocsd_isa_jazelle: return PTD_ISA_JAZELLE;
	case ocsd_isa_custom: return PTD_ISA_CUSTOM;
	default: return PTD_ISA_UNKNOWN;
	}
}

static void range_sample(struct ptd_trace_sample *s, const ocsd_generic_trace_elem *e)
{
	s->kind = PTD_TS_RANGE;
	s->ip = e->st_addr;
	s->size = e->last_instr_sz;
	s->to_ip = e->en_addr - e->last_instr_sz;
	s->insn_count = e->num_instr_range;
	s->u.range.isa = map_isa(e->isa);
	s->mode = e->isa == ocsd_isa_aarch64 ? PTD_MODE_64 : PTD_MODE_32;
	if (!e->last_instr_exec)
		s->flags |= PTD_SF_NOT_TAKEN;
	if (e->last_instr_cond)
		s->flags |= PTD_SF_COND;
	switch (e->last_i_type) {
	case OCSD_INSTR_BR:
		s->iclass = e->last_i_subtype == OCSD_S_INSTR_BR_LINK ? PTD_INSN_CALL
			  : e->last_instr_cond ? PTD_INSN_COND_JUMP : PTD_INSN_JUMP;
		break;
	case OCSD_INSTR_BR_INDIRECT:
		s->flags |= PTD_SF_INDIRECT;
		if (e->last_i_subtype == OCSD_S_INSTR_BR_LINK)
			s->iclass = PTD_INSN_CALL;
		else if (e->last_i_subtype == OCSD_S_INSTR_V8_RET ||
			 e->last_i_subtype == OCSD_S_INSTR_V7_IMPLIED_RET)
			s->iclass = PTD_INSN_RETURN;
		else if (e->last_i_subtype == OCSD_S_INSTR_V8_ERET)
			s->iclass = PTD_INSN_FAR_RETURN;
		else
			s->iclass = PTD_INSN_JUMP;
		break;
	default:
		s->iclass = PTD_INSN_OTHER;
		break;
	}
}

static const char *unsync_text(unsync_info_t why)
{
	switch (why) {
	case UNSYNC_OVERFLOW: return "trace overflow: synchronisation lost";
	case UNSYNC_DISCARD: return "speculative trace discarded: synchronisation lost";
	case UNSYNC_BAD_PACKET: return "bad packet: synchronisation lost";
	default: return "synchronisation lost";
	}
}

static ocsd_datapath_resp_t on_elem(const void *ctx, const ocsd_trc_index_t index,
				    const uint8_t chan, const ocsd_generic_trace_elem *e)
{
	struct ptd_decoder *d = (struct ptd_decoder *)ctx;
	struct ptd_trace_sample *s = NULL;

	if (d->ending && e->elem_type != OCSD_GEN_TRC_ELEM_EO_TRACE)
		return OCSD_RESP_CONT;
	switch (e->elem_type) {
	case OCSD_GEN_TRC_ELEM_TIMESTAMP:
		d->tsc = e->timestamp;
		d->have_tsc = 1;
		s = ring_push(d);
		if (s) {
			s->kind = PTD_TS_EVENT;
			s->event = PTD_EV_TICK;
			s->flags |= PTD_SF_IP_SUPPRESSED;
		}
		break;
	case OCSD_GEN_TRC_ELEM_INSTR_RANGE:
		s = ring_push(d);
		if (s)
			range_sample(s, e);
		break;
	case OCSD_GEN_TRC_ELEM_TRACE_ON:
		s = ring_push(d);
		if (s) {
			s->kind = PTD_TS_EVENT;
			s->event = e->trace_on_reason == TRACE_ON_OVERFLOW ? PTD_EV_OVERFLOW : PTD_EV_ENABLED;
			s->flags |= PTD_SF_IP_SUPPRESSED;
		}
		break;
	case OCSD_GEN_TRC_ELEM_EO_TRACE:
		s = ring_push(d);
		if (s) {
			s->kind = PTD_TS_EVENT;
			s->event = PTD_EV_END_OF_TRACE;
			s->flags |= PTD_SF_IP_SUPPRESSED;
		}
		break;
	case OCSD_GEN_TRC_ELEM_NO_SYNC:
		/* the first one of a stream only says decoding begins */
		if (e->unsync_eot_info == UNSYNC_INIT_DECODER || e->unsync_eot_info == UNSYNC_RESET_DECODER)
			break;
		s = ring_push(d);
		if (s) {
			s->kind = PTD_TS_GAP;
			s->gap_kind = PTD_GAPK_SYNC;
			s->flags |= PTD_SF_IP_SUPPRESSED;
			s->err.code = -(int)e->unsync_eot_info;
			s->err.msg = unsync_text(e->unsync_eot_info);
		}
		break;
	case OCSD_GEN_TRC_ELEM_EXCEPTION:
		s = ring_push(d);
		if (s) {
			s->kind = PTD_TS_EVENT;
			s->event = PTD_EV_EXCEPTION;
			s->u.exception.number = e->exception_number;
			s->u.exception.etmv3 = d->v3_of_id[chan & 0x7f];
			if (e->excep_ret_addr)
				s->ip = e->en_addr;
			else
				s->flags |= PTD_SF_IP_SUPPRESSED;
		}
		break;
	case OCSD_GEN_TRC_ELEM_EXCEPTION_RET:
		s = ring_push(d);
		if (s) {
			s->kind = PTD_TS_EVENT;
			s->event = PTD_EV_EXCEPTION_RET;
			s->flags |= PTD_SF_IP_SUPPRESSED;
		}
		break;
	case OCSD_GEN_TRC_ELEM_ADDR_NACC:
		s = ring_push(d);
		if (s) {
			s->kind = PTD_TS_DIAG;
			s->ip = e->st_addr;
			s->err.msg = "no memory image at the address: trace skipped to the next address";
		}
		break;
	case OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH:
		s = ring_push(d);
		if (s) {
			s->kind = PTD_TS_DIAG;
			s->ip = e->st_addr;
			s->to_ip = e->en_addr;
			s->insn_count = e->num_instr_range;
			s->err.msg = "instructions executed in a range whose path is not known";
		}
		break;
	case OCSD_GEN_TRC_ELEM_PE_CONTEXT: {
		int how = d->ctx_of_id[chan & 0x7f];

		d->mc_len = 0;   /* another process's code may be at the same addresses */
		if ((how == CTX_CONTEXTID && e->context.ctxt_id_valid) ||
		    (how == CTX_VMID && e->context.vmid_valid)) {
			s = ring_push(d);
			if (s) {
				s->kind = PTD_TS_EVENT;
				s->event = PTD_EV_CONTEXT;
				s->flags |= PTD_SF_IP_SUPPRESSED;
				s->u.context.tid = how == CTX_VMID ? e->context.vmid : e->context.context_id;
				d->asid_of_id[chan & 0x7f] = (uint64_t)s->u.context.tid + 1;
			}
		}
		break;
	}
	default:
		break;   /* cycle counts, markers, events: not reported yet */
	}
	if (s) {
		s->chan = chan;
		s->cpu = d->cpu_of_id[chan & 0x7f];
		s->offset = d->buf.offset + index;
		if (d->have_tsc) {
			s->tsc = d->tsc;
			s->flags |= PTD_SF_TIME;
		}
		if (d->wait && d->wait(d->wait_ctx, s)) {
			s->flags |= PTD_SF_WAITED;
			d->waited = 1;
			return OCSD_RESP_WAIT;
		}
	}
	return d->count >= RING_WAIT ? OCSD_RESP_WAIT : OCSD_RESP_CONT;
}

static uint32_t read_mem(const void *ctx, const ocsd_vaddr_t addr, const ocsd_mem_space_acc_t space,
			 const uint8_t id, const uint32_t want, uint8_t *out)
{
	struct ptd_decoder *d = (struct ptd_decoder *)ctx;
	uint32_t got = 0;

	while (got < want) {
		uint64_t a = addr + got;
		uint32_t n;

		if (!d->mc_len || a < d->mc_addr || a - d->mc_addr >= d->mc_len) {
			int r = ptd_image_read(d->image, d->mc, MEMCACHE, a, d->asid_of_id[id & 0x7f]);

			if (r <= 0)
				break;
			d->mc_addr = a;
			d->mc_len = (uint32_t)r;
		}
		n = d->mc_len - (uint32_t)(a - d->mc_addr);
		if (n > want - got)
			n = want - got;
		memcpy(out + got, d->mc + (a - d->mc_addr), n);
		got += n;
	}
	return got;
}

/* perf's cs_etm__get_pid_fmt: ETMv3 ETMCR bit 14 (context ID); ETMv4 and
 * ETE TRCCONFIGR bit 7 or 15 (VMID: the kernel runs at EL2 and traces
 * CONTEXTIDR_EL2), else bit 6 (context ID, CONTEXTIDR_EL1) */
static uint8_t csetm_pid_fmt(const struct csetm_source *s)
{
	uint32_t r;

	if (s->proto == CSETM_ETMV3 || s->proto == CSETM_PTM)
		return (s->cfg.v3.reg_ctrl >> 14) & 1 ? CTX_CONTEXTID : CTX_NONE;
	r = s->proto == CSETM_ETE ? s->cfg.ete.reg_configr : s->cfg.v4.reg_configr;
	if (r & ((1u << 7) | (1u << 15)))
		return CTX_VMID;
	return (r >> 6) & 1 ? CTX_CONTEXTID : CTX_NONE;
}

static int make_tree(struct ptd_decoder *d, struct ptd_err *err)
{
	size_t i, n;
	ocsd_err_t oe;
	int rc;

	if ((rc = ptd_ocsd_load(err)))
		return rc;
	(void)ptd_ocsd.p0fix_active();   /* settles which code OpenCSD's stack uses */
	d->tree = ocsd_create_dcd_tree(d->cfg.format, d->cfg.dfmt_flags);
	if (!d->tree)
		return ptd_err_set(err, PTD_E_NOMEM, "cs-etm: OpenCSD could not create a decode tree");
	/* a single unformatted source carries one stream: the first source's */
	n = d->cfg.format == OCSD_TRC_SRC_SINGLE ? 1 : d->cfg.nsrc;
	for (i = 0; i < n; i++) {
		const struct csetm_source *s = &d->cfg.src[i];
		static const char *const names[] = { NULL, OCSD_BUILTIN_DCD_ETMV3, OCSD_BUILTIN_DCD_PTM,
						     OCSD_BUILTIN_DCD_ETMV4I, OCSD_BUILTIN_DCD_ETE };
		unsigned char id = 0;

		if (s->unused)
			continue;
		oe = ocsd_dt_create_decoder(d->tree, names[s->proto], OCSD_CREATE_FLG_FULL_DECODER,
					    &s->cfg, &id);
		if (oe != OCSD_OK) {
			char msg[128];

			ocsd_err_str(oe, msg, sizeof(msg));
			return ptd_err_set(err, PTD_E_UNSUPPORTED,
					   "cs-etm: OpenCSD refused the %s decoder of source %zu (trace ID %#x): %s",
					   names[s->proto], i, s->trace_id, msg);
		}
		d->cpu_of_id[id & 0x7f] = s->cpu;
		d->v3_of_id[id & 0x7f] = s->proto == CSETM_ETMV3 || s->proto == CSETM_PTM;
		d->ctx_of_id[id & 0x7f] = csetm_pid_fmt(s);
	}
	oe = ocsd_dt_set_gen_elem_outfn(d->tree, on_elem, d);
	if (oe == OCSD_OK && d->image)
		oe = ocsd_dt_add_callback_trcid_mem_acc(d->tree, 0, ~(ocsd_vaddr_t)0, OCSD_MEM_SPACE_ANY,
							read_mem, d);
	if (oe != OCSD_OK)
		return ptd_err_set(err, PTD_E_UNSUPPORTED, "cs-etm: OpenCSD error %d setting up the tree", oe);
	return 0;
}

static void csetm_destroy(struct ptd_decoder *d)
{
	if (!d)
		return;
	if (d->tree)
		ocsd_destroy_dcd_tree(d->tree);
	free(d);
}

static int csetm_create(struct ptd_decoder **out, const struct ptd_auxinfo *info,
			const struct ptd_decoder_env *env, struct ptd_err *err)
{
	struct ptd_decoder *d = calloc(1, sizeof(*d));
	size_t i;
	int rc;

	if (!d)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	for (i = 0; i < 128; i++)
		d->cpu_of_id[i] = -1;
	d->image = env->image;
	d->wait = env->wait;
	d->wait_ctx = env->wait_ctx;
	rc = csetm_config_parse(&d->cfg, info, env, err);
	if (!rc)
		rc = make_tree(d, err);
	if (rc) {
		csetm_destroy(d);
		return rc;
	}
	*out = d;
	return 0;
}

static int csetm_feed(struct ptd_decoder *d, const struct ptd_auxbuf *buf, struct ptd_err *err)
{
	d->need_reset = d->fed;
	d->buf = *buf;
	d->pos = 0;
	d->fed = 1;
	d->need_flush = d->eot_sent = 0;
	d->waited = d->ending = 0;
	d->head = d->count = 0;
	d->have_tsc = 0;
	return 0;
}

static void fatal_gap(struct ptd_decoder *d)
{
	struct ptd_trace_sample *s = ring_push(d);

	d->fatal = 1;
	if (!s)
		return;
	s->kind = PTD_TS_GAP;
	s->gap_kind = PTD_GAPK_DECODE;
	s->flags |= PTD_SF_IP_SUPPRESSED;
	s->offset = d->buf.offset + d->pos;
	s->err.code = -1;
	s->err.msg = "OpenCSD stopped on a fatal error: the rest of the buffer is not decoded";
}

/* Let OpenCSD run until it has queued something or the buffer is done. */
static void run(struct ptd_decoder *d)
{
	ocsd_datapath_resp_t r;
	uint32_t took;

	if (d->need_reset) {
		ocsd_dt_process_data(d->tree, OCSD_OP_RESET, 0, 0, NULL, &took);
		d->need_reset = 0;
	}
	while (!d->count && !d->fatal) {
		if (d->need_flush) {
			r = ocsd_dt_process_data(d->tree, OCSD_OP_FLUSH, 0, 0, NULL, &took);
		} else if (d->pos < d->buf.size) {
			size_t left = d->buf.size - d->pos;
			uint32_t chunk = left > (1u << 20) ? 1u << 20 : (uint32_t)left;

			took = 0;
			r = ocsd_dt_process_data(d->tree, OCSD_OP_DATA, (ocsd_trc_index_t)d->pos, chunk,
						 d->buf.data + d->pos, &took);
			d->pos += took > chunk ? chunk : took;
			if (!took && !OCSD_DATA_RESP_IS_WAIT(r) && !OCSD_DATA_RESP_IS_FATAL(r)) {
				fatal_gap(d);   /* no progress: never loop */
				return;
			}
		} else if (!d->eot_sent) {
			d->ending = d->wait != NULL;
			r = ocsd_dt_process_data(d->tree, OCSD_OP_EOT, 0, 0, NULL, &took);
			d->eot_sent = 1;
		} else {
			break;
		}
		if (OCSD_DATA_RESP_IS_FATAL(r)) {
			fatal_gap(d);
			return;
		}
		if (d->waited && OCSD_DATA_RESP_IS_WAIT(r) && d->pos == d->buf.size && !d->eot_sent) {
			/* perf's buffer is used up at this wait: it resets the
			 * decoder for its next one, and what OpenCSD holds is lost */
			d->ending = 1;
			r = OCSD_RESP_CONT;
		}
		d->waited = 0;
		d->need_flush = OCSD_DATA_RESP_IS_WAIT(r);
	}
}

static int csetm_next(struct ptd_decoder *d, struct ptd_trace_sample *out, struct ptd_err *err)
{
	if (!d->fed)
		return 0;
	if (!d->count)
		run(d);
	if (!d->count)
		return 0;
	*out = d->ring[d->head];
	d->head = (d->head + 1) % RING;
	d->count--;
	return 1;
}

/* perf's CS_PMU_TYPE_CPUS word: PMU type << 32 | sources */
static int csetm_pmu_type(const struct ptd_auxinfo *info, uint32_t *type)
{
	if (!info || info->npriv < 2)
		return -PTD_E_FORMAT;
	*type = (uint32_t)(info->priv[1] >> 32);
	return 0;
}

/* perf's rule: PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW (0x100) set means the
 * sink wrote the source's trace unformatted (TRBE): one source, the CPU's */
static size_t csetm_queue_opts(int32_t cpu, uint64_t pmu_flags, struct ptd_decoder_opt *opts,
			       size_t max, char *buf, size_t bufsz)
{
	size_t n = 0;

	if (max < 2)
		return 0;
	opts[n].key = "format";
	opts[n++].value = (pmu_flags & 0x100) ? "raw" : "coresight";
	if ((pmu_flags & 0x100) && cpu >= 0 && bufsz > 12) {
		snprintf(buf, bufsz, "%d", (int)cpu);
		opts[n].key = "cpu";
		opts[n++].value = buf;
	}
	return n;
}

const struct ptd_decoder_ops ptd_cs_etm_ops = {
	.name = "cs-etm",
	.auxtrace_type = 3,
	.create = csetm_create,
	.feed = csetm_feed,
	.next = csetm_next,
	.destroy = csetm_destroy,
	.pmu_type = csetm_pmu_type,
	.queue_opts = csetm_queue_opts,
};
