/* perf's --itrace option: what to synthesize from an AUX area trace, parsed
 * with perf 6.1's grammar, defaults and error message (tools/perf
 * util/auxtrace.c itrace_do_parse_synth_opts, struct itrace_synth_opts in
 * util/auxtrace.h, builtin-script.c, util/intel-pt.c).
 *
 * The grammar.  The string is read letter by letter; ' ' and ',' between
 * letters are ignored; any other character is an error:
 *   i[PERIOD]  instructions events.  PERIOD is decimal digits (after any
 *              ' ' / ','), then after any ' ' / ',' the end of the string
 *              or one unit: i (instructions), t (ticks), ns, us, ms (each
 *              letter pair exactly adjacent).  Anything else after the
 *              digits is an error ("i10b", "i10,b", "i10u s").  Without a
 *              unit: nanoseconds.  Without PERIOD (or in a string without
 *              'i' that follows one with it): 100000 ns.  "i0..." and
 *              "i0" mean every instruction (Intel PT: period 0 -> 1 insn).
 *              The value wraps as an unsigned 64-bit number (strtoull's
 *              ULLONG_MAX on overflow, then * 1000 or * 1000000).
 *   b x w p o I f m t a M A Z      one flag each (see the fields below).
 *   c r        branches, limited to calls / returns (both: either).
 *   e[FLAGS]   errors; FLAGS: any number of "+X" / "-X", X a lowercase
 *              letter (any: "e+z" is valid), ' ' allowed before a sign
 *              and between a sign and its letter; a sign without a
 *              letter is an error ("e+", "e-", "e+o+").
 *   d[FLAGS]   debug log, FLAGS as for e.
 *   g[N] G[N]  call chains (N 1..1024 after any ' ' / ','; N is read as
 *              strtoul truncated to 32 bits, so 4294967298 is 2 and
 *              4294967296 an error); each g or G sets the size again:
 *              "g8g" is 16.  g and G share one size.
 *   l[N] L[N]  last branch entries, as g (1..1024, default 64).
 *   sN         skip the first N events; N is strtoul's (leading white
 *              space and a sign allowed: "s-1" is ULONG_MAX, overflow
 *              too); no number is an error.
 *   q          quicker decoding; counts ("qq" is 2, no limit).
 * Letters may repeat; flags only ever turn on.  Not in perf 6.1 (errors):
 * y (cycles), T (use timestamps), E, V, and a PERIOD without 'i'.
 *
 * Parsing accumulates into the struct as perf does for repeated options:
 * "--itrace=i10i --itrace=b" keeps instructions from the first string and
 * resets its period to 100000 ns in the second.
 *
 * Errors: perf prints "Bad Instruction Tracing options 'STR'" (STR the
 * whole string) and its usage, and exits 129.  The struct may be partly
 * changed by a string that fails, as in perf (which then exits). */
#ifndef PTD_ITRACE_H
#define PTD_ITRACE_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"

/* struct ptd_itrace.period_type (perf's enum itrace_period_type, in order) */
enum ptd_itrace_period_type {
	PTD_ITRACE_PERIOD_INSTRUCTIONS,
	PTD_ITRACE_PERIOD_TICKS,
	PTD_ITRACE_PERIOD_NANOSECS,
};

/* perf's PERF_ITRACE_DEFAULT_* and _MAX_* (util/auxtrace.c) */
#define PTD_ITRACE_DEFAULT_PERIOD_TYPE     PTD_ITRACE_PERIOD_NANOSECS
#define PTD_ITRACE_DEFAULT_PERIOD          100000
#define PTD_ITRACE_DEFAULT_CALLCHAIN_SZ    16
#define PTD_ITRACE_MAX_CALLCHAIN_SZ        1024
#define PTD_ITRACE_DEFAULT_LAST_BRANCH_SZ  64
#define PTD_ITRACE_MAX_LAST_BRANCH_SZ      1024
/* the debug log kept for d+e when perf-config has no
 * itrace.debug-log-buffer-size (ITRACE_DFLT_LOG_ON_ERROR_SZ) */
#define PTD_ITRACE_DEFAULT_LOG_ON_ERROR_SZ 16384

