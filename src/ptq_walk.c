/* The Intel PT decoder's callbacks of the queue replay (ptq.c): the
 * queue's trace chunk by chunk (snapshots' overlaps removed), the look
 * ahead over the next chunks, address filters, and walking code through
 * the maps at the walker's time, with the caches of decoded blocks and
 * runs of conditional branches.  Their ctx is the queue's struct walker,
 * which a decode-ahead thread (ptq_ahead.c) uses alone. */
#include "ptq_priv.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "addrfilter.h"
#include "common/prefault.h"
#include "decoders/intel-pt/overlap.h"
#include "dsofiles.h"
#include "jccchain.h"
#include "segcache.h"
#include "formats/perf/reader.h"
#include "machine.h"

/* A buffer for a chunk of n bytes: the queue's spare one when it holds
 * n (its pages touched already, where a new one costs a page fault per
 * 4 KiB it is read into), else a new one, rounded up to 64 KiB (chunks
 * differ a little in size; the pages past a chunk are not touched);
 * *cap: its size. */
static uint8_t *chunk_buf(struct queue *pq, size_t n, size_t *cap)
{
	uint8_t *p = pq->spare;

	if (p && pq->spare_cap >= n) {
		*cap = pq->spare_cap;
		pq->spare = NULL;
		return p;
	}
	*cap = n <= SIZE_MAX - 65535 ? (n + 65535) & ~(size_t)65535 : n;
	if ((p = malloc(*cap)))
		ptd_prefault(p, n);   /* read into right away */
	return p;
}

/* A chunk's buffer no longer used: the spare one if larger than it */
static void chunk_buf_put(struct queue *pq, uint8_t *p, size_t cap)
{
	if (!p)
		return;
	if (pq->spare && pq->spare_cap >= cap) {
		free(p);
		return;
	}
	free(pq->spare);
	pq->spare = p;
	pq->spare_cap = cap;
}

/* Chunk idx of the queue's trace, read into *nb (*nb_size bytes, in a
 * buffer of *nb_cap for the caller to give back with chunk_buf_put, but
 * for reuse); prev: the chunk before it (for snapshots, which overlap:
 * what prev did not hold); reuse: a buffer of reuse_cap bytes to read it
 * into when it fits (the decoder is done with it), or NULL.  Returns 1
 * with b filled, 0 when the chunk gives nothing, or a negative errno. */
static int load_chunk(struct queue *pq, size_t idx, const uint8_t *prev, size_t prev_size,
		      uint8_t *reuse, size_t reuse_cap, uint8_t **nb, size_t *nb_size,
		      size_t *nb_cap, struct pdec_buf *b)
{
	const struct ptd_aux_chunk *c = ptd_vec_at(&pq->aq->chunks, idx);
	const uint8_t *start;
	struct ptd_err e;
	int consecutive;

	*nb = NULL;
	*nb_size = c->size;
	*nb_cap = 0;
	if (!c->payload.available || !c->size)
		return 0;
	if (reuse && reuse_cap >= c->size) {
		*nb = reuse;
		*nb_cap = reuse_cap;
	} else if (!(*nb = chunk_buf(pq, c->size, nb_cap))) {
		return -ENOMEM;
	}
	if (ptd_reader_read_payload(pq->q->s->reader, &c->payload, 0, *nb, c->size, &e))
		goto none;
	start = *nb;
	consecutive = prev != NULL;
	if (pq->q->conf.snapshot && prev) {
		/* snapshots overlap: use what the previous one did not hold */
		start = ptd_pt_find_overlap(prev, prev_size, *nb, c->size, 1, &consecutive);
		if (start == *nb + c->size)
			goto none;
	} else if (pq->q->conf.snapshot) {
		consecutive = 0;
	}
	b->buf = start;
	b->len = c->size - (size_t)(start - *nb);
	b->ref_timestamp = c->reference;
	b->consecutive = consecutive;
	b->trace_nr = idx + 1;
	return 1;
none:
	if (*nb != reuse)
		chunk_buf_put(pq, *nb, *nb_cap);
	*nb = NULL;
	return 0;
}

