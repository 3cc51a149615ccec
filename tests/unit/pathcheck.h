/* Check a reported path against the program's code: between two control
 * transfers of a thread there must be straight-line code (no control-flow
 * instruction), as many instructions as the icounts say, and the
 * instruction at each event's `from` must be of the event's class.
 * Test helper for tests/unit/test_sources. */
#ifndef PTD_TESTS_PATHCHECK_H
#define PTD_TESTS_PATHCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "tools/record/classify.h"
#include "tools/record/xev.h"

struct pathcheck {
	struct ptd_classifier *cls;
	ptd_read_code_fn read;
	void *rctx;
	/* state of the thread being checked */
	uint64_t pos, icount;
	size_t checked;         /* events checked */
	size_t skipped;         /* events not checked: code not readable (vDSO) */
	char msg[256];          /* the first problem */
};

/* Start checking one thread that begins at ip. */
void pathcheck_start(struct pathcheck *pc, uint64_t ip);

/* The thread's next event.  Returns 0, or -1 with pc->msg. */
int pathcheck_event(struct pathcheck *pc, const struct ptd_xev *ev);

/* The thread's end.  Returns 0, or -1 with pc->msg. */
int pathcheck_end(struct pathcheck *pc, uint64_t icount, uint64_t last_ip);

#endif
