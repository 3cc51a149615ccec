/* The decoder's quick path for the commonest packets (PAD, short and long
 * TNT, TIP, TIP.PGE, TIP.PGD, FUP, MTC, TSC) against libipt's packet decoder, the
 * oracle: every first byte, followed by pseudo-random bytes, at every
 * length from 1 to 10 bytes (after 02, half of them long TNT's a3, with
 * payloads down to none).  Where the quick path takes a packet, libipt must decode
 * the same packet (type, size, bit count or IP compression, payload).
 * And the packets a look-ahead keeps (pdec_lookahead): the decoder takes
 * them where it reaches their offsets, as libipt decodes them there, and
 * not at another offset or in another piece of trace.  And the CYC
 * calibration's skim table (pdec_skim_tab) against libipt on the same
 * bytes: the sizes it gives and the packets it says they are.  And the
 * whole parser, MODE and the extended packets with it (pdec_rare.c),
 * against libipt on every first and second byte (parser_checks). */
#include "config.h"

#include <stdio.h>

#ifndef HAVE_PT_PERF
int main(void)
{
	printf("1..0 # SKIP ptdecode was built without libipt or capstone\n");
	return 0;
}
#else
#include "decoders/intel-pt/pdec_priv.h"
#include "decoders/intel-pt/pdec_skim.h"
#include "tests/tap.h"
#include "tests/unit/ipt_oracle.h"

#include <errno.h>
#include "xorshift.h"

/* PAD, MTC 0x12, TNT (2 bits), CYC 3, TIP (IPC 1), CBR 0x1f, TSC */
static const uint8_t piece_a[] = {
	0x00, 0x59, 0x12, 0x0a, 0x1b, 0x2d, 0x34, 0x12, 0x02, 0x03, 0x1f, 0x00,
	0x19, 1, 2, 3, 4, 5, 6, 7,
};
/* as long, other packets at the same offsets: MTC 0x34, ... */
static const uint8_t piece_b[sizeof(piece_a)] = {
	0x59, 0x34, 0x0c, 0x0c, 0x0c, 0x0c, 0x0c, 0x0c, 0x0c, 0x0c, 0x0c, 0x0c,
	0x0c, 0x0c, 0x0c, 0x0c, 0x0c, 0x0c, 0x0c, 0x0c,
};

struct pieces {
	const uint8_t *p[2];
	unsigned next;
};

static int get_trace(void *ctx, struct pdec_buf *b)
{
	struct pieces *s = ctx;

	if (s->next < 2) {
		b->buf = s->p[s->next++];
		b->len = sizeof(piece_a);
		b->consecutive = 1;
	}
	return 0;
}

static int no_walk(void *ctx, const struct pdec_insn **insn, uint64_t *insn_cnt, uint64_t *ip,
		   uint64_t to_ip, uint64_t max_insn_cnt)
{
	(void)ctx; (void)insn; (void)insn_cnt; (void)ip; (void)to_ip; (void)max_insn_cnt;
	return -EINVAL;
}

static int go_on(const struct pdec_pkt *pkt, void *data)
{
	(void)pkt;
	++*(unsigned *)data;
	return 0;
}

/* A decoder at the start of piece_a (then piece_b), after a look-ahead
 * over the whole piece; NULL on failure. */
static struct ptd_pdec *looked_ahead(struct pieces *s, unsigned *seen)
{
	struct pdec_params p = { .walk = no_walk, .get_trace = get_trace, .ctx = s };
	struct ptd_pdec *d = ptd_pdec_new(&p);

	s->p[0] = piece_a;
	s->p[1] = piece_b;
	s->next = 0;
	*seen = 0;
	if (d && !pdec_get_data(d, false))
		pdec_lookahead(d, go_on, seen);
	return d;
}

/* The decoder's packet is the one libipt decodes at its offset of buf. */
static int as_libipt(const struct ptd_pdec *d, const uint8_t *buf)
{
	struct pdec_pkt l;
	int n = ipt_oracle_packet(buf + d->off, sizeof(piece_a) - d->off, &l);

	return n > 0 && (size_t)n == d->pkt_step && l.type == d->packet.type &&
	       l.count == d->packet.count && l.payload == d->packet.payload;
}

static void memo_checks(void)
{
	struct pieces s;
	struct ptd_pdec *d;
	unsigned seen, n = 0, same = 0;

	d = looked_ahead(&s, &seen);
	ok(d && seen == 6 && d->memo_n == 7, "a look-ahead keeps the 7 packets it parses (%u after PAD)",
	   seen);
	while (d && d->off + d->pkt_step < sizeof(piece_a) && !pdec_get_next_packet(d)) {
		n++;
		same += as_libipt(d, piece_a);
	}
	ok(d && n == 6 && same == n && d->memo_i == d->memo_n,
	   "the decoder takes them all, as libipt decodes them (%u of %u)", same, n);
	ptd_pdec_free(d);

	d = looked_ahead(&s, &seen);
	ok(d && !pdec_get_data(d, false) && !pdec_get_next_packet(d) && as_libipt(d, piece_b) &&
	   d->packet.type == PK_MTC && d->packet.payload == 0x34,
	   "a new piece of trace drops them: its own first packet, MTC 0x34");
	ptd_pdec_free(d);

	d = looked_ahead(&s, &seen);
	if (d)
		d->pkt_step = 3;   /* to the TNT, past the first two kept */
	ok(d && !pdec_get_next_packet(d) && as_libipt(d, piece_a) && d->packet.type == PK_TNT &&
	   !pdec_get_next_packet(d) && as_libipt(d, piece_a) && d->packet.type == PK_CYC,
	   "where the decoder leaves their order, it parses: TNT, CYC");
	ptd_pdec_free(d);
}

