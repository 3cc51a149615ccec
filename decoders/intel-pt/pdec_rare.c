/* The packets pdec_quick_packet and pdec_cyc_packet leave: MODE and the
 * extended packets (first byte 02), as the Intel SDM lays them out (vol. 3,
 * "Intel Processor Trace", packet definitions).  They come a few times
 * per PSB, so one call each.  What is accepted, and what is bad, is what
 * libipt 2.0.5's packet decoder accepts: reserved bits that libipt checks
 * (TMA's byte 4 and the top bits of its FastCounter, MODE's leaf, a PTW
 * payload size of 2 or 3) make the packet bad, those it ignores do not.
 * tests/unit/test_pdec_pkt.c compares every packet kind, and random
 * bytes after each first and second byte, with libipt's decoder. */
#include "decoders/intel-pt/pdec_parse.h"

/* n bytes from p, little-endian */
static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* a packet of size bytes with no payload, when the piece holds it */
static int plain(size_t len, struct pdec_pkt *out, int type, unsigned size)
{
	if (len < size)
		return 0;
	out->type = type;
	return (int)size;
}

static int mode(const uint8_t *p, size_t len, struct pdec_pkt *out)
{
	unsigned b;

	if (len < 2)
		return 0;
	b = p[1];
	switch (b & 0xe0) {   /* the leaf */
	case 0x00:            /* exec: CS.L in bit 0, CS.D in bit 1 */
		out->type = PK_MODE_EXEC;
		out->payload = (b >> 1 & 1) | (b & 1) << 1;
		return 2;
	case 0x20:            /* TSX: InTX in bit 0, TXAbort in bit 1 */
		out->type = PK_MODE_TSX;
		out->payload = b & 3;
		return 2;
	}
	return 0;
}

/* PSB: 02 82 eight times over (ptd_pdec_psb) */
static int psb(const uint8_t *p, size_t len, struct pdec_pkt *out)
{
	if (len < PDEC_PSB_LEN || memcmp(p, ptd_pdec_psb, PDEC_PSB_LEN))
		return 0;
	out->type = PK_PSB;
	return PDEC_PSB_LEN;
}

/* PTWRITE: the second byte's bits 6:5 the payload's size (4 or 8 bytes),
 * bit 7 "a FUP follows with the IP" */
static int ptw(const uint8_t *p, size_t len, struct pdec_pkt *out)
{
	unsigned plc = p[1] >> 5 & 3, size = plc == 0 ? 4 : plc == 1 ? 8 : 0;

	if (!size || len < 2 + size)
		return 0;
	out->type = p[1] & 0x80 ? PK_PTWRITE_IP : PK_PTWRITE;
	out->payload = le(p + 2, size);
	out->count = (int)plc;
	return (int)(2 + size);
}

static int ext(const uint8_t *p, size_t len, struct pdec_pkt *out)
{
	uint64_t v;

	if (len < 2)
		return 0;
	switch (p[1]) {
	case 0x82: return psb(p, len, out);
	case 0x23: return plain(len, out, PK_PSBEND, 2);
	case 0xf3: return plain(len, out, PK_OVF, 2);
	case 0x83: return plain(len, out, PK_TRACESTOP, 2);
	case 0x62: return plain(len, out, PK_EXSTOP, 2);
	case 0xe2: return plain(len, out, PK_EXSTOP_IP, 2);
	case 0x03:   /* CBR: the core:bus ratio, a reserved byte */
		if (len < 4)
			return 0;
		out->type = PK_CBR;
		out->payload = p[2];
		return 4;
	case 0x73: { /* TMA: CTC bits 15:0, a zero byte, FastCounter bits 8:0 */
		unsigned fc;

		if (len < 7)
			return 0;
		fc = p[5] | (unsigned)p[6] << 8;
		if (p[4] || fc > 0x1ff)
			return 0;
		out->type = PK_TMA;
		out->payload = p[2] | (unsigned)p[3] << 8;
		out->count = (int)fc;
		return 7;
	}
	case 0x43:   /* PIP: CR3 bits 51:5 in payload bits 47:1, NR in bit 0 */
		if (len < 8)
			return 0;
		v = le(p + 2, 6);
		out->type = PK_PIP;
		out->payload = (v >> 1) << 5 | (v & 1);
		return 8;
	case 0xc8:   /* VMCS: the base address's bits 51:12 */
		if (len < 7)
			return 0;
		out->type = PK_VMCS;
		out->payload = le(p + 2, 5) << 12;
		return 7;
	case 0xc3:   /* the second extension: 88 is MNT, 8 bytes of payload */
		if (len < 11 || p[2] != 0x88)
			return 0;
		out->type = PK_MNT;
		out->payload = le(p + 3, 8);
		return 11;
	case 0xc2:   /* MWAIT: hints (EAX) and extensions (ECX), 4 bytes each */
		if (len < 10)
			return 0;
		out->type = PK_MWAIT;
		out->payload = le(p + 2, 4) | le(p + 6, 4) << 32;
		return 10;
	case 0x22:   /* PWRE: HW in bit 3, sub-C-state 11:8, C-state 15:12 */
		if (len < 4)
			return 0;
		v = le(p + 2, 2);
		out->type = PK_PWRE;
		out->payload = (v & 0xff00) | (v & 0x8) << 4;
		return 4;
	case 0xa2:   /* PWRX: deepest 3:0, last 7:4, wake reasons 8, 10, 11 */
		if (len < 7)
			return 0;
		out->type = PK_PWRX;
		out->payload = le(p + 2, 5) & 0xdff;
		return 7;
	}
	if ((p[1] & 0x1f) == 0x12)
		return ptw(p, len, out);
	return 0;   /* long TNT that pdec_quick_packet refused, or no packet */
}

int pdec_rare_packet(const uint8_t *p, size_t len, struct pdec_pkt *out)
{
	out->count = 0;
	out->payload = 0;
	if (!len)
		return 0;
	if (p[0] == 0x99)
		return mode(p, len, out);
	if (p[0] == 0x02)
		return ext(p, len, out);
	return 0;
}
