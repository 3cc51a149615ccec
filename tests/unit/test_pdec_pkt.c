/* The decoder's quick path for the commonest packets (PAD, short TNT, TIP,
 * TIP.PGE, TIP.PGD, FUP) against libipt's packet decoder, the oracle:
 * every first byte, followed by pseudo-random bytes, at every length from 1
 * to 10 bytes.  Where the quick path takes a packet, libipt must decode
 * the same packet (type, size, bit count or IP compression, payload). */
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
#include "tests/tap.h"

int main(void)
{
	static const char *const kinds[] = { "PAD", "TNT", "TIP", "TIP.PGE", "TIP.PGD", "FUP" };
	const int types[] = { PK_PAD, PK_TNT, PK_TIP, PK_TIP_PGE, PK_TIP_PGD, PK_FUP };
	unsigned long taken[6] = { 0 }, compared = 0, differ = 0, first_bad = 256;
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	unsigned b, rep, len, i, k;

	for (b = 0; b < 256; b++) {
		for (rep = 0; rep < 64; rep++) {
			uint8_t buf[10];

			buf[0] = (uint8_t)b;
			for (i = 1; i < sizeof(buf); i++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				buf[i] = (uint8_t)x;
			}
			for (len = 1; len <= sizeof(buf); len++) {
				struct pdec_pkt q, l;
				int nq = pdec_test_packet(buf, len, true, &q), nl;

				if (nq <= 0)
					continue;
				compared++;
				nl = pdec_test_packet(buf, len, false, &l);
				if (nl != nq || l.type != q.type || l.count != q.count ||
				    l.payload != q.payload) {
					if (!differ++ && first_bad == 256)
						first_bad = b;
					continue;
				}
				for (k = 0; k < 6; k++)
					if (q.type == types[k])
						taken[k]++;
			}
		}
	}
	ok(compared > 0 && !differ, "the quick path decodes %lu packets as libipt does%s", compared,
	   differ ? " (not all)" : "");
	if (differ)
		printf("# %lu differ, the first with first byte %#lx\n", differ, first_bad);
	for (k = 0; k < 6; k++)
		ok(taken[k] > 0, "%s packets taken by the quick path: %lu", kinds[k], taken[k]);
	return done_testing();
}
#endif
