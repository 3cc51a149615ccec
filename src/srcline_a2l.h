/* addr2line's answer for one address of one ELF file, from libdw and
 * libelf (the rules: srcline.h).  Private to src/srcline.c. */
#ifndef PTD_SRCLINE_A2L_H
#define PTD_SRCLINE_A2L_H

#include <stddef.h>
#include <stdint.h>

struct ptd_a2l;

/* NULL when path cannot be opened or is not ELF (or out of memory). */
struct ptd_a2l *ptd_a2l_open(const char *path);
void ptd_a2l_close(struct ptd_a2l *a);      /* NULL-safe */

/* The first record `addr2line -i -f` prints for addr.  Returns 0 when
 * addr2line prints "??:0" (not found); 1 when found: *file the source file
 * (borrowed until the next call; NULL: addr2line's "??") and *line its
 * line (0: addr2line's "?"). */
int ptd_a2l_lookup(struct ptd_a2l *a, uint64_t addr, const char **file, unsigned *line);

/* perf's dso->text_offset: the first ".text" section's address less its
 * file offset, in the ELF file path; 0 when there is none. */
uint64_t ptd_a2l_text_offset(const char *path);

#endif
