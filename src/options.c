#include "options.h"

#include "formats/out/db.h"
#include "pathsafe.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ptd_options_usage(FILE *out)
{
	fputs("Usage: ptdecode [OPTIONS] [FILE]\n"
	      "       ptdecode --pt TRACE (--raw FILE:ADDR | --elf FILE[:BASE])... [OPTIONS]\n"
	      "       ptdecode --etm TRACE (--raw FILE:ADDR | --elf FILE[:BASE])... [OPTIONS]\n"
	      "       ptdecode --snapshot DIR [OPTIONS]\n"
	      "Read a perf.data file recorded with an AUX area trace (Intel PT, CoreSight),\n"
	      "or decode a raw Intel PT or CoreSight trace over the binaries it ran.\n"
	      "\n"
	      "FILE is the perf.data file (default: perf.data; '-' reads a pipe-mode\n"
	      "recording from standard input).\n"
	      "\n"
	      "Actions:\n"
	      "  -D, --dump        print every record, one line each as `perf report -D`\n"
	      "                    prints it, with perf's detail lines\n"
	      "  -s, --stats       print record counts as `perf report --stats` does, then\n"
	      "                    header, features, time range, AUX queues and gaps\n"
	      "\n"
	      "Without an action, decode the trace and print what `perf script` prints:\n"
	      "  --itrace[=OPTS]   perf's instruction trace options (i100us, b, cr, e, ...);\n"
	      "                    without it perf script's default (calls, errors, power)\n"
	      "  -F, --fields LIST perf script's -F (comm,tid,time,ip,sym,addr,flags, +insn, ...)\n"
	      "  --ns              times with nanoseconds\n"
	      "  --full-source-path  -F srcline shows the whole source file path\n"
	      "  --max-blocks N    -F brstackinsn prints the last N blocks only\n"
	      "  -j, --jobs N      decode Intel PT with N threads ahead of the output (default:\n"
	      "                    one per online CPU; 1: on one thread, --export=sqlite's\n"
	      "                    rows too); the output is the same\n"
	      "  --inline, --no-inline  perf script's inline frames switch (on by default;\n"
	      "                    they only appear in callchains unwound from stack\n"
	      "                    copies, which Intel PT callchains are not)\n"
	      "  --format=json     one JSON object per sample instead (fields: doc/formats.md)\n"
	      "  --insn-trace, --call-trace, --call-ret-trace   perf script's shortcuts\n"
	      "  --gaps            instead of samples, every gap in the trace: its cause, time\n"
	      "                    span, bytes skipped and instructions lost (doc/formats.md)\n"
	      "  -C, --cpu LIST    only these CPUs (0-2,4), as perf script -C\n"
	      "  --pid LIST, --tid LIST   only samples of these processes / threads\n"
	      "  --time RANGES     only samples in these perf time ranges (START,STOP ...)\n"
	      "  --export=sqlite:DB  write the database perf's export-to-sqlite.py writes\n"
	      "                    (samples, calls, call paths; doc/formats.md) instead\n"
	      "  --export=postgresql:CONNINFO  the same into the PostgreSQL database named by\n"
	      "                    the libpq CONNINFO (dbname=NAME ..., or NAME), as perf's\n"
	      "                    export-to-postgresql.py writes it; created if missing\n"
	      "  --export-replace  let --export replace an existing database\n"
	      "  --format=folded   instead, folded call stacks of the instruction samples\n"
	      "                    (flame graphs; --itrace=i100us by default, with g)\n"
	      "  --timeline=FILE   instead, the calls as Chrome trace-event JSON in FILE\n"
	      "                    (Perfetto, chrome://tracing), trace errors marked\n"
	      "  --latency=SYMBOL  instead, the histogram of SYMBOL's call durations\n"
	      "  --symfs DIR       look for the recorded binaries under DIR\n"
	      "  --buildid-dir DIR the build-id cache (default ~/.debug)\n"
	      "  -k, --vmlinux FILE the kernel's ELF image, for traced kernel code and its\n"
	      "                    symbols (under --symfs, as perf script takes it)\n"
	      "  --kallsyms FILE   the kernel's symbols from a kallsyms file (no code)\n"
	      "\n"
	      "CoreSight snapshots (OpenCSD's snapshot directories, as trc_pkt_lister reads):\n"
	      "  --snapshot DIR    decode the first trace buffer of the snapshot in DIR and\n"
	      "                    print its branches (--itrace=b, -F, --format=json), its\n"
	      "                    errors too with --itrace=be\n"
	      "  --format=ranges   print the executed instruction ranges and trace events\n"
	      "\n"
	      "Raw CoreSight ETMv4 decoding (--raw and --elf as below; output as --snapshot):\n"
	      "  --etm FILE[:FROM[-TO]]    the trace: a sink dump (or a byte range of it)\n"
	      "  --etm:format F            coresight (formatter frames, the default), dstream\n"
	      "                            or raw (one source's unformatted stream)\n"
	      "  --etm:trace-id N          the source's trace ID (default 0x10)\n"
	      "  --etm:configr N, --etm:idr0 N, --etm:idr1 N, --etm:idr2 N, --etm:idr8 N\n"
	      "                            its TRCCONFIGR and TRCIDRn (default: a Cortex-A72\n"
	      "                            ETMv4.1 with nothing optional requested)\n"
	      "  --etm:core NAME           the core, by OpenCSD's names (default Cortex-A72)\n"
	      "\n"
	      "Options:\n"
	      "  -i, --input FILE  the perf.data file (like perf's -i)\n"
	      "  -q, --quiet       no progress bar on stderr; with --format=ptxed only errors\n"
	      "                    and statistics (as ptxed --quiet)\n"
	      "  -h, --help        this help\n"
	      "  -V, --version     print the version\n"
	      "\n"
	      "Raw Intel PT decoding (the option names and forms of libipt's ptxed):\n"
	      "  --pt FILE[:FROM[-TO]]     the trace: a bare Intel PT stream (or a byte range)\n"
	      "  --raw FILE[:FROM[-TO]]:BASE\n"
	      "                            a flat binary (or a byte range of it) loaded at BASE\n"
	      "  --elf FILE[:BASE]         the PT_LOAD segments of an ELF file, moved so that\n"
	      "                            the lowest starts at BASE when BASE is given\n"
	      "  --cpu none|F/M[/S]        the CPU family/model/stepping, for its errata\n"
	      "  --format=ptxed            print as `ptxed --no-inst` does (the default)\n"
	      "  --event:ip                print the address of events where known\n"
	      "  --event:time              print the time stamp of events where known\n"
	      "  --event:tick              report timing updates as tick events\n"
	      "  --stat, --stat:insn       print the number of instructions at the end\n"
	      "  --mtc-freq N              IA32_RTIT_CTL.MTCFreq of the recording\n"
	      "  --nom-freq N              the nominal core:bus ratio (MSR_PLATFORM_INFO[15:8])\n"
	      "  --cpuid-0x15.eax N, --cpuid-0x15.ebx N\n"
	      "                            CPUID leaf 0x15: the TSC to crystal clock ratio\n"
	      "  --filter:addrN_cfg C, --filter:addrN_a A, --filter:addrN_b B   (N 0-3)\n"
	      "                            the address filter configuration of the recording\n"
	      "  --insn-decoder            accepted for ptxed compatibility (always used)\n"
	      "Numbers are C syntax (0x.. hex).  Decode errors are printed in place and\n"
	      "decoding resumes at the next synchronization point.\n"
	      "\n"
	      "Exit status: 0 on success, 1 for bad usage, 2 for unreadable or invalid input.\n",
	      out);
}

