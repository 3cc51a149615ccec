/* --dump: one line per record in the form perf report -D prints it
 * ("[CPU ][TIME ]0xOFFSET [0xSIZE]: PERF_RECORD_NAME fields"), followed
 * by perf's detail lines where perf prints them, in file order. */
#ifndef PTD_OUT_DUMP_H
#define PTD_OUT_DUMP_H

#include <stdio.h>

#include "session.h"

struct ptd_dump {
	FILE *out;
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
