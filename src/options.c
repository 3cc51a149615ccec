#include "options.h"

#include <getopt.h>
#include <string.h>

void ptd_options_usage(FILE *out)
{
	fputs("Usage: ptdecode [OPTIONS] [FILE]\n"
	      "Read a perf.data file recorded with an AUX area trace (Intel PT, CoreSight).\n"
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
	      "Options:\n"
	      "  -i, --input FILE  the perf.data file (like perf's -i)\n"
	      "  -q, --quiet       no progress bar on stderr\n"
	      "  -h, --help        this help\n"
	      "  -V, --version     print the version\n"
	      "\n"
	      "Exit status: 0 on success, 1 for bad usage, 2 for unreadable or invalid input.\n",
	      out);
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
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->input = NULL;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":Dsi:qhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'D':
		case 's': {
			enum ptd_action a = c == 'D' ? PTD_ACTION_DUMP : PTD_ACTION_STATS;

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
	if (!o->input)
		o->input = "perf.data";
	if (o->action == PTD_ACTION_NONE)
		return ptd_err_set(err, PTD_E_INVAL,
				   "nothing to do: give --dump or --stats (trace decoding is not built yet)");
	return 0;
}
