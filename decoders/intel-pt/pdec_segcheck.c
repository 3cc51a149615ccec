/* PTDECODE_DEBUG_SEG_CHECK (pdec_seg.c): the decoder copied, the copy
 * compared, and what differs said before an abort.  The tests run with
 * it (tests/golden/segs.test and others); a segment's take is compared
 * with decoding its packets, a row's (pdec_segrow.c) with taking its
 * segments one at a time. */
#include "decoders/intel-pt/pdec_priv.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ptd_pdec *pdec_seg_copy(const struct ptd_pdec *d)
{
	struct ptd_pdec *c = malloc(sizeof(*c));

	if (!c)
		return NULL;
	memcpy(c, d, sizeof(*c));
	c->stack = NULL;
	c->stack_n = c->stack_cap = 0;
	if (pdec_stack_reserve(c, d->stack_n + 1)) {
		free(c);
		return NULL;
	}
	if (d->stack_n)   /* d's stack may be none yet */
		memcpy(c->stack, d->stack, d->stack_n * sizeof(*d->stack));
	c->stack_n = d->stack_n;
	return c;
}

void pdec_seg_copy_free(struct ptd_pdec *c)
{
	free(c->stack);
	free(c);
}

bool pdec_seg_same(const struct ptd_pdec *c, const struct ptd_pdec *d)
{
	struct ptd_pdec *t = malloc(sizeof(*t));
	bool same;

	if (!t)
		return false;
	memcpy(t, c, sizeof(*t));
	pdec_same_unread(t, d);
	same = !memcmp(t, d, offsetof(struct ptd_pdec, seg)) && c->stack_n == d->stack_n &&
	       (!d->stack_n || !memcmp(c->stack, d->stack, d->stack_n * sizeof(*d->stack)));
	free(t);
	return same;
}

void pdec_seg_compare(struct ptd_pdec *d, bool fail)
{
	struct ptd_pdec *c = d->seg.check;
	bool same = !fail && pdec_seg_same(c, d);

	d->seg.check = NULL;
	if (!same) {
		fprintf(stderr,
			"ptdecode: PTDECODE_DEBUG_SEG_CHECK: the segment at trace position %#llx "
			"(ip %#llx, %u bytes) %s\n",
			(unsigned long long)d->pos, (unsigned long long)d->seg.key.ip,
			(unsigned)d->seg.key.len,
			fail ? "was taken where decoding stops inside it" :
			       "leaves the decoder otherwise than decoding it");
		abort();
	}
	d->seg.checked++;
	pdec_seg_copy_free(c);
}

void pdec_seg_scan_differs(const struct ptd_pdec *d, const struct pdec_seg_key *k, unsigned len,
			   unsigned l)
{
	fprintf(stderr,
		"ptdecode: PTDECODE_DEBUG_SEG_CHECK: the segment found at trace position %#llx "
		"(ip %#llx, %u bytes) scans to %u\n",
		(unsigned long long)d->pos, (unsigned long long)k->ip, len, l);
	abort();
}

void pdec_seg_row_differs(const struct ptd_pdec *d, unsigned n, unsigned i)
{
	fprintf(stderr,
		"ptdecode: PTDECODE_DEBUG_SEG_CHECK: the row of %u segments ending at trace "
		"position %#llx leaves the decoder otherwise than taking them one at a time "
		"(%u taken so)\n",
		n, (unsigned long long)d->pos, i);
	abort();
}
