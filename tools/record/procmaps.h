/* The executable mappings of a live process, from /proc/PID/maps, reported
 * once each through a ptd_xsink's mmap callback.
 *
 * [vdso] is reported under that name, anonymous executable memory as
 * "//anon" (perf's name); [vsyscall] (a kernel page) is not reported. */
#ifndef PTD_RECORD_PROCMAPS_H
#define PTD_RECORD_PROCMAPS_H

#include <stdint.h>

#include "common/err.h"
#include "tools/record/xev.h"

struct ptd_procmaps;

/* Returns 0 and *out (owned by the caller, free with ptd_procmaps_free),
 * or -PTD_E_NOMEM. */
int ptd_procmaps_new(struct ptd_procmaps **out, struct ptd_err *err);
void ptd_procmaps_free(struct ptd_procmaps *pm);

/* Forget what was reported (after exec: a new address space). */
void ptd_procmaps_reset(struct ptd_procmaps *pm);

/* Read /proc/pid/maps and call sink->mmap(pid, tid) for every executable
 * mapping not reported before (same range, offset, device, inode, path
 * and protection).  Returns the number reported (>= 0), -PTD_E_IO when the
 * file cannot be read, -PTD_E_FORMAT on a line that does not parse,
 * -PTD_E_LIMIT past 65536 mappings, or the callback's negative return. */
int ptd_procmaps_scan(struct ptd_procmaps *pm, int32_t pid, int32_t tid,
		      const struct ptd_xsink *sink, struct ptd_err *err);

/* Is addr inside an executable mapping seen by the last scan? */
int ptd_procmaps_is_exec(const struct ptd_procmaps *pm, uint64_t addr);

#endif
