/* --dump: one line per record in the form perf report -D prints it
 * ("[CPU ][TIME ]0xOFFSET [0xSIZE]: PERF_RECORD_NAME fields"), followed
 * by perf's detail lines where perf prints them, in the order the session
 * delivers records (perf's order: see session.h). */
#ifndef PTD_OUT_DUMP_H
#define PTD_OUT_DUMP_H

#include <stdio.h>

#include "session.h"

/* what a sample's thread and dso lines need */
struct ptd_dump_pending {
	unsigned n;                /* thread/dso line pairs (sample deliveries) */
	int kernel;                /* resolve ip among kernel maps */
	int32_t pid, tid;
	uint64_t ip, time;
};

struct ptd_dump {
	FILE *out;
	struct ptd_dump_pending cur;
	uint64_t prefix_type;      /* sample_type bits that select the CPU/TIME prefix */
	int sample_id_all;         /* the first attr has sample_id_all */
	size_t nr_evsels;          /* evsels seen when the above were set */
	int settled;
	const char *arch;          /* perf's arch name for register names */
};

void ptd_dump_init(struct ptd_dump *d, FILE *out);

/* ptd_record_fn: print one record.  Returns 0, or -PTD_E_IO when the
 * output fails. */
int ptd_dump_record(void *ctx, struct ptd_session *s, const struct ptd_event *ev);

#endif