static int get_trace(void *ctx, struct pdec_buf *b)
{
	struct queue *pq = ((struct walker *)ctx)->pq;
	uint8_t *nb;
	size_t size, cap;
	int rc;

	while (pq->next_chunk < pq->aq->chunks.len) {
		/* the next chunk goes into the last one's buffer (its pages
		 * touched already) but for snapshots, whose chunks overlap */
		rc = load_chunk(pq, pq->next_chunk++, pq->buf, pq->buf_size,
				pq->q->conf.snapshot ? NULL : pq->buf, pq->buf_cap, &nb, &size, &cap, b);
		if (rc < 0)
			return rc;
		if (!rc)
			continue;
		if (nb != pq->buf)
			chunk_buf_put(pq, pq->buf, pq->buf_cap);
		pq->buf = nb;
		pq->buf_size = size;
		pq->buf_cap = cap;
		return 0;
	}
	b->len = 0;
	return 0;
}

/* perf's intel_pt_pgd_ip: did a branch to ip leave the address filters?
 * User space addresses are matched by file and offset in the thread's
 * maps (no thread or no map: no). */
static int pgd_ip(void *ctx, uint64_t ip)
{
	struct walker *w = ctx;
	struct ptd_ptq *q = w->q;
	const struct ptd_map *map;

	if (ip >= KERNEL_START)
		return ptd_addrfilters_left(&q->conf.filters, ip, NULL);
	if (w->tid == -1)
		return 0;
	map = ptd_machine_find_map_hint(&q->s->machine, w->pid, 0, ip, *w->now, &w->maps);
	if (!map)
		return 0;
	return ptd_addrfilters_left(&q->conf.filters, ip - map->start + map->pgoff, map->filename);
}

/* perf's intel_pt_lookahead: the chunks after the current one, as
 * get_trace would give them, until cb says stop */
static int lookahead(void *ctx, int (*cb)(const struct pdec_buf *b, void *data), void *data)
{
	struct queue *pq = ((struct walker *)ctx)->pq;
	const uint8_t *prev = pq->buf;
	size_t prev_size = pq->buf_size, old_cap = 0, i;
	uint8_t *old = NULL, *nb;
	struct pdec_buf b;
	int rc = 0;

	for (i = pq->next_chunk; i < pq->aq->chunks.len; i++) {
		size_t size, cap;

		memset(&b, 0, sizeof(b));
		rc = load_chunk(pq, i, prev, prev_size, NULL, 0, &nb, &size, &cap, &b);
		if (rc < 0)
			break;
		if (!rc)
			continue;
		chunk_buf_put(pq, old, old_cap);
		old = nb;
		old_cap = cap;
		prev = nb;
		prev_size = size;
		if ((rc = cb(&b, data)))
			break;
	}
	chunk_buf_put(pq, old, old_cap);
	return rc < 0 ? rc : 0;
}

/* The file of map, or NULL (no memory).  Kept in a small direct-mapped
 * cache: code that calls across many libraries changes map often, and
 * ptd_dsofiles_get() hashes the whole path. */
static struct ptd_dsofile *walk_file(struct walker *w, const struct ptd_map *map)
{
	/* the machine keeps its file names for its lifetime: the same pointer
	 * is the same name */
	uint64_t h = (uint64_t)(uintptr_t)map->filename;
	size_t i;
	struct ptd_dsofile *f;

	/* mixed (murmur3's finalizer): the names are allocated close together,
	 * and a product's top bits alone sent W3's three busiest files to
	 * one slot (3,649 lookups in ptd_dsofiles_get of 12,798 map changes) */
	h = (h ^ h >> 33) * 0xff51afd7ed558ccdULL;
	h = (h ^ h >> 33) * 0xc4ceb9fe1a85ec53ULL;
	i = (size_t)(h >> (64 - PTQ_WALK_FILES_BITS));

	if (w->files[i].fname == map->filename && w->files[i].file)
		return w->files[i].file;
	f = ptd_dsofiles_get(w->q->cfg->files, map);
	if (f) {
		w->files[i].fname = map->filename;
		w->files[i].file = f;
	}
	return f;
}

/* Does window v hold ip, now and for this pid? */
static inline __attribute__((always_inline)) bool win_holds(const struct walker *w,
							     const struct walk_win *v, uint64_t ip)
{
	return ip - v->lo < v->len && *w->now - v->from < v->tlen && w->pid == v->pid;
}

/* The window and its map, and the one before, swapped */
static void walk_win_swap(struct walker *w)
{
	struct walk_win t = w->win;

	w->win = w->prev;
	w->prev = t;
}

/* The map ip is in (win.map), with its file and file offsets in win;
 * NULL when there is none (or no memory for its file).  Kept for the
 * next call, as maps do not change while the trace is decoded
 * (machine.h, ptd_machine_find_map_hints): the addresses and times the
 * answer holds for are its window, for the same pid, on one side of
 * KERNEL_START. */
