/* The emulated red-black tree (src/symtree.c) against a reference model:
 * the textbook formulation (CLRS, 3rd ed., ch. 13: pointers, a sentinel
 * nil node, RB-DELETE with TRANSPLANT and the successor), which the Linux
 * rbtree implements.  After every step of random insert/erase sequences
 * (repeated keys included) the two trees must have the same shape and
 * colours, and the red-black and search-tree properties must hold.  Plus
 * hand-worked shapes, and perf's symbols__find on overlapping symbols,
 * whose answer depends on the shape. */
#include <stdlib.h>

#include "symtree.h"
#include "tests/tap.h"
#include "xorshift.h"

#define N 600

/* ---- the reference model ---- */
struct rnode {
	struct rnode *p, *l, *r;
	uint64_t key;
	int red;
};

static struct rnode nil_, *nil = &nil_, *root, rn[N];

static void r_rotl(struct rnode *x)
{
	struct rnode *y = x->r;

	x->r = y->l;
	if (y->l != nil)
		y->l->p = x;
	y->p = x->p;
	if (x->p == nil)
		root = y;
	else if (x == x->p->l)
		x->p->l = y;
	else
		x->p->r = y;
	y->l = x;
	x->p = y;
}

static void r_rotr(struct rnode *x)
{
	struct rnode *y = x->l;

	x->l = y->r;
	if (y->r != nil)
		y->r->p = x;
	y->p = x->p;
	if (x->p == nil)
		root = y;
	else if (x == x->p->r)
		x->p->r = y;
	else
		x->p->l = y;
	y->r = x;
	x->p = y;
}

static void r_insert(struct rnode *z)
{
	struct rnode *y = nil, *x = root;

	while (x != nil) {
		y = x;
		x = z->key < x->key ? x->l : x->r;
	}
	z->p = y;
	if (y == nil)
		root = z;
	else if (z->key < y->key)
		y->l = z;
	else
		y->r = z;
	z->l = z->r = nil;
	z->red = 1;
	while (z->p->red) {
		if (z->p == z->p->p->l) {
			y = z->p->p->r;
			if (y->red) {
				z->p->red = 0, y->red = 0, z->p->p->red = 1;
				z = z->p->p;
			} else {
				if (z == z->p->r) {
					z = z->p;
					r_rotl(z);
				}
				z->p->red = 0, z->p->p->red = 1;
				r_rotr(z->p->p);
			}
		} else {
			y = z->p->p->l;
			if (y->red) {
				z->p->red = 0, y->red = 0, z->p->p->red = 1;
				z = z->p->p;
			} else {
				if (z == z->p->l) {
					z = z->p;
					r_rotr(z);
				}
				z->p->red = 0, z->p->p->red = 1;
				r_rotl(z->p->p);
			}
		}
	}
	root->red = 0;
}

static void transplant(struct rnode *u, struct rnode *v)
{
	if (u->p == nil)
		root = v;
	else if (u == u->p->l)
		u->p->l = v;
	else
		u->p->r = v;
	v->p = u->p;
}

static void r_delete_fixup(struct rnode *x)
{
	struct rnode *w;

	while (x != root && !x->red) {
		if (x == x->p->l) {
			w = x->p->r;
			if (w->red) {
				w->red = 0, x->p->red = 1;
				r_rotl(x->p);
				w = x->p->r;
			}
			if (!w->l->red && !w->r->red) {
				w->red = 1;
				x = x->p;
			} else {
				if (!w->r->red) {
					w->l->red = 0, w->red = 1;
					r_rotr(w);
					w = x->p->r;
				}
				w->red = x->p->red, x->p->red = 0, w->r->red = 0;
				r_rotl(x->p);
				x = root;
			}
		} else {
			w = x->p->l;
			if (w->red) {
				w->red = 0, x->p->red = 1;
				r_rotr(x->p);
				w = x->p->l;
			}
			if (!w->r->red && !w->l->red) {
				w->red = 1;
				x = x->p;
			} else {
				if (!w->l->red) {
					w->r->red = 0, w->red = 1;
					r_rotl(w);
					w = x->p->l;
				}
				w->red = x->p->red, x->p->red = 0, w->l->red = 0;
				r_rotr(x->p);
				x = root;
			}
		}
	}
	x->red = 0;
}

