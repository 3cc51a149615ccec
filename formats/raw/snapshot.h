/* OpenCSD snapshot directories (the format trc_pkt_lister reads):
 *
 *   snapshot.ini   [snapshot] version=1.0, [device_list] devN=FILE.ini,
 *                  [trace] metadata=trace.ini
 *   FILE.ini       [device] name=, class=core|trace_source|..., type=
 *                  [regs] NAME[(annotation)]=VALUE
 *                  [dumpN] file=, address=, length=, offset=, space=
 *   trace.ini      [trace_buffers] buffers=b0,b1   [b0] name=, file=, format=
 *                  [source_buffers] SOURCE=BUFFER
 *                  [core_trace_sources] CORE=SOURCE
 *
 * Everything is checked as hostile input: .ini files of at most 1 MiB,
 * at most 4096 devices, registers and dumps each, names and values of at
 * most 255 bytes, numbers (0x hex or decimal) that fit 64 bits,
 * no duplicate keys where the format has one value, file names relative to
 * the directory without "..".  Errors name the file and line.
 * Sections and keys the format does not define are ignored (as OpenCSD's
 * reader does), except in [dump] sections, where an unknown key is an error. */
#ifndef PTD_FORMATS_RAW_SNAPSHOT_H
#define PTD_FORMATS_RAW_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"

struct ptd_snap_reg {
	char *name;            /* without its "(...)" annotation */
	uint64_t value;
};

struct ptd_snap_dump {
	char *file;            /* relative to the snapshot directory */
	uint64_t address;
	uint64_t offset;       /* into the file; 0 when not given */
	uint64_t length;       /* 0 when not given: to the end of the file */
	char space[8];         /* memory space ("S", "N", "EL1N", ...), "" for any */
};

struct ptd_snap_device {
	char *ini;             /* the .ini it came from */
	char *name, *cls, *type;
	struct ptd_snap_reg *regs;
	size_t nregs;
	struct ptd_snap_dump *dumps;
	size_t ndumps;
};

struct ptd_snap_buffer {
	char *name, *file, *format;    /* format: "coresight", "source_data", "dstream_coresight" */
};

struct ptd_snap_pair {
	char *key, *value;     /* source → buffer, or core → source */
};

struct ptd_snapshot {
	char *dir;
	struct ptd_snap_device *devices;
	size_t ndevices;
	struct ptd_snap_buffer *buffers;      /* in the order of buffers= */
	size_t nbuffers;
	struct ptd_snap_pair *source_buffers; /* in file order */
	size_t nsource_buffers;
	struct ptd_snap_pair *core_sources;   /* in file order; a core may have several */
	size_t ncore_sources;
};

/* Read the snapshot in directory dir.  Returns 0 and *out; -PTD_E_IO when a
 * file cannot be read; -PTD_E_FORMAT for a malformed file (file:line in the
 * message); -PTD_E_LIMIT past a limit above; -PTD_E_NOMEM. */
int ptd_snapshot_read(struct ptd_snapshot **out, const char *dir, struct ptd_err *err);

/* NULL-safe. */
void ptd_snapshot_free(struct ptd_snapshot *ss);

/* The device called name (exact match, as OpenCSD), or NULL. */
const struct ptd_snap_device *ptd_snapshot_device(const struct ptd_snapshot *ss, const char *name);

/* Register name (case-insensitive, annotation ignored).  Returns 1 and
 * *value when present, 0 when not. */
int ptd_snap_reg(const struct ptd_snap_device *dev, const char *name, uint64_t *value);

/* The buffer called name, or NULL. */
const struct ptd_snap_buffer *ptd_snapshot_buffer(const struct ptd_snapshot *ss, const char *name);

/* "dir/file" in a new string (NULL: out of memory). */
char *ptd_snapshot_path(const struct ptd_snapshot *ss, const char *file);

#endif
