/* The main job: decode a perf.data file's trace and print what
 * `perf script` prints for the same --itrace and -F options. */
#ifndef PTD_SCRIPT_RUN_H
#define PTD_SCRIPT_RUN_H

#include <stddef.h>
#include <stdio.h>

#include "views.h"

struct ptd_script_run_opts {
	const char *input;
	const char **itrace;        /* --itrace values in order (NULL entry: bare --itrace) */
	size_t nitrace;
	int itrace_given;
	const char **fields;        /* -F values in order */
	size_t nfields;
	int shortcut;               /* -1 none, else enum ptd_itrace_shortcut */
	const char *shortcut_arg;
	int ns;                     /* --ns */
	int full_source_path;       /* --full-source-path: srcline with the whole path */
	int max_blocks;             /* --max-blocks: brstackinsn prints at most this many (0: all) */
	int jobs;                   /* -j: decoding threads (0: one per online CPU) */
	const char *symfs;
	const char *vmlinux;        /* --vmlinux: the kernel image */
	const char *kallsyms;       /* --kallsyms: the kernel's symbols (wins over vmlinux) */
	const char *buildid_dir;
	int quiet;
	int json;                   /* --format=json instead of perf's text */
	int ranges;                 /* --format=ranges: a range backend's ranges (rangeq.h) */
	const char *cpu_list;       /* -C "0-2,4", NULL: all */
	const char *pid_list, *tid_list;   /* --pid, --tid "1,2", NULL: all */
	const char *time_str;              /* --time, perf's ranges (timerange.h), NULL: all */
	int gaps;                          /* --gaps: the gap report (src/gaps.h) instead of samples */
	int export_kind;            /* --export: enum ptd_db_kind (0: none) */
	const char *export_target;  /* its FILE or CONNINFO: write perf's export database instead */
	int export_replace;         /* --export-replace: an existing database may be replaced */
	struct ptd_views_opts views;  /* --format=folded, --timeline, --latency (views.h) */
	int at_exit;                /* the process exits after this run: its mappings are
	                               left to the exit (common/ending.h) */
};

/* Returns the exit status: 0, 1 for bad options (message printed), 2 for
 * input that cannot be decoded (message printed). */
int ptd_script_run(const struct ptd_script_run_opts *o, FILE *out);

#endif
