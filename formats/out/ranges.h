/* --format=ranges: the elements a range-reporting backend (cs-etm) gives,
 * one line each, in the words of OpenCSD's trc_pkt_lister so that the two
 * can be set side by side:
 *
 *   ID:10 cpu:0 range 0xc00526fc-0xc0052718 n=7 last_sz=4 isa=A32 E BR call
 *   ID:10 cpu:0 trace on
 *   ID:10 cpu:0 exception 0x0e ret 0xffffffc000592b64
 *   ID:10 cpu:0 exception return
 *   ID:10 cpu:0 end of trace
 *   ID:10 cpu:0 no memory at 0xc0076a4c
 *   ID:10 cpu:0 error: bad packet: synchronisation lost
 *
 * A range is [start, end) with end the address after its last instruction
 * (trc_pkt_lister's "exec range=start:[end]"); E: the last instruction was
 * executed (a branch taken), N: not.  Then its class: BR (direct branch),
 * iBR (indirect), or "---", and call / return / cond.  Timestamps follow as
 * " ts=N" when the trace has them. */
#ifndef PTD_FORMATS_OUT_RANGES_H
#define PTD_FORMATS_OUT_RANGES_H

#include <stdio.h>

#include "decoders/decoder.h"

/* Print one sample (nothing for kinds that have no line).  Returns 0, or
 * -1 when out is in error. */
int ptd_ranges_print(FILE *out, const struct ptd_trace_sample *s);

#endif