static __attribute__((noinline)) const struct ptd_map *walk_map_slow(struct walker *w,
								       uint64_t ip)
{
	const struct ptd_map *map;
	struct ptd_dsofile *f;
	uint64_t lo, hi;
	int kernel = ip >= KERNEL_START;

	w->seg.on = 0;   /* a segment noted would not hold */
	if (win_holds(w, &w->prev, ip)) {
		walk_win_swap(w);
		return w->win.map;
	}
	if (w->win.len)
		walk_win_swap(w);   /* the window kept as the one before */
	w->win.len = 0;
	map = ptd_machine_find_map_hint(&w->q->s->machine, w->pid, kernel, ip, *w->now, &w->maps);
	if (map && map != w->win.map) {
		if (!(f = walk_file(w, map)))
			return NULL;
		w->win.map = map;
		w->win.file = f;
		w->win.adj = ptd_map_file_off(map, 0);
		w->win.start = ptd_map_file_off(map, map->start);
		w->win.end = ptd_map_file_off(map, map->end);
	}
	if (map && w->maps.e[w->maps.last].map == map) {
		lo = kernel && map->start < KERNEL_START ? KERNEL_START : map->start;
		hi = !kernel && map->end > KERNEL_START ? KERNEL_START : map->end;
		w->win.lo = lo;
		w->win.len = hi - lo;
		w->win.from = w->maps.e[w->maps.last].from;
		w->win.tlen = w->maps.e[w->maps.last].until - w->win.from;
		w->win.pid = w->pid;
	}
	return map;
}

/* Is ip in the window of the last map lookup (walk_map_slow), now and
 * for this pid? */
static inline __attribute__((always_inline)) bool in_window(const struct walker *w, uint64_t ip)
{
	return win_holds(w, &w->win, ip);
}

static inline __attribute__((always_inline)) const struct ptd_map *walk_map(struct walker *w,
									       uint64_t ip)
{
	if (in_window(w, ip))
		return w->win.map;
	return walk_map_slow(w, ip);
}

/* walk_jcc where its quick test fails: the map looked up (the walker's
 * win then its), the run built or the one going on at ret looked up */
static __attribute__((noinline)) const struct ptd_jccrun *
walk_jcc_slow(struct walker *w, uint64_t ip, uint64_t bits, unsigned count, uint64_t ret)
{
	w->rec.on = 0;   /* the map may change: a chain noted would not hold */
	if ((w->tid == -1 && ip < KERNEL_START) || !walk_map(w, ip) || !w->win.file->data)
		return NULL;
	return ptd_jccrun_get(w->jcc, w->insns, w->pinsn, w->win.file, ip + w->win.adj,
			      w->win.start, w->win.end, (uint32_t)(bits >> (64 - PDEC_JCC_MAX)),
			      count, ret ? ret + w->win.adj : 0);
}

/* pdec_params.walk_jcc: a run of TNT bits from ip, when the walk would
 * find all its blocks in ip's map; going on at the return address ret
 * when that is in the same map.  The common case first, with nothing to
 * call: ip in the map of the last lookup (walk_map's window) and the run
 * cached (ptd_jccrun_find). */
static const struct pdec_jcc_run *walk_jcc(void *ctx, uint64_t ip, uint64_t bits, unsigned count,
					   uint64_t ret, uint64_t *base)
{
	struct walker *w = ctx;
	const struct ptd_jccrun *e;

	if (!(in_window(w, ip) && (w->tid != -1 || ip >= KERNEL_START) &&
	      ptd_jccrun_find(w->jcc, w->win.file, ip + w->win.adj, w->win.start, w->win.end,
			      (uint32_t)(bits >> (64 - PDEC_JCC_MAX)), count,
			      ret ? ret + w->win.adj : 0, &e)))
		e = walk_jcc_slow(w, ip, bits, count, ret);
	if (!e || e->lo < w->win.start || e->hi >= w->win.end)
		return NULL;
	*base = -w->win.adj;   /* ip less its file offset */
	return &e->run;
}

/* pdec_params.jcc_chain: the chain from ip in the map of the last lookup
 * (walk_map's window), cached for that map; else the chain is noted from
 * here, while walk_jcc finds the runs in the window (the map holds for
 * all their code: walk_jcc returns no run that leaves it) */
