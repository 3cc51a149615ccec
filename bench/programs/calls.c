/* W2: call-heavy code with indirect calls and jumps.  A small bytecode
 * interpreter: each op is a call through a table of function pointers,
 * the dispatch a switch compiled to a jump table, plus a recursive tree
 * walk; the trace is dense in TIP packets (indirect calls, jumps and the
 * returns the return stack cannot compress).
 * Usage: calls [ITERATIONS]  (default 200) */
#include <stdio.h>
#include <stdlib.h>

#define NOIPA __attribute__((noipa))

typedef long (*op_fn)(long, long);

NOIPA long op_add(long a, long b) { return a + b; }
NOIPA long op_sub(long a, long b) { return a - b; }
NOIPA long op_mul(long a, long b) { return a * (b | 1); }
NOIPA long op_xor(long a, long b) { return a ^ b; }
NOIPA long op_and(long a, long b) { return (a & b) + 1; }
NOIPA long op_or(long a, long b) { return a | (b << 1); }
NOIPA long op_shl(long a, long b) { return a << (b & 7); }
NOIPA long op_neg(long a, long b) { return -a + b; }

op_fn ops[8] = { op_add, op_sub, op_mul, op_xor, op_and, op_or, op_shl, op_neg };

NOIPA long dispatch(int code, long a, long b)
{
	switch (code) {
	case 0: return a + 1;
	case 1: return a - b;
	case 2: return a * 3 + b;
	case 3: return a ^ (b << 2);
	case 4: return a >> 1;
	case 5: return a + b * 5;
	case 6: return (a & 0xffff) | b;
	case 7: return a - 7 * b;
	case 8: return ~a + b;
	case 9: return a * b + 9;
	case 10: return (a << 3) - b;
	case 11: return a + (b >> 1) + 11;
	default: return 0;
	}
}

struct node { struct node *l, *r; int op; };

NOIPA long walk(const struct node *n, long v)
{
	if (!n)
		return v;
	v = ops[n->op](v, n->op);
	return walk(n->r, walk(n->l, v));
}

static struct node *build(int depth, unsigned *seed)
{
	struct node *n;

	if (!depth)
		return NULL;
	n = malloc(sizeof(*n));
	if (!n)
		exit(1);
	*seed = *seed * 1103515245u + 12345u;
	n->op = (int)((*seed >> 16) & 7);
	n->l = build(depth - 1, seed);
	n->r = build(depth - 1, seed);
	return n;
}

int main(int argc, char **argv)
{
	long iters = argc > 1 ? atol(argv[1]) : 200, acc = 1;
	unsigned seed = 7;
	struct node *tree = build(9, &seed);

	for (long k = 0; k < iters; k++) {
		for (int i = 0; i < 512; i++) {
			seed = seed * 1103515245u + 12345u;
			acc = ops[(seed >> 16) & 7](acc, i);
			acc += dispatch((int)((seed >> 20) % 12), acc, i);
		}
		acc += walk(tree, k);
	}
	printf("calls %ld\n", acc);
	return 0;
}
