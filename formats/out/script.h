/* perf script's text for samples: the -F field set (perf 6.1 syntax and
 * defaults), one sample line as perf script 6.1 prints it, the AUX area
 * error line and the end-of-run error count warnings.
 *
 * Everything is resolved by the caller (thread comm, symbols, dsos, the
 * call depth, instruction bytes); this module only chooses and formats:
 * script_fields.c the field sets, script.c the text.
 * Rules are those of perf 6.1 builtin-script.c (process_event,
 * perf_sample__fprintf_start/_bts/_addr/_callindent/_insn/_ipc/_synth_*,
 * perf_sample__sprintf_flags, parse_output_fields, evsel__check_attr),
 * util/evsel_fprintf.c (sample__fprintf_sym/_callchain), util/map.c
 * (map__fprintf_dsoname), util/symbol_fprintf.c and util/auxtrace.c
 * (perf_event__fprintf_auxtrace_error, events_stats__auxtrace_error_warn).
 *
 * The branch stack fields brstack, brstacksym and brstackoff follow
 * perf_sample__fprintf_brstack/_brstacksym/_brstackoff and util/branch.c
 * (get_branch_type).
 *
 * Not printed (ptd_script_setup refuses them when they are in effect):
 * trace, iregs, uregs, brstackinsn, brstackinsnlen (perf reads and
 * decodes the code between branches and looks up a symbol per
 * instruction), data_src, metric, srccode, tod, data_page_size,
 * code_page_size; bpf-output is accepted but bpf-output events are not
 * printed.  perf 6.1 has no "disasm" field (--insn-trace=disasm fails in
 * perf 6.1 with "Invalid field requested."). */
#ifndef PTD_FORMATS_OUT_SCRIPT_H
#define PTD_FORMATS_OUT_SCRIPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "formats/perf/abi.h"

/* attr.type of perf's own synthesized events (cbr, psb, ptwrite, ...) */
#define PTD_SCRIPT_TYPE_SYNTH 0x80000000u

/* perf's output types: attr.type 0..5, then SYNTH, then all others
 * (dynamic PMUs such as intel_pt) */
enum ptd_script_otype {
	PTD_SCRIPT_OT_HW, PTD_SCRIPT_OT_SW, PTD_SCRIPT_OT_TRACEPOINT,
	PTD_SCRIPT_OT_HW_CACHE, PTD_SCRIPT_OT_RAW, PTD_SCRIPT_OT_BREAKPOINT,
	PTD_SCRIPT_OT_SYNTH, PTD_SCRIPT_OT_OTHER, PTD_SCRIPT_OT_MAX
};

