/* The ETMv4 encoder and the CoreSight frame formatter against OpenCSD's
 * frame deformatter and ETMv4 packet processor (the decoder perf uses):
 * a trace with every kind of packet the encoder writes (sync, timestamp,
 * trace on, address with context, atoms of formats 1 to 3, short, 32-bit
 * and 64-bit addresses, exceptions) is cut into two AUX chunks, framed with
 * trace ID 0x10 and decoded; the packets must be the ones expected, with
 * their addresses, context ID, timestamps, atoms and exception types.  The
 * formatter's padding is checked on data of every length from 14 to 44
 * bytes (ending at odd and even frame bytes). */
#include "config.h"

#include <stdio.h>

#ifndef HAVE_OPENCSD
int main(void)
{
	puts("1..0 # SKIP built without OpenCSD (install libopencsd-dev and reconfigure)");
	return 0;
}
#else

#include <opencsd/c_api/opencsd_c_api.h>
#include <opencsd/etmv4/trc_pkt_types_etmv4.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tap.h"
#include "tools/record/cs_frame.h"
#include "tools/record/etm_enc.h"

#define ID 0x10
#define MAXP 256

struct got {
	ocsd_etmv4_i_pkt p[MAXP];
	unsigned n;
};

static ocsd_datapath_resp_t on_pkt(const void *ctx, const ocsd_datapath_op_t op,
				   const ocsd_trc_index_t idx, const void *pkt)
{
	struct got *g = (struct got *)ctx;

	(void)idx;
	if (op == OCSD_OP_DATA && g->n < MAXP)
		g->p[g->n++] = *(const ocsd_etmv4_i_pkt *)pkt;
	return OCSD_RESP_CONT;
}

/* decode AUX data (frames) with OpenCSD's packet processor */
static int decode(const uint8_t *aux, size_t len, struct got *g)
{
	ocsd_etmv4_cfg cfg = {
		.reg_idr0 = 0x28000ea1, .reg_idr1 = 0x4100f421, .reg_idr2 = 0x00000488,
		.reg_configr = (1u << 6) | (1u << 11), .reg_traceidr = ID,
		.arch_ver = ARCH_V8, .core_prof = profile_CortexA,
	};
	dcd_tree_handle_t t = ocsd_create_dcd_tree(OCSD_TRC_SRC_FRAME_FORMATTED,
						   OCSD_DFRMTR_FRAME_MEM_ALIGN);
	unsigned char csid = 0;
	uint32_t used = 0, done = 0;
	int rc = -1;

	memset(g, 0, sizeof(*g));
	if (t == C_API_INVALID_TREE_HANDLE)
		return -1;
	if (ocsd_dt_create_decoder(t, OCSD_BUILTIN_DCD_ETMV4I, OCSD_CREATE_FLG_PACKET_PROC, &cfg,
				   &csid) != OCSD_OK ||
	    ocsd_dt_attach_packet_callback(t, csid, OCSD_C_API_CB_PKT_SINK, (void *)on_pkt, g) != OCSD_OK)
		goto out;
	while (done < len) {
		ocsd_datapath_resp_t r = ocsd_dt_process_data(t, OCSD_OP_DATA, done, (uint32_t)(len - done),
							      aux + done, &used);

		if (OCSD_DATA_RESP_IS_FATAL(r) || !used)
			goto out;
		done += used;
	}
	ocsd_dt_process_data(t, OCSD_OP_EOT, 0, 0, NULL, &used);
	rc = 0;
out:
	ocsd_destroy_dcd_tree(t);
	return rc;
}

/* append the frames of the encoder's pending bytes to aux */
static size_t cut(struct ptd_etmenc *e, uint8_t *aux, size_t at)
{
	size_t len;
	const uint8_t *p;

	ptd_etmenc_flush(e);
	p = ptd_etmenc_data(e, &len);
	at += ptd_cs_frames(ID, p, len, aux + at);
	ptd_etmenc_take(e, len);
	ptd_etmenc_need_sync(e);
	return at;
}

static struct ptd_xev xev(int cls, int taken, uint64_t from, uint64_t to)
{
	struct ptd_xev ev = { .cls = (uint8_t)cls, .taken = (uint8_t)taken, .insn_len = 4,
			      .from = from, .to = to };

	return ev;
}

struct want {
	ocsd_etmv4_i_pkt_type type;
	uint64_t val;      /* address, timestamp, context ID, atom bits, exception type */
	unsigned natoms;
};

