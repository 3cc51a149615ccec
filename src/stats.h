/* --stats: what a recording holds.  The record counts are printed the way
 * `perf report --stats` prints them ("Aggregated stats:" block and one
 * block per event), followed by ptdecode's own sections: header and
 * features, time range, AUX queues and gaps. */
#ifndef PTD_STATS_H
#define PTD_STATS_H

#include <stdio.h>

#include "session.h"

/* Print the perf-compatible count blocks. */
void ptd_stats_print_counts(FILE *out, struct ptd_session *s);

/* Print ptdecode's sections (header, features, time, queues, gaps). */
void ptd_stats_print_details(FILE *out, struct ptd_session *s);

#endif