static const struct pdec_jcc_chain *walk_chain(void *ctx, uint64_t ip, uint64_t payload,
					       unsigned count, uint64_t *base)
{
	struct walker *w = ctx;
	const struct ptd_jccchain *e;
	uint64_t off = ip + w->win.adj;

	w->rec.on = 0;
	if (!(in_window(w, ip) && (w->tid != -1 || ip >= KERNEL_START)))
		return NULL;   /* walk_jcc finds the map first */
	if ((e = ptd_jccchain_find(w->jcc, w->win.map, off, payload, count))) {
		w->jcc->chains_taken++;
		*base = -w->win.adj;
		return &e->chain;
	}
	w->rec.on = 1;
	w->rec.off = off;
	w->rec.payload = payload;
	w->rec.count = count;
	return NULL;
}

/* pdec_params.jcc_chain_put: the chain noted cached, when all its runs
 * were found in the map it began in */
static void walk_chain_put(void *ctx, const struct pdec_jcc_chain *c, uint64_t base)
{
	struct walker *w = ctx;

	/* c's ip, base plus the value, is a file offset */
	if (c && w->rec.on && base == -w->win.adj)
		ptd_jccchain_put(w->jcc, w->win.map, w->rec.off, w->rec.payload, w->rec.count, c);
	w->rec.on = 0;
}

/* pdec_params.seg_find: the segment cached for k in the map of the last
 * lookup (walk_map's window); the segment is noted from here while every
 * walk finds its code in the window */
static const struct pdec_seg *walk_seg_find(void *ctx, const struct pdec_seg_key *k,
					    const uint64_t *stack, size_t stack_n, bool *watch)
{
	struct walker *w = ctx;

	if (!(in_window(w, k->ip) && (w->tid != -1 || k->ip >= KERNEL_START)))
		return NULL;   /* the walk finds the map first */
	*watch = true;
	w->seg.on = 1;
	w->seg.map = w->win.map;
	return ptd_segcache_find(w->jcc, w->win.map, k, stack, stack_n);
}

/* pdec_params.seg_table: the table, and the window of the last map
 * lookup where ip is in it (as walk_seg_find finds segments: for no
 * thread, only the kernel's) */
static void walk_seg_table(void *ctx, uint64_t ip, struct pdec_segtab *t)
{
	struct walker *w = ctx;
	uint64_t lo = w->win.lo, hi = w->win.lo + w->win.len;

	t->segs = w->jcc->segs;
	t->tags = w->jcc->seg_tags;
	t->bits = w->jcc->seg_bits;
	t->map = w->win.map;
	if (w->tid == -1 && lo < KERNEL_START)
		lo = hi > KERNEL_START ? KERNEL_START : hi;
	t->lo = lo;
	t->len = in_window(w, ip) ? hi - lo : 0;
}

/* pdec_params.seg_put: the segment noted cached, when all its walks
 * found their code in the map it began in; with more, watched on */
static void walk_seg_put(void *ctx, const struct pdec_seg *s, bool more)
{
	struct walker *w = ctx;

	if (w->seg.on)
		ptd_segcache_put(w->jcc, w->seg.map, s);
	if (!more)
		w->seg.on = 0;
}

/* walk() where its first block is not one walked before: instruction by
 * instruction, through the instruction cache, caching the blocks made. */
