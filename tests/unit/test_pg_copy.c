/* COPY text rows of the PostgreSQL export (formats/out/pg_copy.c), held to
 * PostgreSQL's documented COPY text format (backslash escapes, \ooo octal
 * bytes, tab-separated, newline-ended) and to UTF-8's definition (RFC 3629:
 * no overlong forms, no surrogates, nothing above U+10FFFF).  The server
 * itself reads these rows in tests/golden/export_postgresql.test. */
#include <stdlib.h>

#include "formats/out/pg_copy.h"
#include "tests/tap.h"

static char buf[4096];

static const char *text(const char *s, unsigned maxlen)
{
	FILE *f;

	memset(buf, 0, sizeof(buf));
	f = fmemopen(buf, sizeof(buf), "w");
	ptd_pg_copy_text(f, s, maxlen);
	fclose(f);
	return buf;
}

#define FFFD "\xef\xbf\xbd"

int main(void)
{
	struct ptd_pg_col cols[8];
	struct ptd_db_val v[6];
	FILE *f;

	plan(19);
	is_str(text("plain name", 0), "plain name", "plain text as is");
	is_str(text("a\tb", 0), "a\\tb", "tab escaped");
	is_str(text("l1\nl2\r", 0), "l1\\nl2\\r", "newline and carriage return escaped");
	is_str(text("x\\y", 0), "x\\\\y", "backslash doubled");
	is_str(text("\x01z\x7f", 0), "\\001z\\177", "other control bytes as octal");
	is_str(text("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 0), "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
	       "valid UTF-8 (2, 3, 4 bytes) as is");
	is_str(text("a\xff" "b", 0), "a" FFFD "b", "a byte that starts nothing: U+FFFD");
	is_str(text("\xc0\x80", 0), FFFD FFFD, "overlong NUL: one U+FFFD a byte");
	is_str(text("\xed\xa0\x80", 0), FFFD FFFD FFFD, "a surrogate is not UTF-8");
	is_str(text("\xf4\x90\x80\x80", 0), FFFD FFFD FFFD FFFD, "above U+10FFFF is not UTF-8");
	is_str(text("ab\xe2\x82", 0), "ab" FFFD FFFD, "a sequence cut by the end of the string");
	is_str(text("abcdef", 3), "abc", "varchar(3) keeps 3 characters");
	is_str(text("\xc3\xa9\xc3\xa9\xc3\xa9", 2), "\xc3\xa9\xc3\xa9", "characters, not bytes");
	is_str(text(NULL, 0), "", "no string: empty");

	ok(ptd_pg_parse_columns("id bigint NOT NULL, n integer, b boolean, s varchar(4)", cols, 8) == 4 &&
	   cols[0].type == PTD_PG_BIGINT && cols[1].type == PTD_PG_INTEGER &&
	   cols[2].type == PTD_PG_BOOLEAN && cols[3].type == PTD_PG_TEXT && cols[3].maxlen == 4,
	   "column types and varchar length parsed");
	ok(ptd_pg_parse_columns("id bigint, name text", cols, 8) == -1, "an unknown type refused");

	ptd_pg_parse_columns("id bigint NOT NULL, n integer, b boolean, s varchar(4), m integer, "
			     "p integer", cols, 8);
	v[0] = PTD_DB_I(-5);
	v[1] = PTD_DB_I(0x80000001u);
	v[2] = PTD_DB_I(2);
	v[3] = PTD_DB_S("a\tbcdef");
	v[4] = PTD_DB_D(1234.9);
	v[5] = PTD_DB_D(-1.5);
	f = fmemopen(buf, sizeof(buf), "w");
	ptd_pg_copy_row(f, cols, 6, v);
	fclose(f);
	is_str(buf, "-5\t-2147483647\tt\ta\\tbc\t1234\t-1\n",
	       "a row: integer modulo 2^32, boolean t, text cut, reals truncated toward zero");
	v[2] = PTD_DB_I(0);
	v[4] = PTD_DB_D(1.0 / 0.0);
	f = fmemopen(buf, sizeof(buf), "w");
	ptd_pg_copy_row(f, cols, 5, v);
	fclose(f);
	is_str(buf, "-5\t-2147483647\tf\ta\\tbc\t0\n", "boolean f; an infinite real is 0");
	v[0] = PTD_DB_I(INT64_MIN);
	f = fmemopen(buf, sizeof(buf), "w");
	ptd_pg_copy_row(f, cols, 1, v);
	fclose(f);
	is_str(buf, "-9223372036854775808\n", "bigint's whole range");
	return done_testing();
}