enum {
	OPT_PT = 256, OPT_RAW, OPT_ELF, OPT_CPU, OPT_FORMAT, OPT_EVENT_IP, OPT_EVENT_TIME,
	OPT_EVENT_TICK, OPT_STAT, OPT_STAT_INSN, OPT_INSN_DECODER, OPT_BACKEND, OPT_ETM, OPT_ETM_SET,
	OPT_ITRACE = 512, OPT_NS, OPT_SYMFS, OPT_BUILDID_DIR, OPT_INSN_TRACE, OPT_CALL_TRACE,
	OPT_CALL_RET_TRACE, OPT_PID, OPT_TID, OPT_TIME, OPT_GAPS, OPT_SNAPSHOT, OPT_EXPORT,
	OPT_EXPORT_REPLACE, OPT_TIMELINE, OPT_LATENCY, OPT_FULL_SOURCE_PATH, OPT_INLINE,
	OPT_NO_INLINE, OPT_MAX_BLOCKS, OPT_KALLSYMS,
};

/* Options handed to the backend by name: the long option name is the key. */
#define BACKEND(name) { name, required_argument, NULL, OPT_BACKEND }
/* The trace source's settings of raw ETM mode (etmraw.h), kept the same way */
#define ETM_SET(name) { name, required_argument, NULL, OPT_ETM_SET }

