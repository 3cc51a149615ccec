/* --kernel: the path through the emulated kernel (tools/record/kernel.S,
 * linked as an ELF vmlinux) that one system call takes, from
 * entry_SYSCALL_64 to its sysretq, as control transfers (xev.h) for the
 * PT encoder.
 *
 * The code is not run.  Direct jumps and calls are followed, returns go
 * back to the call, and each conditional branch goes the way a fixed
 * pseudo-random sequence says, so the paths differ from call to call but
 * are the same in every recording; after 64 conditional branches in one
 * call they all fall through, which ends every loop.  The walk ends at
 * sysretq; indirect branches, code outside [_text, _etext), a return
 * with no call or more than 4096 instructions are errors: the kernel image is not the one the
 * walker expects. */
#ifndef PTD_RECORD_KWALK_H
#define PTD_RECORD_KWALK_H

#include <stdint.h>

#include "common/err.h"
#include "tools/record/xev.h"

struct ptd_kwalk;

/* Open the kernel image at path.  Returns 0 and *out, or -PTD_E_IO,
 * -PTD_E_FORMAT (not an x86-64 ELF with entry_SYSCALL_64, _text and
 * _etext), -PTD_E_NOMEM. */
int ptd_kwalk_open(struct ptd_kwalk **out, const char *path, struct ptd_err *err);
void ptd_kwalk_free(struct ptd_kwalk *k);   /* NULL-safe */

/* The image's absolute path, the text's start (_text), its end (_etext)
 * and the entry (entry_SYSCALL_64). */
const char *ptd_kwalk_path(const struct ptd_kwalk *k);
uint64_t ptd_kwalk_text(const struct ptd_kwalk *k);
uint64_t ptd_kwalk_etext(const struct ptd_kwalk *k);
uint64_t ptd_kwalk_entry(const struct ptd_kwalk *k);

/* Walk one system call: fn(ctx, ev) for each control transfer after the
 * entry (icount counts the walk's instructions), in order.  Returns 0 and
 * *exit_ip, the address of the sysretq, or fn's non-zero return, or
 * -PTD_E_FORMAT (see above). */
int ptd_kwalk_run(struct ptd_kwalk *k, int (*fn)(void *ctx, const struct ptd_xev *ev),
		  void *ctx, uint64_t *exit_ip, struct ptd_err *err);

#endif
