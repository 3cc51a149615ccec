/* The traced program's code as the qemu source reads it: the static
 * executable's image (elfimage.h), plus the page of code qemu itself maps
 * into an AArch64 guest to return from signal handlers.
 *
 * qemu-aarch64 7.2 puts the sigreturn trampoline `mov x8, #139; svc #0`
 * (0xd2801168 0xd4000001) at the start of a page it maps after loading
 * the program, where the kernel would use the vDSO's; glibc's AArch64
 * sigaction sets no SA_RESTORER, so every handler returns there.  The
 * page's address is in the `-d page` log: the r-x mapping, not the
 * executable's, in the layout printed after "page layout changed
 * following binary load".  It is reported as "[vdso]" (the kernel's vDSO
 * has the same two instructions).  x86-64 guests need none of this:
 * glibc's restorer is in the executable. */
#ifndef PTD_RECORD_QEMU_CODE_H
#define PTD_RECORD_QEMU_CODE_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "tools/record/elfimage.h"
#include "tools/record/xev.h"

#define PTD_QCODE_TRAMP_PATH "[vdso]"

struct ptd_qcode;

/* Code of img (borrowed: must outlive the result) for a guest of
 * architecture arch (enum ptd_arch).  Returns 0 and *out (free with
 * ptd_qcode_free), or -PTD_E_NOMEM. */
int ptd_qcode_new(struct ptd_qcode **out, const struct ptd_elfimage *img, unsigned arch,
		  struct ptd_err *err);
void ptd_qcode_free(struct ptd_qcode *qc);

/* ptd_read_code_fn: ctx is a struct ptd_qcode.  The image, else the
 * trampoline page once known (its bytes after the two instructions read
 * as zero). */
long ptd_qcode_read(void *ctx, uint64_t addr, uint8_t *buf, size_t len);

/* Does the log still hold something for ptd_qcode_log_line?  0 for x86-64
 * and once the layout after the program's load has been read. */
int ptd_qcode_wants_log(const struct ptd_qcode *qc);

/* One line of qemu's log, [p, end) without the newline.  Returns 1 when
 * it shows the trampoline's mapping: *map (its path a static string) is
 * to be reported; 0 otherwise. */
int ptd_qcode_log_line(struct ptd_qcode *qc, const char *p, const char *end, struct ptd_xmap *map);

/* The trampoline's address, 0 while unknown. */
uint64_t ptd_qcode_tramp(const struct ptd_qcode *qc);

/* Parse up to 16 hex digits of a qemu log line at p (before end) into *v.
 * Returns the position after them, or NULL when there is no digit. */
const char *ptd_qlog_hex(const char *p, const char *end, uint64_t *v);

#endif
