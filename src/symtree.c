/* A red-black tree built as the Linux rbtree builds it (see symtree.h):
 * CLRS's insertion and deletion, which lib/rbtree.c implements (deletion
 * of a node with two children moves its in-order successor into its
 * place), over arrays indexed by node id. */
#include "symtree.h"

#include <stdlib.h>

#define NIL PTD_RB_NIL

int ptd_rbtree_init(struct ptd_rbtree *t, size_t cap)
{
	size_t n = cap ? cap : 1;

	t->root = NIL;
	t->cap = 0;
	t->key = malloc(n * sizeof(*t->key));
	t->left = malloc(n * sizeof(*t->left));
	t->right = malloc(n * sizeof(*t->right));
	t->parent = malloc(n * sizeof(*t->parent));
	t->red = malloc(n);
	if (!t->key || !t->left || !t->right || !t->parent || !t->red || cap >= NIL) {
		ptd_rbtree_fini(t);
		return -1;
	}
	t->cap = cap;
	return 0;
}

void ptd_rbtree_fini(struct ptd_rbtree *t)
{
	free(t->key);
	free(t->left);
	free(t->right);
	free(t->parent);
	free(t->red);
	t->key = NULL;
	t->left = t->right = t->parent = NULL;
	t->red = NULL;
	t->root = NIL;
	t->cap = 0;
}

static int is_red(const struct ptd_rbtree *t, uint32_t x)
{
	return x != NIL && t->red[x];
}

/* Put y where x was under x's parent. */
static void replace_child(struct ptd_rbtree *t, uint32_t x, uint32_t y)
{
	uint32_t p = t->parent[x];

	if (p == NIL)
		t->root = y;
	else if (t->left[p] == x)
		t->left[p] = y;
	else
		t->right[p] = y;
	if (y != NIL)
		t->parent[y] = p;
}

static void rotate_left(struct ptd_rbtree *t, uint32_t x)
{
	uint32_t y = t->right[x];

	t->right[x] = t->left[y];
	if (t->left[y] != NIL)
		t->parent[t->left[y]] = x;
	replace_child(t, x, y);
	t->left[y] = x;
	t->parent[x] = y;
}

static void rotate_right(struct ptd_rbtree *t, uint32_t x)
{
	uint32_t y = t->left[x];

	t->left[x] = t->right[y];
	if (t->right[y] != NIL)
		t->parent[t->right[y]] = x;
	replace_child(t, x, y);
	t->right[y] = x;
	t->parent[x] = y;
}

void ptd_rbtree_insert(struct ptd_rbtree *t, uint32_t z, uint64_t key)
{
	uint32_t p = NIL, x = t->root;

	t->key[z] = key;
	while (x != NIL) {
		p = x;
		x = key < t->key[x] ? t->left[x] : t->right[x];
	}
	t->parent[z] = p;
	t->left[z] = t->right[z] = NIL;
	t->red[z] = 1;
	if (p == NIL)
		t->root = z;
	else if (key < t->key[p])
		t->left[p] = z;
	else
		t->right[p] = z;
	/* fix-up: a red node's parent must be black */
	while (is_red(t, t->parent[z])) {
		uint32_t zp = t->parent[z], g = t->parent[zp];
		int left = t->left[g] == zp;
		uint32_t u = left ? t->right[g] : t->left[g];

		if (is_red(t, u)) {
			t->red[zp] = 0;
			t->red[u] = 0;
			t->red[g] = 1;
			z = g;
			continue;
		}
		if (left) {
			if (z == t->right[zp]) {
				rotate_left(t, zp);
				z = zp;
				zp = t->parent[z];
			}
			t->red[zp] = 0;
			t->red[g] = 1;
			rotate_right(t, g);
		} else {
			if (z == t->left[zp]) {
				rotate_right(t, zp);
				z = zp;
				zp = t->parent[z];
			}
			t->red[zp] = 0;
			t->red[g] = 1;
			rotate_left(t, g);
		}
	}
	t->red[t->root] = 0;
}

/* Re-balance after a black node left a hole (node x, possibly NIL) under
 * parent p. */
static void erase_fixup(struct ptd_rbtree *t, uint32_t x, uint32_t p)
{
	while (p != NIL && !is_red(t, x)) {
		uint32_t w;

		if (x != t->right[p]) {  /* x is p's left child (NIL too: see symtree.h) */
			w = t->right[p];
			if (is_red(t, w)) {
				t->red[w] = 0;
				t->red[p] = 1;
				rotate_left(t, p);
				w = t->right[p];
			}
			if (!is_red(t, t->left[w]) && !is_red(t, t->right[w])) {
				t->red[w] = 1;
				x = p;
				p = t->parent[x];
				continue;
			}
			if (!is_red(t, t->right[w])) {
				t->red[t->left[w]] = 0;
				t->red[w] = 1;
				rotate_right(t, w);
				w = t->right[p];
			}
			t->red[w] = t->red[p];
			t->red[p] = 0;
			t->red[t->right[w]] = 0;
			rotate_left(t, p);
		} else {
			w = t->left[p];
			if (is_red(t, w)) {
				t->red[w] = 0;
				t->red[p] = 1;
				rotate_right(t, p);
				w = t->left[p];
			}
			if (!is_red(t, t->left[w]) && !is_red(t, t->right[w])) {
				t->red[w] = 1;
				x = p;
				p = t->parent[x];
				continue;
			}
			if (!is_red(t, t->left[w])) {
				t->red[t->right[w]] = 0;
				t->red[w] = 1;
				rotate_left(t, w);
				w = t->left[p];
			}
			t->red[w] = t->red[p];
			t->red[p] = 0;
			t->red[t->left[w]] = 0;
			rotate_right(t, p);
		}
		x = t->root;
		break;
	}
	if (x != NIL)
		t->red[x] = 0;
}

void ptd_rbtree_erase(struct ptd_rbtree *t, uint32_t z)
{
	uint32_t x, xp, y;
	int black_removed;

	if (t->left[z] == NIL || t->right[z] == NIL) {
		x = t->left[z] == NIL ? t->right[z] : t->left[z];
		xp = t->parent[z];
		black_removed = !t->red[z];
		replace_child(t, z, x);
	} else {
		/* the in-order successor takes z's place and colour */
		y = t->right[z];
		while (t->left[y] != NIL)
			y = t->left[y];
		black_removed = !t->red[y];
		x = t->right[y];
		if (t->parent[y] == z) {
			xp = y;
		} else {
			xp = t->parent[y];
			t->left[xp] = x;
			if (x != NIL)
				t->parent[x] = xp;
			t->right[y] = t->right[z];
			t->parent[t->right[y]] = y;
		}
		replace_child(t, z, y);
		t->left[y] = t->left[z];
		t->parent[t->left[y]] = y;
		t->red[y] = t->red[z];
	}
	if (black_removed)
		erase_fixup(t, x, xp);
}

uint32_t ptd_symtree_find(const struct ptd_symtree_node *nodes, uint32_t root, uint64_t ip)
{
	uint32_t n = root;

	while (n != NIL) {
		const struct ptd_symtree_node *s = &nodes[n];

		if (ip < s->start)
			n = s->left;
		else if (ip > s->end || (ip == s->end && ip != s->start))
			n = s->right;
		else
			return n;
	}
	return NIL;
}
