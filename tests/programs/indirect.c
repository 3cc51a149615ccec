/* Test program for the recorder's execution sources: indirect branches.
 *
 * run() calls through a table of function pointers (600 indirect calls)
 * and calls dispatch(), whose dense switch compiles to a jump table at
 * -O2 (600 indirect jumps).  The table is a global the compiler cannot
 * see through. */
#include <stdio.h>

#define NOIPA __attribute__((noipa))

typedef long (*op_fn)(long, long);

NOIPA long op_add(long a, long b) { return a + b; }
NOIPA long op_sub(long a, long b) { return a - b; }
NOIPA long op_mul(long a, long b) { return a * (b | 1); }
NOIPA long op_xor(long a, long b) { return a ^ b; }
NOIPA long op_and(long a, long b) { return (a & b) + 1; }
NOIPA long op_or(long a, long b) { return a | (b << 1); }

op_fn ops[6] = { op_add, op_sub, op_mul, op_xor, op_and, op_or };

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

NOIPA long run(void)
{
	long acc = 1;

	for (int i = 0; i < 600; i++) {
		acc = ops[i % 6](acc, i);
		acc += dispatch(i % 12, acc, i);
	}
	return acc;
}

int main(void)
{
	printf("indirect %ld\n", run());
	return 0;
}
