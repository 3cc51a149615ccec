/* Bounds-checked little-endian reads from a byte range.  Every read checks
 * the remaining length; after the first failure the cursor stays failed and
 * all further reads return zero, so parsers can read a structure and test
 * cur.bad once at the end. */
#ifndef PTD_PERF_CURSOR_H
#define PTD_PERF_CURSOR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct ptd_cursor {
	const uint8_t *p;   /* borrowed */
	size_t len;
	size_t pos;
	int bad;            /* set once a read went past len */
};

static inline void ptd_cur_init(struct ptd_cursor *c, const void *p, size_t len)
{
	c->p = p;
	c->len = len;
	c->pos = 0;
	c->bad = 0;
}

static inline size_t ptd_cur_left(const struct ptd_cursor *c)
{
	return c->bad ? 0 : c->len - c->pos;
}

static inline const uint8_t *ptd_cur_take(struct ptd_cursor *c, size_t n)
{
	const uint8_t *r;

	if (c->bad || n > c->len - c->pos) {
		c->bad = 1;
		return NULL;
	}
	r = c->p + c->pos;
	c->pos += n;
	return r;
}

static inline uint64_t ptd_cur_u64(struct ptd_cursor *c)
{
	const uint8_t *q = ptd_cur_take(c, 8);
	uint64_t v = 0;

	if (q)
		memcpy(&v, q, 8);
	return v;
}

static inline uint32_t ptd_cur_u32(struct ptd_cursor *c)
{
	const uint8_t *q = ptd_cur_take(c, 4);
	uint32_t v = 0;

	if (q)
		memcpy(&v, q, 4);
	return v;
}

static inline uint16_t ptd_cur_u16(struct ptd_cursor *c)
{
	const uint8_t *q = ptd_cur_take(c, 2);
	uint16_t v = 0;

	if (q)
		memcpy(&v, q, 2);
	return v;
}

static inline uint8_t ptd_cur_u8(struct ptd_cursor *c)
{
	const uint8_t *q = ptd_cur_take(c, 1);

	return q ? *q : 0;
}

/* A NUL-terminated string stored in at most the rest of the range, as perf
 * stores file names.  Returns NULL (and marks the cursor bad) when no NUL is
 * found.  Consumes the rest of the range only up to and including the NUL. */
static inline const char *ptd_cur_cstr(struct ptd_cursor *c)
{
	const uint8_t *start, *nul;

	if (c->bad)
		return NULL;
	start = c->p + c->pos;
	nul = memchr(start, 0, c->len - c->pos);
	if (!nul) {
		c->bad = 1;
		return NULL;
	}
	c->pos += (size_t)(nul - start) + 1;
	return (const char *)start;
}

static inline uint64_t ptd_load_u64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static inline uint32_t ptd_load_u32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

#endif
