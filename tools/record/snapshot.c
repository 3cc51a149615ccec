#include "tools/record/snapshot.h"

#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

struct ptd_snapring {
	uint8_t *buf;         /* linearized: the last `size` bytes, oldest first */
	size_t size, len;
	uint64_t total;       /* stream bytes appended */
	struct ptd_vec psbs;  /* struct ptd_snappsb, offsets increasing */
	size_t first_psb;     /* PSBs before this index are out of the ring */
};

int ptd_snapring_new(struct ptd_snapring **out, size_t size, struct ptd_err *err)
{
	struct ptd_snapring *r = calloc(1, sizeof(*r));

	if (!r || !size || !(r->buf = malloc(size))) {
		free(r);
		return ptd_err_set(err, PTD_E_NOMEM, "snapshot buffer of %zu bytes", size);
	}
	r->size = size;
	r->psbs.elsize = sizeof(struct ptd_snappsb);
	*out = r;
	return 0;
}

void ptd_snapring_free(struct ptd_snapring *r)
{
	if (!r)
		return;
	free(r->buf);
	ptd_vec_fini(&r->psbs);
	free(r);
}

void ptd_snapring_append(struct ptd_snapring *r, const uint8_t *p, size_t n)
{
	uint64_t start;

	r->total += n;
	if (n >= r->size) {
		memcpy(r->buf, p + n - r->size, r->size);
		r->len = r->size;
	} else {
		size_t keep = r->len + n > r->size ? r->size - n : r->len;

		memmove(r->buf, r->buf + r->len - keep, keep);
		memcpy(r->buf + keep, p, n);
		r->len = keep + n;
	}
	/* forget PSBs that fell out of the ring */
	start = r->total - r->len;
	while (r->first_psb < r->psbs.len &&
	       ((struct ptd_snappsb *)ptd_vec_at(&r->psbs, r->first_psb))->offset < start)
		r->first_psb++;
	if (r->first_psb > 4096) {
		memmove(r->psbs.data, ptd_vec_at(&r->psbs, r->first_psb),
			(r->psbs.len - r->first_psb) * r->psbs.elsize);
		r->psbs.len -= r->first_psb;
		r->first_psb = 0;
	}
}

int ptd_snapring_psb(struct ptd_snapring *r, const struct ptd_snappsb *psb, struct ptd_err *err)
{
	struct ptd_snappsb *slot = ptd_vec_push(&r->psbs);

	if (!slot)
		return ptd_err_set(err, PTD_E_NOMEM, "PSB list");
	*slot = *psb;
	return 0;
}

const uint8_t *ptd_snapring_contents(struct ptd_snapring *r, size_t *len, uint64_t *start)
{
	*len = r->len;
	*start = r->total - r->len;
	return r->buf;
}

const struct ptd_snappsb *ptd_snapring_psb_before(const struct ptd_snapring *r, uint64_t off)
{
	const struct ptd_snappsb *best = NULL;
	size_t i;

	for (i = r->first_psb; i < r->psbs.len; i++) {
		const struct ptd_snappsb *p = ptd_vec_at(&r->psbs, i);

		if (p->offset > off)
			break;
		best = p;
	}
	return best;
}

const struct ptd_snappsb *ptd_snapring_psb_at(const struct ptd_snapring *r, uint64_t off)
{
	size_t i;

	for (i = r->first_psb; i < r->psbs.len; i++) {
		const struct ptd_snappsb *p = ptd_vec_at(&r->psbs, i);

		if (p->offset >= off)
			return p;
	}
	return NULL;
}
