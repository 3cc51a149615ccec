/* The static program, and ptdecode-full in its place where it lacks a
 * library.
 *
 * A dynamically linked program begins each run with the dynamic linker
 * mapping and relocating the C library: on the bench's machine 27 page
 * faults and 0.4 to 1.4 ms of runs that take 2.5 to 15 ms
 * (bench/analysis.md, forty-sixth round).  configure
 * --enable-static-ptdecode (tools/build.sh --pgo) links ptdecode
 * statically, with capstone, libzstd, libdw and libelf, which a decode
 * may need at any point (src/common/dlsyms.h).  The others are not in
 * it: Debian has no static libipt, libpq's archive needs ones Debian does
 * not have, and OpenCSD's repair (decoders/cs-etm/ocsd_load.h) binds
 * through the dynamic linker.  The build makes ptdecode-full as well, the
 * same program linked dynamically and loading its libraries when needed,
 * installed beside ptdecode; the static program runs it, with the same
 * arguments, for what needs those libraries: a raw Intel PT trace (--pt:
 * libipt), a CoreSight snapshot or raw trace (--snapshot, --etm) or a
 * perf.data file of CoreSight trace (OpenCSD), the database exports
 * (SQLite and libpq: they take seconds, and their database is made before
 * the records show the trace's kind); and input from a pipe, which it
 * could not hand over once read. */
#ifndef PTD_FULLPROG_H
#define PTD_FULLPROG_H

#include "options.h"

/* The program's arguments, for running ptdecode-full with them */
void ptd_fullprog_init(char **argv);

/* In the static program: why these options need ptdecode-full, or NULL
 * (always NULL in ptdecode-full, or in a program built without
 * --enable-static-ptdecode) */
const char *ptd_fullprog_wanted(const struct ptd_options *o);

/* In the static program, for a perf.data file whose trace is of type
 * auxtrace_type (PTD_AUXTRACE_*): why it needs ptdecode-full, or NULL */
const char *ptd_fullprog_wanted_trace(uint32_t auxtrace_type);

/* Run ptdecode-full, from the static program's directory, with this
 * run's arguments in place of this program.  Returns only when it
 * cannot, having said so on stderr (naming why it was needed). */
void ptd_fullprog_run(const char *why);

#endif