/* Fields: perf's PERF_OUTPUT_* bits (same values). */
#define PTD_SCRIPT_COMM            (1ULL << 0)
#define PTD_SCRIPT_TID             (1ULL << 1)
#define PTD_SCRIPT_PID             (1ULL << 2)
#define PTD_SCRIPT_TIME            (1ULL << 3)
#define PTD_SCRIPT_CPU             (1ULL << 4)
#define PTD_SCRIPT_EVNAME          (1ULL << 5)
#define PTD_SCRIPT_TRACE           (1ULL << 6)
#define PTD_SCRIPT_IP              (1ULL << 7)
#define PTD_SCRIPT_SYM             (1ULL << 8)
#define PTD_SCRIPT_DSO             (1ULL << 9)
#define PTD_SCRIPT_ADDR            (1ULL << 10)
#define PTD_SCRIPT_SYMOFFSET       (1ULL << 11)
#define PTD_SCRIPT_SRCLINE         (1ULL << 12)
#define PTD_SCRIPT_PERIOD          (1ULL << 13)
#define PTD_SCRIPT_IREGS           (1ULL << 14)
#define PTD_SCRIPT_BRSTACK         (1ULL << 15)
#define PTD_SCRIPT_BRSTACKSYM      (1ULL << 16)
#define PTD_SCRIPT_DATA_SRC        (1ULL << 17)
#define PTD_SCRIPT_WEIGHT          (1ULL << 18)
#define PTD_SCRIPT_BPF_OUTPUT      (1ULL << 19)
#define PTD_SCRIPT_CALLINDENT      (1ULL << 20)
#define PTD_SCRIPT_INSN            (1ULL << 21)
#define PTD_SCRIPT_INSNLEN         (1ULL << 22)
#define PTD_SCRIPT_BRSTACKINSN     (1ULL << 23)
#define PTD_SCRIPT_BRSTACKOFF      (1ULL << 24)
#define PTD_SCRIPT_SYNTH           (1ULL << 25)
#define PTD_SCRIPT_PHYS_ADDR       (1ULL << 26)
#define PTD_SCRIPT_UREGS           (1ULL << 27)
#define PTD_SCRIPT_METRIC          (1ULL << 28)
#define PTD_SCRIPT_MISC            (1ULL << 29)
#define PTD_SCRIPT_SRCCODE         (1ULL << 30)
#define PTD_SCRIPT_IPC             (1ULL << 31)
#define PTD_SCRIPT_TOD             (1ULL << 32)
#define PTD_SCRIPT_DATA_PAGE_SIZE  (1ULL << 33)
#define PTD_SCRIPT_CODE_PAGE_SIZE  (1ULL << 34)
#define PTD_SCRIPT_INS_LAT         (1ULL << 35)
#define PTD_SCRIPT_BRSTACKINSNLEN  (1ULL << 36)
#define PTD_SCRIPT_MACHINE_PID     (1ULL << 37)
#define PTD_SCRIPT_VCPU            (1ULL << 38)
#define PTD_SCRIPT_DISASM          (1ULL << 39)   /* not in perf 6.1: perf 6.10's, with capstone */

/* perf's attr.config of PTD_SCRIPT_TYPE_SYNTH events (enum perf_synth_id) */
enum {
	PTD_SCRIPT_SYNTH_PTWRITE, PTD_SCRIPT_SYNTH_MWAIT, PTD_SCRIPT_SYNTH_PWRE,
	PTD_SCRIPT_SYNTH_EXSTOP, PTD_SCRIPT_SYNTH_PWRX, PTD_SCRIPT_SYNTH_CBR,
	PTD_SCRIPT_SYNTH_PSB, PTD_SCRIPT_SYNTH_EVT, PTD_SCRIPT_SYNTH_IFLAG_CHG,
};

/* perf's output[type] */
struct ptd_script_out {
	uint64_t fields;            /* what is printed */
	uint64_t invalid_fields;    /* fields -F may not give this type */
	uint64_t user_set_fields;   /* named in an untyped -F (errors instead of silent removal) */
	uint64_t user_unset_fields;
	int user_set;               /* some -F touched this type: no default " => addr" */
	int wildcard_set;
};

struct ptd_script_loc;
struct ptd_script_sample;

/* The field set, options and the little state perf script keeps between
 * lines.  ptd_script_init gives perf's defaults (no -F). */
