/* ptdecode-full in place of the static program: see fullprog.h. */
#include "fullprog.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/dlsyms.h"
#include "formats/out/db.h"
#include "formats/perf/abi.h"

#define FULL_NAME "ptdecode-full"

static char **args;

void ptd_fullprog_init(char **argv)
{
	args = argv;
}

const char *ptd_fullprog_wanted(const struct ptd_options *o)
{
	struct stat st;

	if (!ptd_dl_linked())
		return NULL;
	switch (o->action) {
	case PTD_ACTION_RAW:
		return "a raw Intel PT trace (libipt)";
	case PTD_ACTION_SNAPSHOT:
	case PTD_ACTION_ETM:
		return "CoreSight trace (OpenCSD)";
	case PTD_ACTION_DUMP:
	case PTD_ACTION_STATS:
	case PTD_ACTION_SCRIPT:
		break;
	default:
		return NULL;
	}
	/* (the database is made before the records are read: ptdecode-full
	 * could not make it again for a CoreSight trace) */
	if (o->export_kind != PTD_DB_NONE)
		return "the database export (SQLite, libpq)";
	/* a pipe's records could not be read again by ptdecode-full: it
	 * takes them from the start (a file that is not there is for the
	 * static program to report) */
	if (o->input && (!strcmp(o->input, "-") || (!stat(o->input, &st) && !S_ISREG(st.st_mode))))
		return "input from a pipe";
	return NULL;
}

const char *ptd_fullprog_wanted_trace(uint32_t auxtrace_type)
{
	if (ptd_dl_linked() && auxtrace_type == PTD_AUXTRACE_CS_ETM)
		return "CoreSight trace (OpenCSD)";
	return NULL;
}

void ptd_fullprog_run(const char *why)
{
	char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	char *slash;

	fflush(NULL);
	if (n <= 0) {
		fprintf(stderr, "ptdecode: %s needs %s, which this static program runs from its own "
			"directory: /proc/self/exe: %s\n", why, FULL_NAME, strerror(errno));
		return;
	}
	path[n] = '\0';
	slash = strrchr(path, '/');
	if (!slash || (size_t)(slash + 1 - path) + sizeof(FULL_NAME) > sizeof(path)) {
		fprintf(stderr, "ptdecode: %s needs %s: no directory in %s\n", why, FULL_NAME, path);
		return;
	}
	memcpy(slash + 1, FULL_NAME, sizeof(FULL_NAME));
	execv(path, args);
	fprintf(stderr, "ptdecode: %s needs %s, which this static program runs in its place: "
		"%s: %s\n", why, FULL_NAME, path, strerror(errno));
}
