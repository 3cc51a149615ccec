/* Tables in huge pages: see hugemem.h.
 *
 * Each region is PTD_HUGE_REGION bytes of address space (more for a
 * larger table), 2 MB aligned and advised for huge pages.  Tables are
 * taken from its start onwards and never reused: a fresh mapping is
 * zeroed, and the region is unmapped when its last table is freed (left
 * to the exit once the process is ending: common/ending.h). */
#include "common/hugemem.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "common/ending.h"

#define HUGE_SZ ((size_t)2 << 20)
#define ALIGN 64

struct region {
	struct region *next;
	uint8_t *base;
	size_t len, used;
	size_t live;                  /* tables not yet freed */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct region *regions;   /* the newest first: tables are taken from it */

static size_t round_up(size_t size, size_t to)
{
	return (size + to - 1) & ~(to - 1);
}

/* a new region of len bytes (a multiple of HUGE_SZ), 2 MB aligned */
static struct region *reserve(size_t len)
{
	struct region *r = malloc(sizeof(*r));
	size_t head;
	uint8_t *p, *a;

	if (!r)
		return NULL;
	/* mapped with room to align, the rest unmapped again */
	p = mmap(NULL, len + HUGE_SZ, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		free(r);
		return NULL;
	}
	a = (uint8_t *)(((uintptr_t)p + HUGE_SZ - 1) & ~(uintptr_t)(HUGE_SZ - 1));
	head = (size_t)(a - p);
	if (head)
		munmap(p, head);
	if (HUGE_SZ - head)
		munmap(a + len, HUGE_SZ - head);
#ifdef MADV_HUGEPAGE
	(void)madvise(a, len, MADV_HUGEPAGE);   /* advice only: 4 KB pages otherwise */
#endif
	r->base = a;
	r->len = len;
	r->used = r->live = 0;
	r->next = regions;
	regions = r;
	return r;
}

void *ptd_huge_zalloc(size_t size)
{
	struct region *r;
	void *p = NULL;

	if (!size || size > SIZE_MAX / 2 - PTD_HUGE_REGION)
		return NULL;
	size = round_up(size, ALIGN);
	pthread_mutex_lock(&lock);
	r = regions;
	if (!r || r->len - r->used < size)
		r = reserve(size > PTD_HUGE_REGION ? round_up(size, HUGE_SZ) : PTD_HUGE_REGION);
	if (r) {
		p = r->base + r->used;
		r->used += size;
		r->live++;
	}
	pthread_mutex_unlock(&lock);
	return p;
}

void ptd_huge_free(void *p)
{
	struct region **rp, *r;

	if (!p)
		return;
	pthread_mutex_lock(&lock);
	for (rp = &regions; (r = *rp); rp = &r->next)
		if ((uint8_t *)p >= r->base && (uint8_t *)p < r->base + r->len)
			break;
	if (r && !--r->live) {
		*rp = r->next;
		if (!ptd_ending())
			munmap(r->base, r->len);
		free(r);
	}
	pthread_mutex_unlock(&lock);
}
