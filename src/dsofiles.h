/* The files behind the maps of a recording, found as perf finds them
 * (--symfs DIR, then the build-id cache, then the recorded path) and
 * mapped read-only, for reading code by file offset and for symbols.
 *
 * A file is looked up once per map file name; a missing or unreadable
 * file is remembered as missing (callers report their own errors). */
#ifndef PTD_DSOFILES_H
#define PTD_DSOFILES_H

#include <stddef.h>
#include <stdint.h>

#include "machine.h"
#include "symbols.h"

struct ptd_dsofiles;

struct ptd_dsofile {
	const char *path;        /* the local file used; NULL when none was found */
	const uint8_t *data;     /* its bytes (read-only mapping); NULL when none */
	uint64_t size;
	int is_64_bit;           /* ELFCLASS64, else 32-bit (and non-ELF files) */
	int is_exec;             /* an ELF ET_EXEC file: its addresses are the run's */
	/* for the trace decoder's use: perf reports a dso it cannot read twice,
	 * then goes quiet about it */
	int itrace_failed, itrace_seen;
	/* for symbol lookups (symfile.h): the file chosen, once looked for */
	char *symfile;           /* owned by the dsofiles; NULL: none */
	int symfile_done;
};

/* symfs and buildid_dir may be NULL (buildid_dir NULL: $HOME/.debug).
 * Both are copied.  NULL when out of memory. */
struct ptd_dsofiles *ptd_dsofiles_new(const char *symfs, const char *buildid_dir);
void ptd_dsofiles_free(struct ptd_dsofiles *f);   /* NULL-safe; unmaps everything (but
                                                     once the process is ending:
                                                     common/ending.h) */

/* The roots given to ptd_dsofiles_new (buildid_dir with its default
 * filled in; symfs NULL when none), borrowed. */
const char *ptd_dsofiles_symfs(const struct ptd_dsofiles *f);
const char *ptd_dsofiles_buildid_dir(const struct ptd_dsofiles *f);

/* The file of map (check ->data); NULL only when out of memory.  Borrowed
 * until free. */
struct ptd_dsofile *ptd_dsofiles_get(struct ptd_dsofiles *f, const struct ptd_map *map);

/* --vmlinux: the kernel's map (PTD_KERNEL_MAP_NAME) reads its code and
 * symbols from this ELF file (under symfs, as perf's dso__load_vmlinux
 * joins them).  Returns 0, or -1 when out of memory. */
int ptd_dsofiles_set_kernel(struct ptd_dsofiles *f, const char *vmlinux);

/* What perf names the kernel's dso by (its long name), when its code is
 * read: the kcore used, or the vmlinux as given; NULL otherwise.
 * Borrowed. */
const char *ptd_dsofiles_kernel_name(const struct ptd_dsofiles *f);

/* For a kernel map about to be added: perf maps the kernel by address
 * (pgoff is the address of _text, map offsets are addresses), code and
 * symbols are read by file offset: map->file_adj is set so that
 * ptd_map_file_off gives the vmlinux file's offsets.  Other maps, and any
 * map when no readable vmlinux is set, stay as they are. */
void ptd_dsofiles_kernel_map(struct ptd_dsofiles *f, struct ptd_symcache *syms, struct ptd_map *map);

/* --kallsyms: the kernel's symbols come from this file (syms must load it
 * as kallsyms: ptd_symcache_set_kallsyms), and --vmlinux is not used.  Its
 * code comes from a kcore file beside it when it is named kallsyms (perf
 * record --kcore's kcore_dir), else from nowhere.  ptd_dsofiles_kernel_map
 * puts the kernel's map over the kcore segment holding _stext, or over
 * the file's symbols, as perf does.  0, or -1 when out of memory. */
int ptd_dsofiles_set_kallsyms(struct ptd_dsofiles *f, const char *path);
/* perf_data__kallsyms_name: the kallsyms of a perf.data directory that
 * perf record --kcore wrote (INPUT/kcore_dir/kallsyms, when INPUT is a
 * directory and it exists) into buf; 1, else 0. */
int ptd_kcore_dir_kallsyms(const char *input, char *buf, size_t n);

/* The kallsyms file when its symbols serve the kernel, else NULL (none
 * set, or perf's load of it fails: no _text). */
const char *ptd_dsofiles_kallsyms(const struct ptd_dsofiles *f);

#endif
