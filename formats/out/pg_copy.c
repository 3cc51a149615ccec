/* COPY text rows: see pg_copy.h. */
#include "pg_copy.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int ptd_pg_parse_columns(const char *list, struct ptd_pg_col *cols, unsigned max)
{
	unsigned n = 0;
	const char *p = list;

	while (*p && n < max) {
		const char *end = strchr(p, ','), *t;
		size_t len;

		if (!end)
			end = p + strlen(p);
		/* skip the name, then blanks: the type */
		for (t = p; t < end && isspace((unsigned char)*t); t++)
			;
		for (; t < end && !isspace((unsigned char)*t); t++)
			;
		for (; t < end && isspace((unsigned char)*t); t++)
			;
		len = (size_t)(end - t);
		cols[n].maxlen = 0;
		if (len >= 6 && !strncmp(t, "bigint", 6))
			cols[n].type = PTD_PG_BIGINT;
		else if (len >= 7 && !strncmp(t, "integer", 7))
			cols[n].type = PTD_PG_INTEGER;
		else if (len >= 7 && !strncmp(t, "boolean", 7))
			cols[n].type = PTD_PG_BOOLEAN;
		else if (len >= 9 && !strncmp(t, "varchar(", 8)) {
			cols[n].type = PTD_PG_TEXT;
			cols[n].maxlen = (unsigned)strtoul(t + 8, NULL, 10);
		} else
			return -1;
		n++;
		p = *end ? end + 1 : end;
	}
	return (int)n;
}

/* the length of the valid UTF-8 sequence at s, 0 when it is not one */
static unsigned utf8_len(const unsigned char *s)
{
	unsigned n, i;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)   /* also stops at the NUL */
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
	    (n == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;
	return n;
}

void ptd_pg_copy_text(FILE *f, const char *s, unsigned maxlen)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	unsigned chars = 0, n;

	for (; *p && (!maxlen || chars < maxlen); p += n, chars++) {
		n = utf8_len(p);
		if (!n) {
			fputs("\xef\xbf\xbd", f);   /* U+FFFD */
			n = 1;
		} else if (n > 1) {
			fwrite(p, 1, n, f);
		} else if (*p == '\\') {
			fputs("\\\\", f);
		} else if (*p == '\t') {
			fputs("\\t", f);
		} else if (*p == '\n') {
			fputs("\\n", f);
		} else if (*p == '\r') {
			fputs("\\r", f);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\%03o", *p);
		} else {
			putc(*p, f);
		}
	}
}

/* a value as an integer: reals truncated toward zero, as Python's int() */
static int64_t as_int(const struct ptd_db_val *v)
{
	if (v->type != 'd')
		return v->i;
	if (!isfinite(v->d) || v->d >= 9.2e18 || v->d <= -9.2e18)
		return 0;
	return (int64_t)v->d;
}

void ptd_pg_copy_row(FILE *f, const struct ptd_pg_col *cols, unsigned n, const struct ptd_db_val *v)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		if (i)
			putc('\t', f);
		switch (cols[i].type) {
		case PTD_PG_TEXT:
			if (v[i].type == 's')
				ptd_pg_copy_text(f, v[i].s, cols[i].maxlen);
			else
				fprintf(f, "%" PRId64, as_int(&v[i]));
			break;
		case PTD_PG_BOOLEAN:
			putc(as_int(&v[i]) ? 't' : 'f', f);
			break;
		case PTD_PG_INTEGER:
			fprintf(f, "%" PRId32, (int32_t)(uint32_t)as_int(&v[i]));
			break;
		default:
			fprintf(f, "%" PRId64, as_int(&v[i]));
			break;
		}
	}
	putc('\n', f);
}
