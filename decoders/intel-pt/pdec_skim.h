/* The CYC calibration's skim (pdec_time.c) reads a packet's first byte
 * through pdec_skim_tab: its size (SKIM_LEN), whether it clears after_cyc
 * (SKIM_CLR: short TNT, and TIP, TIP.PGE and FUP with a valid IP
 * compression; PAD keeps it, as perf's look-ahead skips PAD) and whether
 * it is a CYC packet (SKIM_CYC, its size read from its bytes); 0 for a
 * packet parsed.  Here for tests/unit/test_pdec_pkt.c, which checks the
 * table against libipt's packet decoder. */
#ifndef PTD_DECODERS_INTEL_PT_PDEC_SKIM_H
#define PTD_DECODERS_INTEL_PT_PDEC_SKIM_H

#include <stdint.h>

#include "decoders/intel-pt/pdec_parse.h"

#define SKIM_LEN 15
#define SKIM_CLR 16
#define SKIM_CYC 32
#define SKIM_IP(b) (PDEC_IP_BYTES((b) >> 5) == 0xff ? 0 : SKIM_CLR | (1 + PDEC_IP_BYTES((b) >> 5)))
#define SKIM(b) ((b) == 0 ? 1 :                                                        \
		 !((b) & 1) && (b) != 2 ? SKIM_CLR | 1 :                                 \
		 ((b) & 3) == 3 ? SKIM_CYC :                                             \
		 ((b) & 0x1f) == 0x0d || ((b) & 0x1f) == 0x11 || ((b) & 0x1f) == 0x1d ? \
		 SKIM_IP(b) : 0)
#define SKIM4(b) SKIM(b), SKIM((b) + 1), SKIM((b) + 2), SKIM((b) + 3)
#define SKIM16(b) SKIM4(b), SKIM4((b) + 4), SKIM4((b) + 8), SKIM4((b) + 12)
#define SKIM64(b) SKIM16(b), SKIM16((b) + 16), SKIM16((b) + 32), SKIM16((b) + 48)
static const uint8_t pdec_skim_tab[256] = { SKIM64(0), SKIM64(64), SKIM64(128), SKIM64(192) };

/* What pdec_skim_tab says of first byte b, for the skim's commonest
 * packets, CYC and short TNT, worked out from b itself, so that the next
 * packet's offset does not wait on a load from the table (the bench's
 * W4, a CYC packet before each TNT and TIP: the skim's share of an
 * i100us run 12.9% to 9.9% by the clock); 0 for the others, which the
 * table says */
static inline __attribute__((always_inline)) unsigned pdec_skim_quick(unsigned b)
{
	if ((b & 3) == 3)
		return SKIM_CYC;
	if (!(b & 1) && b > 2)
		return SKIM_CLR | 1;
	return 0;
}

/* What the skim reads of first byte b: calc_cyc_to_tsc (pdec_time.c)
 * reads it in these two steps itself, branching on the first before it
 * loads from the table; the tests check it whole against libipt */
static inline __attribute__((always_inline)) unsigned pdec_skim(unsigned b)
{
	unsigned v = pdec_skim_quick(b);

	return v ? v : pdec_skim_tab[b];
}

#endif
