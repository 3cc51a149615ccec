/* Raw inputs: a bare trace stream and the memory images it runs over, named
 * on the command line the way libipt's ptxed names them.
 *
 *   --pt FILE[:FROM[-TO]]          the trace (optionally a byte range of FILE)
 *   --raw FILE[:FROM[-TO]]:BASE    a flat binary (or a range of it) loaded at BASE
 *   --elf FILE[:BASE]              an ELF's PT_LOAD segments; with BASE, moved so
 *                                  that the lowest segment starts at BASE
 *   --cpu none|F/M[/S]             the CPU the trace was recorded on
 *
 * Numbers are C syntax (0x.. hex, 0.. octal, else decimal).  As in ptxed, a
 * ':' suffix that is not a number or range belongs to the file name. */
#ifndef PTD_FORMATS_RAW_H
#define PTD_FORMATS_RAW_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "decoders/decoder.h"
#include "image.h"

/* One --raw or --elf argument, in command-line order (later ones shadow
 * earlier ones where they overlap). */
struct ptd_raw_image_arg {
	int elf;           /* 1: --elf, 0: --raw */
	const char *arg;   /* borrowed */
};

/* Add every argument to im, in order.  Returns 0 or the first failure of
 * ptd_raw_add_binary / ptd_raw_add_elf. */
int ptd_raw_add_images(struct ptd_image *im, const struct ptd_raw_image_arg *args, size_t n,
		       struct ptd_err *err);

/* A file name with its optional byte range. */
struct ptd_file_range {
	char *path;        /* owned (free()) */
	uint64_t offset;   /* 0 when not given */
	uint64_t size;     /* 0: to the end of the file */
};

/* Split "FILE[:FROM[-TO]]".  Returns 0 (out->path allocated), -PTD_E_INVAL
 * when TO is not above FROM, -PTD_E_NOMEM. */
int ptd_raw_parse_range(const char *arg, struct ptd_file_range *out, struct ptd_err *err);

/* --raw: add "FILE[:FROM[-TO]]:BASE" to im.  Returns 0; -PTD_E_INVAL for a
 * missing or bad BASE, a bad range, or a range outside the file; -PTD_E_IO
 * when the file cannot be opened; -PTD_E_NOMEM. */
int ptd_raw_add_binary(struct ptd_image *im, const char *arg, struct ptd_err *err);

/* --elf: add the PT_LOAD segments (with file contents) of "FILE[:BASE]" to
 * im (formats/raw/elf.c).  ELF32 and ELF64, little-endian.  Returns 0;
 * -PTD_E_IO; -PTD_E_FORMAT naming the offset of the bad header, table or
 * segment, or saying that FILE has no loadable segment; -PTD_E_NOMEM. */
int ptd_raw_add_elf(struct ptd_image *im, const char *arg, struct ptd_err *err);

/* --cpu: "none" (vendor PTD_CPU_UNKNOWN) or "F/M[/S]" (an Intel CPU, as ptxed
 * assumes).  Returns 0 or -PTD_E_INVAL. */
int ptd_raw_parse_cpu(struct ptd_cpu *cpu, const char *arg, struct ptd_err *err);

/* --pt: the trace bytes, mapped read-only. */
struct ptd_raw_trace {
	const uint8_t *data;   /* size bytes, valid until ptd_raw_trace_close() */
	size_t size;
	void *map;             /* private */
	size_t maplen;
};

/* Open "FILE[:FROM[-TO]]".  An empty file is an empty trace.  Returns 0;
 * -PTD_E_IO; -PTD_E_INVAL when the range is not inside the file. */
int ptd_raw_trace_open(struct ptd_raw_trace *t, const char *arg, struct ptd_err *err);

/* NULL-safe; the trace is empty afterwards. */
void ptd_raw_trace_close(struct ptd_raw_trace *t);

#endif
