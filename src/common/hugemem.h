/* Large zeroed tables in transparent huge pages.  The decoder's caches
 * (insncache.c, jccrun.c) are a few MB each, hashed: decoding touches
 * pages all over them, and each first touch of a 4 KB page is a page
 * fault, which costs some 11 us on a virtual machine (doc/performance.md,
 * eighth round).  In 2 MB pages it is one fault per 2 MB. */
#ifndef PTD_COMMON_HUGEMEM_H
#define PTD_COMMON_HUGEMEM_H

#include <stddef.h>

/* size zeroed bytes, 2 MB aligned and asked for in huge pages (the
 * kernel may give 4 KB pages instead); NULL when out of memory. */
void *ptd_huge_zalloc(size_t size);

/* Free what ptd_huge_zalloc(size) returned (NULL: nothing). */
void ptd_huge_free(void *p, size_t size);

#endif
