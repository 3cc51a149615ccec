/* perf's symbol tree, emulated: where a dso's symbols overlap (a zero-size
 * _init stretched over the PLT, then NAME@plt symbols added inside it),
 * which symbol perf prints depends on the shape of its red-black tree
 * (util/symbol.c symbols__find returns the FIRST node on its search path
 * that contains the address).  The shape follows from the sequence of
 * insertions and erasures perf made while loading, so this builds the
 * same red-black tree from the same sequence with the canonical
 * algorithms the Linux rbtree uses (lib/rbtree.c: insertion fix-up,
 * erasure by in-order successor and its re-balancing), then searches it
 * the way symbols__find does.
 *
 * Keys: insertion descends left when the new key is below a node's key,
 * else right (equal keys go right: perf's __symbols__insert). */
#ifndef PTD_SYMTREE_H
#define PTD_SYMTREE_H

#include <stddef.h>
#include <stdint.h>

#define PTD_RB_NIL UINT32_MAX

/* A red-black tree over node ids 0..cap-1 (each inserted at most once
 * while in the tree). */
struct ptd_rbtree {
	uint64_t *key;
	uint32_t *left, *right, *parent;
	uint8_t *red;
	uint32_t root;   /* PTD_RB_NIL: empty */
	size_t cap;
};

/* Returns 0, or -1 when out of memory (the tree is then empty and
 * ptd_rbtree_fini is still right to call). */
int ptd_rbtree_init(struct ptd_rbtree *t, size_t cap);
void ptd_rbtree_fini(struct ptd_rbtree *t);
/* Insert node id (id < cap, not in the tree) with key. */
void ptd_rbtree_insert(struct ptd_rbtree *t, uint32_t id, uint64_t key);
/* Erase node id (in the tree), as rb_erase does. */
void ptd_rbtree_erase(struct ptd_rbtree *t, uint32_t id);

/* The search structure kept for lookups: the final tree, nodes numbered
 * by the caller's symbol index. */
struct ptd_symtree_node {
	uint64_t start, end;     /* the symbol's [start, end) as perf has it */
	uint32_t left, right;    /* node indexes, PTD_RB_NIL: none */
};

/* perf's symbols__find: from root, left when ip < start, right when
 * ip > end or (ip == end and ip != start), else this node.  Returns the
 * node index or PTD_RB_NIL. */
uint32_t ptd_symtree_find(const struct ptd_symtree_node *nodes, uint32_t root, uint64_t ip);

#endif