static void r_delete(struct rnode *z)
{
	struct rnode *y = z, *x;
	int yred = y->red;

	if (z->l == nil) {
		x = z->r;
		transplant(z, z->r);
	} else if (z->r == nil) {
		x = z->l;
		transplant(z, z->l);
	} else {
		for (y = z->r; y->l != nil; y = y->l)
			;
		yred = y->red;
		x = y->r;
		if (y->p == z) {
			x->p = y;
		} else {
			transplant(y, y->r);
			y->r = z->r;
			y->r->p = y;
		}
		transplant(z, y);
		y->l = z->l;
		y->l->p = y;
		y->red = z->red;
	}
	if (!yred)
		r_delete_fixup(x);
}

/* ---- comparisons ---- */
static uint32_t id_of(struct rnode *x)
{
	return x == nil ? PTD_RB_NIL : (uint32_t)(x - rn);
}

static int same_shape(const struct ptd_rbtree *t, const int *in)
{
	int i;

	if (t->root != id_of(root))
		return 0;
	for (i = 0; i < N; i++) {
		if (!in[i])
			continue;
		if (t->left[i] != id_of(rn[i].l) || t->right[i] != id_of(rn[i].r) ||
		    t->parent[i] != id_of(rn[i].p) || !t->red[i] != !rn[i].red)
			return 0;
	}
	return 1;
}

/* Black height of the subtree at x, or -1 when a property fails: red
 * parent of red, unequal black heights, keys out of order, bad parent. */
static int check(const struct ptd_rbtree *t, uint32_t x, uint64_t lo, uint64_t hi)
{
	int bl, br;

	if (x == PTD_RB_NIL)
		return 1;
	if (t->key[x] < lo || t->key[x] > hi)
		return -1;
	if (t->red[x] && ((t->left[x] != PTD_RB_NIL && t->red[t->left[x]]) ||
			  (t->right[x] != PTD_RB_NIL && t->red[t->right[x]])))
		return -1;
	if ((t->left[x] != PTD_RB_NIL && t->parent[t->left[x]] != x) ||
	    (t->right[x] != PTD_RB_NIL && t->parent[t->right[x]] != x))
		return -1;
	/* in order, keys never decrease (rotations may put equal keys left) */
	bl = check(t, t->left[x], lo, t->key[x]);
	br = check(t, t->right[x], t->key[x], hi);
	if (bl < 0 || br < 0 || bl != br)
		return -1;
	return bl + !t->red[x];
}

static uint64_t rng = 88172645463325252ull;

static uint64_t next_rand(void)
{
	return xorshift64(&rng);
}

static void random_runs(void)
{
	int run, steps = 0, bad_shape = -1, bad_prop = -1;

	for (run = 0; run < 40; run++) {
		struct ptd_rbtree t;
		int in[N] = { 0 }, i, nin = 0;
		uint64_t keyspace = run % 2 ? 16 : 1000000;  /* many repeated keys, or few */

		if (ptd_rbtree_init(&t, N))
			abort();
		root = nil;
		for (i = 0; i < 3000; i++, steps++) {
			uint32_t id = (uint32_t)(next_rand() % N);

			if (!in[id] && (nin < N / 2 || next_rand() % 3)) {
				uint64_t k = next_rand() % keyspace;

				rn[id].key = k;
				r_insert(&rn[id]);
				ptd_rbtree_insert(&t, id, k);
				in[id] = 1, nin++;
			} else if (in[id]) {
				r_delete(&rn[id]);
				ptd_rbtree_erase(&t, id);
				in[id] = 0, nin--;
			}
			if (bad_shape < 0 && !same_shape(&t, in))
				bad_shape = steps;
			if (bad_prop < 0 && check(&t, t.root, 0, UINT64_MAX) < 0)
				bad_prop = steps;
		}
		ptd_rbtree_fini(&t);
	}
	ok(bad_shape < 0, "%d random inserts and erases: the same shape and colours as the reference model (first difference at step %d)",
	   steps, bad_shape);
	ok(bad_prop < 0, "red-black and search-tree properties hold after every step (first failure at step %d)", bad_prop);
}

