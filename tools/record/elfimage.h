/* The code of an ELF64 x86-64 or AArch64 executable by virtual address,
 * as its PT_LOAD segments place it, and its executable segments as the
 * mappings the kernel would create (struct ptd_xmap).  Used by the qemu
 * source for static executables, whose guest addresses are the ELF's.
 *
 * The file is read whole into memory; every header, offset and size is
 * checked against the file size. */
#ifndef PTD_RECORD_ELFIMAGE_H
#define PTD_RECORD_ELFIMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "tools/record/xev.h"

struct ptd_elfimage;

/* Open path (made absolute with realpath).  Returns 0 and *out (owned by
 * the caller, free with ptd_elfimage_free), or -PTD_E_IO (cannot read),
 * -PTD_E_FORMAT (not a well-formed ELF64 little-endian x86-64 or AArch64
 * file),
 * -PTD_E_NOMEM. */
int ptd_elfimage_open(struct ptd_elfimage **out, const char *path, struct ptd_err *err);
void ptd_elfimage_free(struct ptd_elfimage *img);

/* Copy up to len bytes of the loaded image at vaddr into buf (bytes past a
 * segment's file size and inside its memory size read as zero).  Stops at
 * the end of the segment that holds vaddr.  Returns the number of bytes
 * copied, 0 when no segment holds vaddr. */
size_t ptd_elfimage_read(const struct ptd_elfimage *img, uint64_t vaddr, uint8_t *buf, size_t len);

/* ptd_read_code_fn adapter: ctx is a const struct ptd_elfimage *. */
long ptd_elfimage_read_code(void *ctx, uint64_t addr, uint8_t *buf, size_t len);

/* The executable PT_LOAD segments as page-aligned mappings; path is the
 * absolute path of the file (owned by img), maj/min/ino from stat(). */
size_t ptd_elfimage_nmaps(const struct ptd_elfimage *img);
const struct ptd_xmap *ptd_elfimage_map(const struct ptd_elfimage *img, size_t i);

/* Absolute path, entry point, e_type (ET_EXEC, ET_DYN), e_machine
 * (EM_X86_64, EM_AARCH64), and whether it has a PT_INTERP (a dynamically
 * linked program). */
const char *ptd_elfimage_path(const struct ptd_elfimage *img);
uint64_t ptd_elfimage_entry(const struct ptd_elfimage *img);
unsigned ptd_elfimage_type(const struct ptd_elfimage *img);
unsigned ptd_elfimage_machine(const struct ptd_elfimage *img);
int ptd_elfimage_has_interp(const struct ptd_elfimage *img);

/* Look up a symbol (function or object) by name in .symtab, else
 * .dynsym.  Returns 0 with *addr and *size (size may be NULL), or
 * -PTD_E_NOTFOUND. */
int ptd_elfimage_symbol(const struct ptd_elfimage *img, const char *name, uint64_t *addr,
			uint64_t *size, struct ptd_err *err);

#endif