/* What pdec_skim_tab says of a packet libipt decodes as l, of n bytes,
 * from first byte b (with len bytes there): 1 when it is right, 0 when
 * wrong; *taken set when the skim takes it by its first byte. */
static int skim_right(unsigned b, int n, const struct pdec_pkt *l, size_t len, int *taken)
{
	unsigned v = pdec_skim(b), size = v & SKIM_LEN;
	int moves_on = l->type == PK_PAD || (l->type == PK_TNT && b != 2) || l->type == PK_TIP ||
		       l->type == PK_TIP_PGE || l->type == PK_FUP;

	*taken = 0;
	if (v & SKIM_CYC)
		return l->type == PK_CYC && v == SKIM_CYC;
	if (l->type == PK_CYC || !size)   /* parsed: right unless the skim could take it */
		return l->type != PK_CYC && !moves_on;
	*taken = size <= len;
	return moves_on && (size_t)n == size && !(v & SKIM_CLR) == (l->type == PK_PAD);
}

/* The skim's table checked on the packets libipt decodes */
struct skim_count {
	unsigned long checked, taken, cyc, wrong, first_bad;
};

static void skim_check(struct skim_count *s, unsigned b, int n, const struct pdec_pkt *l,
		       size_t len)
{
	int t;

	if (n <= 0)
		return;
	s->checked++;
	if (!skim_right(b, n, l, len, &t) && !s->wrong++)
		s->first_bad = b;
	s->taken += (unsigned long)t;
	s->cyc += l->type == PK_CYC;
}

static void skim_report(const struct skim_count *s)
{
	ok(s->checked > 0 && !s->wrong,
	   "the skim's table reads %lu packets' first bytes as libipt decodes them%s", s->checked,
	   s->wrong ? " (not all)" : "");
	if (s->wrong)
		printf("# %lu wrong, the first with first byte %#lx\n", s->wrong, s->first_bad);
	ok(s->taken > 0 && s->cyc > 0, "the skim takes %lu of them by their first byte, %lu are CYC",
	   s->taken, s->cyc);
}

/* The bytes after a first byte b and second byte e (of 0x02), so that
 * some of them are the packet they begin, not bad: PSB's pattern, MNT's
 * 88, TMA's zero byte and FastCounter, a PTW of 4 or 8 bytes. */
static void shape_ext(uint8_t *buf, size_t size, unsigned rep)
{
	size_t i;

	if (rep % 2)
		return;   /* half of them as random as they come */
	switch (buf[1]) {
	case 0x82:
		for (i = 2; i + 1 < size; i += 2) {
			buf[i] = 0x02;
			buf[i + 1] = 0x82;
		}
		if (rep % 8 == 2)
			buf[2 + rep % 13] ^= 1;   /* one byte of the pattern off */
		break;
	case 0xc3:
		buf[2] = rep % 8 == 2 ? 0x89 : 0x88;
		break;
	case 0x73:
		buf[4] = rep % 8 == 2;    /* the byte libipt wants zero */
		buf[6] &= rep % 8 == 4 ? 3 : 1;   /* FastCounter bit 9 set in some */
		break;
	}
}

/* The decoder's parser (pdec_parse: the quick path, CYC, pdec_rare.c)
 * against libipt's packet decoder: every first byte, and after 02 every
 * second byte, with pseudo-random bytes after them at every length up to
 * 16.  Where either takes a packet, both must (but CYC, which the parser
 * reads by perf's rule: up to 9 extension bytes), the same packet. */
