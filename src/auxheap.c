/* perf's auxtrace heap: see auxheap.h. */
#include "auxheap.h"

#include <stdlib.h>

/* put (nr, ordinal) at pos or above it */
static void sift_up(struct ptd_auxheap_item *a, size_t pos, uint32_t nr, uint64_t ordinal)
{
	while (pos) {
		size_t parent = (pos - 1) >> 1;

		if (a[parent].ordinal <= ordinal)
			break;
		a[pos] = a[parent];
		pos = parent;
	}
	a[pos].nr = nr;
	a[pos].ordinal = ordinal;
}

int ptd_auxheap_add(struct ptd_auxheap *h, uint32_t nr, uint64_t ordinal)
{
	if (h->cnt == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 16;
		struct ptd_auxheap_item *a = realloc(h->a, cap * sizeof(*a));

		if (!a)
			return -1;
		h->a = a;
		h->cap = cap;
	}
	sift_up(h->a, h->cnt++, nr, ordinal);
	return 0;
}

void ptd_auxheap_pop(struct ptd_auxheap *h)
{
	struct ptd_auxheap_item *a = h->a;
	size_t pos = 0, cnt = h->cnt, left, right, last;

	if (!cnt)
		return;
	h->cnt--;
	for (;;) {
		left = (pos << 1) + 1;
		if (left >= cnt)
			break;
		right = left + 1;
		if (right >= cnt) {
			a[pos] = a[left];
			return;
		}
		if (a[left].ordinal < a[right].ordinal) {
			a[pos] = a[left];
			pos = left;
		} else {
			a[pos] = a[right];
			pos = right;
		}
	}
	last = cnt - 1;
	sift_up(a, pos, a[last].nr, a[last].ordinal);
}

void ptd_auxheap_fini(struct ptd_auxheap *h)
{
	free(h->a);
	h->a = NULL;
	h->cnt = h->cap = 0;
}
