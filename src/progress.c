#include "progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void ptd_progress_init(struct ptd_progress *p, const char *label, int quiet)
{
	p->enabled = !quiet && isatty(STDERR_FILENO);
	p->label = label;
	p->last_ms = 0;
	p->drawn = 0;
}

void ptd_progress_update(void *ctx, uint64_t done, uint64_t total)
{
	struct ptd_progress *p = ctx;
	uint64_t t;
	int i, width = 40, fill;

	if (!p->enabled)
		return;
	t = now_ms();
	if (p->drawn && t - p->last_ms < 100 && done != total)
		return;
	p->last_ms = t;
	p->drawn = 1;
	if (!total) {
		fprintf(stderr, "\r%s: %llu MB", p->label, (unsigned long long)(done >> 20));
		return;
	}
	fill = done >= total ? width : (int)(done * (uint64_t)width / total);
	fprintf(stderr, "\r%s [", p->label);
	for (i = 0; i < width; i++)
		fputc(i < fill ? '#' : ' ', stderr);
	fprintf(stderr, "] %3d%%", (int)(done >= total ? 100 : done * 100 / total));
}

void ptd_progress_done(struct ptd_progress *p)
{
	if (p->enabled && p->drawn)
		fprintf(stderr, "\r\033[K");
	p->drawn = 0;
}
