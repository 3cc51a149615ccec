/* Padded numbers and strings for the script printer's hot fields, as
 * printf's "%16" PRIx64, "%5d", "%09" PRIu64, "%16s", "%-21s" print them,
 * without parsing a format string for every field of every line.  Negative
 * numbers go to fprintf (rare: cpu or pid -1).
 *
 * Bytes go straight into the stream's buffer while it has room: a sample
 * line is made of some thirty short pieces, and fwrite/fputs/fputc each
 * cost a call through stdio's generic write path. */
#ifndef PTD_FORMATS_OUT_FMTNUM_H
#define PTD_FORMATS_OUT_FMTNUM_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* fwrite(p, 1, n, out) and fputs(s, out) for short pieces: copied into
 * the buffer while it has room, as putc_unlocked does for a byte (glibc's
 * FILE keeps its buffer's write position in the public _IO_write_ptr and
 * _IO_write_end) */
static inline void ptd_write(FILE *out, const char *p, size_t n)
{
#ifdef __GLIBC__
	if ((size_t)(out->_IO_write_end - out->_IO_write_ptr) >= n) {
		char *d = out->_IO_write_ptr;

		/* most pieces are short: two overlapping moves, no call */
		if (n >= 8 && n <= 16) {
			uint64_t a, b;

			memcpy(&a, p, 8);
			memcpy(&b, p + n - 8, 8);
			memcpy(d, &a, 8);
			memcpy(d + n - 8, &b, 8);
		} else if (n >= 4 && n < 8) {
			uint32_t a, b;

			memcpy(&a, p, 4);
			memcpy(&b, p + n - 4, 4);
			memcpy(d, &a, 4);
			memcpy(d + n - 4, &b, 4);
		} else if (n && n < 4) {
			d[0] = p[0];
			d[n / 2] = p[n / 2];
			d[n - 1] = p[n - 1];
		} else {
			memcpy(d, p, n);
		}
		out->_IO_write_ptr = d + n;
		return;
	}
#endif
	fwrite(p, 1, n, out);
}

/* Where the next bytes go in the stream's buffer, when n more fit there
 * (writes of up to n bytes then stay in it, and can be read back with
 * ptd_written_since); NULL where they may not (less room, or a stream
 * whose buffer is not glibc's) */
static inline const char *ptd_write_mark(FILE *out, size_t n)
{
#ifdef __GLIBC__
	if ((size_t)(out->_IO_write_end - out->_IO_write_ptr) > n)
		return out->_IO_write_ptr;
#else
	(void)out;
	(void)n;
#endif
	return NULL;
}

/* The bytes written since mark (ptd_write_mark's, for at least max),
 * copied into buf: their number, or 0 when there are none or more than
 * max */
static inline size_t ptd_written_since(FILE *out, const char *mark, char *buf, size_t max)
{
#ifdef __GLIBC__
	size_t n = (size_t)(out->_IO_write_ptr - mark);

	if (out->_IO_write_ptr < mark || !n || n > max)
		return 0;
	memcpy(buf, mark, n);
	return n;
#else
	(void)out;
	(void)mark;
	(void)buf;
	(void)max;
	return 0;
#endif
}

static inline void ptd_puts(const char *s, FILE *out)
{
	ptd_write(out, s, strlen(s));
}

static inline void ptd_putc(int c, FILE *out)
{
	putc_unlocked(c, out);
}

/* n spaces */
static inline void ptd_put_spaces(FILE *out, int n)
{
	static const char spaces[] = "                                ";   /* 32 */

	for (; n > (int)sizeof(spaces) - 1; n -= (int)sizeof(spaces) - 1)
		ptd_write(out, spaces, sizeof(spaces) - 1);
	if (n > 0)
		ptd_write(out, spaces, (size_t)n);
}

/* n bytes c (a width beyond the numbers' buffer: rare) */
static inline void ptd_put_pad(FILE *out, char c, int n)
{
	for (; n > 0; n--)
		ptd_putc(c, out);
}

/* The numbers below are written from the end of a buffer filled with
 * the padding first (a fixed-size fill, a few stores), two digits a step
 * (a byte in hex, from a table); the piece written is the digits and as
 * much padding as width asks for.  A loop that padded byte by byte became
 * a call to memset for each field. */
#define PTD_NUMBUF 40

/* v in hex (lower case), right-aligned in width columns: "%*" PRIx64 */
static inline void ptd_put_hex(FILE *out, uint64_t v, int width)
{
	static const char pairs[513] =
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
		"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
		"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
		"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
		"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
		"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
		"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
		"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
	char buf[PTD_NUMBUF];
	char *end = buf + sizeof(buf), *p = end;
	int n;

	memset(buf, ' ', sizeof(buf));
	while (v >= 16) {   /* a byte's two digits a step */
		p -= 2;
		memcpy(p, pairs + 2 * (v & 255), 2);
		v >>= 8;
	}
	if (v || p == end)
		*--p = "0123456789abcdef"[v];
	n = (int)(end - p);
	if (n < width) {
		ptd_put_spaces(out, width - (int)sizeof(buf));
		n = width < (int)sizeof(buf) ? width : (int)sizeof(buf);
	}
	ptd_write(out, end - n, (size_t)n);
}

/* v in decimal, right-aligned in width columns, padded with pad (' ' as
 * "%*" PRIu64, '0' as "%0*" PRIu64); the columns written */
static inline int ptd_put_udec(FILE *out, uint64_t v, int width, char pad)
{
	static const char pairs[201] = "00010203040506070809101112131415161718192021222324"
				       "25262728293031323334353637383940414243444546474849"
				       "50515253545556575859606162636465666768697071727374"
				       "75767778798081828384858687888990919293949596979899";
	char buf[PTD_NUMBUF];
	char *end = buf + sizeof(buf), *p = end;
	int n, cols;

	memset(buf, pad, sizeof(buf));
	while (v >= 100) {
		p -= 2;
		memcpy(p, pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, pairs + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	n = (int)(end - p);
	cols = n < width ? width : n;
	if (n < width) {
		ptd_put_pad(out, pad, width - (int)sizeof(buf));
		n = width < (int)sizeof(buf) ? width : (int)sizeof(buf);
	}
	ptd_write(out, end - n, (size_t)n);
	return cols;
}

/* "%*d" (pad ' ') or "%0*d" (pad '0') */
static inline void ptd_put_int(FILE *out, int v, int width, char pad)
{
	if (v < 0)
		fprintf(out, pad == '0' ? "%0*d" : "%*d", width, v);
	else
		ptd_put_udec(out, (uint64_t)v, width, pad);
}

/* "%-*d" */
static inline void ptd_put_int_left(FILE *out, int v, int width)
{
	if (v < 0)
		fprintf(out, "%-*d", width, v);
	else
		ptd_put_spaces(out, width - ptd_put_udec(out, (uint64_t)v, 0, ' '));
}

/* "%*s" (width > 0: right-aligned) or "%-*s" (width < 0: left-aligned) */
static inline void ptd_put_str(FILE *out, const char *s, int width)
{
	int n = (int)strlen(s), w = width < 0 ? -width : width;

	if (width > 0)
		ptd_put_spaces(out, w - n);
	ptd_write(out, s, (size_t)n);
	if (width < 0)
		ptd_put_spaces(out, w - n);
}

#endif
