/* Command-line options of ptdecode. */
#ifndef PTD_OPTIONS_H
#define PTD_OPTIONS_H

#include <stdio.h>

#include "common/err.h"
#include "decoders/decoder.h"
#include "formats/out/ptxed.h"
#include "formats/raw/raw.h"

enum ptd_action {
	PTD_ACTION_NONE,
	PTD_ACTION_DUMP,     /* --dump */
	PTD_ACTION_STATS,    /* --stats */
	PTD_ACTION_RAW,      /* --pt: decode a raw trace */
	PTD_ACTION_SCRIPT,   /* the default: decode, print as perf script does */
	PTD_ACTION_SNAPSHOT, /* --snapshot DIR: decode an OpenCSD snapshot */
	PTD_ACTION_ETM,      /* --etm TRACE: decode a raw CoreSight trace */
	PTD_ACTION_HELP,
	PTD_ACTION_VERSION,
};

enum ptd_format {
	PTD_FORMAT_DEFAULT,
	PTD_FORMAT_PTXED,    /* --format=ptxed */
	PTD_FORMAT_JSON,     /* --format=json: one object per sample (doc/formats.md) */
	PTD_FORMAT_RANGES,   /* --format=ranges: a range backend's ranges (--snapshot, CoreSight perf.data) */
	PTD_FORMAT_FOLDED,   /* --format=folded: folded call stacks (formats/out/folded.h) */
};

struct ptd_options {
	enum ptd_action action;
	const char *input;   /* perf.data path; "-" for standard input */
	int quiet;           /* no progress bar; ptxed format: only errors and statistics */
	int format;          /* enum ptd_format */

	/* raw mode: strings borrowed from argv */
	const char *pt;                       /* --pt FILE[:FROM[-TO]] */
	const char *etm;                      /* --etm FILE[:FROM[-TO]] */
	struct ptd_raw_image_arg *images;     /* --raw / --elf, in order (owned) */
	size_t nimages;
	struct ptd_cpu cpu;                   /* --cpu; vendor unknown when not given */
	struct ptd_decoder_opt *dopts;        /* backend settings, or --etm:KEY ones (owned array) */
	size_t ndopts;
	struct ptd_ptxed_opts ptxed;          /* --event:ip, --event:time, --stat */

	/* perf script compatible output: strings borrowed from argv */
	const char **itrace;                  /* --itrace values in order; NULL: bare --itrace */
	size_t nitrace;
	const char **fields;                  /* -F values in order (owned array) */
	size_t nfields;
	int shortcut;                         /* -1, or enum ptd_itrace_shortcut */
	const char *shortcut_arg;
	int ns;                               /* --ns */
	int full_source_path;                 /* --full-source-path */
	int max_blocks;                       /* --max-blocks N: brstackinsn's blocks */
	int jobs;                             /* -j N: decoding threads (0: one per online CPU) */
	int no_inline;                        /* --no-inline (perf's inline_name off); no
	                                       * effect: perf adds inline frames only to
	                                       * callchains unwound from stack copies */
	const char *symfs;                    /* --symfs DIR */
	const char *vmlinux;                  /* -k, --vmlinux FILE */
	const char *kallsyms;                 /* --kallsyms FILE */
	const char *buildid_dir;              /* --buildid-dir DIR */
	const char *cpu_list;                 /* -C / --cpu LIST (without --pt) */
	const char *pid_list, *tid_list;      /* --pid, --tid */
	const char *time_str;                 /* --time */
	int gaps;                             /* --gaps: the gap report */
	const char *snapshot;                 /* --snapshot DIR */
	int export_kind;                      /* --export=KIND:..., enum ptd_db_kind */
	const char *export_target;            /* its FILE or CONNINFO */
	int export_replace;                   /* --export-replace */
	const char *timeline;                 /* --timeline=FILE */
	const char *latency;                  /* --latency=SYMBOL */
};

/* Parse argv.  Returns 0, or -PTD_E_INVAL (-PTD_E_NOMEM) with a message
 * naming the bad argument.  Call ptd_options_fini() in either case. */
int ptd_options_parse(struct ptd_options *o, int argc, char **argv, struct ptd_err *err);

/* Free what parsing allocated; NULL-safe. */
void ptd_options_fini(struct ptd_options *o);

void ptd_options_usage(FILE *out);

#endif
