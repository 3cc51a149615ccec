/* The gap report's text and JSON (ptdecode --gaps; src/gaps.h). */
#ifndef PTD_FORMATS_OUT_GAP_REPORT_H
#define PTD_FORMATS_OUT_GAP_REPORT_H

#include <stdio.h>

#include "gaps.h"

/* One line per gap (queue, cause, start, end, span, bytes, instructions
 * lost, detail), then a summary by cause.  Returns 0, or -1 when writing
 * failed. */
int ptd_gaps_print_text(FILE *out, const struct ptd_gaps *g);

/* The same as JSON lines: {"type":"gap",...} per gap, then
 * {"type":"gap-summary",...} per cause and one with "cause":"total". */
int ptd_gaps_print_json(FILE *out, const struct ptd_gaps *g);

#endif
