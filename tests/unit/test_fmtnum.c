/* The script printer's padded numbers and strings (formats/out/fmtnum.h)
 * against glibc's printf, the oracle: ptd_put_hex as "%*" PRIx64,
 * ptd_put_udec as "%*" PRIu64 and "%0*" PRIu64, ptd_put_int as "%*d" and
 * "%0*d", ptd_put_int_left as "%-*d", ptd_put_str as "%*s" and "%-*s", and
 * ptd_write's pieces of every length from 0 to 300 bytes, for values at
 * each power of 2 and of 10 and next to them, and pseudo-random ones, in
 * every width from 0 to 45.  The stream is a file with a small buffer,
 * so that pieces meet its end (the fwrite path) as well as fit. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/out/fmtnum.h"
#include "tests/tap.h"
#include "xorshift.h"

#define NV 400

static uint64_t x = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void)
{
	return xorshift64(&x);
}

struct out {
	FILE *f;
	char sbuf[37];   /* the stream's buffer: an odd size */
};

static int open_out(struct out *o)
{
	if (!(o->f = tmpfile()))
		return -1;
	setvbuf(o->f, o->sbuf, _IOFBF, sizeof(o->sbuf));
	return 0;
}

/* the bytes written, compared with want; the stream closed */
static int close_out(struct out *o, const char *want, size_t want_len)
{
	static char got[1 << 20];
	size_t n;

	if (fflush(o->f) || fseek(o->f, 0, SEEK_SET)) {
		fclose(o->f);
		return 0;
	}
	n = fread(got, 1, sizeof(got), o->f);
	fclose(o->f);
	return n == want_len && !memcmp(got, want, want_len);
}

int main(void)
{
	static uint64_t v[NV];
	static char want[1 << 20];
	size_t nv = 0, wl, i;
	int bad, w, k;
	struct out o;
	char piece[301];

	plan(7);
	for (k = 0; k < 64; k++) {
		v[nv++] = 1ULL << k;
		v[nv++] = (1ULL << k) - 1;
		v[nv++] = (1ULL << k) + 1;
	}
	for (k = 0, v[nv++] = 1; k < 20; k++) {
		uint64_t p = 1;

		for (i = 0; i < (size_t)k; i++)
			p *= 10;
		v[nv++] = p;
		v[nv++] = p - 1;
		v[nv++] = p + 1;
		v[nv++] = p * 9;
	}
	v[nv++] = 0;
	v[nv++] = UINT64_MAX;
	while (nv < NV)
		v[nv++] = rnd() >> (rnd() & 63);

	/* hex, as "%*" PRIx64 */
	bad = 0;
	for (w = 0; w <= 45; w++) {
		if (open_out(&o))
			return 1;
		for (i = wl = 0; i < nv; i++) {
			ptd_put_hex(o.f, v[i], w);
			wl += (size_t)snprintf(want + wl, sizeof(want) - wl, "%*" PRIx64, w, v[i]);
		}
		bad += !close_out(&o, want, wl);
	}
	ok(!bad, "hex: %zu values in widths 0 to 45 as %%*" PRIx64 " prints them (%d widths differ)",
	   nv, bad);

	/* decimal, space- and zero-padded */
	for (k = 0; k < 2; k++) {
		char pad = k ? '0' : ' ';

		bad = 0;
		for (w = 0; w <= 45; w++) {
			if (open_out(&o))
				return 1;
			for (i = wl = 0; i < nv; i++) {
				ptd_put_udec(o.f, v[i], w, pad);
				wl += (size_t)snprintf(want + wl, sizeof(want) - wl,
						       k ? "%0*" PRIu64 : "%*" PRIu64, w, v[i]);
			}
			bad += !close_out(&o, want, wl);
		}
		ok(!bad, "decimal: %zu values in widths 0 to 45 as %s prints them (%d widths differ)",
		   nv, k ? "%0*" PRIu64 : "%*" PRIu64, bad);
	}

	/* int, right- and left-aligned, negative ones too */
	bad = 0;
	for (w = 0; w <= 12; w++) {
		if (open_out(&o))
			return 1;
		for (i = wl = 0; i < nv; i++) {
			int n = (int)(uint32_t)v[i];

			ptd_put_int(o.f, n, w, ' ');
			ptd_put_int(o.f, n, w, '0');
			ptd_put_int_left(o.f, n, w);
			wl += (size_t)snprintf(want + wl, sizeof(want) - wl, "%*d%0*d%-*d", w, n, w, n,
					       w, n);
		}
		bad += !close_out(&o, want, wl);
	}
	ok(!bad, "int: %zu values in widths 0 to 12 as %%*d, %%0*d and %%-*d print them (%d widths differ)",
	   nv, bad);

	/* strings, right- and left-aligned */
	bad = 0;
	for (i = 0; i < sizeof(piece) - 1; i++)
		piece[i] = (char)('a' + i % 26);
	for (w = 0; w <= 45; w++) {
		if (open_out(&o))
			return 1;
		for (i = wl = 0; i <= 50; i++) {
			piece[i] = '\0';
			ptd_put_str(o.f, piece, w);
			ptd_put_str(o.f, piece, -w);
			wl += (size_t)snprintf(want + wl, sizeof(want) - wl, "%*s%-*s", w, piece, w, piece);
			piece[i] = (char)('a' + i % 26);
		}
		bad += !close_out(&o, want, wl);
	}
	ok(!bad, "strings: lengths 0 to 50 in widths 0 to 45 as %%*s and %%-*s print them (%d widths differ)",
	   bad);

	/* pieces of every length, at every place in the stream's buffer */
	bad = 0;
	for (k = 0; k < 37; k++) {
		if (open_out(&o))
			return 1;
		memset(want, 'x', (size_t)k);
		ptd_write(o.f, want, (size_t)k);
		wl = (size_t)k;
		for (i = 0; i <= 300; i++) {
			size_t j;

			for (j = 0; j < i; j++)
				piece[j] = (char)(' ' + (i * 7 + j) % 95);
			ptd_write(o.f, piece, i);
			memcpy(want + wl, piece, i);
			wl += i;
		}
		bad += !close_out(&o, want, wl);
	}
	ok(!bad, "pieces of 0 to 300 bytes, after 0 to 36 bytes, come out as written (%d differ)", bad);

	/* the pieces' bytes only: the buffer past them is the stream's */
	if (open_out(&o))
		return 1;
	ptd_write(o.f, "ab", 2);
	ptd_write(o.f, "cdefghijk", 9);
	ptd_puts("", o.f);
	ptd_putc('l', o.f);
	ok(close_out(&o, "abcdefghijkl", 12), "short pieces one after the other");
	return done_testing();
}
