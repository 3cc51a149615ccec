/* One CoreSight trace buffer through the cs-etm backend, printed: the
 * shared end of snapshot mode (--snapshot, snapdecode.h) and raw ETM mode
 * (--etm, etmraw.h).
 *
 * Output: branch samples as perf script prints them (--itrace=b, the
 * default; rangesynth.h), or JSON lines (--format=json), or the decoder's
 * ranges and events (--format=ranges, formats/out/ranges.h).  With
 * --itrace=e (or "be") trace errors are printed too. */
#ifndef PTD_CSDECODE_H
#define PTD_CSDECODE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/err.h"
#include "decoders/decoder.h"

struct ptd_cs_out_opts {
	const char **itrace;     /* --itrace values; NULL entries: bare --itrace */
	size_t nitrace;
	const char **fields;     /* -F values */
	size_t nfields;
	int json;                /* --format=json */
	int ranges;              /* --format=ranges */
};

/* Check the output options (messages on stderr).  Returns 0, or -1 for an
 * --itrace other than b and e, or a bad -F. */
int ptd_cs_out_check(const struct ptd_cs_out_opts *o);

/* The cs-etm backend, or NULL (with a message on stderr) when ptdecode was
 * built without OpenCSD. */
const struct ptd_decoder_ops *ptd_cs_backend(void);

/* Decode data (size bytes) with the cs-etm backend created from info and
 * env, printing to out as o says.  Returns 0, or a negative PTD_E_* code
 * with err set. */
int ptd_cs_decode_print(const struct ptd_cs_out_opts *o, const struct ptd_auxinfo *info,
			const struct ptd_decoder_env *env, const uint8_t *data, size_t size, FILE *out,
			struct ptd_err *err);

#endif