struct ptd_script {
	struct ptd_script_out out[PTD_SCRIPT_OT_MAX];
	int print_flags;            /* "flags" in -F (one switch for all types) */
	int ns;                     /* --ns: 9 decimals, else 6 (microseconds, truncated) */
	int reltime, deltatime;     /* --reltime, --deltatime */
	unsigned pad_dso;           /* symbol_conf.pad_output_len_dso: dso names padded
	                             * (and cut) to this width; 50 with --call-trace */
	int name_width;             /* event name width: set by ptd_script_setup */
	int use_callchain;          /* symbol_conf.use_callchain: set by ptd_script_setup */
	size_t failed;              /* ptd_script_setup's -PTD_E_INVAL: the index of the
	                             * event whose check failed, (size_t)-1 for the file's */
	uint64_t branch_sample_type; /* evlist__combined_branch_type(): the file events'
	                             * attr.branch_sample_type or'ed, for perf's
	                             * brstackinsn check on files without AUX data;
	                             * the caller's, before ptd_script_setup */
	/* -F srcline: the text perf prints after "\n  " for loc (a loc with a
	 * dso and no srcline), NULL for nothing; called as perf calls
	 * map__fprintf_srcline, once per printed line.  NULL: no srcline. */
	const char *(*srcline)(void *ctx, const struct ptd_script_loc *loc);
	void *srcline_ctx;
	/* -F brstackinsn / brstackinsnlen: prints them for s where perf does
	 * (after insn), given the fields in effect; NULL: those fields are
	 * not supported. */
	void (*brstackinsn)(void *ctx, FILE *out, const struct ptd_script_sample *s,
			    uint64_t fields);
	void *brstackinsn_ctx;
	/* state */
	int spacing;                /* callindent's column */
	uint64_t initial_time, previous_time;
	uint64_t sym_gen;           /* the caller's: changes whenever a symbol name it
	                             * gave may have been freed (the texts kept of
	                             * addresses are dropped) */
	struct ptd_script_loctext *loctext;   /* addresses as printed, by their value
	                                         (script.c): allocated after nlocs
	                                         printed, freed by ptd_script_fini */
	uint64_t loctext_gen, nlocs;
	unsigned loctext_pad;       /* pad_dso of the texts kept */
	struct ptd_script_start {   /* the last line's start as put_start wrote it
	                             * (formats/out/script.c): len 0, none */
		uint64_t fields;
		const void *evsel;
		const char *comm;
		int32_t pid, tid, cpu, machine_pid, vcpu;
		uint16_t misc;
		int ns, reltime, use_callchain;
		uint64_t time;
		size_t len;
		char buf[128];
	} start;
};

/* One event of the file (an evsel), as far as the output depends on it. */
struct ptd_script_evsel {
	uint32_t type;              /* attr.type (PTD_SCRIPT_TYPE_SYNTH for cbr, psb, ...) */
	uint64_t config;            /* attr.config */
	uint64_t sample_period;     /* attr.sample_period */
	uint64_t sample_type;       /* attr.sample_type (PTD_SAMPLE_*) */
	const char *name;           /* evsel__name(): "branches:uH", "dummy:uH", ... */
	const char *check_name;     /* its name when perf checks its attr, if different
	                             * (a synthesized event renamed afterwards) */
};

/* Where an address is: NULL sym or dso print as perf's "[unknown]". */
struct ptd_script_loc {
	const char *sym;            /* symbol name; the same address is the same name
	                               until the script's sym_gen changes */
	uint64_t symoff;            /* address - symbol start, printed "+0x%lx" */
	const char *dso;            /* the map's dso name ("/bin/loops", "[kernel.kallsyms]");
	                               the same address is the same name (the
	                               machine keeps its names) */
	const char *srcline;        /* -F srcline's text when known beforehand, else
	                             * NULL: the script's srcline callback is asked */
	const void *map;            /* the caller's: the map the address is in */
	uint64_t map_off;           /* the address's file offset in that map */
};

/* One callchain entry: addr as perf prints it (map-relative for user
 * space dsos, the ip for the kernel) and where it is. */
struct ptd_script_frame {
	uint64_t addr;
	struct ptd_script_loc loc;
};

/* perf's branch type names (struct branch_flags.type, util/branch.c) */
#define PTD_SCRIPT_BR_UNKNOWN    0   /* printed as "" */
#define PTD_SCRIPT_BR_EXTEND_ABI 15  /* the name is new_type's */

/* One branch stack entry (perf's struct branch_entry) with what perf
 * looks up for it: thread__find_symbol_fb() / thread__find_map_fb() with
 * the sample's cpumode (falling back to the address's own cpumode). */
