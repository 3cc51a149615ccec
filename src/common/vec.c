#include "common/vec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *ptd_vec_push(struct ptd_vec *v)
{
	size_t limit = v->limit ? v->limit : SIZE_MAX / v->elsize;
	void *slot;

	if (v->len >= limit)
		return NULL;
	if (v->len == v->cap) {
		size_t ncap = v->cap ? v->cap * 2 : 16;
		void *nd;

		if (ncap > limit)
			ncap = limit;
		nd = realloc(v->data, ncap * v->elsize);
		if (!nd)
			return NULL;
		v->data = nd;
		v->cap = ncap;
	}
	slot = (char *)v->data + v->len * v->elsize;
	memset(slot, 0, v->elsize);
	v->len++;
	return slot;
}

void ptd_vec_fini(struct ptd_vec *v)
{
	free(v->data);
	v->data = NULL;
	v->len = v->cap = 0;
}