static void check(const struct got *g, const struct want *w, unsigned nw, const char *what)
{
	unsigned i;
	int bad = g->n != nw;

	for (i = 0; i < nw && i < g->n && !bad; i++) {
		const ocsd_etmv4_i_pkt *p = &g->p[i];
		uint64_t v = 0;

		switch (w[i].type) {
		case ETM4_PKT_I_ADDR_CTXT_L_64IS0:
			bad |= p->context.ctxtID != 1234 || !p->context.SF || p->context.EL != 0;
			/* fall through */
		case ETM4_PKT_I_ADDR_S_IS0:
		case ETM4_PKT_I_ADDR_L_32IS0:
		case ETM4_PKT_I_ADDR_L_64IS0:
			v = p->v_addr.val;
			break;
		case ETM4_PKT_I_TIMESTAMP: v = p->ts.timestamp; break;
		case ETM4_PKT_I_ATOM_F1:
		case ETM4_PKT_I_ATOM_F2:
		case ETM4_PKT_I_ATOM_F3:
			v = p->atom.En_bits;
			bad |= p->atom.num != w[i].natoms;
			break;
		case ETM4_PKT_I_EXCEPT: v = p->exception_info.exceptionType; break;
		default: break;
		}
		if (p->type != w[i].type || v != w[i].val) {
			printf("# packet %u: type %d value %#llx, want type %d value %#llx\n", i, (int)p->type,
			     (unsigned long long)v, (int)w[i].type, (unsigned long long)w[i].val);
			bad = 1;
		}
	}
	ok(!bad, "%s: %u packets as expected (got %u)", what, nw, g->n);
}