struct ptd_script_branch {
	uint64_t from, to;          /* branch source and target, as recorded */
	struct ptd_script_loc from_loc, to_loc; /* sym NULL: no symbol ("[unknown]");
	                             * symoff as for ip_loc (always printed, "+0x0"
	                             * too); dso NULL: no map ("[unknown]"); srcline
	                             * unused */
	uint64_t from_off, to_off;  /* for brstackoff: map__map_ip() of from / to when
	                             * it has a map whose dso has no adjust_symbols
	                             * (a user space ELF: address - map start + pgoff),
	                             * else from / to unchanged */
	uint8_t mispred, predicted; /* flags.mispred, flags.predicted (0 or 1): "M", "P",
	                             * "P" when both, "-" when neither */
	uint8_t in_tx, abort;       /* flags.in_tx "X", flags.abort "A" (0 or 1) */
	uint16_t cycles;            /* flags.cycles, printed in decimal (0 when none) */
	uint8_t type;               /* flags.type, PERF_BR_* 0..15 (0 unknown: no name) */
	uint8_t new_type;           /* flags.new_type, PERF_BR_NEW_*: used when type is
	                             * PTD_SCRIPT_BR_EXTEND_ABI */
};

struct ptd_script_sample {
	const struct ptd_script_evsel *evsel;
	const char *comm;           /* thread comm; NULL prints ":-1" (no thread); the
	                               same address is the same comm while the
	                               script prints (the machine keeps its comms) */
	int32_t pid, tid, cpu;
	uint64_t time;              /* perf time, ns */
	uint64_t ip, addr, period;
	uint32_t flags;             /* PTD_IPF_* (formats/perf/abi.h) */
	uint16_t misc;              /* the record's header.misc (for -F misc) */
	int32_t machine_pid, vcpu;  /* guest samples only: 0 machine_pid for host */
	struct ptd_script_loc ip_loc, addr_loc;
	const uint8_t *insn;        /* instruction bytes (perf fetches them itself on */
	unsigned insn_len;          /*  the native arch when the sample has none) */
	uint64_t insn_cnt, cyc_cnt; /* for ipc: printed only when both are non-zero */
	unsigned call_depth;        /* thread_stack__depth() for callindent; a return's
	                             * depth is raised by one here, as perf does ... */
	int no_tstack;              /* ... unless the thread keeps no call stack (perf's
	                             * cs-etm decoding keeps none) */
	const uint8_t *raw;         /* PERF_SAMPLE_RAW payload after its u32 size */
	uint32_t raw_size;          /*  (synth events: perf's perf_synth_intel_* less 4) */
	const char *disasm;         /* -F disasm: the instruction's text; NULL prints its bytes */
	const struct ptd_script_frame *callchain; /* NULL: none */
	size_t callchain_nr;
	uint64_t weight, phys_addr;
	uint16_t ins_lat;
	const struct ptd_script_branch *brstack; /* PERF_SAMPLE_BRANCH_STACK entries, */
	size_t brstack_nr;          /*  newest first (perf's order); NULL / 0: none */
};

/* AUX area error record (PERF_RECORD_AUXTRACE_ERROR) */
struct ptd_script_auxerr {
	uint32_t type;              /* 1: instruction trace */
	uint32_t code;
	int32_t cpu, pid, tid;
	uint64_t ip;
	uint64_t time;              /* ns; 0 prints " time 0" */
	uint32_t fmt;               /* 0: no time field (old records), 1, 2: with machine_pid */
	int32_t machine_pid, vcpu;
	const char *msg;            /* at most 63 characters are printed */
};

/* perf's output_type(): enum ptd_script_otype of an attr.type. */
int ptd_script_output_type(uint32_t attr_type);

/* perf's defaults: fields per type as perf script has them with no -F. */
void ptd_script_init(struct ptd_script *ps);
/* Free what printing allocated (ptd_script_init's ps may be freed without
 * it only when nothing was printed). */
