/* vec, u64map, heap, huge-page tables (and left mapped once the process
 * is ending), the walk's instruction cache growing, the sets of runs of
 * TNT bits and of segments and their growth, the noted records' log: the
 * small containers everything else uses. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/ending.h"
#include "common/heap.h"
#include "common/hugemem.h"
#include "common/u64map.h"
#include "common/vec.h"
#include "decoders/intel-pt/pinsn.h"
#include "insncache.h"
#include "jccrun.h"
#include "notelog.h"
#include "segcache.h"
#include "tests/tap.h"

/* is the page at p mapped? */
static int mapped(const void *p)
{
	unsigned char v;

	return !mincore((void *)((uintptr_t)p & ~(uintptr_t)4095), 4096, &v) || errno != ENOMEM;
}

/* the Intel PT replay's three tables (insncache.c's two, jccrun.c's) */
static void huge_tables(void)
{
	static const size_t sz[3] = { 32768 * 40, 32768 * 48, 4096 * 296 };
	uint8_t *t[3], *big;
	size_t i, j, nonzero = 0, bad = 0;

	for (i = 0; i < 3; i++) {
		t[i] = ptd_huge_zalloc(sz[i]);
		bad += !t[i] || (uintptr_t)t[i] % 64;
	}
	ok(!bad, "huge tables: three allocated, 64-byte aligned");
	if (bad)
		return;
	for (i = 0; i < 3; i++)
		for (j = 0; j < sz[i]; j++)
			nonzero += t[i][j] != 0;
	is_u64(nonzero, 0, "huge tables: zeroed");
	ok((uintptr_t)t[0] % (2u << 20) == 0, "huge tables: the first starts a 2 MB page");
	ok(t[1] >= t[0] + sz[0] && t[2] >= t[1] + sz[1],
	   "huge tables: each after the one before, none overlapping");
	ok(t[2] + sz[2] - t[0] <= (4u << 20),
	   "huge tables: the three (3.9 MB) within two 2 MB pages (they end %zu bytes past the first)",
	   (size_t)(t[2] + sz[2] - t[0]));
	for (i = 0; i < 3; i++)
		memset(t[i], 0xa5, sz[i]);
	ptd_huge_free(t[0]);
	ptd_huge_free(t[2]);
	ok(mapped(t[0]) && t[1][sz[1] - 1] == 0xa5, "huge tables: a region stays while a table in it lives");
	ptd_huge_free(t[1]);
	ok(!mapped(t[0]) && !mapped(t[1] + sz[1] - 1), "huge tables: a region is unmapped with its last table");
	big = ptd_huge_zalloc(PTD_HUGE_REGION + 1);
	ok(big && big[PTD_HUGE_REGION] == 0, "huge tables: one larger than a region");
	ptd_huge_free(big);
	ok(big && !mapped(big + PTD_HUGE_REGION), "huge tables: the larger one unmapped when freed");
	ok(!ptd_huge_zalloc(0) && !ptd_huge_zalloc(SIZE_MAX - 4096), "huge tables: sizes 0 and near SIZE_MAX refused");
}

/* common/ending.h: once the process is ending, a region whose last table
 * is freed stays mapped (huge_tables: before, it is unmapped) */
static void ending(void)
{
	uint8_t *t;

	ok(!ptd_ending(), "ending: not before it is said");
	ptd_ending_set();
	t = ptd_huge_zalloc(4096);
	if (!t) {
		ok(0, "ending: a table");
		return;
	}
	t[0] = 1;
	ptd_huge_free(t);
	ok(ptd_ending() && mapped(t), "ending: a region left mapped when its last table is freed");
}

/* records read back as they went in: random ones (extreme values, time
 * going back) and a run of context switches, whose size is checked */
