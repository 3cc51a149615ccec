/* --format=json: one JSON object per line for each synthesized sample and
 * trace error, with stable field names (doc/formats.md), for scripts that
 * should not parse perf script's text. */
#ifndef PTD_FORMATS_OUT_JSON_H
#define PTD_FORMATS_OUT_JSON_H

#include <stdio.h>

#include "formats/out/script.h"

/* A sample: type is "branch", "instruction", "psb" or "cbr"; chain (ips,
 * n entries, innermost first) and its locations may be NULL / 0; the
 * sample's brstack, when it has entries, is written as "brstack".
 * Returns 0, or -1 when out is in error. */
int ptd_json_print_sample(FILE *out, const char *type, const struct ptd_script_sample *s,
			  const uint64_t *chain, const struct ptd_script_loc *chain_loc, size_t n);

/* A JSON string: quotes, backslash and control characters escaped, bytes
 * outside ASCII as \u00XX. */
void ptd_json_str(FILE *out, const char *s);

/* A trace error.  Returns 0, or -1 when out is in error. */
int ptd_json_print_error(FILE *out, const struct ptd_script_auxerr *e);

#endif
