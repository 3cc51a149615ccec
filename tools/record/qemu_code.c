/* The guest's code for the qemu source; see qemu_code.h. */
#include "tools/record/qemu_code.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tools/record/classify.h"

#define TRAMP_PAGE 4096u

/* mov x8, #139 (rt_sigreturn); svc #0 -- little-endian */
static const uint8_t tramp_code[8] = { 0x68, 0x11, 0x80, 0xd2, 0x01, 0x00, 0x00, 0xd4 };

enum { WAIT_LOAD, IN_TABLE, DONE };

struct ptd_qcode {
	const struct ptd_elfimage *img;
	unsigned arch;
	int state;
	uint64_t tramp;          /* 0: unknown */
};

int ptd_qcode_new(struct ptd_qcode **out, const struct ptd_elfimage *img, unsigned arch,
		  struct ptd_err *err)
{
	struct ptd_qcode *qc = calloc(1, sizeof(*qc));

	*out = NULL;
	if (!qc)
		return ptd_err_set(err, PTD_E_NOMEM, "qemu code: out of memory");
	qc->img = img;
	qc->arch = arch;
	qc->state = arch == PTD_ARCH_AARCH64 ? WAIT_LOAD : DONE;
	*out = qc;
	return 0;
}

void ptd_qcode_free(struct ptd_qcode *qc)
{
	free(qc);
}

long ptd_qcode_read(void *ctx, uint64_t addr, uint8_t *buf, size_t len)
{
	const struct ptd_qcode *qc = ctx;
	size_t n = ptd_elfimage_read(qc->img, addr, buf, len);
	uint64_t off;

	if (n || !qc->tramp || addr < qc->tramp || addr - qc->tramp >= TRAMP_PAGE)
		return (long)n;
	off = addr - qc->tramp;
	n = len < TRAMP_PAGE - off ? len : (size_t)(TRAMP_PAGE - off);
	memset(buf, 0, n);
	if (off < sizeof(tramp_code))
		memcpy(buf, tramp_code + off,
		       n < sizeof(tramp_code) - off ? n : sizeof(tramp_code) - (size_t)off);
	return (long)n;
}

int ptd_qcode_wants_log(const struct ptd_qcode *qc)
{
	return qc->state != DONE;
}

uint64_t ptd_qcode_tramp(const struct ptd_qcode *qc)
{
	return qc->tramp;
}

const char *ptd_qlog_hex(const char *p, const char *end, uint64_t *v)
{
	const char *s = p;
	uint64_t x = 0;

	for (; p < end && p - s < 16; p++) {
		unsigned c = (unsigned char)*p, d;
		if (c - '0' < 10)
			d = c - '0';
		else if ((c | 0x20) - 'a' < 6)
			d = (c | 0x20) - 'a' + 10;
		else
			break;
		x = x << 4 | d;
	}
	if (p == s)
		return NULL;
	*v = x;
	return p;
}

/* "START-END SIZE PROT" (hex, prot as "r-x"): returns 1 with the range and
 * whether it is r-x, 0 when the line is something else. */
static int layout_line(const char *p, const char *end, uint64_t *start, uint64_t *stop, int *rx)
{
	uint64_t size;

	if (!(p = ptd_qlog_hex(p, end, start)) || p >= end || *p != '-' ||
	    !(p = ptd_qlog_hex(p + 1, end, stop)) || p >= end || *p != ' ' ||
	    !(p = ptd_qlog_hex(p + 1, end, &size)) || end - p != 4 || *p != ' ' ||
	    *stop <= *start)
		return 0;
	*rx = p[1] == 'r' && p[2] == '-' && p[3] == 'x';
	return 1;
}

/* Is [start, stop) one of the executable's mappings? */
static int in_image(const struct ptd_qcode *qc, uint64_t start, uint64_t stop)
{
	for (size_t i = 0; i < ptd_elfimage_nmaps(qc->img); i++) {
		const struct ptd_xmap *m = ptd_elfimage_map(qc->img, i);
		if (start < m->start + m->len && stop > m->start)
			return 1;
	}
	return 0;
}

int ptd_qcode_log_line(struct ptd_qcode *qc, const char *p, const char *end, struct ptd_xmap *map)
{
	static const char load[] = "page layout changed following binary load";
	static const char head[] = "start ";
	uint64_t start, stop;
	int rx;

	switch (qc->state) {
	case WAIT_LOAD:
		if ((size_t)(end - p) >= sizeof(load) - 1 && !memcmp(p, load, sizeof(load) - 1))
			qc->state = IN_TABLE;
		return 0;
	case IN_TABLE:
		if ((size_t)(end - p) >= sizeof(head) - 1 && !memcmp(p, head, sizeof(head) - 1))
			return 0;   /* the column titles */
		if (!layout_line(p, end, &start, &stop, &rx)) {
			qc->state = DONE;   /* the table is over */
			return 0;
		}
		if (!rx || in_image(qc, start, stop) || qc->tramp || stop - start != TRAMP_PAGE)
			return 0;
		qc->tramp = start;
		memset(map, 0, sizeof(*map));
		map->start = start;
		map->len = TRAMP_PAGE;
		map->prot = PROT_READ | PROT_EXEC;
		map->flags = MAP_PRIVATE;
		map->path = PTD_QCODE_TRAMP_PATH;
		return 1;
	default:
		return 0;
	}
}
