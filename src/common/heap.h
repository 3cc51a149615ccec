/* Binary min-heap of (key, item) pairs; ties come out in insertion order. */
#ifndef PTD_COMMON_HEAP_H
#define PTD_COMMON_HEAP_H

#include <stddef.h>
#include <stdint.h>

struct ptd_heap_ent {
	uint64_t key;
	uint64_t seq;
	void *item;
};

struct ptd_heap {
	struct ptd_heap_ent *e;
	size_t len, cap;
	uint64_t seq;
};

/* Returns 0 or -1 when out of memory. */
int ptd_heap_push(struct ptd_heap *h, uint64_t key, void *item);
/* Smallest entry out into *out; returns 0, or -1 when empty. */
int ptd_heap_pop(struct ptd_heap *h, struct ptd_heap_ent *out);
void ptd_heap_fini(struct ptd_heap *h);

#endif
