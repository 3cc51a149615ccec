/* The noted records, delta-encoded: see notelog.h.
 *
 * A record is a byte of type (low 6 bits) and flags (high 2), then the
 * differences from the record before (the first: from zeroes) of its
 * time, cpu, pid, tid and np_tid, each zigzag-encoded (small negative
 * differences small too) in LEB128, 7 bits a byte. */
#include "notelog.h"

#include <stdlib.h>
#include <string.h>

#include "common/hugemem.h"

#define MAX_REC (1 + 5 * 10)   /* the longest record: five 64-bit varints */

/* The first block is small and malloc'd: most files note a few hundred
 * records, and the decoder's tables fill the huge pages (hugemem.h) */
#define FIRST_BLOCK ((size_t)4 << 10)
#define BLOCK ((size_t)64 << 10)

struct ptd_noteblock {
	struct ptd_noteblock *next;
	size_t len, cap;              /* bytes of data: whole records */
	uint8_t data[];
};

void ptd_notelog_fini(struct ptd_notelog *l)
{
	struct ptd_noteblock *b = l->first, *next;

	if (b) {
		next = b->next;
		free(b);
		for (b = next; b; b = next) {
			next = b->next;
			ptd_huge_free(b);
		}
	}
	memset(l, 0, sizeof(*l));
}

static uint8_t *put(uint8_t *p, uint64_t d)
{
	uint64_t z = (d << 1) ^ (uint64_t)-(int64_t)(d >> 63);   /* zigzag of (int64_t)d */

	while (z >= 0x80) {
		*p++ = (uint8_t)(z | 0x80);
		z >>= 7;
	}
	*p++ = (uint8_t)z;
	return p;
}

int ptd_notelog_add(struct ptd_notelog *l, const struct ptd_noted *n)
{
	const struct ptd_noted *b = &l->last;
	struct ptd_noteblock *k = l->last_block;
	uint8_t *p;

	if (!k || k->cap - k->len < MAX_REC) {
		size_t size = k ? BLOCK : FIRST_BLOCK;

		if (!(k = k ? ptd_huge_zalloc(size) : malloc(size)))
			return -1;
		k->next = NULL;
		k->len = 0;
		k->cap = size - sizeof(*k);
		if (l->last_block)
			l->last_block->next = k;
		else
			l->first = k;
		l->last_block = k;
	}
	p = k->data + k->len;
	*p++ = (uint8_t)((n->type & 0x3f) | (n->flags << 6));
	p = put(p, n->time - b->time);
	p = put(p, (uint64_t)((int64_t)n->cpu - b->cpu));
	p = put(p, (uint64_t)((int64_t)n->pid - b->pid));
	p = put(p, (uint64_t)((int64_t)n->tid - b->tid));
	p = put(p, (uint64_t)((int64_t)n->np_tid - b->np_tid));
	l->bytes += (size_t)(p - k->data) - k->len;
	k->len = (size_t)(p - k->data);
	l->last = *n;
	l->n++;
	return 0;
}

static const uint8_t *get(const uint8_t *p, uint64_t *d)
{
	uint64_t z = 0;
	unsigned s = 0;

	for (;;) {
		z |= (uint64_t)(*p & 0x7f) << s;
		if (!(*p++ & 0x80))
			break;
		s += 7;
	}
	*d = (z >> 1) ^ (uint64_t)-(int64_t)(z & 1);
	return p;
}

int ptd_notelog_next(const struct ptd_notelog *l, struct ptd_notecur *c)
{
	const uint8_t *p;
	struct ptd_noted *n = &c->n;
	uint64_t d;

	if (!c->b) {
		if (!(c->b = l->first))
			return 0;
		c->off = 0;
	}
	if (c->off >= c->b->len) {
		if (!c->b->next)
			return 0;
		c->b = c->b->next;
		c->off = 0;
	}
	p = c->b->data + c->off;
	n->type = *p & 0x3f;
	n->flags = *p++ >> 6;
	p = get(p, &d), n->time += d;
	p = get(p, &d), n->cpu = (int32_t)((int64_t)n->cpu + (int64_t)d);
	p = get(p, &d), n->pid = (int32_t)((int64_t)n->pid + (int64_t)d);
	p = get(p, &d), n->tid = (int32_t)((int64_t)n->tid + (int64_t)d);
	p = get(p, &d), n->np_tid = (uint32_t)((int64_t)n->np_tid + (int64_t)d);
	c->off = (size_t)(p - c->b->data);
	return 1;
}
