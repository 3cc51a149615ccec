/* Internals of --dump shared by its files. */
#ifndef PTD_OUT_DUMP_PRIV_H
#define PTD_OUT_DUMP_PRIV_H

#include "formats/out/dump.h"

/* SAMPLE: perf's dump_sample lines; sets d->cur for the thread and dso
 * lines ptd_dump_resolve prints later */
void ptd_dump_sample(struct ptd_dump *d, struct ptd_session *s, const struct ptd_event *ev);
void ptd_dump_resolve(struct ptd_dump *d, struct ptd_session *s, const struct ptd_dump_pending *p);

/* records perf synthesizes (type >= 64); returns 1 when printed */
int ptd_dump_synth(struct ptd_dump *d, struct ptd_session *s, const struct ptd_event *ev);

/* name perf gives an evsel ("cpu-clock", "dummy:HG", ...) */
const char *ptd_dump_evsel_name(struct ptd_session *s, const struct ptd_evsel *ev);

#endif