static void note_log(void)
{
	struct ptd_notelog l = { 0 };
	struct ptd_notecur c = { 0 };
	struct ptd_noted *in = calloc(100000, sizeof(*in));
	size_t i, n = 0, bad = 0, sw_bytes = 0;
	uint64_t t = 1000;

	if (!in)
		return;
	srand(7);
	for (i = 0; i < 50000; i++) {
		struct ptd_noted *r = &in[i];

		r->time = i % 97 == 0 ? UINT64_MAX - (uint64_t)rand() : (uint64_t)rand() * 7919;
		r->cpu = i % 5 == 0 ? -1 : rand() % 256;
		r->pid = i % 7 == 0 ? INT32_MIN : i % 11 == 0 ? INT32_MAX : rand();
		r->tid = i % 13 == 0 ? -1 : rand();
		r->np_tid = i % 17 == 0 ? UINT32_MAX : (uint32_t)rand();
		r->type = (uint8_t)(rand() % 64);
		r->flags = (uint8_t)(rand() % 4);
	}
	for (i = 50000; i < 100000; i++) {   /* context switches on 2 CPUs */
		struct ptd_noted *r = &in[i];

		t += 1000 + (uint64_t)(rand() % 50000);
		r->time = t;
		r->cpu = (int32_t)(i & 1);
		r->pid = r->tid = 5000 + (int32_t)(i % 4);
		r->np_tid = 5000 + (uint32_t)((i + 1) % 4);
		r->type = 15;
		r->flags = (uint8_t)(i & 1);
	}
	for (i = 0; i < 100000; i++) {
		if (i == 50000)
			sw_bytes = l.bytes;
		bad += (size_t)ptd_notelog_add(&l, &in[i]) != 0;
	}
	ok(!bad, "notelog: 100000 records added");
	sw_bytes = l.bytes - sw_bytes;   /* the switches' share */
	while (ptd_notelog_next(&l, &c)) {
		const struct ptd_noted *a = &c.n, *b = &in[n];

		bad += n >= 100000 || a->time != b->time || a->cpu != b->cpu || a->pid != b->pid ||
		       a->tid != b->tid || a->np_tid != b->np_tid || a->type != b->type ||
		       a->flags != b->flags;
		if (++n > 100000)
			break;
	}
	ok(!bad && n == 100000 && !ptd_notelog_next(&l, &c),
	   "notelog: read back as added, then the end (%zu records, %zu wrong)", n, bad);
	ok(sw_bytes <= 50000 * 12, "notelog: a context switch in at most 12 bytes (%.1f)",
	   (double)sw_bytes / 50000);
	ptd_notelog_fini(&l);
	free(in);
}

/* insncache.h: 2^3 entries, growing to 2^5 after more than 8 fills, the
 * entries held taken over and the old tables left readable */
static void insncache_growth(void)
{
	static const char file[1];
	struct ptd_insncache c;
	struct ptd_insncache_ent *e, *kept[12];
	unsigned i, held = 0, found = 0, intact = 0;
	int was[12];

	if (ptd_insncache_init(&c, 3, 5) || !c.ent) {
		ok(0, "insncache: tables of 8 entries");
		return;
	}
	ok(ptd_insncache_init(&c, 4, 3) == -1, "insncache: a first size above the largest refused");
	ptd_insncache_fini(&c);
	ptd_insncache_init(&c, 3, 5);
	for (i = 0; i < 8; i++) {
		kept[i] = e = ptd_insncache_slot(&c, file, 16 * i);
		e->file = file;
		e->off = 16 * i;
		e->insn.length = (uint8_t)(i + 1);
		ptd_insncache_filled(&c);
	}
	is_u64(c.bits, 3, "insncache: 8 fills keep 8 entries");
	kept[8] = e = ptd_insncache_slot(&c, file, 16 * 8);
	e->file = file;
	e->off = 16 * 8;
	e->insn.length = 9;
	for (i = 0; i < 9; i++) {   /* the keys the small table holds (some collide) */
		e = ptd_insncache_slot(&c, file, 16 * i);
		was[i] = e->file == file && e->off == 16 * i;
		held += was[i];
	}
	ptd_insncache_filled(&c);
	is_u64(c.bits, 5, "insncache: the ninth fill grows the tables to 32 entries");
	for (i = 0; i < 9; i++) {
		e = ptd_insncache_slot(&c, file, 16 * i);
		found += was[i] && e->file == file && e->off == 16 * i && e->insn.length == i + 1;
		intact += kept[i]->file == file;
	}
	is_u64(found, held, "insncache: the %u entries held before it are found after it", held);
	ok(intact > 0 && kept[8]->insn.length == 9,
	   "insncache: the old table's entries still readable (lent to the decoder)");
	ptd_insncache_filled(&c);
	is_u64(c.bits, 5, "insncache: it grows no further");
	ptd_insncache_fini(&c);
}

