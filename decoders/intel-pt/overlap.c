/* Snapshot overlap: see overlap.h. */
#define _GNU_SOURCE
#include "decoders/intel-pt/overlap.h"
#include "decoders/intel-pt/pdec_priv.h"

#include <string.h>

#define MAX_PADDING 7   /* AUXTRACE payloads are padded to 8 bytes */

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
	if (!pdec_next_tsc(p, len, &tsc_a, &rem_a)) {
		la -= len;
		p = last_psb(a, la);
		if (!p)
			return b;
		len = la - (size_t)(p - a);
		if (!pdec_next_tsc(p, len, &tsc_a, &rem_a))
			return b;
	}
	for (;;) {
		if (pdec_next_tsc(b, lb, &tsc_b, &rem_b)) {
			int cmp = tsc_cmp(tsc_a, tsc_b);

			if (!cmp && rem_b >= rem_a) {
				*consecutive = 1;
				return adj_for_padding(b + lb - (rem_b - rem_a), b_begin, a, la);
			}
			if (cmp < 0)
				return b;
		}
		if (!pdec_step_psb(&b, &lb))
			return b + lb;
	}
}

const uint8_t *ptd_pt_find_overlap(const uint8_t *a, size_t la, const uint8_t *b, size_t lb,
				   int have_tsc, int *consecutive)
{
	const uint8_t *b_begin = b, *found;

	*consecutive = 0;
	if (!pdec_next_psb(&b, &lb))
		return b + lb;
	if (!pdec_next_psb(&a, &la))
		return b;
	if (have_tsc) {
		found = overlap_tsc(a, la, b, lb, b_begin, consecutive);
		if (found)
			return found;
	}
	while (lb < la)
		if (!pdec_step_psb(&a, &la))
			return b;
	for (;;) {
		if (memmem(a, la, b, la)) {
			*consecutive = 1;
			return adj_for_padding(b + la, b_begin, a, la);
		}
		if (!pdec_step_psb(&a, &la))
			return b;
	}
}
