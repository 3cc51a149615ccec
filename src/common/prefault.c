/* Pages faulted in together: see prefault.h. */
#include "common/prefault.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

void ptd_prefault(void *p, size_t len)
{
	long ps = sysconf(_SC_PAGESIZE);
	uintptr_t page = ps > 0 ? (uintptr_t)ps : 4096, a, e;

	if (!p || !len || (uintptr_t)p + len < (uintptr_t)p)
		return;
	/* the whole pages the buffer touches: the ones it shares with other
	 * memory are mapped as well */
	a = (uintptr_t)p & ~(page - 1);
	e = ((uintptr_t)p + len + page - 1) & ~(page - 1);
	(void)madvise((void *)a, e - a, MADV_POPULATE_WRITE);
}