/* A segment for ip (its key: 6 bytes of trace) */
static struct pdec_seg seg_for(uint64_t ip)
{
	struct pdec_seg g;

	memset(&g, 0, sizeof(g));
	g.key.ip = ip;
	g.key.bytes[0] = 0x0102030405ULL;
	g.key.len = 6;
	g.cnt = (uint32_t)ip;
	return g;
}

/* The run from off for outcomes 0xa5 in the code of jcc_sets, built
 * when not cached (r->fills counts the builds) */
static const struct ptd_jccrun *run_at(struct ptd_jccruns *r, struct ptd_insncache *ic,
				       struct ptd_pinsn *pi, const struct ptd_dsofile *f, uint64_t off)
{
	return ptd_jccrun_get(r, ic, pi, f, off, 0, f->size, 0xa5, PDEC_JCC_MAX, 0);
}

/* Is the run from off cached (found without a build)? */
static int run_cached(struct ptd_jccruns *r, const struct ptd_dsofile *f, uint64_t off)
{
	const struct ptd_jccrun *e;

	return ptd_jccrun_find(r, f, off, 0, f->size, 0xa5, PDEC_JCC_MAX, 0, &e) && e &&
	       e->off == off;
}

/* jccrun.h: sets of PTD_JCCRUN_WAYS runs, the one used longest ago
 * replaced, and the runs a table held found after it grew.  The code is
 * je +0 throughout: from any even offset a run of PDEC_JCC_MAX steps,
 * one instruction each. */
static void jcc_sets(void)
{
	static uint8_t code[1 << 16];
	const struct ptd_dsofile f = { .data = code, .size = sizeof(code), .is_64_bit = 1 };
	struct ptd_pinsn *pi = ptd_pinsn_new();
	struct ptd_insncache ic;
	struct ptd_jccruns r;
	const struct ptd_jccrun *a;
	struct ptd_jccrun *set;
	uint64_t same[2], off, was[128];
	size_t fills, n = 0, nwas = 0, held = 0, found = 0, i;

	for (i = 0; i < sizeof(code); i += 2) {
		code[i] = 0x74;
		code[i + 1] = 0;
	}
	memset(&r, 0, sizeof(r));
	if (!pi || ptd_insncache_init(&ic, 8, 10)) {
		ok(0, "jccrun: decoder and block cache");
		ptd_pinsn_free(pi);
		return;
	}
	a = run_at(&r, &ic, pi, &f, 0x100);
	ok(a && a->run.n == PDEC_JCC_MAX && a->run.insn_cnt[PDEC_JCC_MAX - 1] == PDEC_JCC_MAX &&
	   a->run.ip[PDEC_JCC_MAX - 1] == 0x100 + 2 * PDEC_JCC_MAX && r.fills == 1,
	   "jccrun: a run built at the first use (%u steps)", a ? a->run.n : 0);
	/* two more keys of 0x100's set */
	set = ptd_jccrun_set(&r, &f, 0x100, 0xa5, 0);
	for (off = 0x102; n < 2 && off < sizeof(code) - 64; off += 2)
		if (ptd_jccrun_set(&r, &f, off, 0xa5, 0) == set)
			same[n++] = off;
	if (n < 2) {
		ok(0, "jccrun: keys of one set");
		goto out;
	}
	run_at(&r, &ic, pi, &f, same[0]);
	fills = r.fills;
	ok(run_cached(&r, &f, 0x100) && run_cached(&r, &f, same[0]) && fills == 2,
	   "jccrun: %u runs of one set both kept", PTD_JCCRUN_WAYS);
	run_cached(&r, &f, 0x100);   /* used last: same[0] is the one to go */
	run_at(&r, &ic, pi, &f, same[1]);
	ok(r.fills == fills + 1 && run_cached(&r, &f, same[1]) && run_cached(&r, &f, 0x100) &&
	   !run_cached(&r, &f, same[0]),
	   "jccrun: a third replaces the one used longest ago");
	/* filled more times than it has entries: the larger table */
	for (off = 0x2000; r.fills < (size_t)1 << PTD_JCCRUN_BITS_FIRST; off += 2) {
		run_at(&r, &ic, pi, &f, off);
		if (off % 16 == 0 && nwas < 128)
			was[nwas++] = off;
	}
	is_u64(r.bits, PTD_JCCRUN_BITS_FIRST, "jccrun: not grown before it is filled");
	for (i = 0; i < nwas; i++)
		held += (size_t)run_cached(&r, &f, was[i]);
	run_at(&r, &ic, pi, &f, off);
	is_u64(r.bits, PTD_JCCRUN_BITS, "jccrun: then the larger table");
	for (i = 0; i < nwas; i++)
		found += (size_t)run_cached(&r, &f, was[i]);
	ok(held > nwas / 2 && found == held && run_cached(&r, &f, off),
	   "jccrun: the %zu runs of %zu it held found after it grew", held, nwas);
out:
	ptd_jccruns_fini(&r);
	ptd_insncache_fini(&ic);
	ptd_pinsn_free(pi);
}

