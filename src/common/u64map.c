#include "common/u64map.h"

#include <stdlib.h>

static size_t slot_of(uint64_t k, size_t cap)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (size_t)(k & (cap - 1));
}

void *ptd_u64map_get(const struct ptd_u64map *m, uint64_t key)
{
	size_t h;

	if (!m->cap)
		return NULL;
	for (h = slot_of(key, m->cap); m->vals[h]; h = (h + 1) & (m->cap - 1))
		if (m->keys[h] == key)
			return m->vals[h];
	return NULL;
}

static int grow(struct ptd_u64map *m)
{
	size_t ncap = m->cap ? m->cap * 2 : 64, i;
	uint64_t *nk = calloc(ncap, sizeof(*nk));
	void **nv = calloc(ncap, sizeof(*nv));

	if (!nk || !nv) {
		free(nk);
		free(nv);
		return -1;
	}
	for (i = 0; i < m->cap; i++) {
		size_t h;

		if (!m->vals[i])
			continue;
		for (h = slot_of(m->keys[i], ncap); nv[h]; h = (h + 1) & (ncap - 1))
			;
		nk[h] = m->keys[i];
		nv[h] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = nk;
	m->vals = nv;
	m->cap = ncap;
	return 0;
}

int ptd_u64map_put(struct ptd_u64map *m, uint64_t key, void *val)
{
	size_t h;

	if ((m->used + 1) * 2 > m->cap && grow(m))
		return -1;
	for (h = slot_of(key, m->cap); m->vals[h]; h = (h + 1) & (m->cap - 1)) {
		if (m->keys[h] == key) {
			m->vals[h] = val;
			return 0;
		}
	}
	if (m->limit && m->used >= m->limit)
		return -1;
	m->keys[h] = key;
	m->vals[h] = val;
	m->used++;
	return 0;
}

int ptd_u64map_del(struct ptd_u64map *m, uint64_t key)
{
	size_t mask = m->cap - 1, i, j, k;

	if (!m->cap)
		return 0;
	for (i = slot_of(key, m->cap); m->vals[i] && m->keys[i] != key; i = (i + 1) & mask)
		;
	if (!m->vals[i])
		return 0;
	/* backward shift: an entry further along the probe run moves into the
	 * hole unless its home slot lies cyclically in (hole, entry] */
	for (j = (i + 1) & mask; m->vals[j]; j = (j + 1) & mask) {
		k = slot_of(m->keys[j], m->cap);
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		m->keys[i] = m->keys[j];
		m->vals[i] = m->vals[j];
		i = j;
	}
	m->vals[i] = NULL;
	m->used--;
	return 1;
}

void ptd_u64map_fini(struct ptd_u64map *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->used = 0;
}

int ptd_u64map_next(const struct ptd_u64map *m, size_t *i, uint64_t *key, void **val)
{
	for (; *i < m->cap; (*i)++) {
		if (m->vals[*i]) {
			*key = m->keys[*i];
			*val = m->vals[*i];
			(*i)++;
			return 1;
		}
	}
	return 0;
}