static __attribute__((noinline)) int walk_slow(struct walker *w, const struct pdec_insn **insnp,
					       uint64_t *insn_cnt_out, uint64_t *ip,
					       uint64_t to_ip, uint64_t max_insn_cnt)
{
	struct pdec_insn *insn = &w->insn;
	const struct ptd_map *map;
	struct ptd_dsofile *f;
	struct ptd_insncache_ent *ce;
	struct ptd_insncache_blk *be;
	uint64_t insn_cnt = 0, off, blk_off, blk_ip, blk_cnt;

	*insnp = insn;
	memset(insn, 0, sizeof(*insn));
	insn->op = PDEC_OP_OTHER;
	if (to_ip && *ip == to_ip)
		goto out;
	if (w->tid == -1 && *ip < KERNEL_START)
		return -EINVAL;   /* no thread */
	for (;;) {
		if (!(map = walk_map(w, *ip)))
			return -EINVAL;
		f = w->win.file;
		if (!f->data) {
			/* perf reports an unreadable dso twice, then quietly resyncs */
			if (f->itrace_failed && f->itrace_seen)
				return -ENOENT;
			if (f->itrace_failed)
				f->itrace_seen = 1;
			f->itrace_failed = 1;
			return -EINVAL;
		}
		off = *ip + w->win.adj;
		/* a block walked before: used when the walk would not stop
		 * inside it (at to_ip, after max_insn_cnt, at the map's end) */
		be = ptd_insncache_block(w->insns, f, off);
		if (be && be->file == f && be->off == off &&
		    (!max_insn_cnt || insn_cnt + be->insn_cnt <= max_insn_cnt) &&
		    *ip + be->to_branch < map->end &&
		    !(to_ip && to_ip > *ip && to_ip <= *ip + be->to_branch)) {
			insn_cnt += be->insn_cnt;
			*ip += be->to_branch;
			*insnp = &be->insn;
			goto out;
		}
		blk_off = off;
		blk_ip = *ip;
		blk_cnt = insn_cnt;
		for (;;) {
			if (off >= f->size)
				return -EINVAL;
			ce = ptd_insncache_slot(w->insns, f, off);
			if (ce && ce->file == f && ce->off == off) {
				*insn = ce->insn;
			} else {
				if (ptd_pinsn_decode(w->pinsn, f->data + off, f->size - off, *ip,
						     f->is_64_bit, insn))
					return -EINVAL;
				if (ce) {
					ce->file = f;
					ce->off = off;
					ce->insn = *insn;
					ptd_insncache_filled(w->insns);
				}
			}
			insn_cnt++;
			if (insn->branch != PDEC_BR_NO_BRANCH) {
				if (be && insn_cnt - blk_cnt <= UINT32_MAX && *ip - blk_ip <= UINT32_MAX) {
					be->file = f;
					be->off = blk_off;
					be->insn_cnt = (uint32_t)(insn_cnt - blk_cnt);
					be->to_branch = (uint32_t)(*ip - blk_ip);
					be->insn = *insn;
					ptd_insncache_filled(w->insns);
				}
				goto out;
			}
			if (max_insn_cnt && insn_cnt >= max_insn_cnt)
				goto out;
			*ip += insn->length;
			if (to_ip && *ip == to_ip) {
				insn->length = 0;
				insn->op = PDEC_OP_OTHER;
				goto out;
			}
			if (*ip >= map->end)
				break;
			off += insn->length;
		}
	}
out:
	*insn_cnt_out = insn_cnt;
	return 0;
}

/* pdec_params.walk: the commonest case, a block walked before from *ip,
 * inline; the rest in walk_slow(). */
static int walk(void *ctx, const struct pdec_insn **insn, uint64_t *insn_cnt_out, uint64_t *ip,
		uint64_t to_ip, uint64_t max_insn_cnt)
{
	struct walker *w = ctx;
	const struct ptd_map *map;
	const struct ptd_insncache_blk *be;
	struct ptd_dsofile *f;
	uint64_t off;

	if ((to_ip && *ip == to_ip) || (w->tid == -1 && *ip < KERNEL_START) ||
	    !(map = walk_map(w, *ip)) || !(f = w->win.file)->data)
		return walk_slow(w, insn, insn_cnt_out, ip, to_ip, max_insn_cnt);
	off = *ip + w->win.adj;
	be = ptd_insncache_block(w->insns, f, off);
	if (!be || be->file != f || be->off != off ||
	    (max_insn_cnt && be->insn_cnt > max_insn_cnt) || *ip + be->to_branch >= map->end ||
	    (to_ip && to_ip > *ip && to_ip <= *ip + be->to_branch))
		return walk_slow(w, insn, insn_cnt_out, ip, to_ip, max_insn_cnt);
	*insn_cnt_out = be->insn_cnt;
	*ip += be->to_branch;
	*insn = &be->insn;
	return 0;
}

void ptd_ptq_callbacks(struct pdec_params *p, int filters)
{
	p->walk = walk;
	p->get_trace = get_trace;
	p->lookahead = lookahead;
	/* PTDECODE_DEBUG_NO_CHAINS: each long TNT packet run by run;
	 * PTDECODE_DEBUG_NO_RUNS: one state at a time, for the tests to
	 * compare the runs with (tests/golden/runs.test) */
	p->walk_jcc = getenv("PTDECODE_DEBUG_NO_RUNS") ? NULL : walk_jcc;
	if (p->walk_jcc && !getenv("PTDECODE_DEBUG_NO_CHAINS")) {
		p->jcc_chain = walk_chain;
		p->jcc_chain_put = walk_chain_put;
	}
	/* PTDECODE_DEBUG_NO_SEGS: the TNT packets up to a TIP packet by
	 * packet, for the tests to compare the segments with */
	if (!getenv("PTDECODE_DEBUG_NO_SEGS")) {
		p->seg_find = walk_seg_find;
		p->seg_put = walk_seg_put;
		p->seg_table = walk_seg_table;
	}
	p->pgd_ip = filters ? pgd_ip : NULL;
}
