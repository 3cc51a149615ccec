/* libFuzzer harness: the option parsers that take text from the command
 * line: --itrace (src/itrace.c), -F (formats/out/script_fields.c) and
 * --time (src/timerange.c).  The input is split at NUL bytes into the three
 * strings; the first byte picks the first/last sample times and --reltime
 * for the time parser. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/out/script.h"
#include "itrace.h"
#include "timerange.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	char *buf, *s[3] = { "", "", "" };
	struct ptd_itrace it;
	struct ptd_script ps;
	struct ptd_timerange *r = NULL;
	struct ptd_err err = { 0 };
	size_t i, k = 0, n = 0;
	unsigned sel;
	char out[256];

	if (!null)
		null = fopen("/dev/null", "w");
	if (size < 1)
		return 0;
	sel = data[0];
	buf = malloc(size);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = 0;
	s[0] = buf;
	for (i = 0; i + 1 < size && k < 2; i++)
		if (!buf[i])
			s[++k] = buf + i + 1;

	ptd_itrace_init(&it);
	if (!ptd_itrace_parse(&it, s[0], &err))
		ptd_itrace_format(&it, out, sizeof(out));
	ptd_err_clear(&err);

	ptd_script_init(&ps);
	ptd_script_parse_fields(&ps, s[1], null);

	if (!ptd_timerange_parse(s[2], sel & 1 ? 1000000000ULL : 0, sel & 1 ? 5000000000ULL : 0,
				 (sel >> 1) & 1, &r, &n, &err)) {
		for (i = 0; i < n; i++)
			ptd_timerange_skip(r, n, 3000000000ULL + i);
		free(r);
	}
	ptd_err_clear(&err);
	free(buf);
	return 0;
}
