/* The memory image of a traced program, as the trace decoders read it.
 *
 * An image is a list of file-backed sections (a range of a file mapped at a
 * virtual address), and optionally a read callback for addresses no section
 * covers.  Raw mode fills the sections from --raw and --elf; the perf.data
 * path will fill them from the session's maps, or answer reads through the
 * callback (maps change over time and per process).
 *
 * Backends either hand the sections to their library (libipt's image section
 * cache reads the files itself) or read through ptd_image_read().  Later
 * sections shadow earlier ones where they overlap, as in libipt. */
#ifndef PTD_IMAGE_H
#define PTD_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"

struct ptd_image_section {
	char *path;        /* owned by the image */
	uint64_t offset;   /* first byte in the file */
	uint64_t size;     /* bytes mapped; never 0, never past the end of the file */
	uint64_t vaddr;    /* where offset is mapped */
};

/* Read up to size bytes at vaddr into buf for address space asid (a
 * backend-defined tag such as CR3, 0 when unknown).  Returns the number of
 * bytes read (> 0), or a negative value when nothing is mapped there. */
typedef int (*ptd_image_read_fn)(void *ctx, uint8_t *buf, size_t size,
				 uint64_t vaddr, uint64_t asid);

struct ptd_image;

/* A new empty image.  Returns 0 or -PTD_E_NOMEM. */
int ptd_image_new(struct ptd_image **out, struct ptd_err *err);

/* NULL-safe. */
void ptd_image_free(struct ptd_image *im);

/* Map [offset, offset+size) of the file at path at vaddr.  size 0 means "to
 * the end of the file"; a size reaching past the end is cut at the end, as
 * libipt does.  path is copied.  The file must exist and be a regular file
 * longer than offset.
 * Returns 0; -PTD_E_IO when the file cannot be opened (errno named);
 * -PTD_E_INVAL when offset is at or past its end, or the range wraps the
 * address space; -PTD_E_LIMIT past 2^20 sections; -PTD_E_NOMEM. */
int ptd_image_add_file(struct ptd_image *im, const char *path, uint64_t offset,
		       uint64_t size, uint64_t vaddr, struct ptd_err *err);

/* Set (or with fn NULL remove) the callback for addresses no section covers.
 * ctx is borrowed and must outlive the image's users. */
void ptd_image_set_reader(struct ptd_image *im, ptd_image_read_fn fn, void *ctx);

/* The callback and its context (NULL when none). */
ptd_image_read_fn ptd_image_reader(const struct ptd_image *im, void **ctx);

size_t ptd_image_nsections(const struct ptd_image *im);

/* Section i (i < ptd_image_nsections()), in the order added; borrowed from
 * the image. */
const struct ptd_image_section *ptd_image_section(const struct ptd_image *im, size_t i);

/* Read up to size bytes at vaddr: from the newest section covering vaddr
 * (stopping at its end), else through the callback.  Returns the number of
 * bytes read (> 0), or -PTD_E_NOTFOUND when nothing is mapped at vaddr, or
 * -PTD_E_IO when the file cannot be read. */
int ptd_image_read(const struct ptd_image *im, uint8_t *buf, size_t size,
		   uint64_t vaddr, uint64_t asid);

#endif
