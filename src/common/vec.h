/* A growable array of fixed-size elements with a hard element limit.
 *
 * struct ptd_vec v = PTD_VEC_INIT(sizeof(struct x));
 * struct x *slot = ptd_vec_push(&v);    (NULL: out of memory or limit)
 */
#ifndef PTD_COMMON_VEC_H
#define PTD_COMMON_VEC_H

#include <stddef.h>

struct ptd_vec {
	void *data;
	size_t len;       /* elements in use */
	size_t cap;       /* elements allocated */
	size_t elsize;    /* bytes per element */
	size_t limit;     /* most elements allowed; 0 = SIZE_MAX / elsize */
};

#define PTD_VEC_INIT(sz) { NULL, 0, 0, (sz), 0 }

/* Append one zeroed element; returns a pointer to it, valid until the next
 * push, or NULL when memory or the limit runs out. */
void *ptd_vec_push(struct ptd_vec *v);

/* Element i (no bounds check: callers index below len). */
static inline void *ptd_vec_at(const struct ptd_vec *v, size_t i)
{
	return (char *)v->data + i * v->elsize;
}

/* Free the storage; the vector is empty and reusable afterwards. */
void ptd_vec_fini(struct ptd_vec *v);

#endif
