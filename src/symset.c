/* perf's set of symbols of a dso and its lookup (see symbols.h, symtree.h).
 *
 * perf inserts symbols into a red-black tree keyed by start; after each
 * load pass (.symtab, then .dynsym) symbols__fixup_end and
 * symbols__fixup_duplicate walk the tree in order, and the PLT symbols
 * come last, without a fix-up.  The tree's in-order sequence is the array
 * here, sorted by (start, order of insertion): equal starts go right.
 * Every insertion and erasure is logged; when symbols overlap, the log is
 * replayed into an emulated tree (symtree.c) whose search answers for the
 * overlapping zones, and the sorted array answers everywhere else (there
 * at most one symbol contains an address, and any search finds it). */
#include "symtab_priv.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "common/prefault.h"

int ptd_symset_reserve(struct ptd_symtab *t, size_t more)
{
	size_t want = t->n + more, wseq = t->nseq + more, wops = t->nops + 2 * more;

	if (more > SIZE_MAX / 64 || wseq >= OP_ERASE)
		return -1;
	if (want > t->cap) {
		struct sym *s = realloc(t->syms, (want ? want : 1) * sizeof(*s));

		if (!s)
			return -1;
		t->syms = s;
		t->cap = want;
		ptd_prefault(s + t->n, more * sizeof(*s));   /* filled next */
	}
	{
		uint64_t *k = realloc(t->keys, (wseq ? wseq : 1) * sizeof(*k));

		if (!k)
			return -1;
		t->keys = k;
		ptd_prefault(k + t->nseq, more * sizeof(*k));
	}
	if (wops > t->capops) {
		uint32_t *o = realloc(t->ops, (wops ? wops : 1) * sizeof(*o));

		if (!o)
			return -1;
		t->ops = o;
		t->capops = wops;
		ptd_prefault(o + t->nops, 2 * more * sizeof(*o));
	}
	return 0;
}

void ptd_symset_insert(struct ptd_symtab *t, uint64_t start, uint64_t end, uint32_t name,
		       uint8_t bind)
{
	uint32_t seq = (uint32_t)t->nseq++;

	t->syms[t->n++] = (struct sym){ start, end, name, seq, 0, bind };
	t->keys[seq] = start;
	t->ops[t->nops++] = seq;
}

/* A stable radix sort of a[0, n) by start, least significant byte first,
 * with b[0, n) to move through, over the bytes the starts differ in (a
 * table's addresses differ in two or three).  Where the result is: a or
 * b. */
static struct sym *radix_sort(struct sym *a, struct sym *b, size_t n)
{
	uint64_t any = 0, all = ~0ULL, differ;
	uint32_t cnt[256];
	struct sym *tmp;
	unsigned sh, v;
	size_t i;

	for (i = 0; i < n; i++) {
		any |= a[i].start;
		all &= a[i].start;
	}
	differ = any ^ all;
	for (sh = 0; sh < 64; sh += 8) {
		uint32_t sum = 0;

		if (!((differ >> sh) & 255))
			continue;
		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < n; i++)
			cnt[(a[i].start >> sh) & 255]++;
		for (v = 0; v < 256; v++) {
			uint32_t k = cnt[v];

			cnt[v] = sum;
			sum += k;
		}
		for (i = 0; i < n; i++)
			b[cnt[(a[i].start >> sh) & 255]++] = a[i];
		tmp = a;
		a = b;
		b = tmp;
	}
	return a;
}

/* Sort t->syms by (start, seq), perf's tree in order.  The array is
 * always in seq order where starts are equal (sorted, then symbols
 * appended with a greater seq), so a stable sort by start does it.  A
 * sorted array stays; one sorted but for symbols appended has only
 * those sorted, then merged in (the earlier first among equal starts).
 * 0 or -1 (no memory). */
