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
		memcpy(out->_IO_write_ptr, p, n);
		out->_IO_write_ptr += n;
		return;
	}
#endif
	fwrite(p, 1, n, out);
}

static inline void ptd_puts(const char *s, FILE *out)
{
	ptd_write(out, s, strlen(s));
}

static inline void ptd_putc(int c, FILE *out)
{
	putc_unlocked(c, out);
}

/* v in hex (lower case), right-aligned in width columns: "%*" PRIx64 */
static inline void ptd_put_hex(FILE *out, uint64_t v, int width)
{
	char buf[40];
	char *p = buf + sizeof(buf);
	int n;

	do {
		*--p = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	n = (int)(buf + sizeof(buf) - p);
	while (n < width && n < (int)sizeof(buf)) {
		*--p = ' ';
		n++;
	}
	ptd_write(out, p, (size_t)n);
}

/* v in decimal, right-aligned in width columns, padded with pad (' ' as
 * "%*" PRIu64, '0' as "%0*" PRIu64) */
static inline void ptd_put_udec(FILE *out, uint64_t v, int width, char pad)
{
	char buf[40];
	char *p = buf + sizeof(buf);
	int n;

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	n = (int)(buf + sizeof(buf) - p);
	while (n < width && n < (int)sizeof(buf)) {
		*--p = pad;
		n++;
	}
	ptd_write(out, p, (size_t)n);
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
	char buf[16];
	int n;

	if (v < 0) {
		fprintf(out, "%-*d", width, v);
		return;
	}
	n = 0;
	do {
		buf[15 - n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	ptd_write(out, buf + 16 - n, (size_t)n);
	for (; n < width; n++)
		ptd_putc(' ', out);
}

/* "%*s" (width > 0: right-aligned) or "%-*s" (width < 0: left-aligned) */
static inline void ptd_put_str(FILE *out, const char *s, int width)
{
	int n = (int)strlen(s), w = width < 0 ? -width : width;

	if (width > 0)
		for (; n < w; n++)
			ptd_putc(' ', out);
	ptd_puts(s, out);
	if (width < 0)
		for (; n < w; n++)
			ptd_putc(' ', out);
}

#endif
