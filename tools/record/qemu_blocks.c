/* Decoded qemu translation blocks; see qemu_blocks.h. */
#include "tools/record/qemu_blocks.h"

#include <stdlib.h>
#include <string.h>

#include "common/u64map.h"
#include "common/vec.h"

#define PAGE_MASK (~(uint64_t)4095)
#define TB_MAX_INSNS 512
#define MAX_BLOCKS (1u << 24)

struct ptd_qblocks {
	struct ptd_classifier *cls;
	ptd_read_code_fn read;
	void *rctx;
	struct ptd_u64map map;     /* start -> index + 1 */
	struct ptd_vec blocks;     /* struct ptd_qblock */
	struct ptd_vec ends;       /* uint16_t: end offset of each instruction */
};

int ptd_qblocks_new(struct ptd_qblocks **out, struct ptd_classifier *c, ptd_read_code_fn read,
		    void *rctx, struct ptd_err *err)
{
	struct ptd_qblocks *qb = calloc(1, sizeof(*qb));

	*out = NULL;
	if (!qb)
		return ptd_err_set(err, PTD_E_NOMEM, "block cache: out of memory");
	qb->cls = c;
	qb->read = read;
	qb->rctx = rctx;
	qb->map.limit = MAX_BLOCKS;
	qb->blocks = (struct ptd_vec)PTD_VEC_INIT(sizeof(struct ptd_qblock));
	qb->blocks.limit = MAX_BLOCKS;
	qb->ends = (struct ptd_vec)PTD_VEC_INIT(sizeof(uint16_t));
	qb->ends.limit = (size_t)MAX_BLOCKS * 8;
	*out = qb;
	return 0;
}

void ptd_qblocks_free(struct ptd_qblocks *qb)
{
	if (!qb)
		return;
	ptd_u64map_fini(&qb->map);
	ptd_vec_fini(&qb->blocks);
	ptd_vec_fini(&qb->ends);
	free(qb);
}

uint64_t ptd_qblocks_insn_end(const struct ptd_qblocks *qb, const struct ptd_qblock *b, unsigned i)
{
	return b->start + *(const uint16_t *)ptd_vec_at(&qb->ends, b->ends + i);
}

int ptd_qblocks_find_end(const struct ptd_qblocks *qb, const struct ptd_qblock *b, uint64_t addr)
{
	unsigned lo = 0, hi = b->n;

	if (addr <= b->start || addr > b->end)
		return -1;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		uint64_t e = ptd_qblocks_insn_end(qb, b, mid);

		if (e == addr)
			return (int)mid;
		if (e < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Decode the block at start into a new cache entry; returns its index. */
static long decode(struct ptd_qblocks *qb, uint64_t start, struct ptd_err *err)
{
	struct ptd_qblock b;
	size_t first = qb->ends.len;
	uint64_t ip = start;
	struct ptd_insn in;
	struct ptd_qblock *slot;
	int rc;

	memset(&b, 0, sizeof(b));
	b.start = start;
	b.kind = PTD_QEND_SEQ;
	b.cls = PTD_X_NONE;
	for (;;) {
		uint16_t *e;

		rc = ptd_classify_at(qb->cls, ip, qb->read, qb->rctx, &in, err);
		if (rc < 0) {
			if (b.n > 0 && rc == -PTD_E_NOTFOUND)
				break;   /* the block runs into unmapped memory */
			qb->ends.len = first;
			return rc;
		}
		/* an instruction reaching into another page ends the block
		 * before it, unless it is the first */
		if (b.n > 0 && ((ip + in.len - 1) & PAGE_MASK) != (start & PAGE_MASK))
			break;
		e = ptd_vec_push(&qb->ends);
		if (!e) {
			qb->ends.len = first;
			return ptd_err_set(err, PTD_E_LIMIT, "block cache: too many instructions");
		}
		*e = (uint16_t)(ip + in.len - start);
		b.n++;
		b.last = ip;
		b.last_len = in.len;
		ip += in.len;
		if (in.cls != PTD_X_NONE) {
			b.kind = PTD_QEND_CF;
			b.cls = in.cls;
			b.target = in.target;
			b.syscall = (in.flags & PTD_INSN_SYSCALL) != 0;
			break;
		}
		if (in.flags & PTD_INSN_REP) {
			b.kind = PTD_QEND_REP;
			break;
		}
		if (in.flags & PTD_INSN_FAULT) {
			b.kind = PTD_QEND_FAULT;
			break;
		}
		if ((in.flags & PTD_INSN_ENDTB) || (ip & PAGE_MASK) != (start & PAGE_MASK) ||
		    b.n >= TB_MAX_INSNS)
			break;
	}
	b.end = ip;
	b.ends = (uint32_t)first;
	slot = ptd_vec_push(&qb->blocks);
	if (!slot) {
		qb->ends.len = first;
		return ptd_err_set(err, PTD_E_LIMIT, "block cache: more than %u blocks", MAX_BLOCKS);
	}
	*slot = b;
	if (ptd_u64map_put(&qb->map, start, (void *)(uintptr_t)qb->blocks.len) < 0) {
		qb->blocks.len--;
		qb->ends.len = first;
		return ptd_err_set(err, PTD_E_NOMEM, "block cache: out of memory");
	}
	return (long)(qb->blocks.len - 1);
}

int ptd_qblocks_get(struct ptd_qblocks *qb, uint64_t start, const struct ptd_qblock **out,
		    struct ptd_err *err)
{
	uintptr_t v = (uintptr_t)ptd_u64map_get(&qb->map, start);
	long idx;

	if (v) {
		*out = ptd_vec_at(&qb->blocks, v - 1);
		return 0;
	}
	idx = decode(qb, start, err);
	if (idx < 0)
		return (int)idx;
	*out = ptd_vec_at(&qb->blocks, (size_t)idx);
	return 0;
}

int ptd_qblocks_sysnr(struct ptd_qblocks *qb, uint64_t start, int64_t *nr)
{
	uintptr_t v = (uintptr_t)ptd_u64map_get(&qb->map, start);
	struct ptd_qblock *b;

	if (!v)
		return 0;
	b = ptd_vec_at(&qb->blocks, v - 1);
	if (!b->syscall)
		return 0;
	if (b->sys_state == 0) {
		int64_t n = 0;
		int rc = ptd_classify_sysnr(qb->cls, b->start, b->last, qb->read, qb->rctx, &n, NULL);

		b->sys_state = rc == 1 ? 1 : -1;
		b->sysnr = n;
	}
	*nr = b->sysnr;
	return b->sys_state == 1;
}