void ptd_options_fini(struct ptd_options *o)
{
	if (!o)
		return;
	free(o->images);
	free(o->dopts);
	free(o->itrace);
	free(o->fields);
	o->images = NULL;
	o->dopts = NULL;
	o->itrace = o->fields = NULL;
	o->nimages = o->ndopts = 0;
}

/* Whether an option only a perf.data file's decoding takes was given (the
 * CoreSight modes --snapshot and --etm refuse them) */
static int perfdata_only(const struct ptd_options *o)
{
	return o->shortcut >= 0 || o->cpu_list || o->pid_list || o->tid_list || o->time_str || o->ns ||
	       o->symfs || o->buildid_dir || o->vmlinux || o->kallsyms || o->timeline || o->latency || o->gaps || o->export_kind ||
	       o->format == PTD_FORMAT_FOLDED;
}

static int check_raw(struct ptd_options *o, struct ptd_err *err)
{
	if (o->action == PTD_ACTION_DUMP || o->action == PTD_ACTION_STATS)
		return ptd_err_set(err, PTD_E_INVAL, "--pt cannot be combined with --dump or --stats");
	if (o->input)
		return ptd_err_set(err, PTD_E_INVAL,
				   "--pt decodes a raw trace; it cannot be combined with a perf.data file ('%s')",
				   o->input);
	if (o->format == PTD_FORMAT_JSON || o->format == PTD_FORMAT_FOLDED || o->timeline || o->latency)
		return ptd_err_set(err, PTD_E_INVAL, "--format=json, --format=folded, --timeline and "
				   "--latency are for perf.data files; raw mode prints ptxed's format");
	o->action = PTD_ACTION_RAW;
	return 0;
}

