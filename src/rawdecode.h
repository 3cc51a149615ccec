/* Raw mode: decode a bare trace (--pt) over the images named by --raw and
 * --elf, and print the samples (--format=ptxed). */
#ifndef PTD_RAWDECODE_H
#define PTD_RAWDECODE_H

#include <stdio.h>

#include "common/err.h"
#include "decoders/decoder.h"
#include "formats/out/ptxed.h"
#include "formats/raw/raw.h"

struct ptd_raw_opts {
	const char *pt;                          /* --pt argument */
	const struct ptd_raw_image_arg *images;  /* borrowed */
	size_t nimages;
	struct ptd_cpu cpu;
	const struct ptd_decoder_opt *dopts;     /* backend settings, borrowed */
	size_t ndopts;
	struct ptd_ptxed_opts ptxed;
};

/* Decode and print to out.  Decode errors in the trace are printed in place
 * and are not failures.  Returns 0; -PTD_E_UNSUPPORTED when ptdecode was
 * built without libipt; -PTD_E_INVAL for bad option values; -PTD_E_IO,
 * -PTD_E_FORMAT for unreadable inputs or output; -PTD_E_NOMEM. */
int ptd_raw_decode(const struct ptd_raw_opts *o, FILE *out, struct ptd_err *err);

#endif
