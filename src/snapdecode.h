/* Snapshot mode (--snapshot DIR): decode the first trace buffer of an
 * OpenCSD snapshot directory (formats/raw/snapshot.h) with the cs-etm
 * backend, over the memory dumps of the cores whose sources feed it.
 *
 * The sources become perf's CS_ETM metadata (decoders/cs-etm/cs_etm.h) in
 * the order of their names (as trc_pkt_lister takes them); their cores'
 * names give the architecture; the buffer's format says whether the data
 * is in CoreSight frames ("coresight", "dstream_coresight") or one bare
 * stream ("source_data": only the first source is decoded, as OpenCSD
 * does).  Registers a source lacks take OpenCSD's defaults (TRCIDR1
 * 0x4100F403, TRCDEVARCH 0x47705A13, TRCIDR8 0), except the ones OpenCSD
 * requires.  Sources that are not a core's (STM, ITM) are skipped with a
 * warning, as are dump files that cannot be read.  The output is
 * csdecode.h's. */
#ifndef PTD_SNAPDECODE_H
#define PTD_SNAPDECODE_H

#include <stdio.h>

#include "csdecode.h"

struct ptd_snap_opts {
	const char *dir;
	struct ptd_cs_out_opts out;
};

/* Decode and print to out; messages go to stderr.  Returns the exit
 * status: 0; 1 for bad options; 2 for an unreadable or invalid snapshot. */
int ptd_snap_decode(const struct ptd_snap_opts *o, FILE *out);

#endif