void ptd_script_fini(struct ptd_script *ps);

/* Apply one -F argument ("comm,tid", "+insn", "-ip,-sym", "hw:ip",
 * "flags", ...), as perf's parse_output_fields does (several -F apply in
 * order).  perf's warnings and errors are written to err (stderr when
 * NULL).  Returns 0, or -PTD_E_INVAL after printing perf's message
 * ("Invalid field requested.", ...); perf then prints its usage and
 * exits 129. */
int ptd_script_parse_fields(struct ptd_script *ps, const char *arg, FILE *err);

/* --call-trace, --call-ret-trace, --insn-trace (raw): their -F changes
 * and --ns (plus pad_dso 50 for --call-trace).  The --itrace options
 * they imply ("cewp", "crewp", "i0nse") are the caller's.  Returns 0 or
 * -PTD_E_INVAL. */
enum { PTD_SCRIPT_CALL_TRACE, PTD_SCRIPT_CALLRET_TRACE, PTD_SCRIPT_INSN_TRACE };
int ptd_script_preset(struct ptd_script *ps, int which, FILE *err);

/* After the fields are parsed, with all events in evlist order: first
 * the n_file events of the file's header, then the ones the trace decoder
 * synthesizes (branches, instructions, cbr, ...).  Does what perf does
 * around printing: the event name width (longest name of all), whether
 * callchains are printed (some event samples them), the checks of the
 * first non-dummy file event of each output type and of each synthesized
 * event whose attr.type is new (fields the samples cannot have are
 * dropped from the defaults, or are errors when asked for by an untyped
 * -F; a typed -F naming no field of a type the file lacks is an error),
 * and IP and SYM added for callchains.  has_auxtrace: the file has
 * HEADER_AUXTRACE (then addr, cpu, ... asked for are kept even if the
 * samples lack them).  Returns 0; -PTD_E_INVAL after printing perf's
 * message to err (stderr when NULL); or -PTD_E_UNSUPPORTED (with a
 * message) when a field this module does not print is in effect for a
 * type that has events. */
int ptd_script_setup(struct ptd_script *ps, const struct ptd_script_evsel *evs, size_t n,
		     size_t n_file, int has_auxtrace, FILE *err);

/* Print one sample as perf script does (nothing when its type has no
 * fields).  Returns 0, or -PTD_E_IO when out is in error. */
int ptd_script_print(struct ptd_script *ps, FILE *out, const struct ptd_script_sample *s);
/* perf's sample_addr_correlates_sym: the event's samples print their
 * address as a symbol (branches, as BTS gives them, and page faults),
 * the only ones whose addr_loc ptd_script_print reads */
int ptd_script_addr_correlates(const struct ptd_script_evsel *ev);

/* perf's flags column text without the surrounding "  %-21s " (e.g.
 * "tr end  syscall", "jcc", "bcD").  Returns buf. */
const char *ptd_script_flags_str(uint32_t flags, char *buf, size_t sz);

/* perf's name of a branch stack entry's type (get_branch_type(): "COND",
 * "IND_CALL", ...; "" for none; "ARCH_1" ... for PERF_BR_EXTEND_ABI; "(null)"
 * where perf has no name). */
const char *ptd_script_branch_type_str(const struct ptd_script_branch *b);

/* " instruction trace error type 1 time 2000.001000013 cpu 0 pid ...
 * code 7: Overflow packet\n".  Returns 0, or -PTD_E_IO. */
int ptd_script_print_auxerr(FILE *out, const struct ptd_script_auxerr *e);

/* The end-of-run warnings for AUX errors ("Warning:\n50 instruction trace
 * errors\n"), nr[type] errors of each type for type < ntypes (perf counts
 * types 0 and 1 only).  Written to err (stderr when NULL). */
void ptd_script_auxerr_warn(FILE *err, const unsigned *nr, size_t ntypes);

#endif
