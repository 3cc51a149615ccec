/* --timeline=FILE: see timeline.h and doc/formats.md. */
#include "formats/out/timeline.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/u64map.h"
#include "formats/out/json.h"
#include "callstack.h"

struct ptd_timeline {
	FILE *f;
	char *path;
	int first;                    /* no event written yet */
	struct ptd_u64map comms;      /* tid, or 1 << 32 | pid -> the comm last named */
};

int ptd_timeline_open(struct ptd_timeline **out, const char *path, struct ptd_err *err)
{
	struct ptd_timeline *t = calloc(1, sizeof(*t));

	*out = NULL;
	if (!t || !(t->path = strdup(path))) {
		free(t);
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	}
	if (!(t->f = fopen(path, "w"))) {
		ptd_err_set(err, PTD_E_IO, "cannot create '%s': %s", path, strerror(errno));
		free(t->path);
		free(t);
		return -PTD_E_IO;
	}
	t->first = 1;
	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"ptdecode\","
	      "\"clock\":\"perf time\"},\n\"traceEvents\":[", t->f);
	*out = t;
	return 0;
}

static void sep(struct ptd_timeline *t)
{
	fputs(t->first ? "\n" : ",\n", t->f);
	t->first = 0;
}

/* perf time (ns) as microseconds, the nanoseconds as three decimals */
static void usec(FILE *f, const char *key, uint64_t ns)
{
	fprintf(f, ",\"%s\":%" PRIu64 ".%03u", key, ns / 1000, (unsigned)(ns % 1000));
}

static int meta(struct ptd_timeline *t, uint64_t key, const char *what, int32_t pid, int32_t tid,
		const char *comm)
{
	if (!comm || ptd_u64map_get(&t->comms, key) == comm)
		return 0;
	if (ptd_u64map_put(&t->comms, key, (void *)comm))
		return -1;
	sep(t);
	fprintf(t->f, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":",
		what, (int)pid, (int)tid);
	ptd_json_str(t->f, comm);
	fputs("}}", t->f);
	return 0;
}

int ptd_timeline_thread(struct ptd_timeline *t, int32_t pid, int32_t tid, const char *comm,
			const char *process_comm)
{
	if (meta(t, 1ULL << 32 | (uint32_t)pid, "process_name", pid, pid, process_comm))
		return -1;
	return meta(t, (uint32_t)tid, "thread_name", pid, tid, comm);
}

void ptd_timeline_call(struct ptd_timeline *t, int32_t pid, int32_t tid, const char *name,
		       uint64_t ip, const char *dso, uint64_t call_time, uint64_t return_time,
		       uint32_t flags, uint64_t insns)
{
	char addr[32];

	sep(t);
	fputs("{\"name\":", t->f);
	if (!name)
		snprintf(addr, sizeof(addr), "0x%" PRIx64, ip);
	ptd_json_str(t->f, name ? name : addr);
	fputs(",\"cat\":\"call\",\"ph\":\"X\"", t->f);
	usec(t->f, "ts", call_time);
	usec(t->f, "dur", return_time >= call_time ? return_time - call_time : 0);
	fprintf(t->f, ",\"pid\":%d,\"tid\":%d,\"args\":{\"dso\":", (int)pid, (int)tid);
	if (dso)
		ptd_json_str(t->f, dso);
	else
		fputs("null", t->f);
	fprintf(t->f, ",\"flags\":\"%s%s%s%s%s\",\"insns\":%" PRIu64 "}}",
		flags & PTD_CR_NO_CALL ? "no_call" : "",
		(flags & PTD_CR_NO_CALL) && (flags & (PTD_CR_NO_RETURN | PTD_CR_NON_CALL)) ? " " : "",
		flags & PTD_CR_NO_RETURN ? "no_return" : "",
		(flags & PTD_CR_NO_RETURN) && (flags & PTD_CR_NON_CALL) ? " " : "",
		flags & PTD_CR_NON_CALL ? "jump" : "", insns);
}

void ptd_timeline_error(struct ptd_timeline *t, int32_t pid, int32_t tid, int32_t cpu,
			uint64_t time, int code, const char *msg)
{
	sep(t);
	fputs("{\"name\":\"trace error\",\"cat\":\"gap\",\"ph\":\"i\",\"s\":\"t\"", t->f);
	usec(t->f, "ts", time);
	fprintf(t->f, ",\"pid\":%d,\"tid\":%d,\"args\":{\"cpu\":%d,\"code\":%d,\"message\":",
		(int)pid, (int)tid, (int)cpu, code);
	ptd_json_str(t->f, msg ? msg : "");
	fputs("}}", t->f);
}

int ptd_timeline_close(struct ptd_timeline *t, struct ptd_err *err)
{
	int bad;

	fputs("\n]}\n", t->f);
	bad = ferror(t->f);
	bad |= fclose(t->f) != 0;
	t->f = NULL;
	if (bad) {
		remove(t->path);
		return ptd_err_set(err, PTD_E_IO, "writing '%s' failed", t->path);
	}
	free(t->path);
	t->path = NULL;
	return 0;
}

void ptd_timeline_free(struct ptd_timeline *t)
{
	if (!t)
		return;
	if (t->f) {
		fclose(t->f);
		remove(t->path);
	}
	free(t->path);
	ptd_u64map_fini(&t->comms);
	free(t);
}