static int sort_syms(struct ptd_symtab *t)
{
	struct sym *a = t->syms, *out, *tail, *r;
	size_t n = t->n, p = 1, i, j, k;

	while (p < n && a[p - 1].start <= a[p].start)
		p++;
	if (p >= n)
		return 0;
	out = malloc(n * sizeof(*out));
	if (!out)
		return -1;
	ptd_prefault(out, n * sizeof(*out));
	if (p < n / 2) {
		r = radix_sort(a, out, n);
		free(r == a ? out : a);
		t->syms = r;
		t->cap = n;
		return 0;
	}
	tail = malloc((n - p) * sizeof(*tail));
	if (!tail) {
		free(out);
		return -1;
	}
	ptd_prefault(tail, (n - p) * sizeof(*tail));
	r = radix_sort(a + p, tail, n - p);
	for (i = 0, j = 0, k = 0; k < n; k++)
		out[k] = j == n - p || (i < p && a[i].start <= r[j].start) ? a[i++] : r[j++];
	free(tail);
	free(a);
	t->syms = out;
	t->cap = n;
	return 0;
}

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol: 1 when b is better than a (a wins ties). */
static int b_is_better(const struct ptd_symtab *t, const struct sym *a, const struct sym *b)
{
	const char *na = t->strs + a->name, *nb = t->strs + b->name;
	int za = a->end == a->start, zb = b->end == b->start;
	int wa = a->bind == STB_WEAK, wb = b->bind == STB_WEAK;
	int ga = a->bind == STB_GLOBAL, gb = b->bind == STB_GLOBAL;
	size_t ua, ub, la, lb;

	if (za != zb)
		return za;
	if (wa != wb)
		return wa;
	if (ga != gb)
		return gb;
	ua = underscores(na), ub = underscores(nb);
	if (ua != ub)
		return ub < ua;
	la = strlen(na), lb = strlen(nb);
	return lb > la;
}

static void log_erase(struct ptd_symtab *t, const struct sym *s)
{
	t->ops[t->nops++] = s->seq | OP_ERASE;
}

int ptd_symset_fixup(struct ptd_symtab *t)
{
	size_t i, out;
	struct sym cur;

	if (!t->n)
		return 0;
	if (sort_syms(t))
		return -1;
	/* symbols__fixup_end: a zero-size symbol ends where the next starts;
	 * in kallsyms, between a kernel and a module symbol (a '[' in one
	 * name only) at the end of its page instead */
	for (i = 0; i + 1 < t->n; i++) {
		if (t->syms[i].end != t->syms[i].start)
			continue;
		if (t->kallsyms && !strchr(t->strs + t->syms[i].name, '[') !=
				   !strchr(t->strs + t->syms[i + 1].name, '[')) {
			uint64_t s = t->syms[i].start;

			t->syms[i].end = s > UINT64_MAX - 8191 ? UINT64_MAX : (s + 4096 + 4095) & ~(uint64_t)4095;
		} else {
			t->syms[i].end = t->syms[i + 1].start;
		}
	}
	if (t->syms[t->n - 1].end == t->syms[t->n - 1].start) {
		uint64_t s = t->syms[t->n - 1].start;
		uint64_t up = s > UINT64_MAX - 8191 ? UINT64_MAX : ((s + 4095) & ~(uint64_t)4095) + 4096;

		t->syms[t->n - 1].end = up;
	}
	/* symbols__fixup_duplicate: of equal starts the best stays, the
	 * others are erased in the order the walk meets them */
	cur = t->syms[0];
	out = 0;
	for (i = 1; i < t->n; i++) {
		if (t->syms[i].start != cur.start) {
			t->syms[out++] = cur;
			cur = t->syms[i];
		} else if (b_is_better(t, &cur, &t->syms[i])) {
			log_erase(t, &cur);
			cur = t->syms[i];
		} else {
			log_erase(t, &t->syms[i]);
		}
	}
	t->syms[out++] = cur;
	t->n = out;
	return 0;
}

void ptd_symset_drop(struct ptd_symtab *t, int (*drop)(const char *name))
{
	size_t i, out = 0;

	for (i = 0; i < t->n; i++) {
		if (drop(t->strs + t->syms[i].name))
			log_erase(t, &t->syms[i]);
		else
			t->syms[out++] = t->syms[i];
	}
	t->n = out;
}

/* The last address (exclusive) symbol s contains for perf's search:
 * [start, end), and its start when it has no size. */
static uint64_t cover_end(const struct sym *s)
{
	if (s->end > s->start)
		return s->end;
	return s->start == UINT64_MAX ? UINT64_MAX : s->start + 1;
}

