/* libFuzzer harness: a perf.data file (file or pipe mode) read through the
 * whole session, with --dump and --stats printing into /dev/null. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "formats/out/dump.h"
#include "session.h"
#include "stats.h"

static void quiet(void *ctx, const char *msg)
{
	(void)ctx;
	(void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct ptd_session_opts so = { 0 };
	struct ptd_session *s = NULL;
	struct ptd_err err = { 0 };
	struct ptd_dump dump;
	char path[64];
	int fd;

	if (!null)
		null = fopen("/dev/null", "w");
	fd = memfd_create("perf.data", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ptd_dump_init(&dump, null);
	so.warn = quiet;
	so.on_record = ptd_dump_record;
	so.ctx = &dump;
	so.keep_payloads = size & 1;    /* both ways of keeping pipe payloads */
	if (!ptd_session_open(&s, path, &so, &err) && !ptd_session_run(s, &err)) {
		ptd_stats_print_counts(null, s);
		ptd_stats_print_details(null, s);
	}
	ptd_session_close(s);
	close(fd);
	return 0;
}
