/* Open-addressed hash map from u64 keys to pointers (NULL values are not
 * stored).  Grows by doubling; `limit` caps the number of entries. */
#ifndef PTD_COMMON_U64MAP_H
#define PTD_COMMON_U64MAP_H

#include <stddef.h>
#include <stdint.h>

struct ptd_u64map {
	uint64_t *keys;
	void **vals;
	size_t cap, used;
	size_t limit;        /* 0: no limit */
};

/* A key for a string (FNV-1a): equal strings give equal keys, different
 * ones may collide, so keep the string beside its value and compare. */
static inline uint64_t ptd_u64map_str_key(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ULL;
	return h;
}

/* Value for key, or NULL. */
void *ptd_u64map_get(const struct ptd_u64map *m, uint64_t key);

/* Insert or replace.  Returns 0, or -1 when out of memory or at the limit. */
int ptd_u64map_put(struct ptd_u64map *m, uint64_t key, void *val);

/* Remove key.  Returns 1 when it was there, 0 when not. */
int ptd_u64map_del(struct ptd_u64map *m, uint64_t key);

/* Free the table (not the values). */
void ptd_u64map_fini(struct ptd_u64map *m);

/* Iterate: for (i = 0; ptd_u64map_next(m, &i, &k, &v); ) ... */
int ptd_u64map_next(const struct ptd_u64map *m, size_t *i, uint64_t *key, void **val);

#endif
