/* perf script's -C CPU lists ("0-2,4") and --pid / --tid lists
 * ("1,2,3"). */
#ifndef PTD_IDLIST_H
#define PTD_IDLIST_H

#include <stdint.h>

#define PTD_IDLIST_MAX_CPUS 4096
#define PTD_IDLIST_MAX_IDS 1024

/* Set bit c of bits (PTD_IDLIST_MAX_CPUS bits) for each CPU c of s.
 * Returns 0, or -1 when s is malformed. */
int ptd_parse_cpus(const char *s, uint8_t *bits);

/* "1,2,3" into ids (room for PTD_IDLIST_MAX_IDS): their number, or -1 when
 * malformed. */
int ptd_parse_ids(const char *s, int32_t *ids);

/* 1 when v is one of the n ids, else 0. */
int ptd_in_ids(const int32_t *ids, int n, int32_t v);

#endif
