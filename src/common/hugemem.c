/* Tables in huge pages: see hugemem.h. */
#include "common/hugemem.h"

#include <stdint.h>
#include <sys/mman.h>

#define HUGE_SZ ((size_t)2 << 20)

static size_t rounded(size_t size)
{
	return (size + HUGE_SZ - 1) & ~(HUGE_SZ - 1);
}

void *ptd_huge_zalloc(size_t size)
{
	size_t len, head;
	uint8_t *p, *a;

	if (!size || size > SIZE_MAX - 2 * HUGE_SZ)
		return NULL;
	len = rounded(size);
	/* mapped with room to align, the rest unmapped again */
	p = mmap(NULL, len + HUGE_SZ, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	a = (uint8_t *)(((uintptr_t)p + HUGE_SZ - 1) & ~(uintptr_t)(HUGE_SZ - 1));
	head = (size_t)(a - p);
	if (head)
		munmap(p, head);
	if (HUGE_SZ - head)
		munmap(a + len, HUGE_SZ - head);
#ifdef MADV_HUGEPAGE
	(void)madvise(a, len, MADV_HUGEPAGE);   /* advice only: 4 KB pages otherwise */
#endif
	return a;
}

void ptd_huge_free(void *p, size_t size)
{
	if (p)
		munmap(p, rounded(size));
}