static void parser_checks(void)
{
	static const struct { int type; const char *name; } rare[] = {
		{ PK_MODE_EXEC, "MODE.Exec" }, { PK_MODE_TSX, "MODE.TSX" }, { PK_PSB, "PSB" },
		{ PK_PSBEND, "PSBEND" }, { PK_OVF, "OVF" }, { PK_TRACESTOP, "TraceStop" },
		{ PK_CBR, "CBR" }, { PK_TMA, "TMA" }, { PK_PIP, "PIP" }, { PK_VMCS, "VMCS" },
		{ PK_MNT, "MNT" }, { PK_EXSTOP, "EXSTOP" }, { PK_EXSTOP_IP, "EXSTOP.IP" },
		{ PK_MWAIT, "MWAIT" }, { PK_PWRE, "PWRE" }, { PK_PWRX, "PWRX" },
		{ PK_PTWRITE, "PTW" }, { PK_PTWRITE_IP, "PTW.IP" },
	};
	enum { NRARE = sizeof(rare) / sizeof(rare[0]) };
	unsigned long taken[NRARE] = { 0 }, compared = 0, both_bad = 0, differ = 0;
	unsigned first_bad = 0, b, e, rep, len, k;
	uint64_t x = 0x2545f4914f6cdd1dULL;

	for (b = 0; b < 256; b++) {
		if ((b & 3) == 3)
			continue;   /* CYC */
		for (e = 0; e < (b == 2 ? 256u : 1u); e++) {
			for (rep = 0; rep < 48; rep++) {
				uint8_t buf[16];
				size_t i;

				for (i = 0; i < sizeof(buf); i++)
					buf[i] = (uint8_t)xorshift64(&x);
				buf[0] = (uint8_t)b;
				if (b == 2) {
					buf[1] = (uint8_t)e;
					shape_ext(buf, sizeof(buf), rep);
				}
				for (len = 1; len <= sizeof(buf); len++) {
					struct pdec_pkt p = { 0 }, l = { 0 };
					int np = pdec_test_packet(buf, len, false, &p);
					int nl = ipt_oracle_packet(buf, len, &l);

					compared++;
					if (np <= 0 && nl <= 0) {
						both_bad++;
						continue;
					}
					if (np != nl || p.type != l.type || p.count != l.count ||
					    p.payload != l.payload) {
						if (!differ++)
							first_bad = b << 8 | (b == 2 ? e : 0);
						continue;
					}
					for (k = 0; k < NRARE; k++)
						taken[k] += p.type == rare[k].type;
				}
			}
		}
	}
	ok(compared > 0 && !differ,
	   "the parser decodes %lu byte strings as libipt does (%lu bad to both)%s", compared,
	   both_bad, differ ? " (not all)" : "");
	if (differ)
		printf("# %lu differ, the first at bytes %#x\n", differ, first_bad);
	for (k = 0; k < NRARE; k++)
		ok(taken[k] > 0, "%s packets parsed as libipt does: %lu", rare[k].name, taken[k]);
}

int main(void)
{
	static const char *const kinds[] = { "PAD", "TNT", "TIP", "TIP.PGE", "TIP.PGD", "FUP",
					     "MTC", "TSC", "long TNT" };
	const int types[] = { PK_PAD, PK_TNT, PK_TIP, PK_TIP_PGE, PK_TIP_PGD, PK_FUP, PK_MTC,
			      PK_TSC };
	unsigned long taken[9] = { 0 }, compared = 0, differ = 0, first_bad = 256;
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	struct skim_count skim = { .first_bad = 256 };
	unsigned b, rep, len, i, k;

	for (b = 0; b < 256; b++) {
		for (rep = 0; rep < 64; rep++) {
			uint8_t buf[10];

			buf[0] = (uint8_t)b;
			for (i = 1; i < sizeof(buf); i++) {
				buf[i] = (uint8_t)xorshift64(&x);
			}
			if (b == 2 && rep % 2) {   /* long TNT, some with few bits or none */
				buf[1] = 0xa3;
				if (rep % 8 == 1)
					memset(buf + 2 + rep % 7, 0, sizeof(buf) - 2 - rep % 7);
				if (rep == 9 || rep == 17) {   /* the stop bit alone; none */
					memset(buf + 2, 0, sizeof(buf) - 2);
					buf[2] = rep == 9;
				}
			}
			for (len = 1; len <= sizeof(buf); len++) {
				struct pdec_pkt q, l;
				int nq = pdec_test_packet(buf, len, true, &q);
				int nl = ipt_oracle_packet(buf, len, &l);

				skim_check(&skim, b, nl, &l, len);
				if (nq <= 0)
					continue;
				compared++;
				if (nl != nq || l.type != q.type || l.count != q.count ||
				    l.payload != q.payload) {
					if (!differ++ && first_bad == 256)
						first_bad = b;
					continue;
				}
				for (k = 0; k < 8; k++)
					if (q.type == types[k])
						taken[b == 2 ? 8 : k]++;
			}
		}
	}
	ok(compared > 0 && !differ, "the quick path decodes %lu packets as libipt does%s", compared,
	   differ ? " (not all)" : "");
	if (differ)
		printf("# %lu differ, the first with first byte %#lx\n", differ, first_bad);
	for (k = 0; k < 9; k++)
		ok(taken[k] > 0, "%s packets taken by the quick path: %lu", kinds[k], taken[k]);
	skim_report(&skim);
	for (b = 0, i = 0, k = 1; b < 256; b++) {
		if (pdec_skim_quick(b)) {
			i++;
			k &= pdec_skim_quick(b) == pdec_skim_tab[b];
		}
	}
	ok(k && i == 64 + 126, "the skim's first bytes worked out (%u: CYC and short TNT) are its table's",
	   i);
	memo_checks();
	parser_checks();
	return done_testing();
}
#endif
