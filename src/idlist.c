/* perf script's CPU and thread lists: see idlist.h. */
#include "idlist.h"

#include <stdlib.h>

/* perf's cpu list ("0-2,4"): bits of cpus set; 0, or -1 when malformed */
int ptd_parse_cpus(const char *s, uint8_t *bits)
{
	char *end;
	long a, b;

	while (*s) {
		a = strtol(s, &end, 10);
		if (end == s || a < 0 || a >= PTD_IDLIST_MAX_CPUS)
			return -1;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a || b >= PTD_IDLIST_MAX_CPUS)
				return -1;
			s = end;
		}
		for (; a <= b; a++)
			bits[a / 8] |= (uint8_t)(1u << (a % 8));
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return 0;
}

/* "1,2,3" into ids; their number, or -1 when malformed */
int ptd_parse_ids(const char *s, int32_t *ids)
{
	char *end;
	long v;
	int n = 0;

	while (*s) {
		v = strtol(s, &end, 10);
		if (end == s || n == PTD_IDLIST_MAX_IDS || v < INT32_MIN || v > INT32_MAX)
			return -1;
		ids[n++] = (int32_t)v;
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return n;
}

int ptd_in_ids(const int32_t *ids, int n, int32_t v)
{
	int i;

	for (i = 0; i < n; i++)
		if (ids[i] == v)
			return 1;
	return 0;
}
