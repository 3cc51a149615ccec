/* Raw ETM mode (--etm TRACE): a CoreSight sink dump decoded over binaries
 * named as for raw Intel PT (--raw, --elf; formats/raw/raw.h), with the
 * trace source's settings on the command line, since a bare dump carries
 * none:
 *
 *   --etm:format F     coresight (default: 16-byte formatter frames, as an
 *                      ETR or ETB writes them), dstream (frames with frame
 *                      syncs) or raw (the unformatted stream of one source)
 *   --etm:trace-id N   the source's trace ID (TRCTRACEIDR; default 0x10,
 *                      the first one perf gives)
 *   --etm:configr N, --etm:idr0 N, --etm:idr1 N, --etm:idr2 N, --etm:idr8 N
 *                      its TRCCONFIGR, TRCIDR0, 1, 2 and 8
 *   --etm:core NAME    the core by OpenCSD's names (default Cortex-A72)
 *
 * The default registers are a Cortex-A72-class ETMv4.1: TRCCONFIGR 0 (no
 * cycle counts, context IDs, timestamps or return stack requested),
 * TRCIDR0 0x28000EA1, TRCIDR1 0x4100F410, TRCIDR2 0x00000488 (64-bit
 * addresses, 32-bit context IDs), TRCIDR8 0 (no speculation).  One ETMv4
 * source is decoded; the output is csdecode.h's (CPU 0). */
#ifndef PTD_ETMRAW_H
#define PTD_ETMRAW_H

#include <stddef.h>
#include <stdio.h>

#include "csdecode.h"
#include "decoders/decoder.h"
#include "formats/raw/raw.h"

struct ptd_etm_raw_opts {
	const char *trace;                       /* --etm FILE[:FROM[-TO]] */
	const struct ptd_raw_image_arg *images;  /* --raw / --elf */
	size_t nimages;
	const struct ptd_decoder_opt *settings;  /* --etm:KEY VALUE (keys with "etm:") */
	size_t nsettings;
	struct ptd_cs_out_opts out;
};

/* Decode and print to out; messages go to stderr.  Returns the exit
 * status: 0; 1 for bad options or settings; 2 for unreadable input. */
int ptd_etm_raw_decode(const struct ptd_etm_raw_opts *o, FILE *out);

#endif