/* Keys 1..7 inserted in order: 2(1, 4(3, 6(5, 7))), 4, 5 and 7 red. */
static void hand_shape(void)
{
	struct ptd_rbtree t;
	uint32_t i;

	if (ptd_rbtree_init(&t, 8))
		abort();
	for (i = 1; i <= 7; i++)
		ptd_rbtree_insert(&t, i, i);
	ok(t.root == 2 && t.left[2] == 1 && t.right[2] == 4 && t.left[4] == 3 && t.right[4] == 6 &&
	   t.left[6] == 5 && t.right[6] == 7, "1..7 ascending: 2(1, 4(3, 6(5, 7)))");
	ok(!t.red[2] && !t.red[1] && t.red[4] && !t.red[3] && !t.red[6] && t.red[5] && t.red[7],
	   "1..7 ascending: 4, 5, 7 red, the others black");
	/* erase the root (two children): its successor 3 takes its place, and
	 * the black 3 missing under 4 is made up by a rotation at 4:
	 * 3(1, 6(4(-, 5), 7)), 6 and 5 red */
	ptd_rbtree_erase(&t, 2);
	ok(t.root == 3 && t.left[3] == 1 && t.right[3] == 6 && t.left[6] == 4 && t.right[6] == 7 &&
	   t.left[4] == PTD_RB_NIL && t.right[4] == 5, "erasing the root: 3(1, 6(4(-, 5), 7))");
	ok(!t.red[3] && !t.red[1] && t.red[6] && !t.red[4] && t.red[5] && !t.red[7],
	   "and 6, 5 are red, the others black");
	ok(check(&t, t.root, 0, UINT64_MAX) > 0, "and the tree is still red-black");
	ptd_rbtree_fini(&t);
}

/* perf's search returns the first node on its path that contains ip: a
 * big symbol A [0, 100) with B [10, 20) and C [30, 40) inserted after it
 * become B(A, C); 50 is inside A, but the path B -> C never meets it. */
static void overlap_search(void)
{
	struct ptd_rbtree t;
	struct ptd_symtree_node nodes[3] = { { 0, 100, 0, 0 }, { 10, 20, 0, 0 }, { 30, 40, 0, 0 } };
	uint32_t i;

	if (ptd_rbtree_init(&t, 3))
		abort();
	for (i = 0; i < 3; i++)
		ptd_rbtree_insert(&t, i, nodes[i].start);
	for (i = 0; i < 3; i++)
		nodes[i].left = t.left[i], nodes[i].right = t.right[i];
	ok(t.root == 1, "A, B, C inserted: B is the root");
	is_u64(ptd_symtree_find(nodes, t.root, 5), 0, "5: A (left of B)");
	is_u64(ptd_symtree_find(nodes, t.root, 15), 1, "15: B, not A");
	is_u64(ptd_symtree_find(nodes, t.root, 35), 2, "35: C");
	is_u64(ptd_symtree_find(nodes, t.root, 50), PTD_RB_NIL, "50: not found, although A contains it");
	is_u64(ptd_symtree_find(nodes, t.root, 20), PTD_RB_NIL, "20: a symbol's end is outside it");
	ptd_rbtree_fini(&t);
}

int main(void)
{
	random_runs();
	hand_shape();
	overlap_search();
	return done_testing();
}
