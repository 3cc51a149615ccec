#include "common/heap.h"

#include <stdlib.h>

static int less(const struct ptd_heap_ent *a, const struct ptd_heap_ent *b)
{
	return a->key < b->key || (a->key == b->key && a->seq < b->seq);
}

static void swap(struct ptd_heap_ent *a, struct ptd_heap_ent *b)
{
	struct ptd_heap_ent t = *a;

	*a = *b;
	*b = t;
}

int ptd_heap_push(struct ptd_heap *h, uint64_t key, void *item)
{
	size_t i;

	if (h->len == h->cap) {
		size_t ncap = h->cap ? h->cap * 2 : 16;
		struct ptd_heap_ent *n = realloc(h->e, ncap * sizeof(*n));

		if (!n)
			return -1;
		h->e = n;
		h->cap = ncap;
	}
	i = h->len++;
	h->e[i].key = key;
	h->e[i].seq = h->seq++;
	h->e[i].item = item;
	while (i && less(&h->e[i], &h->e[(i - 1) / 2])) {
		swap(&h->e[i], &h->e[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	return 0;
}

int ptd_heap_pop(struct ptd_heap *h, struct ptd_heap_ent *out)
{
	size_t i = 0;

	if (!h->len)
		return -1;
	*out = h->e[0];
	h->e[0] = h->e[--h->len];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < h->len && less(&h->e[l], &h->e[m]))
			m = l;
		if (r < h->len && less(&h->e[r], &h->e[m]))
			m = r;
		if (m == i)
			break;
		swap(&h->e[i], &h->e[m]);
		i = m;
	}
	return 0;
}

void ptd_heap_fini(struct ptd_heap *h)
{
	free(h->e);
	h->e = NULL;
	h->len = h->cap = 0;
}
