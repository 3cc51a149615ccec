/* Large zeroed tables in transparent huge pages.  The decoder's caches
 * (insncache.c, jccrun.c) are a few MB each, hashed: decoding touches
 * pages all over them, and each first touch of a 4 KB page is a page
 * fault, which costs some 11 us on a virtual machine (doc/performance.md,
 * eighth round).  In 2 MB pages it is one fault per 2 MB.
 *
 * The tables are packed end to end in a region reserved for them, so
 * that together they take the 2 MB pages their sum needs (the Intel PT
 * replay's three, 3.9 MB: two pages), not one page or more each. */
#ifndef PTD_COMMON_HUGEMEM_H
#define PTD_COMMON_HUGEMEM_H

#include <stddef.h>

/* the size of the regions reserved (address space: only the pages
 * touched take memory) */
#define PTD_HUGE_REGION ((size_t)32 << 20)

/* size zeroed bytes, 64-byte aligned, in huge pages where the kernel
 * gives them (4 KB pages otherwise); NULL when out of memory.  Thread
 * safe. */
void *ptd_huge_zalloc(size_t size);

/* Free what ptd_huge_zalloc returned (NULL: nothing).  A region's
 * memory goes back to the system when all of its tables are freed. */
void ptd_huge_free(void *p);

#endif
