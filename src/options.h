/* Command-line options of ptdecode. */
#ifndef PTD_OPTIONS_H
#define PTD_OPTIONS_H

#include <stdio.h>

#include "common/err.h"

enum ptd_action {
	PTD_ACTION_NONE,
	PTD_ACTION_DUMP,     /* --dump */
	PTD_ACTION_STATS,    /* --stats */
	PTD_ACTION_HELP,
	PTD_ACTION_VERSION,
};

struct ptd_options {
	enum ptd_action action;
	const char *input;   /* perf.data path; "-" for standard input */
	int quiet;           /* no progress bar */
};

/* Parse argv.  Returns 0, or -PTD_E_INVAL with a message naming the bad
 * argument. */
int ptd_options_parse(struct ptd_options *o, int argc, char **argv, struct ptd_err *err);

void ptd_options_usage(FILE *out);

#endif
