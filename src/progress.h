/* A progress bar on stderr, drawn only when stderr is a terminal and not
 * silenced, at most ten times a second. */
#ifndef PTD_PROGRESS_H
#define PTD_PROGRESS_H

#include <stdint.h>

struct ptd_progress {
	int enabled;
	const char *label;
	uint64_t last_ms;
	int drawn;
};

void ptd_progress_init(struct ptd_progress *p, const char *label, int quiet);
/* ctx is a struct ptd_progress; total 0 means unknown (pipe input) */
void ptd_progress_update(void *ctx, uint64_t done, uint64_t total);
/* erase the bar */
void ptd_progress_done(struct ptd_progress *p);

#endif
