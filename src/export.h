/* The database export of perf's db-export.c (perf script -s
 * export-to-sqlite.py or export-to-postgresql.py DB all calls), written to
 * a row sink (formats/out/db.h): every synthesized sample becomes a row
 * of samples, with the events, machine, threads, comms, dsos and symbols it
 * names numbered as perf numbers them (in order of first use, 0 being
 * "unknown"); branch samples also drive the call/return pairing
 * (callstack.h), whose calls and call paths are written as they end.
 *
 * Rules kept from perf: a sample's comm is its process's exec comm (the
 * main thread's newest exec comm, else its oldest), the thread's current
 * comm is written too; an address in a map without a symbol gets an
 * "unknown" symbol of its own at that address; the idle task is
 * "swapper"; power-event samples get a row in their event's table
 * (cbr's mhz and percent as perf's Python script computes them). */
#ifndef PTD_EXPORT_H
#define PTD_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "formats/out/db.h"
#include "machine.h"
#include "ptq.h"

/* Where an address is. */
struct ptd_export_loc {
	const struct ptd_map *map;  /* NULL: in no map */
	uint64_t off;               /* the address in the map's file (perf's map_ip) */
	const char *sym;            /* NULL: no symbol there */
	uint64_t sym_start, sym_end;   /* file offsets, [start, end) */
	int sym_bind;               /* STB_LOCAL 0, GLOBAL 1, WEAK 2 */
};

struct ptd_export_sample {
	const void *evsel;          /* the event's identity */
	const char *evsel_name;
	int synth_config;           /* PERF_TYPE_SYNTH events: attr.config; else -1 */
	int is_branch;              /* a branch: addr is resolved and drives the call stacks */
	const struct ptd_synth *sy;
	struct ptd_export_loc ip, addr;
};

struct ptd_export;

/* The build id perf gives a dso without one in its MMAP2 record: into id,
 * returning its size (0: none). */
typedef size_t (*ptd_export_buildid_fn)(void *ctx, const struct ptd_map *map, uint8_t id[20]);

/* The long name perf gives a dso (the kernel's: the vmlinux read), or NULL
 * for its recorded name. */
typedef const char *(*ptd_export_long_name_fn)(void *ctx, const struct ptd_map *map);

/* db is borrowed (finished or aborted by the caller); the machine must
 * outlive the export.  quiet: no progress on stderr.  buildid and
 * long_name (both called with files_ctx) may be NULL. */
int ptd_export_new(struct ptd_export **out, struct ptd_db *db, const struct ptd_machine *m,
		   int quiet, ptd_export_buildid_fn buildid, ptd_export_long_name_fn long_name,
		   void *files_ctx, struct ptd_err *err);
void ptd_export_free(struct ptd_export *x);   /* NULL-safe */

int ptd_export_sample(struct ptd_export *x, const struct ptd_export_sample *s, struct ptd_err *err);

/* A context switch record (SWITCH or SWITCH_CPU_WIDE), as perf's
 * db_export__switch: np_pid/np_tid are -1 for SWITCH. */
int ptd_export_switch(struct ptd_export *x, int out, int preempt, uint64_t time, int32_t cpu,
		      int32_t pid, int32_t tid, int32_t np_pid, int32_t np_tid, struct ptd_err *err);

/* The end of the run: every call stack is flushed. */
int ptd_export_finish(struct ptd_export *x, struct ptd_err *err);

#endif