/* e and d flags: bit (letter - 'a') of the +/- masks */
#define PTD_ITRACE_FLAG(c)            (1u << ((c) - 'a'))
#define PTD_ITRACE_ERR_OVERFLOW       PTD_ITRACE_FLAG('o')  /* e-o: no overflow errors */
#define PTD_ITRACE_ERR_DATA_LOST      PTD_ITRACE_FLAG('l')  /* e-l: no data lost errors */
#define PTD_ITRACE_LOG_ALL_PERF_EVTS  PTD_ITRACE_FLAG('a')  /* d+a: log every perf event */
#define PTD_ITRACE_LOG_ON_ERROR       PTD_ITRACE_FLAG('e')  /* d+e: log kept, output on errors */
#define PTD_ITRACE_LOG_USE_STDOUT     PTD_ITRACE_FLAG('o')  /* d+o: log to stdout, not intel_pt.log */

/* A time interval of --time (perf_time_interval), nanoseconds; 0: open. */
struct ptd_itrace_range {
	uint64_t start, end;
};

/* The options (perf's struct itrace_synth_opts).  Booleans are 0 / 1. */
struct ptd_itrace {
	int set;                /* an --itrace (or --no-itrace, --insn-trace, ...) was given */
	int default_no_sample;  /* the tool's default has no instructions events
				 * (perf script: 1; perf report: 0) */
	int inject;             /* perf inject: events written out, fully synthesized */
	int instructions;       /* i: 'instructions' events every period */
	int branches;           /* b, c, r: 'branches' events */
	int transactions;       /* x: TSX transaction events */
	int ptwrites;           /* w: ptwrite events */
	int pwr_events;         /* p: power events (and PSB events for Intel PT) */
	int other_events;       /* o: events recorded through aux-output */
	int intr_events;        /* I: interrupt-like events (Event Trace) */
	int errors;             /* e: decoder error events */
	int dont_decode;        /* --no-itrace: do not decode at all */
	int log;                /* d: write a decoder debug log */
	int calls;              /* c: branches limited to calls (with returns: either) */
	int returns;            /* r: branches limited to returns */
	int callchain;          /* g: call chain on instructions / transactions events */
	int add_callchain;      /* G: call chain added to the recorded events */
	int thread_stack;       /* keep the thread stack (perf script: -F callindent) */
	int last_branch;        /* l: last branches on instructions / transactions events */
	int add_last_branch;    /* L: last branches added to the recorded events */
	int approx_ipc;         /* A: approximate IPC */
	int flc;                /* f: first level cache events (Arm SPE) */
	int llc;                /* m: last level cache events (Arm SPE) */
	int tlb;                /* t: TLB events (Arm SPE) */
	int remote_access;      /* a: remote access events (Arm SPE) */
	int mem;                /* M: memory events (Arm SPE) */
	int timeless_decoding;  /* Z: ignore timestamps ("timeless" decoding) */
	int vm_time_correlation;/* perf inject --vm-time-correlation (no letter) */
	int vm_tm_corr_dry_run; /* its "dry-run" */
	const char *vm_tm_corr_args;  /* its other arguments (borrowed), or NULL */
	unsigned int callchain_sz;    /* g / G size: 1..1024 */
	unsigned int last_branch_sz;  /* l / L size: 1..1024 */
	uint64_t period;              /* instructions events period, in period_type units */
	int period_type;              /* enum ptd_itrace_period_type */
	uint64_t initial_skip;        /* s: events not synthesized at the start */
	const uint64_t *cpu_bitmap;   /* --cpu: bit (cpu % 64) of word cpu / 64 set for
				       * each CPU to decode; NULL: all (borrowed) */
	const struct ptd_itrace_range *ranges;  /* --time intervals (borrowed), or NULL */
	int nranges;
	unsigned int error_plus_flags;   /* e+X: PTD_ITRACE_ERR_* and any other letter */
	unsigned int error_minus_flags;  /* e-X */
	unsigned int log_plus_flags;     /* d+X: PTD_ITRACE_LOG_* and any other letter */
	unsigned int log_minus_flags;    /* d-X */
	unsigned int quick;              /* q: the number of q letters */
	unsigned int log_on_error_size;  /* d+e: bytes of log kept (0 until then) */
	unsigned int debug_log_buffer_size;  /* input: perf-config
				       * itrace.debug-log-buffer-size; 0: 16384 */
};

/* perf script's starting point before its options: all zero except
 * default_no_sample = 1. */
void ptd_itrace_init(struct ptd_itrace *o);

