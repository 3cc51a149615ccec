/* libFuzzer harness: the main job on a perf.data file, through the whole
 * pipeline (reader, session, AUX queues, the Intel PT decoder, sample
 * synthesis, perf script's text or JSON) with the output thrown away.  The
 * last byte picks the --itrace set and the output (text, JSON, the gap
 * report); the binaries of the
 * committed recordings are found under --symfs testdata/record, so their
 * traces decode to real code. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "script_run.h"

#ifndef FUZZ_TESTDATA
#define FUZZ_TESTDATA "testdata"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *sets[] = { "cre", "i100use", "i1000ige", "be", "i0nsle", "qe", "Zbe", "xwpe" };
	static const char *fields[] = { "comm,tid,time,cpu,ip,sym,symoff,dso,addr,flags",
					"+insn,+brstack,+callindent" };
	static FILE *null;
	struct ptd_script_run_opts o = { 0 };
	const char *itrace[1], *f[1];
	unsigned sel;
	char path[64];
	int fd;

	if (!null)
		null = fopen("/dev/null", "w");
	if (size < 1)
		return 0;
	sel = data[size - 1];
	fd = memfd_create("perf.data", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, size - 1) != (ssize_t)(size - 1)) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	itrace[0] = sets[sel % 8];
	f[0] = fields[(sel >> 3) & 1];
	o.input = path;
	o.itrace = itrace;
	o.nitrace = 1;
	o.itrace_given = 1;
	o.fields = f;
	o.nfields = (sel >> 4) & 1;
	o.shortcut = -1;
	o.json = (sel >> 5) & 1;
	o.gaps = (sel >> 6) & 1;   /* the gap report instead of samples */
	o.symfs = FUZZ_TESTDATA "/record";
	o.buildid_dir = "/nonexistent";
	o.quiet = 1;
	ptd_script_run(&o, null);
	close(fd);
	return 0;
}