static int seg_found(const struct ptd_jccruns *r, const void *map, uint64_t ip)
{
	struct pdec_seg g = seg_for(ip);
	const struct pdec_seg *f = ptd_segcache_find(r, map, &g.key, NULL, 0);

	return f && f->key.ip == ip && f->cnt == (uint32_t)ip;
}

/* Does every entry of r's table have its key's tag? */
static int segcache_tags_hold(const struct ptd_jccruns *r)
{
	size_t i;

	for (i = 0; i < (size_t)PTD_SEGCACHE_WAYS << r->seg_bits; i++)
		if (r->segs[i].map &&
		    r->seg_tags[i] != pdec_segtab_tag(pdec_segtab_hash(r->segs[i].map, &r->segs[i].seg.key),
						      r->seg_bits, &r->segs[i].seg.key))
			return 0;
	return 1;
}

/* segcache.h: two keys of one set with the same tag are both found (a
 * lookup looks at each way of its tag) */
static void segcache_tags(void)
{
	static const char map[1];
	struct ptd_jccruns r;
	struct pdec_seg a, b;
	uint64_t ip, ha, hb;

	memset(&r, 0, sizeof(r));
	a = seg_for(0x1000);
	ptd_segcache_put(&r, map, &a);
	ha = pdec_segtab_hash(map, &a.key);
	for (ip = 0x1010; ip < 0x1000000; ip += 16) {
		b = seg_for(ip);
		hb = pdec_segtab_hash(map, &b.key);
		if (pdec_segtab_index(hb, r.seg_bits) == pdec_segtab_index(ha, r.seg_bits) &&
		    pdec_segtab_tag(hb, r.seg_bits, &b.key) == pdec_segtab_tag(ha, r.seg_bits, &a.key))
			break;
	}
	if (ip >= 0x1000000) {
		ok(0, "segcache: keys of one set and one tag");
		ptd_jccruns_fini(&r);
		return;
	}
	ptd_segcache_put(&r, map, &b);
	ok(seg_found(&r, map, 0x1000) && seg_found(&r, map, ip) && segcache_tags_hold(&r),
	   "segcache: two keys of one set and one tag both found");
	ptd_jccruns_fini(&r);
}

/* segcache.h: sets of PTD_SEGCACHE_WAYS, the table growing eightfold
 * when as many segments have been cached as it has entries, with the
 * segments it holds */
