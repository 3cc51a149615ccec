/* Snapshot overlap: see overlap.h. */
#define _GNU_SOURCE
#include "decoders/intel-pt/overlap.h"
#include "decoders/intel-pt/pdec.h"

#include <intel-pt.h>
#include <string.h>

#define MAX_PADDING 7   /* AUXTRACE payloads are padded to 8 bytes */

static int next_psb(const uint8_t **buf, size_t *len)
{
	const uint8_t *n = memmem(*buf, *len, ptd_pdec_psb, PDEC_PSB_LEN);

	if (!n)
		return 0;
	*len -= (size_t)(n - *buf);
	*buf = n;
	return 1;
}

static int step_psb(const uint8_t **buf, size_t *len)
{
	const uint8_t *n;

	if (!*len)
		return 0;
	n = memmem(*buf + 1, *len - 1, ptd_pdec_psb, PDEC_PSB_LEN);
	if (!n)
		return 0;
	*len -= (size_t)(n - *buf);
	*buf = n;
	return 1;
}

static const uint8_t *last_psb(const uint8_t *buf, size_t len)
{
	size_t k;
	const uint8_t *p;

	if (len < PDEC_PSB_LEN)
		return NULL;
	k = len - PDEC_PSB_LEN + 1;
	for (;;) {
		p = memrchr(buf, ptd_pdec_psb[0], k);
		if (!p)
			return NULL;
		if (!memcmp(p + 1, ptd_pdec_psb + 1, PDEC_PSB_LEN - 1))
			return p;
		k = (size_t)(p - buf);
		if (!k)
			return NULL;
	}
}

/* The first TSC of the PSB+ at buf: its value and the bytes left from it. */
static int next_tsc(const uint8_t *buf, size_t len, uint64_t *tsc, size_t *rem)
{
	struct pt_packet_decoder *d;
	struct pt_config cfg;
	struct pt_packet pkt;
	uint64_t off;
	int rc, found = 0;

	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)buf;
	cfg.end = (uint8_t *)buf + len;
	d = pt_pkt_alloc_decoder(&cfg);
	if (!d)
		return 0;
	if (pt_pkt_sync_set(d, 0) < 0)
		goto out;
	for (;;) {
		if (pt_pkt_get_offset(d, &off) < 0)
			break;
		rc = pt_pkt_next(d, &pkt, sizeof(pkt));
		if (rc <= 0)
			break;
		if (pkt.type == ppt_tsc) {
			*tsc = pkt.payload.tsc.tsc;
			*rem = len - (size_t)off;
			found = 1;
			break;
		}
		if (pkt.type == ppt_psbend)
			break;
	}
out:
	pt_pkt_free_decoder(d);
	return found;
}

static int tsc_cmp(uint64_t a, uint64_t b)
{
	const uint64_t halfway = 1ULL << 55;

	if (a == b)
		return 0;
	if (a < b)
		return b - a < halfway ? -1 : 1;
	return a - b < halfway ? 1 : -1;
}

/* perf compares the padding bytes before start with the end of a */
static const uint8_t *adj_for_padding(const uint8_t *start, const uint8_t *b_begin,
				      const uint8_t *a, size_t la)
{
	const uint8_t *p = start - MAX_PADDING, *q = a + la - MAX_PADDING;
	int i;

	if (la < MAX_PADDING || start - b_begin < MAX_PADDING)
		return start;
	for (i = MAX_PADDING; i; i--, p++, q++)
		if (*p != *q)
			break;
	return p;
}

static const uint8_t *overlap_tsc(const uint8_t *a, size_t la, const uint8_t *b, size_t lb,
				  const uint8_t *b_begin, int *consecutive)
{
	uint64_t tsc_a, tsc_b;
	size_t len, rem_a, rem_b;
	const uint8_t *p = last_psb(a, la);

	if (!p)
		return b;
	len = la - (size_t)(p - a);
	if (!next_tsc(p, len, &tsc_a, &rem_a)) {
		la -= len;
		p = last_psb(a, la);
		if (!p)
			return b;
		len = la - (size_t)(p - a);
		if (!next_tsc(p, len, &tsc_a, &rem_a))
			return b;
	}
	for (;;) {
		if (next_tsc(b, lb, &tsc_b, &rem_b)) {
			int cmp = tsc_cmp(tsc_a, tsc_b);

			if (!cmp && rem_b >= rem_a) {
				*consecutive = 1;
				return adj_for_padding(b + lb - (rem_b - rem_a), b_begin, a, la);
			}
			if (cmp < 0)
				return b;
		}
		if (!step_psb(&b, &lb))
			return b + lb;
	}
}

const uint8_t *ptd_pt_find_overlap(const uint8_t *a, size_t la, const uint8_t *b, size_t lb,
				   int have_tsc, int *consecutive)
{
	const uint8_t *b_begin = b, *found;

	*consecutive = 0;
	if (!next_psb(&b, &lb))
		return b + lb;
	if (!next_psb(&a, &la))
		return b;
	if (have_tsc) {
		found = overlap_tsc(a, la, b, lb, b_begin, consecutive);
		if (found)
			return found;
	}
	while (lb < la)
		if (!step_psb(&a, &la))
			return b;
	for (;;) {
		if (memmem(a, la, b, la)) {
			*consecutive = 1;
			return adj_for_padding(b + la, b_begin, a, la);
		}
		if (!step_psb(&a, &la))
			return b;
	}
}
