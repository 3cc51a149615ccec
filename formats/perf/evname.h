/* The name perf shows for an event: the recorded one (EVENT_DESC, EVENT_UPDATE)
 * or one made from the attr ("cpu-clock", "cycles", "unknown attr type: 8"). */
#ifndef PTD_PERF_EVNAME_H
#define PTD_PERF_EVNAME_H

#include "formats/perf/evlist.h"

/* Returns a name valid while ev lives (or a static string). */
const char *ptd_evsel_name(const struct ptd_evsel *ev, char *buf, size_t len);

#endif