static void test_stream(void)
{
	struct ptd_etmenc_config cfg = { .ctxtid = 1, .ts = 1 };
	static uint8_t aux[4096];
	static struct got g;
	struct ptd_etmenc *e = NULL;
	struct ptd_err err = { 0 };
	struct ptd_xev ev;
	size_t at = 0;
	int rc = ptd_etmenc_new(&e, &cfg, &err);
	static const struct want w[] = {
		{ ETM4_PKT_I_ASYNC, 0, 0 },
		{ ETM4_PKT_I_TRACE_INFO, 0, 0 },
		{ ETM4_PKT_I_TIMESTAMP, 0x123456789ULL, 0 },
		{ ETM4_PKT_I_TRACE_ON, 0, 0 },
		{ ETM4_PKT_I_ADDR_CTXT_L_64IS0, 0x400000, 0 },
		{ ETM4_PKT_I_ATOM_F3, 0x5, 3 },                  /* E N E, oldest first */
		{ ETM4_PKT_I_ATOM_F1, 0x1, 1 },
		{ ETM4_PKT_I_ADDR_S_IS0, 0x400100, 0 },          /* 1-byte short */
		{ ETM4_PKT_I_ATOM_F1, 0x1, 1 },
		{ ETM4_PKT_I_ADDR_S_IS0, 0x410000, 0 },          /* 2-byte short */
		{ ETM4_PKT_I_ATOM_F1, 0x1, 1 },
		{ ETM4_PKT_I_ADDR_L_32IS0, 0x12345678, 0 },
		{ ETM4_PKT_I_ATOM_F1, 0x1, 1 },
		{ ETM4_PKT_I_ADDR_L_64IS0, 0x7fff00001234ULL, 0 },
		{ ETM4_PKT_I_ATOM_F2, 0x2, 2 },                  /* N E */
		{ ETM4_PKT_I_EXCEPT, PTD_ETM_EXC_CALL, 0 },
		{ ETM4_PKT_I_ADDR_S_IS0, 0x7fff00001304ULL, 0 },
		{ ETM4_PKT_I_TRACE_ON, 0, 0 },          /* no timestamp without a sync */
		{ ETM4_PKT_I_ADDR_CTXT_L_64IS0, 0x7fff00001304ULL, 0 },
		{ ETM4_PKT_I_EXCEPT, PTD_ETM_EXC_IRQ, 0 },
		{ ETM4_PKT_I_ADDR_S_IS0, 0x7fff00001310ULL, 0 },
		/* the second chunk: synchronized again */
		{ ETM4_PKT_I_ASYNC, 0, 0 },
		{ ETM4_PKT_I_TRACE_INFO, 0, 0 },
		{ ETM4_PKT_I_TIMESTAMP, 0x123457000ULL, 0 },
		{ ETM4_PKT_I_TRACE_ON, 0, 0 },
		{ ETM4_PKT_I_ADDR_CTXT_L_64IS0, 0x7fff00001310ULL, 0 },
		{ ETM4_PKT_I_ATOM_F1, 0x0, 1 },
		{ ETM4_PKT_I_EXCEPT, PTD_ETM_EXC_CALL, 0 },
		{ ETM4_PKT_I_ADDR_S_IS0, 0x7fff00001318ULL, 0 },
	};

	ok(!rc, "encoder created");
	if (rc)
		return;
	rc |= ptd_etmenc_resume(e, 0x400000, 1234, 0x123456789ULL, &err);
	ev = xev(PTD_X_COND, 1, 0x400010, 0x400020);
	rc |= ptd_etmenc_branch(e, &ev, &err);
	ev = xev(PTD_X_COND, 0, 0x400030, 0x400034);
	rc |= ptd_etmenc_branch(e, &ev, &err);
	ev = xev(PTD_X_JUMP, 1, 0x400038, 0x400080);
	rc |= ptd_etmenc_branch(e, &ev, &err);
	ev = xev(PTD_X_IJUMP, 1, 0x400090, 0x400100);
	rc |= ptd_etmenc_branch(e, &ev, &err);
	ev = xev(PTD_X_RET, 1, 0x400110, 0x410000);
	rc |= ptd_etmenc_branch(e, &ev, &err);
	ev = xev(PTD_X_ICALL, 1, 0x410010, 0x12345678);
	rc |= ptd_etmenc_branch(e, &ev, &err);
	ev = xev(PTD_X_RET, 1, 0x12345690, 0x7fff00001234ULL);
	rc |= ptd_etmenc_branch(e, &ev, &err);
	ev = xev(PTD_X_COND, 0, 0x7fff00001240ULL, 0x7fff00001244ULL);
	rc |= ptd_etmenc_branch(e, &ev, &err);
	ev = xev(PTD_X_CALL, 1, 0x7fff00001250ULL, 0x7fff000012f0ULL);
	rc |= ptd_etmenc_branch(e, &ev, &err);
	ev = xev(PTD_X_SYSCALL, 1, 0x7fff00001300ULL, 0x7fff00001304ULL);
	rc |= ptd_etmenc_branch(e, &ev, &err);
	ok(!ptd_etmenc_enabled(e), "tracing is off after a system call");
	rc |= ptd_etmenc_resume(e, 0x7fff00001304ULL, 1234, 0x123456999ULL, &err);
	rc |= ptd_etmenc_interrupt(e, 0x7fff00001310ULL, &err);
	at = cut(e, aux, at);
	ok(at % PTD_CS_FRAME_SIZE == 0, "the first chunk is whole frames (%zu bytes)", at);
	rc |= ptd_etmenc_resume(e, 0x7fff00001310ULL, 1234, 0x123457000ULL, &err);
	ev = xev(PTD_X_COND, 0, 0x7fff00001310ULL, 0x7fff00001314ULL);
	rc |= ptd_etmenc_branch(e, &ev, &err);
	ev = xev(PTD_X_SYSCALL, 1, 0x7fff00001314ULL, 0x7fff00001318ULL);
	rc |= ptd_etmenc_branch(e, &ev, &err);
	at = cut(e, aux, at);
	ok(!rc, "encoding succeeded%s%s", rc ? ": " : "", rc ? err.msg : "");
	ok(!decode(aux, at, &g), "OpenCSD processes the %zu bytes of frames", at);
	check(&g, w, sizeof(w) / sizeof(w[0]), "two chunks");
	ptd_etmenc_free(e);
}

/* A-sync, Trace Info and k format 1 atoms: every data length from 14 */
static void test_padding(void)
{
	static uint8_t data[64], aux[128];
	static struct got g;
	unsigned k, bad = 0;

	for (k = 0; k <= 30; k++) {
		size_t n = 14 + k, len;
		unsigned i;

		memset(data, 0, sizeof(data));
		data[11] = 0x80;
		data[12] = 0x01;
		data[13] = 0x00;
		for (i = 0; i < k; i++)
			data[14 + i] = (uint8_t)(0xf6 | (i & 1));
		len = ptd_cs_frames(ID, data, n, aux);
		if (len != ptd_cs_frames_size(n) || decode(aux, len, &g) || g.n != 2 + k ||
		    g.p[0].type != ETM4_PKT_I_ASYNC || g.p[1].type != ETM4_PKT_I_TRACE_INFO) {
			printf("# %zu data bytes: %u packets\n", n, g.n);
			bad++;
			continue;
		}
		for (i = 0; i < k; i++)
			if (g.p[2 + i].type != ETM4_PKT_I_ATOM_F1 || g.p[2 + i].atom.En_bits != (i & 1))
				bad++;
	}
	ok(!bad, "frames of 14 to 44 data bytes (padded at odd and even bytes) decode to their packets");
}

int main(void)
{
	test_stream();
	test_padding();
	return done_testing();
}
#endif