static void segcache_sets(void)
{
	static const char map[1];
	struct ptd_jccruns r;
	struct pdec_seg g, first;
	size_t set;
	uint64_t same[PTD_SEGCACHE_WAYS + 1], ip;
	const struct pdec_seg *f;
	unsigned i, n = 0, held = 0, found = 0, nwas = 0, was[PTD_SEGCACHE_WAYS << PTD_SEGCACHE_BITS_FIRST];

	memset(&r, 0, sizeof(r));
	first = seg_for(0x1000);
	ptd_segcache_put(&r, map, &first);
	set = pdec_segtab_index(pdec_segtab_hash(map, &first.key), r.seg_bits);
	is_u64(r.seg_bits, PTD_SEGCACHE_BITS_FIRST, "segcache: the first table at the first segment");
	/* keys of one set, until one more than it holds */
	for (ip = 0x2000; n < PTD_SEGCACHE_WAYS + 1 && ip < 0x200000; ip += 16) {
		g = seg_for(ip);
		if (pdec_segtab_index(pdec_segtab_hash(map, &g.key), r.seg_bits) == set)
			same[n++] = ip;
	}
	if (n < PTD_SEGCACHE_WAYS + 1) {
		ok(0, "segcache: keys of one set");
		return;
	}
	for (i = 0; i < PTD_SEGCACHE_WAYS - 1; i++) {
		g = seg_for(same[i]);
		ptd_segcache_put(&r, map, &g);
	}
	for (i = 0; i < PTD_SEGCACHE_WAYS - 1; i++)
		found += (unsigned)seg_found(&r, map, same[i]);
	ok(found == PTD_SEGCACHE_WAYS - 1 && seg_found(&r, map, 0x1000),
	   "segcache: %u keys of one set all found", PTD_SEGCACHE_WAYS);
	g = seg_for(same[0]);
	g.cnt = 7;
	ptd_segcache_put(&r, map, &g);   /* the same key again: in its place */
	f = ptd_segcache_find(&r, map, &g.key, NULL, 0);
	ok(seg_found(&r, map, 0x1000) && f && f->cnt == 7,
	   "segcache: a key cached again replaces its segment, the set's others kept");
	g = seg_for(same[PTD_SEGCACHE_WAYS - 1]);
	ptd_segcache_put(&r, map, &g);
	ok(seg_found(&r, map, same[PTD_SEGCACHE_WAYS - 1]) && !seg_found(&r, map, 0x1000),
	   "segcache: one more drops the one cached first");
	g = seg_for(0x1000);
	ok(!ptd_segcache_find(&r, (const char *)map + 1, &g.key, NULL, 0),
	   "segcache: not found in another map");
	/* filled as many times as it has entries: eight times as large */
	for (i = PTD_SEGCACHE_WAYS + 1, ip = 0x300000; i < (PTD_SEGCACHE_WAYS << PTD_SEGCACHE_BITS_FIRST);
	     i++, ip += 16) {
		g = seg_for(ip);
		ptd_segcache_put(&r, map, &g);
		was[nwas++] = (unsigned)ip;
	}
	is_u64(r.seg_bits, PTD_SEGCACHE_BITS_FIRST, "segcache: not grown before it is filled");
	for (i = 0; i < nwas; i++)
		held += (unsigned)seg_found(&r, map, was[i]);
	g = seg_for(0x900000);
	ptd_segcache_put(&r, map, &g);
	g = seg_for(0x900010);
	ptd_segcache_put(&r, map, &g);
	is_u64(r.seg_bits, PTD_SEGCACHE_BITS_FIRST + 3, "segcache: then eight times as large");
	for (i = 0, found = 0; i < nwas; i++)
		found += (unsigned)seg_found(&r, map, was[i]);
	ok(held > 0 && found == held && seg_found(&r, map, 0x900010),
	   "segcache: the %u segments it held found after it grew", held);
	ok(segcache_tags_hold(&r), "segcache: every entry's tag its key's, after it grew");
	ptd_jccruns_fini(&r);
}

