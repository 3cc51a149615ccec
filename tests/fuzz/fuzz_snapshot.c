/* libFuzzer harness: an OpenCSD snapshot directory decoded as
 * `ptdecode --snapshot DIR` does (the .ini reader, the cs-etm backend over
 * OpenCSD's decode tree, branch synthesis, the text, JSON and ranges
 * writers).  The directory is a copy of testdata/opencsd/juno_r1_1 (six
 * ETMv4 sources, a kernel dump) in which the input replaces one file: the
 * first byte picks it (the trace buffer, snapshot.ini, trace.ini or a
 * source's device .ini) and the output; the rest is its content. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "snapdecode.h"

#ifndef FUZZ_TESTDATA
#define FUZZ_TESTDATA "testdata"
#endif

static const char *const files[] = { "cstrace.bin", "snapshot.ini", "trace.ini", "device_6.ini" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];
static const char *const all[] = {
	"cpu_0.ini", "cpu_1.ini", "cpu_2.ini", "cpu_3.ini", "cpu_4.ini", "cpu_5.ini",
	"cstrace.bin", "cstraceitm.bin", "device_10.ini", "device_11.ini", "device_12.ini",
	"device_6.ini", "device_7.ini", "device_8.ini", "device_9.ini", "kernel_dump.bin",
	"snapshot.ini", "trace.ini",
};

/* At a normal exit (the run's time is up): the directory goes.  After a
 * crash (libFuzzer ends with _Exit) it stays, with the input that made
 * it in place. */
static void cleanup(void)
{
	char to[128];
	size_t i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		snprintf(to, sizeof(to), "%s/%s", dir, all[i]);
		unlink(to);
	}
	rmdir(dir);
}

/* A private directory of links to the snapshot's files (made once). */
static const char *setup(void)
{
	char from[512], to[128];
	size_t i;

	if (dir[0])
		return dir;
	snprintf(dir, sizeof(dir), "/tmp/fuzz_snapshot.%d", (int)getpid());
	if (mkdir(dir, 0700) && access(dir, W_OK))
		abort();
	atexit(cleanup);
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		snprintf(from, sizeof(from), "%s/opencsd/juno_r1_1/%s", FUZZ_TESTDATA, all[i]);
		snprintf(to, sizeof(to), "%s/%s", dir, all[i]);
		unlink(to);
		if (symlink(from, to))
			abort();
	}
	return dir;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	static const char *it[] = { "be" };
	struct ptd_snap_opts o = { 0 };
	const char *dir = setup();
	char path[128];
	unsigned sel;
	FILE *f;

	if (!null)
		null = fopen("/dev/null", "w");
	if (size < 1)
		return 0;
	sel = data[0];
	snprintf(path, sizeof(path), "%s/%s", dir, files[sel % 4]);
	unlink(path);
	f = fopen(path, "wb");
	if (!f)
		abort();
	fwrite(data + 1, 1, size - 1, f);
	fclose(f);
	o.dir = dir;
	o.out.itrace = it;
	o.out.nitrace = (sel >> 2) & 1;
	o.out.json = (sel >> 3) & 1;
	o.out.ranges = !o.out.json && ((sel >> 4) & 1);
	ptd_snap_decode(&o, null);
	/* back to the original for the next input */
	unlink(path);
	{
		char from[512];

		snprintf(from, sizeof(from), "%s/opencsd/juno_r1_1/%s", FUZZ_TESTDATA, files[sel % 4]);
		if (symlink(from, path))
			abort();
	}
	return 0;
}