/* Replay the log into an emulated tree and keep its shape by symbol index. */
static int build_tree(struct ptd_symtab *t)
{
	struct ptd_rbtree rb;
	uint32_t *map;
	size_t i;

	if (ptd_rbtree_init(&rb, t->nseq))
		return -1;
	map = malloc((t->nseq ? t->nseq : 1) * sizeof(*map));
	t->nodes = malloc(t->n * sizeof(*t->nodes));
	if (!map || !t->nodes) {
		free(map);
		free(t->nodes);
		t->nodes = NULL;
		ptd_rbtree_fini(&rb);
		return -1;
	}
	for (i = 0; i < t->nops; i++) {
		uint32_t op = t->ops[i];

		if (op & OP_ERASE)
			ptd_rbtree_erase(&rb, op & ~OP_ERASE);
		else
			ptd_rbtree_insert(&rb, op, t->keys[op]);
	}
	for (i = 0; i < t->nseq; i++)
		map[i] = PTD_RB_NIL;
	for (i = 0; i < t->n; i++)
		map[t->syms[i].seq] = (uint32_t)i;
	for (i = 0; i < t->n; i++) {
		uint32_t seq = t->syms[i].seq, l = rb.left[seq], r = rb.right[seq];

		t->nodes[i] = (struct ptd_symtree_node){
			t->syms[i].start, t->syms[i].end,
			l == PTD_RB_NIL ? PTD_RB_NIL : map[l], r == PTD_RB_NIL ? PTD_RB_NIL : map[r] };
	}
	t->root = rb.root == PTD_RB_NIL ? PTD_RB_NIL : map[rb.root];
	free(map);
	ptd_rbtree_fini(&rb);
	return 0;
}

/* The log of perf's insertions and erasures, once replayed or not needed. */
static void free_log(struct ptd_symtab *t)
{
	free(t->keys);
	free(t->ops);
	t->keys = NULL;
	t->ops = NULL;
	t->nops = t->capops = 0;
}

int ptd_symset_index(struct ptd_symtab *t)
{
	size_t i, first = 0, nz = 0;
	uint64_t cend;
	int rc = 0;

	if (t->n) {
		struct sym *s = realloc(t->syms, t->n * sizeof(*s));

		if (s)
			t->syms = s, t->cap = t->n;
		t->zone_end = malloc(t->n * sizeof(*t->zone_end));
		if (!t->zone_end || sort_syms(t))
			rc = -1;
	}
	/* zones: runs of symbols each starting inside an earlier one's cover */
	for (i = 0, cend = 0; !rc && i <= t->n; i++) {
		if (i < t->n && i > first && t->syms[i].start < cend) {
			uint64_t c = cover_end(&t->syms[i]);

			cend = c > cend ? c : cend;
			continue;
		}
		if (i > first + 1) {
			size_t k;

			for (k = first; k < i; k++)
				t->syms[k].zone = (uint32_t)nz + 1;
			t->zone_end[nz++] = cend;
		}
		if (i < t->n) {
			first = i;
			cend = cover_end(&t->syms[i]);
		}
	}
	/* perf's tree is built from the log at the first lookup in a zone
	 * (ptd_symtab_lookup_info): a run that resolves few addresses rarely
	 * needs it */
	t->nzones = nz;
	if (!nz || rc) {
		free(t->zone_end);
		t->zone_end = NULL;
		t->nzones = 0;
		free_log(t);
	}
	return rc;
}

int ptd_symtab_lookup_info(struct ptd_symtab *t, uint64_t off, const char **name,
			   uint64_t *symoff, struct ptd_sym_info *info)
{
	size_t lo = 0, hi = t->n;
	const struct sym *s;

	/* the last symbol starting at or below off */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].start <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -PTD_E_NOTFOUND;
	s = &t->syms[lo - 1];
	if (s->zone && off < t->zone_end[s->zone - 1]) {
		uint32_t k;

		if (!t->nodes) {
			if (build_tree(t))
				return -PTD_E_NOMEM;
			free_log(t);
		}
		k = ptd_symtree_find(t->nodes, t->root, off);

		if (k == PTD_RB_NIL)
			return -PTD_E_NOTFOUND;
		s = &t->syms[k];
	} else if (off >= s->end && off != s->start) {
		return -PTD_E_NOTFOUND;
	}
	*name = t->strs + s->name;
	*symoff = off - s->start;
	if (info) {
		info->start = s->start;
		info->end = s->end;
		info->bind = s->bind;
	}
	return 0;
}

int ptd_symtab_lookup(struct ptd_symtab *t, uint64_t off, const char **name,
		      uint64_t *symoff)
{
	return ptd_symtab_lookup_info(t, off, name, symoff, NULL);
}

int ptd_symtab_find(const struct ptd_symtab *t, const char *name, struct ptd_sym_info *info)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct sym *s = &t->syms[i];

		if (!strcmp(t->strs + s->name, name)) {
			info->start = s->start;
			info->end = s->end;
			info->bind = s->bind;
			return 0;
		}
	}
	return -PTD_E_NOTFOUND;
}