int main(void)
{
	struct ptd_vec v = PTD_VEC_INIT(sizeof(int));
	struct ptd_u64map m = { 0 };
	struct ptd_heap h = { 0 };
	struct ptd_heap_ent e;
	uint64_t k, prev = 0;
	void *val;
	size_t i, n = 0;
	int sorted = 1, all = 1;
	static int vals[3];

	for (i = 0; i < 1000; i++)
		*(int *)ptd_vec_push(&v) = (int)i;
	ok(v.len == 1000 && *(int *)ptd_vec_at(&v, 999) == 999, "vec holds 1000 elements");
	v.limit = 1000;
	ok(!ptd_vec_push(&v), "vec refuses to pass its limit");
	ptd_vec_fini(&v);

	for (i = 0; i < 5000; i++)
		all &= !ptd_u64map_put(&m, i * 7919, &vals[i % 3]);
	ok(all && m.used == 5000, "u64map: 5000 keys");
	ok(ptd_u64map_get(&m, 7919 * 4999) == &vals[4999 % 3], "u64map: lookup");
	ok(!ptd_u64map_get(&m, 1), "u64map: absent key");
	ptd_u64map_put(&m, 0, &vals[2]);
	ok(m.used == 5000 && ptd_u64map_get(&m, 0) == &vals[2], "u64map: replace keeps the count");
	i = 0;
	while (ptd_u64map_next(&m, &i, &k, &val))
		n++;
	is_u64(n, 5000, "u64map: iteration visits every key");
	ptd_u64map_fini(&m);

	/* deletions against a plain array: keys from a small range so that
	 * probe runs are long and wrap round the table */
	{
		static uintptr_t ref[512];
		size_t bad = 0, j;

		srand(3);
		for (i = 0; i < 200000; i++) {
			uint64_t key = (uint64_t)(rand() % 512);

			if (rand() % 3) {
				ref[key] = i + 1;
				ptd_u64map_put(&m, key * 0x10001, (void *)(uintptr_t)(i + 1));
			} else {
				bad += (size_t)ptd_u64map_del(&m, key * 0x10001) != (ref[key] != 0);
				ref[key] = 0;
			}
			if (i % 997 == 0)
				for (j = 0; j < 512; j++)
					bad += (uintptr_t)ptd_u64map_get(&m, j * 0x10001) != ref[j];
		}
		for (j = 0, n = 0; j < 512; j++)
			n += ref[j] != 0;
		ok(!bad && m.used == n, "u64map: 200000 puts and deletes agree with an array (%zu wrong)", bad);
		ptd_u64map_fini(&m);
	}
	m.limit = 2;
	ok(!ptd_u64map_put(&m, 1, &vals[0]) && !ptd_u64map_put(&m, 2, &vals[0]) &&
	   ptd_u64map_put(&m, 3, &vals[0]), "u64map: limit");
	ptd_u64map_fini(&m);

	srand(1);
	for (i = 0; i < 2000; i++)
		ptd_heap_push(&h, (uint64_t)(rand() % 100), (void *)(uintptr_t)i);
	ptd_heap_push(&h, 50, (void *)(uintptr_t)5000);
	ptd_heap_push(&h, 50, (void *)(uintptr_t)5001);
	n = 0;
	{
		int tie_order = 1;
		uintptr_t last50 = 0;

		while (!ptd_heap_pop(&h, &e)) {
			sorted &= e.key >= prev;
			prev = e.key;
			if (e.key == 50) {
				tie_order &= (uintptr_t)e.item >= last50 || last50 < 5000;
				last50 = (uintptr_t)e.item;
			}
			n++;
		}
		ok(sorted && n == 2002, "heap pops in key order");
		ok(tie_order, "heap keeps insertion order among equal keys");
	}
	ptd_heap_fini(&h);
	huge_tables();
	insncache_growth();
	jcc_sets();
	segcache_sets();
	segcache_tags();
	note_log();
	ending();   /* last: the process is ending from there on */
	return done_testing();
}
