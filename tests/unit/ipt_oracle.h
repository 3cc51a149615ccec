/* libipt's packet decoder as the oracle of the decoder's packet parser
 * (decoders/intel-pt/pdec_parse.h, pdec_rare.c): a packet libipt decodes,
 * in the decoder's terms (struct pdec_pkt). */
#ifndef PTD_TESTS_UNIT_IPT_ORACLE_H
#define PTD_TESTS_UNIT_IPT_ORACLE_H

#include <stddef.h>
#include <stdint.h>

struct pdec_pkt;

/* The packet at buf, of the len bytes there, as libipt's packet decoder
 * decodes it, into *out; its size, or 0 when libipt finds it bad or cut
 * off. */
int ipt_oracle_packet(const uint8_t *buf, size_t len, struct pdec_pkt *out);

#endif
