/* Pages a buffer is about to fill, faulted in together.  On this kind of
 * virtual machine a page new to the process costs some 11 us when first
 * touched, and about half of that when the kernel populates a run of
 * them in one call (doc/performance.md, the twenty-second round).  For
 * buffers filled from their start right after they are allocated: the
 * chunks of trace, the reader's window, the symbol tables. */
#ifndef PTD_COMMON_PREFAULT_H
#define PTD_COMMON_PREFAULT_H

#include <stddef.h>

/* Fault in, writable, the pages of [p, p + len); advice only (nothing
 * where the kernel cannot, before Linux 5.14). */
void ptd_prefault(void *p, size_t len);

#endif
