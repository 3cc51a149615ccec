/* What formats/out/script.c shares with the files beside it. */
#ifndef PTD_FORMATS_OUT_SCRIPT_PRIV_H
#define PTD_FORMATS_OUT_SCRIPT_PRIV_H

#include <stdio.h>

#include "formats/out/script.h"

/* A synthesized event's text, padded to 34 columns (script_synth.c) */
void ptd_script_put_synth(FILE *out, const struct ptd_script_sample *s);

#endif
