/* Packet parsing inline, for the loops that take every packet: the
 * walk's packet fetch (pdec_pkt.c, pdec_trace.c) and the look-aheads (the
 * PSB+ look-ahead in pdec_pkt.c, the CYC calibration's skim in
 * pdec_time.c). */
#ifndef PTD_DECODERS_INTEL_PT_PDEC_PARSE_H
#define PTD_DECODERS_INTEL_PT_PDEC_PARSE_H

#include <endian.h>
#include <string.h>

#include "decoders/intel-pt/pdec_priv.h"

/* perf's intel_pt_get_cyc: a CYC packet of up to 9 extension bytes
 * (libipt takes fewer); its size, or 0 when bad or cut off.  Inline at
 * each use (the walk's packet loop, the CYC look-ahead): a trace with
 * CYC has one before most packets. */
static inline __attribute__((always_inline)) int pdec_cyc_packet(const uint8_t *buf, size_t len,
								  struct pdec_pkt *out)
{
	unsigned byte = buf[0], offs = 1, shift;
	uint64_t payload = byte >> 3;

	byte >>= 2;
	for (shift = 5; byte & 1; shift += 7) {
		if (offs > 9 || offs >= len)
			return 0;
		byte = buf[offs++];
		payload |= ((uint64_t)byte >> 1) << shift;
	}
	out->type = PK_CYC;
	out->count = 0;
	out->payload = payload;
	return (int)offs;
}

/* The IP bytes after the header of a TIP, TIP.PGE, TIP.PGD or FUP whose
 * IP compression (the header's top 3 bits) is ipc; 0xff where ipc is
 * reserved. */
#define PDEC_IP_BYTES(ipc) ((ipc) == 5 || (ipc) == 7 ? 0xff : (ipc) == 6 ? 8 : (ipc) == 4 ? 6 : 2 * (ipc))

/* The size of a TIP, TIP.PGE, TIP.PGD or FUP with header byte b, when
 * its IP compression (the top 3 bits) is valid and its IP bytes fit in
 * the len bytes from the header on; else 0. */
static inline unsigned pdec_ip_packet_size(unsigned b, size_t len)
{
	static const uint8_t ip_bytes[8] = {
		PDEC_IP_BYTES(0), PDEC_IP_BYTES(1), PDEC_IP_BYTES(2), PDEC_IP_BYTES(3),
		PDEC_IP_BYTES(4), PDEC_IP_BYTES(5), PDEC_IP_BYTES(6), PDEC_IP_BYTES(7),
	};
	unsigned n = ip_bytes[b >> 5];

	return n != 0xff && len > n ? 1 + n : 0;
}

/* The packets most of a trace is made of, decoded as libipt decodes them
 * (its pt_pkt_read_tnt, pt_pkt_read_ip and pt_pkt_read_mtc), without its
 * per-packet set-up: PAD, short and long TNT, TIP, TIP.PGE, TIP.PGD and
 * FUP with a valid IP compression that fits, MTC and TSC (its
 * pt_pkt_read_tsc).  0 for any other: pdec_rare_packet decodes those. */
static inline __attribute__((always_inline)) int pdec_quick_packet(const uint8_t *p,
								      size_t len,
								      struct pdec_pkt *out)
{
	unsigned b = p[0], ip_size, n, i;
	uint64_t ip = 0;

