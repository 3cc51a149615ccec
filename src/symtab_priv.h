/* The symbol table's insides, shared by the ELF reader (symbols.c) and
 * perf's ordering of the symbols (symset.c).  Not a public interface. */
#ifndef PTD_SYMTAB_PRIV_H
#define PTD_SYMTAB_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "symbols.h"
#include "symtree.h"

struct sym {
	uint64_t start, end;  /* file offsets, [start, end) */
	uint32_t name;        /* offset in the string table */
	uint32_t seq;         /* order of insertion into perf's tree (sort ties) */
	uint32_t zone;        /* 1 + index in zone_end when it overlaps another */
	uint8_t bind;
};

struct load {
	uint64_t vaddr, offset, size;
};

struct ptd_symtab {
	struct sym *syms;     /* by start, then seq: perf's tree in order */
	size_t n, cap;
	char *strs;           /* the symbols' string table, NUL-terminated */
	size_t strsz;
	struct load *loads;
	size_t nloads;
	int full;             /* read from .symtab (not only .dynsym) */
	int kallsyms;         /* read from a kallsyms file (kallsyms.c): addresses */
	int has_text;         /* ... which names _text, at text */
	uint64_t text;
	int has_stext;        /* ... and _stext, at stext */
	uint64_t stext;
	/* while loading, and where symbols overlap until perf's tree is
	 * built: what perf did to its tree, in order */
	uint64_t *keys;       /* start of each inserted symbol, by seq */
	uint32_t *ops;        /* seq (insert) or seq | OP_ERASE */
	size_t nseq, nops, capops;
	/* overlapping symbols: the ends of the zones and perf's tree */
	uint64_t *zone_end;
	size_t nzones;
	struct ptd_symtree_node *nodes;  /* by index in syms; NULL: no zones, or
	                                    not built yet (keys and ops kept) */
	uint32_t root;
};

#define OP_ERASE 0x80000000u

/* Room for more symbols in t->syms and t->keys.  0 or -1 (no memory). */
int ptd_symset_reserve(struct ptd_symtab *t, size_t more);
/* Append a symbol perf inserts into its tree (the reservation holds). */
void ptd_symset_insert(struct ptd_symtab *t, uint64_t start, uint64_t end, uint32_t name,
		       uint8_t bind);
/* perf's symbols__fixup_end and symbols__fixup_duplicate over the whole
 * set, after a load pass that inserted symbols.  0 or -1 (no memory). */
int ptd_symset_fixup(struct ptd_symtab *t);
/* Erase the symbols whose name drop() refuses, in order (perf's
 * maps__split_kallsyms discarding module symbols). */
void ptd_symset_drop(struct ptd_symtab *t, int (*drop)(const char *name));
/* After the PLT symbols: sort, find the overlapping zones and, when there
 * are some, build perf's tree from the log; free the log.  0 or -1. */
int ptd_symset_index(struct ptd_symtab *t);

#endif
