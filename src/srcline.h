/* Source lines of addresses, as perf script's srcline field prints them.
 *
 * perf 6.1 built without libbfd asks binutils' `addr2line -e FILE -i -f`
 * (util/srcline.c); ptdecode answers the same questions from the file
 * itself, with libdw for the DWARF line tables and libelf for the symbol
 * table, following addr2line's rules:
 *  - the address is looked up in the first allocated section that
 *    contains it; none: not found;
 *  - the DWARF line table row of the compilation unit covering it (the
 *    last row at the greatest address at or below it, not an end of
 *    sequence) gives "FILE:LINE"; FILE is the row's file, joined with its
 *    directory and the unit's comp_dir, then cut to its last component
 *    unless full_path (--full-source-path); line 0 prints "FILE:0";
 *  - without a row, the symbol table (.symtab, else .dynsym) as binutils'
 *    elf_find_function reads it: the function-like symbol of that section
 *    starting closest at or below the address, and the STT_FILE symbol
 *    before it in the table (a global symbol after a file symbol that
 *    follows other symbols gets none): "FILE:0", or "??:0" when there is
 *    no file symbol (perf prints nothing then); no symbol: not found.
 * Not found (or no file, or a dso perf does not ask about: names starting
 * with '[' or "/tmp/perf-") prints perf's fallback "SHORTNAME[ADDR]" (the
 * dso's last path component, the address in hex).  perf gives up on a dso
 * after 123 lookups without any success (A2L_FAIL_LIMIT): every later
 * lookup there takes the fallback; this is followed too.
 *
 * Answers are cached per dso and address.  Files are untrusted: libdw's
 * and libelf's results are checked, a damaged file is one without lines. */
#ifndef PTD_SRCLINE_H
#define PTD_SRCLINE_H

#include <stdint.h>

struct ptd_srcline;

/* 1 when ptdecode was built with libdw (source lines available). */
int ptd_srcline_available(void);

/* NULL when out of memory (or built without libdw). */
struct ptd_srcline *ptd_srcline_new(int full_path);
void ptd_srcline_free(struct ptd_srcline *s);     /* NULL-safe */

/* The srcline perf prints for file offset off of the dso recorded as
 * name.  Its debug information is read from file (perf's dso__name(): the
 * file its symbols come from when that has a .symtab, else the recorded
 * name; NULL: none).  runtime is the binary perf loaded for the dso (NULL:
 * none); the address looked up is perf's map__rip_2objdump(): off plus
 * runtime's text_offset (its .text section's address less that section's
 * file offset), off itself without a binary.  Returns the text to print
 * after "\n  " (borrowed until the next call), or NULL when perf prints
 * nothing ("??:0", or out of memory). */
const char *ptd_srcline_get(struct ptd_srcline *s, const char *name, const char *file,
			    const char *runtime, uint64_t off);

#endif