/* Apply one --itrace option to o (set by ptd_itrace_init and any earlier
 * options).  str is the text after "--itrace=" ("" for "--itrace=", which
 * selects nothing); NULL is "--itrace" without a value, which applies
 * ptd_itrace_set_default(o, o->default_no_sample).  Returns 0, or
 * -PTD_E_INVAL with err holding perf's message
 * "Bad Instruction Tracing options 'STR'". */
int ptd_itrace_parse(struct ptd_itrace *o, const char *str, struct ptd_err *err);

/* --no-itrace: set, and do not decode.  Returns nothing. */
void ptd_itrace_unset(struct ptd_itrace *o);

/* perf's itrace_synth_opts__set_default: b x w p o I e f m t a M on, sizes
 * 16 / 64, no skip; with no_sample also c and a period of 1 instruction
 * (instructions left as they were), else i every 100000 ns. */
void ptd_itrace_set_default(struct ptd_itrace *o, int no_sample);

/* The options the Intel PT decoder uses (intel_pt_process_auxtrace_info)
 * for the command line's cmdline: a copy of it when set; else zero, then
 * ptd_itrace_set_default(cmdline->default_no_sample), then, unless
 * cmdline's default_no_sample or inject, branches off and callchain,
 * add_callchain on (perf report's default), and thread_stack from cmdline;
 * everything else stays zero (set, default_no_sample and inject too, as in
 * perf).  cpu_bitmap and ranges are kept in both cases (perf filters with
 * the session's copy of the options).  Returns nothing. */
void ptd_itrace_resolve(const struct ptd_itrace *cmdline, struct ptd_itrace *out);

/* What Intel PT decoding uses in perf script without any --itrace:
 * ptd_itrace_resolve of ptd_itrace_init: branches limited to calls (c),
 * x w p o I e f m t a M, no instructions, period 1 instruction, sizes
 * 16 / 64 ("cewp" plus the events perf has no letter-less way to drop). */
void ptd_itrace_default(struct ptd_itrace *o);

/* perf script's shortcuts for --itrace (builtin-script.c). */
enum ptd_itrace_shortcut {
	PTD_ITRACE_INSN_TRACE,      /* --insn-trace[=raw|disasm]: "i0nse" */
	PTD_ITRACE_CALL_TRACE,      /* --call-trace: "cewp" */
	PTD_ITRACE_CALL_RET_TRACE,  /* --call-ret-trace: "crewp" */
};

/* What a shortcut changes besides the itrace options. */
struct ptd_itrace_shortcut_fx {
	const char *itrace;      /* the string it parses: "i0nse", "cewp", "crewp" */
	const char *fields;      /* its -F change, e.g. "+insn,-event,-period" */
	int nanosecs;            /* turns on --ns (9 decimals of time): 1 for all */
	int pad_output_len_dso;  /* dso column width: 50 for --call-trace, else 0 */
};

/* Apply a shortcut to o (accumulating, as ptd_itrace_parse) and fill *fx.
 * arg is the option's value or NULL: --insn-trace accepts NULL, "" and
 * "raw"; the value of the others is ignored, as is --no-<shortcut> (perf
 * treats it as the shortcut).  A call-trace's callindent makes perf turn
 * thread_stack on after option parsing; that is left to the caller.
 * Returns 0; -PTD_E_INVAL with "Only accept raw|disasm" for another
 * --insn-trace value; -PTD_E_UNSUPPORTED with "Invalid field requested."
 * for --insn-trace=disasm (perf 6.1 has no disasm field; o is unchanged). */
int ptd_itrace_shortcut(struct ptd_itrace *o, enum ptd_itrace_shortcut which, const char *arg,
			struct ptd_itrace_shortcut_fx *fx, struct ptd_err *err);

/* A canonical one-line description of o into buf (snprintf's rules):
 *   LETTERS [set] [no_sample] [inject] [dont_decode] [thread_stack]
 *   [vmtc] [vmtc_dry] period=N{i|t|ns} g=N l=N s=N q=N [e=+X-Y] [d=+X-Y]
 *   [logsz=N] [cpus] [ranges=N]
 * LETTERS are the flags on, in the order ibcrxwpoIedfmtaMgGlLAZ ('-' for
 * none: b is branches, c calls, r returns, e errors, d log); bracketed
 * parts appear only when on / nonzero.  Returns the length it needed. */
int ptd_itrace_format(const struct ptd_itrace *o, char *buf, size_t size);

#endif