int ptd_options_parse(struct ptd_options *o, int argc, char **argv, struct ptd_err *err)
{
	static const struct option longopts[] = {
		{ "dump", no_argument, NULL, 'D' },
		{ "stats", no_argument, NULL, 's' },
		{ "input", required_argument, NULL, 'i' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "pt", required_argument, NULL, OPT_PT },
		{ "raw", required_argument, NULL, OPT_RAW },
		{ "elf", required_argument, NULL, OPT_ELF },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "event:ip", no_argument, NULL, OPT_EVENT_IP },
		{ "event:time", no_argument, NULL, OPT_EVENT_TIME },
		{ "event:tick", no_argument, NULL, OPT_EVENT_TICK },
		{ "stat", no_argument, NULL, OPT_STAT },
		{ "stat:insn", no_argument, NULL, OPT_STAT_INSN },
		{ "insn-decoder", no_argument, NULL, OPT_INSN_DECODER },
		{ "itrace", optional_argument, NULL, OPT_ITRACE },
		{ "fields", required_argument, NULL, 'F' },
		{ "ns", no_argument, NULL, OPT_NS },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "vmlinux", required_argument, NULL, 'k' },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "buildid-dir", required_argument, NULL, OPT_BUILDID_DIR },
		{ "insn-trace", optional_argument, NULL, OPT_INSN_TRACE },
		{ "call-trace", optional_argument, NULL, OPT_CALL_TRACE },
		{ "call-ret-trace", optional_argument, NULL, OPT_CALL_RET_TRACE },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "tid", required_argument, NULL, OPT_TID },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "gaps", no_argument, NULL, OPT_GAPS },
		{ "snapshot", required_argument, NULL, OPT_SNAPSHOT },
		{ "export", required_argument, NULL, OPT_EXPORT },
		{ "export-replace", no_argument, NULL, OPT_EXPORT_REPLACE },
		{ "timeline", required_argument, NULL, OPT_TIMELINE },
		{ "latency", required_argument, NULL, OPT_LATENCY },
		{ "full-source-path", no_argument, NULL, OPT_FULL_SOURCE_PATH },
		{ "inline", no_argument, NULL, OPT_INLINE },
		{ "max-blocks", required_argument, NULL, OPT_MAX_BLOCKS },
		{ "jobs", required_argument, NULL, 'j' },
		{ "no-inline", no_argument, NULL, OPT_NO_INLINE },
		BACKEND("mtc-freq"), BACKEND("nom-freq"),
		BACKEND("cpuid-0x15.eax"), BACKEND("cpuid-0x15.ebx"),
		BACKEND("filter:addr0_cfg"), BACKEND("filter:addr0_a"), BACKEND("filter:addr0_b"),
		BACKEND("filter:addr1_cfg"), BACKEND("filter:addr1_a"), BACKEND("filter:addr1_b"),
		BACKEND("filter:addr2_cfg"), BACKEND("filter:addr2_a"), BACKEND("filter:addr2_b"),
		BACKEND("filter:addr3_cfg"), BACKEND("filter:addr3_a"), BACKEND("filter:addr3_b"),
		{ "etm", required_argument, NULL, OPT_ETM },
		ETM_SET("etm:format"), ETM_SET("etm:trace-id"), ETM_SET("etm:configr"),
		ETM_SET("etm:idr0"), ETM_SET("etm:idr1"), ETM_SET("etm:idr2"), ETM_SET("etm:idr8"),
		ETM_SET("etm:core"),
		{ NULL, 0, NULL, 0 },
	};
	const char *raw_only = NULL, *pt_only = NULL, *etm_only = NULL;
	int c, idx;

	memset(o, 0, sizeof(*o));
	/* at most one of each per argument: argc bounds both arrays */
	o->images = calloc((size_t)argc + 1, sizeof(*o->images));
	o->dopts = calloc((size_t)argc + 1, sizeof(*o->dopts));
	o->itrace = calloc((size_t)argc + 1, sizeof(*o->itrace));
	o->fields = calloc((size_t)argc + 1, sizeof(*o->fields));
	o->shortcut = -1;
	if (!o->images || !o->dopts || !o->itrace || !o->fields)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	opterr = 0;
	optind = 1;
	while ((idx = -1, c = getopt_long(argc, argv, ":Dsi:qhVF:C:j:k:", longopts, &idx)) != -1) {
		if (c >= OPT_PT && c < OPT_ITRACE && idx >= 0 && c != OPT_CPU &&
		    !(c == OPT_FORMAT && optarg && (!strcmp(optarg, "json") || !strcmp(optarg, "ranges") ||
					       !strcmp(optarg, "folded"))))
			raw_only = longopts[idx].name;
		if (c == OPT_ETM_SET)
			etm_only = longopts[idx].name;
		else if (c >= OPT_PT && c < OPT_ITRACE && idx >= 0 && c != OPT_CPU && c != OPT_RAW &&
			 c != OPT_ELF && c != OPT_ETM && raw_only == longopts[idx].name)
			pt_only = longopts[idx].name;
		switch (c) {
		case 'D':
		case 's': {
			enum ptd_action a = c == 'D' ? PTD_ACTION_DUMP : PTD_ACTION_STATS;

			if (o->action == PTD_ACTION_RAW || o->action == PTD_ACTION_ETM)
				return ptd_err_set(err, PTD_E_INVAL, "--%s cannot be combined with --dump or --stats",
						   o->etm ? "etm" : "pt");
			if (o->action && o->action != a)
				return ptd_err_set(err, PTD_E_INVAL, "--dump and --stats cannot be combined");
			o->action = a;
			break;
		}
		case 'i':
			o->input = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'h':
			o->action = PTD_ACTION_HELP;
			return 0;
		case 'V':
			o->action = PTD_ACTION_VERSION;
			return 0;
		case OPT_PT:
			if (o->pt)
				return ptd_err_set(err, PTD_E_INVAL, "two traces given ('%s' and '%s')", o->pt, optarg);
			o->pt = optarg;
			if (o->action == PTD_ACTION_DUMP || o->action == PTD_ACTION_STATS)
				return ptd_err_set(err, PTD_E_INVAL, "--pt cannot be combined with --dump or --stats");
			o->action = PTD_ACTION_RAW;
			break;
		case OPT_ETM:
			if (o->etm)
				return ptd_err_set(err, PTD_E_INVAL, "two traces given ('%s' and '%s')", o->etm, optarg);
			o->etm = optarg;
			if (o->action == PTD_ACTION_DUMP || o->action == PTD_ACTION_STATS)
				return ptd_err_set(err, PTD_E_INVAL, "--etm cannot be combined with --dump or --stats");
			break;
		case OPT_ETM_SET:
			o->dopts[o->ndopts].key = longopts[idx].name;
			o->dopts[o->ndopts++].value = optarg;
			break;
		case OPT_RAW:
		case OPT_ELF:
			o->images[o->nimages].elf = c == OPT_ELF;
			o->images[o->nimages++].arg = optarg;
			break;
		case OPT_CPU:
		case 'C':
			o->cpu_list = optarg;   /* raw mode: F/M[/S], see below */
			break;
		case OPT_PID:
			o->pid_list = optarg;
			break;
		case OPT_TIME:
			o->time_str = optarg;
			break;
		case OPT_GAPS:
			o->gaps = 1;
			break;
		case OPT_TID:
			o->tid_list = optarg;
			break;
		case OPT_SNAPSHOT:
			if (o->snapshot)
				return ptd_err_set(err, PTD_E_INVAL, "two snapshots given ('%s' and '%s')",
						   o->snapshot, optarg);
			o->snapshot = optarg;
			break;
		case OPT_EXPORT:
			if (!strncmp(optarg, "sqlite:", 7) && optarg[7]) {
				o->export_kind = PTD_DB_SQLITE;
				o->export_target = optarg + 7;
			} else if (!strncmp(optarg, "postgresql:", 11) && optarg[11]) {
				o->export_kind = PTD_DB_POSTGRESQL;
				o->export_target = optarg + 11;
			} else {
				return ptd_err_set(err, PTD_E_INVAL, "unknown --export '%s' (known: "
						   "sqlite:FILE, postgresql:CONNINFO)", optarg);
			}
			break;
		case OPT_EXPORT_REPLACE:
			o->export_replace = 1;
			break;
		case OPT_TIMELINE:
			o->timeline = optarg;
			break;
		case OPT_LATENCY:
			if (!*optarg)
				return ptd_err_set(err, PTD_E_INVAL, "--latency needs a symbol name");
			o->latency = optarg;
			break;
		case OPT_FULL_SOURCE_PATH:
			o->full_source_path = 1;
			break;
		case 'j': {
			char *end;
			long v;

			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || v < 1 || v > 1024)
				return ptd_err_set(err, PTD_E_INVAL, "-j needs a number of threads from "
						   "1 to 1024, not '%s'", optarg);
			o->jobs = (int)v;
			break;
		}
		case OPT_MAX_BLOCKS: {
			char *end;
			long v;

			errno = 0;
			v = strtol(optarg, &end, 0);
			if (errno || end == optarg || *end || v < 0 || v > 1 << 20)
				return ptd_err_set(err, PTD_E_INVAL, "--max-blocks needs a number of "
						   "blocks, not '%s'", optarg);
			o->max_blocks = (int)v;
			break;
		}
		case OPT_INLINE:
		case OPT_NO_INLINE:
			o->no_inline = c == OPT_NO_INLINE;
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "json")) {
				o->format = PTD_FORMAT_JSON;
				break;
			}
			if (!strcmp(optarg, "ranges")) {
				o->format = PTD_FORMAT_RANGES;
				break;
			}
			if (!strcmp(optarg, "folded")) {
				o->format = PTD_FORMAT_FOLDED;
				break;
			}
			if (strcmp(optarg, "ptxed"))
				return ptd_err_set(err, PTD_E_INVAL,
						   "unknown --format '%s' (known: ptxed, json, ranges, folded)", optarg);
			o->format = PTD_FORMAT_PTXED;
			break;
		case OPT_EVENT_IP:
			o->ptxed.event_ip = 1;
			break;
		case OPT_EVENT_TIME:
			o->ptxed.event_time = 1;
			break;
		case OPT_EVENT_TICK:
			o->dopts[o->ndopts].key = "tick-events";
			o->dopts[o->ndopts++].value = "1";
			break;
		case OPT_STAT:
		case OPT_STAT_INSN:
			o->ptxed.stat_insn = 1;
			break;
		case OPT_INSN_DECODER:
			break;   /* ptdecode always uses the instruction flow decoder */
		case OPT_ITRACE:
			o->itrace[o->nitrace++] = optarg;
			break;
		case 'F':
			o->fields[o->nfields++] = optarg;
			break;
		case OPT_NS:
			o->ns = 1;
			break;
		case 'k':
			/* perf script checks the path as given, before --symfs */
			if (!ptd_path_regular_within(NULL, optarg))
				return ptd_err_set(err, PTD_E_INVAL, "Invalid file: %s", optarg);
			o->vmlinux = optarg;
			break;
		case OPT_KALLSYMS:
			/* perf script: readable, as given (not under --symfs) */
			if (access(optarg, R_OK))
				return ptd_err_set(err, PTD_E_INVAL, "Invalid file: %s", optarg);
			o->kallsyms = optarg;
			break;
		case OPT_SYMFS:
			o->symfs = optarg;
			break;
		case OPT_BUILDID_DIR:
			o->buildid_dir = optarg;
			break;
		case OPT_INSN_TRACE:
		case OPT_CALL_TRACE:
		case OPT_CALL_RET_TRACE:
			o->shortcut = c == OPT_INSN_TRACE ? 0 : c == OPT_CALL_TRACE ? 1 : 2;
			o->shortcut_arg = optarg;
			break;
		case OPT_BACKEND:
			o->dopts[o->ndopts].key = longopts[idx].name;
			o->dopts[o->ndopts++].value = optarg;
			break;
		case ':':
			return ptd_err_set(err, PTD_E_INVAL, "option '%s' needs an argument", argv[optind - 1]);
		default:
			return ptd_err_set(err, PTD_E_INVAL, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc) {
		if (o->input)
			return ptd_err_set(err, PTD_E_INVAL, "two input files given ('%s' and '%s')",
					   o->input, argv[optind]);
		o->input = argv[optind++];
	}
	if (optind < argc)
		return ptd_err_set(err, PTD_E_INVAL, "two input files given ('%s' and '%s')",
				   o->input, argv[optind]);
	if (o->etm) {
		if (o->action == PTD_ACTION_RAW || o->snapshot)
			return ptd_err_set(err, PTD_E_INVAL, "--etm cannot be combined with --pt or --snapshot");
		if (o->input)
			return ptd_err_set(err, PTD_E_INVAL, "--etm decodes a raw trace; it cannot be combined "
					   "with a perf.data file ('%s')", o->input);
		if (pt_only)
			return ptd_err_set(err, PTD_E_INVAL, "--%s is for --pt, not --etm", pt_only);
		if (perfdata_only(o))
			return ptd_err_set(err, PTD_E_INVAL, "--etm takes only --raw, --elf, --etm:SETTING, "
					   "--itrace, -F and --format");
		o->action = PTD_ACTION_ETM;
		return 0;
	}
	if (etm_only)
		return ptd_err_set(err, PTD_E_INVAL, "--%s needs --etm", etm_only);
	if (o->snapshot) {
		if (o->action == PTD_ACTION_RAW || o->action == PTD_ACTION_DUMP || o->action == PTD_ACTION_STATS)
			return ptd_err_set(err, PTD_E_INVAL, "--snapshot cannot be combined with --pt, --dump or --stats");
		if (o->input)
			return ptd_err_set(err, PTD_E_INVAL, "--snapshot decodes a snapshot directory; "
					   "it cannot be combined with a perf.data file ('%s')", o->input);
		if (raw_only)
			return ptd_err_set(err, PTD_E_INVAL, "--%s is not a snapshot option", raw_only);
		if (perfdata_only(o))
			return ptd_err_set(err, PTD_E_INVAL, "--snapshot takes only --itrace, -F and --format");
		o->action = PTD_ACTION_SNAPSHOT;
		return 0;
	}
	if (o->format == PTD_FORMAT_RANGES &&
	    (o->action != PTD_ACTION_NONE || o->gaps || o->export_kind || o->timeline || o->latency ||
	     o->shortcut >= 0))
		return ptd_err_set(err, PTD_E_INVAL, "--format=ranges is for --snapshot or a perf.data "
				   "file's CoreSight trace, without other actions");
	if (o->action == PTD_ACTION_RAW) {
		if (o->cpu_list && ptd_raw_parse_cpu(&o->cpu, o->cpu_list, err))
			return -PTD_E_INVAL;
		o->cpu_list = NULL;
		return check_raw(o, err);
	}
	if (raw_only)
		return ptd_err_set(err, PTD_E_INVAL, "--%s needs --pt (decoding perf.data traces is not built yet)",
				   raw_only);
	if (!o->input)
		o->input = "perf.data";
	if (o->action == PTD_ACTION_NONE)
		o->action = PTD_ACTION_SCRIPT;
	if ((o->format == PTD_FORMAT_FOLDED || o->timeline || o->latency) &&
	    (o->action != PTD_ACTION_SCRIPT || o->format == PTD_FORMAT_JSON))
		return ptd_err_set(err, PTD_E_INVAL, "--format=folded, --timeline and --latency cannot be "
				   "combined with --dump, --stats or --format=json");
	if (o->export_kind && (o->action != PTD_ACTION_SCRIPT || o->format == PTD_FORMAT_JSON))
		return ptd_err_set(err, PTD_E_INVAL, "--export cannot be combined with --dump, --stats "
				   "or --format=json");
	return 0;
}
