/* Building one perf record in memory: fields appended in order, strings
 * NUL-padded to 8 bytes, a sample_id trailer laid out by a sample_type, and
 * header.size set at the end.  Used by the writer's callers (the emulated
 * recorder, tests). */
#ifndef PTD_PERF_RECBUF_H
#define PTD_PERF_RECBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "formats/perf/abi.h"
#include "formats/perf/evlist.h"

struct ptd_recbuf {
	uint8_t buf[65536];
	size_t len;
	int overflow;             /* a field did not fit: the record is unusable */
};

static inline void ptd_rb_bytes(struct ptd_recbuf *rb, const void *p, size_t n)
{
	if (rb->overflow || n > sizeof(rb->buf) - rb->len) {
		rb->overflow = 1;
		return;
	}
	memcpy(rb->buf + rb->len, p, n);
	rb->len += n;
}

static inline void ptd_rb_u64(struct ptd_recbuf *rb, uint64_t v) { ptd_rb_bytes(rb, &v, 8); }
static inline void ptd_rb_u32(struct ptd_recbuf *rb, uint32_t v) { ptd_rb_bytes(rb, &v, 4); }
static inline void ptd_rb_u16(struct ptd_recbuf *rb, uint16_t v) { ptd_rb_bytes(rb, &v, 2); }
static inline void ptd_rb_u8(struct ptd_recbuf *rb, uint8_t v) { ptd_rb_bytes(rb, &v, 1); }

/* zero bytes up to the next multiple of 8 */
static inline void ptd_rb_pad8(struct ptd_recbuf *rb)
{
	static const uint8_t zero[8];

	ptd_rb_bytes(rb, zero, (8 - (rb->len & 7)) & 7);
}

/* a string with its NUL, padded to 8 bytes (as the kernel writes names) */
static inline void ptd_rb_str(struct ptd_recbuf *rb, const char *s)
{
	ptd_rb_bytes(rb, s, strlen(s) + 1);
	ptd_rb_pad8(rb);
}

static inline void ptd_rb_start(struct ptd_recbuf *rb, uint32_t type, uint16_t misc)
{
	rb->len = 0;
	rb->overflow = 0;
	ptd_rb_u32(rb, type);
	ptd_rb_u16(rb, misc);
	ptd_rb_u16(rb, 0);
}

/* the sample_id trailer for records of an attr with sample_id_all */
static inline void ptd_rb_sample_id(struct ptd_recbuf *rb, uint64_t sample_type,
				    const struct ptd_sample_id *sid)
{
	if (sample_type & PTD_SAMPLE_TID) {
		ptd_rb_u32(rb, sid->pid);
		ptd_rb_u32(rb, sid->tid);
	}
	if (sample_type & PTD_SAMPLE_TIME)
		ptd_rb_u64(rb, sid->time);
	if (sample_type & PTD_SAMPLE_ID)
		ptd_rb_u64(rb, sid->id);
	if (sample_type & PTD_SAMPLE_STREAM_ID)
		ptd_rb_u64(rb, sid->stream_id);
	if (sample_type & PTD_SAMPLE_CPU) {
		ptd_rb_u32(rb, sid->cpu);
		ptd_rb_u32(rb, 0);
	}
	if (sample_type & PTD_SAMPLE_IDENTIFIER)
		ptd_rb_u64(rb, sid->id);
}

/* set header.size; returns the size, or 0 when the record overflowed */
static inline size_t ptd_rb_finish(struct ptd_recbuf *rb)
{
	uint16_t sz;

	if (rb->overflow || rb->len > 0xffff)
		return 0;
	sz = (uint16_t)rb->len;
	memcpy(rb->buf + 6, &sz, 2);
	return rb->len;
}

#endif