	out->count = 0;
	out->payload = 0;
	if (b == 0) {
		out->type = PK_PAD;
		return 1;
	}
	if (!(b & 1) && b != 2) {
		unsigned bits = b >> 1, size = 31 - (unsigned)__builtin_clz(bits);

		out->type = PK_TNT;
		out->count = (int)size;
		out->payload = (uint64_t)(bits ^ (1u << size)) << (64 - size);
		return 1;
	}
	if (b == 2) {   /* long TNT: 02 a3 and 6 bytes, up to 47 bits and a stop bit */
		uint64_t bits;
		unsigned size;

		if (len < 8 || p[1] != 0xa3)
			return 0;
		memcpy(&bits, p, sizeof(bits));
		bits = le64toh(bits) >> 16;   /* bytes 2 to 7, little-endian */
		if (bits < 2)
			return 0;   /* no bit: libipt's error */
		size = 63 - (unsigned)__builtin_clzll(bits);
		out->type = PK_TNT;
		out->count = (int)size;
		out->payload = (bits ^ (1ULL << size)) << (64 - size);
		return 8;
	}
	switch (b & 0x1f) {
	case 0x0d: out->type = PK_TIP; break;
	case 0x11: out->type = PK_TIP_PGE; break;
	case 0x01: out->type = PK_TIP_PGD; break;
	case 0x1d: out->type = PK_FUP; break;
	case 0x19:   /* 59: MTC, its CTC bits in one byte; 19: TSC (99: MODE) */
		if (b == 0x59 && len >= 2) {
			out->type = PK_MTC;
			out->payload = p[1];
			return 2;
		}
		if (b != 0x19 || len < 8)
			return 0;
		/* TSC: 7 bytes of the time stamp counter, little-endian (one
		 * after each TIP.PGE when the trace resumes) */
		memcpy(&ip, p, sizeof(ip));
		out->type = PK_TSC;
		out->payload = le64toh(ip) >> 8;
		return 8;
	default: return 0;
	}
	if (!(ip_size = pdec_ip_packet_size(b, len)))
		return 0;
	n = ip_size - 1;
	if (len >= 9 && n) {
		/* the 8 bytes after the header, little-endian, cut to size */
		memcpy(&ip, p + 1, sizeof(ip));
		ip = le64toh(ip);
		if (n < 8)
			ip &= (1ULL << (8 * n)) - 1;
	} else {
		for (i = n; i; i--)
			ip = ip << 8 | p[i];
	}
	out->count = (int)(b >> 5);
	out->payload = ip;
	return (int)ip_size;
}

/* MODE and the extended packets (pdec_rare.c): the packet at p, of the
 * len bytes left in the piece, into *out; its size, or 0 when bad or cut
 * off. */
int pdec_rare_packet(const uint8_t *p, size_t len, struct pdec_pkt *out)
	__attribute__((noinline));

/* The packet at off of the piece [buf, buf + len) into *out; its size, or
 * 0 when bad or cut off (or off at the end).  The common packets and CYC
 * inline, the rest by pdec_rare_packet (pdec_quick_packet takes no CYC
 * packet: its low bits are 11). */
static inline __attribute__((always_inline)) int pdec_parse(const uint8_t *buf, size_t len,
							      size_t off, struct pdec_pkt *out)
{
	int rc;

	if (off >= len)
		return 0;
	if ((rc = pdec_quick_packet(buf + off, len - off, out)))
		return rc;
	if ((buf[off] & 3) == 3)
		return pdec_cyc_packet(buf + off, len - off, out);
	return pdec_rare_packet(buf + off, len - off, out);
}

int pdec_bad_packet(struct ptd_pdec *d) __attribute__((cold));

/* pdec_get_next_packet inline, for the walk's packet loop: the next
 * packet but PADs into d->packet, from the last look-ahead's or parsed;
 * 0, or -EBADMSG, -ENODATA, -ENOLINK as pdec_get_data. */
static inline __attribute__((always_inline)) int pdec_next_packet(struct ptd_pdec *d)
{
	int rc;

	d->last_packet_type = d->packet.type;
	do {
		d->pos += d->pkt_step;
		d->off += d->pkt_step;
		d->pkt_step = 0;
		if (d->off >= d->len) {
			rc = pdec_get_data(d, false);
			if (rc)
				return rc;
		}
		if (d->memo_i < d->memo_n && d->memo[d->memo_i].off == d->off) {
			d->packet = d->memo[d->memo_i].pkt;
			rc = d->memo[d->memo_i++].size;
		} else {
			rc = pdec_parse(d->buf, d->len, d->off, &d->packet);
			if (rc <= 0)
				return pdec_bad_packet(d);
		}
		d->pkt_step = (size_t)rc;
	} while (d->packet.type == PK_PAD);
	return 0;
}

#endif
