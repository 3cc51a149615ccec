/* The qemu source's walker (tools/record/qemu_walk) on hand-written logs
 * over a small hand-assembled program: branch outcomes from the next
 * block, blocks qemu ended early, REP continuations, "Stopped execution"
 * lines, signals after a conditional or indirect branch (held back until
 * rt_sigreturn tells where the branch went, guessed when it never
 * returns), faults, the exit system call and reused vCPU indexes.
 * Expected outputs are derived by hand from the code below. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tests/tap.h"
#include "tools/record/classify.h"
#include "tools/record/qemu_blocks.h"
#include "tools/record/qemu_walk.h"

#define BASE 0x1000u
#define PID 100

/* The program, at BASE. */
#define C(at, s) { at, s, sizeof(s) - 1 }
static const struct { uint64_t at; const char *bytes; size_t len; } code[] = {
	C(0x1000, "\x48\xff\xc8"                   /* dec %rax */
		  "\x75\xfb"                       /* 1003: jne 0x1000 */
		  "\xc3"),                          /* 1005: ret */
	C(0x1100, "\x90"                           /* handler: nop */
		  "\xc3"),                          /* 1101: ret */
	C(0x1200, "\x48\xc7\xc0\x0f\x00\x00\x00"   /* restorer: mov $15,%rax */
		  "\x0f\x05"),                      /* 1207: syscall */
	C(0x1300, "\xba\x3c\x00\x00\x00"           /* mov $60,%edx */
		  "\x31\xff"                       /* 1305: xor %edi,%edi */
		  "\x89\xd0"                       /* 1307: mov %edx,%eax */
		  "\x0f\x05"                       /* 1309: syscall (exit) */
		  "\xeb\xf8"),                      /* 130b: jmp 0x1305 */
	C(0x1500, "\x90"                           /* nop */
		  "\xf3\xaa"                       /* 1501: rep stos */
		  "\xc3"),                          /* 1503: ret */
	C(0x1600, "\x90\x90\x90\x90\x90"           /* 5 nops */
		  "\xc3"),                          /* 1605: ret */
	C(0x1700, "\x90"                           /* nop */
		  "\x0f\x0b"),                      /* 1701: ud2 */
	C(0x1800, "\x0f\x05"                       /* syscall */
		  "\xc3"),                          /* 1802: ret */
};

static uint8_t image[0x1000];

static long read_code(void *ctx, uint64_t addr, uint8_t *buf, size_t len)
{
	(void)ctx;
	if (addr < BASE || addr >= BASE + sizeof(image))
		return 0;
	if (len > BASE + sizeof(image) - addr)
		len = BASE + sizeof(image) - addr;
	memcpy(buf, image + (addr - BASE), len);
	return (long)len;
}

/* The sink writes one line per call. */
static char out[8192];

static void put(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void put(const char *fmt, ...)
{
	size_t n = strlen(out);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out + n, sizeof(out) - n, fmt, ap);
	va_end(ap);
}

static int s_start(void *c, int32_t pid, int32_t tid, int32_t ppid, int32_t ptid, uint64_t ip)
{
	put("start %d %d %d %#" PRIx64 "\n", tid, ppid, ptid, ip);
	return 0;
}

static int s_event(void *c, int32_t tid, const struct ptd_xev *e)
{
	put("%d %s%s %#" PRIx64 " %#" PRIx64 " %" PRIu64 "\n", tid, ptd_xclass_name(e->cls),
	    e->cls == PTD_X_COND && !e->taken ? "-nt" : "", e->from, e->to, e->icount);
	return 0;
}

static int s_end(void *c, int32_t tid, uint64_t icount, uint64_t last_ip)
{
	put("end %d %" PRIu64 " %#" PRIx64 "\n", tid, icount, last_ip);
	return 0;
}

static int s_mmap(void *c, int32_t pid, int32_t tid, const struct ptd_xmap *m) { return 0; }
static int s_comm(void *c, int32_t pid, int32_t tid, const char *s) { return 0; }

/* Run a log script: "vcpu:addr" a block start, "S:addr:host" a Stopped
 * line (blocks get host = their address unless a host is given with
 * "vcpu:addr:host"), "SIG" a signal marker.  Compare the sink's lines. */
static void script(const char *name, const char *const steps[], const char *want, uint64_t guessed)
{
	static const struct ptd_xsink sink = { NULL, s_start, s_event, s_end, s_mmap, s_comm };
	struct ptd_classifier *cls = NULL;
	struct ptd_qblocks *qb = NULL;
	struct ptd_qwalk *w = NULL;
	struct ptd_qwalk_cfg cfg = { &sink, NULL, PID, 0, PTD_ARCH_X86_64 };
	struct ptd_qwalk_stats st;
	struct ptd_err err = {0};
	int rc = 0;

	out[0] = '\0';
	if (ptd_classifier_new(&cls, 8, &err) < 0 ||
	    ptd_qblocks_new(&qb, cls, read_code, NULL, &err) < 0) {
		ok(0, "%s: set up (%s)", name, err.msg);
		return;
	}
	cfg.blocks = qb;
	rc = ptd_qwalk_new(&w, &cfg, &err);
	for (size_t i = 0; rc >= 0 && steps[i]; i++) {
		unsigned long long a = 0, h = 0;
		unsigned v = 0;

		if (!strcmp(steps[i], "SIG"))
			ptd_qwalk_signal(w);
		else if (sscanf(steps[i], "S:%llx:%llx", &a, &h) == 2)
			rc = ptd_qwalk_stopped(w, a, h, &err);
		else if (sscanf(steps[i], "%u:%llx:%llx", &v, &a, &h) == 3 ||
			 sscanf(steps[i], "%u:%llx", &v, &a) == 2)
			rc = ptd_qwalk_block(w, v, a, h ? h : a, &err);
	}
	if (rc >= 0)
		rc = ptd_qwalk_finish(w, &err);
	ptd_qwalk_get_stats(w, &st);
	ok(rc >= 0 && !strcmp(out, want) && st.guessed == guessed, "%s", name);
	if (rc < 0)
		printf("#   error: %s\n", err.msg);
	if (strcmp(out, want))
		printf("#   got:\n%s#   want:\n%s", out, want);
	if (st.guessed != guessed)
		printf("#   guessed %" PRIu64 ", want %" PRIu64 "\n", st.guessed, guessed);
	ptd_qwalk_free(w);
	ptd_qblocks_free(qb);
	ptd_classifier_free(cls);
}

static uint64_t n_events;

static int c_event(void *c, int32_t tid, const struct ptd_xev *e)
{
	n_events++;
	return 0;
}

static int c_other(void *c, int32_t tid, uint64_t icount, uint64_t last_ip)
{
	return 0;
}

/* A handler that is entered after a conditional branch and returns
 * straight to it (no rt_sigreturn), n times: every such branch stays
 * unresolved until MAX_HELD (2^20) sink calls are held back, then the
 * oldest is guessed, one at a time; the queue must stay bounded. */
static void held_bounded(unsigned n)
{
	static const struct ptd_xsink sink = { NULL, s_start, c_event, c_other, s_mmap, s_comm };
	struct ptd_classifier *cls = NULL;
	struct ptd_qblocks *qb = NULL;
	struct ptd_qwalk *w = NULL;
	struct ptd_qwalk_cfg cfg = { &sink, NULL, PID, 0, PTD_ARCH_X86_64 };
	struct ptd_qwalk_stats st;
	struct ptd_err err = {0};
	int rc;

	out[0] = '\0';
	n_events = 0;
	if (ptd_classifier_new(&cls, 8, &err) < 0 || ptd_qblocks_new(&qb, cls, read_code, NULL, &err) < 0) {
		ok(0, "held back: set up (%s)", err.msg);
		return;
	}
	cfg.blocks = qb;
	rc = ptd_qwalk_new(&w, &cfg, &err);
	if (rc >= 0)
		rc = ptd_qwalk_block(w, 0, 0x1000, 0x1000, &err);
	for (unsigned i = 0; rc >= 0 && i < n; i++) {
		ptd_qwalk_signal(w);
		rc = ptd_qwalk_block(w, 0, 0x1100, 0x1100, &err);
		if (rc >= 0)
			rc = ptd_qwalk_block(w, 0, 0x1000, 0x1000, &err);
	}
	if (rc >= 0)
		rc = ptd_qwalk_finish(w, &err);
	ptd_qwalk_get_stats(w, &st);
	ok(rc >= 0 && st.guessed == n && n_events == 3ull * n,
	   "%u interrupted branches never resolved: all guessed, the queue stays bounded "
	   "(%" PRIu64 " guessed, %" PRIu64 " events)", n, st.guessed, n_events);
	if (rc < 0)
		printf("#   error: %s\n", err.msg);
	ptd_qwalk_free(w);
	ptd_qblocks_free(qb);
	ptd_classifier_free(cls);
}

int main(void)
{
	for (size_t i = 0; i < sizeof(code) / sizeof(code[0]); i++)
		memcpy(image + (code[i].at - BASE), code[i].bytes, code[i].len);

	script("conditional outcomes from the next block",
	       (const char *const[]){ "0:1000", "0:1000", "0:1000", "0:1005", NULL },
	       "start 100 0 0 0x1000\n"
	       "100 cond 0x1003 0x1000 2\n"
	       "100 cond 0x1003 0x1000 4\n"
	       "100 cond-nt 0x1003 0x1005 6\n"
	       "end 100 6 0x1005\n", 0);
	script("signal after a conditional: held back until rt_sigreturn",
	       (const char *const[]){ "0:1000", "SIG", "0:1100", "0:1200", "0:1000", "0:1005", NULL },
	       "start 100 0 0 0x1000\n"
	       "100 cond 0x1003 0x1000 2\n"
	       "100 async 0x1000 0x1100 2\n"
	       "100 ret 0x1101 0x1200 4\n"
	       "100 syscall 0x1207 0x1000 6\n"
	       "100 cond-nt 0x1003 0x1005 8\n"
	       "end 100 8 0x1005\n", 0);
	script("signal after a return: held back until rt_sigreturn",
	       (const char *const[]){ "0:1005", "SIG", "0:1100", "0:1200", "0:1600", NULL },
	       "start 100 0 0 0x1005\n"
	       "100 ret 0x1005 0x1600 1\n"
	       "100 async 0x1600 0x1100 1\n"
	       "100 ret 0x1101 0x1200 3\n"
	       "100 syscall 0x1207 0x1600 5\n"
	       "end 100 10 0x1605\n", 0);
	script("return without a signal marker goes where the next block is",
	       (const char *const[]){ "0:1005", "0:1100", NULL },
	       "start 100 0 0 0x1005\n"
	       "100 ret 0x1005 0x1100 1\n"
	       "end 100 2 0x1101\n", 0);
	script("handler that never returns: the branch is guessed",
	       (const char *const[]){ "0:1000", "SIG", "0:1100", NULL },
	       "start 100 0 0 0x1000\n"
	       "100 cond-nt 0x1003 0x1005 2\n"
	       "100 async 0x1005 0x1100 2\n"
	       "end 100 3 0x1101\n", 1);
	script("Stopped execution: the block did not run",
	       (const char *const[]){ "0:1000", "0:1000:77", "S:1000:77", "SIG", "0:1100", NULL },
	       "start 100 0 0 0x1000\n"
	       "100 cond 0x1003 0x1000 2\n"
	       "100 async 0x1000 0x1100 2\n"
	       "end 100 3 0x1101\n", 0);
	script("Stopped execution, then the same block runs",
	       (const char *const[]){ "0:1000:77", "S:1000:77", "0:1000", "0:1005", NULL },
	       "start 100 0 0 0x1000\n"
	       "100 cond-nt 0x1003 0x1005 2\n"
	       "end 100 2 0x1005\n", 0);
	script("REP string instruction repeating counts once",
	       (const char *const[]){ "0:1500", "0:1501", "0:1501", "0:1503", NULL },
	       "start 100 0 0 0x1500\n"
	       "end 100 2 0x1503\n", 0);
	script("block ended early by qemu",
	       (const char *const[]){ "0:1600", "0:1602", "0:1000", NULL },
	       "start 100 0 0 0x1600\n"
	       "100 ret 0x1605 0x1000 6\n"
	       "end 100 7 0x1003\n", 0);
	script("ud2 does not retire: asynchronous transfer to the handler",
	       (const char *const[]){ "0:1700", "SIG", "0:1100", NULL },
	       "start 100 0 0 0x1700\n"
	       "100 async 0x1701 0x1100 1\n"
	       "end 100 2 0x1101\n", 0);
	script("signal on the way back from a system call",
	       (const char *const[]){ "0:1800", "SIG", "0:1100", "0:1200", "0:1802", NULL },
	       "start 100 0 0 0x1800\n"
	       "100 syscall 0x1800 0x1100 1\n"
	       "100 ret 0x1101 0x1200 3\n"
	       "100 syscall 0x1207 0x1802 5\n"
	       "end 100 5 0x1802\n", 0);
	script("threads: exit ends one, its vCPU index starts another",
	       (const char *const[]){ "0:1800", "1:1300", "1:1000", "0:1802", "1:1005", NULL },
	       "start 100 0 0 0x1800\n"
	       "start 101 100 100 0x1300\n"
	       "end 101 4 0x130b\n"
	       "start 102 100 100 0x1000\n"
	       "100 syscall 0x1800 0x1802 1\n"
	       "102 cond-nt 0x1003 0x1005 2\n"
	       "end 100 1 0x1802\n"
	       "end 102 2 0x1005\n", 0);
	script("Stopped execution, two threads at the block: the other runs on",
	       (const char *const[]){ "0:1000", "1:1000", "S:1000:1000", "SIG", "0:1005", "1:1100", NULL },
	       "start 100 0 0 0x1000\n"
	       "start 101 100 100 0x1000\n"
	       "100 cond-nt 0x1003 0x1005 2\n"
	       "101 async 0x1000 0x1100 0\n"
	       "end 100 2 0x1005\n"
	       "end 101 1 0x1101\n", 0);
	script("Stopped execution, two threads at the block: a handler returning to the block's start",
	       (const char *const[]){ "0:1000", "1:1000", "S:1000:1000", "SIG", "1:1100", "0:1005", "1:1200",
				      "1:1000", "1:1005", NULL },
	       "start 100 0 0 0x1000\n"
	       "start 101 100 100 0x1000\n"
	       "101 async 0x1000 0x1100 0\n"
	       "100 cond-nt 0x1003 0x1005 2\n"
	       "101 ret 0x1101 0x1200 2\n"
	       "101 syscall 0x1207 0x1000 4\n"
	       "101 cond-nt 0x1003 0x1005 6\n"
	       "end 100 2 0x1005\n"
	       "end 101 6 0x1005\n", 0);
	script("Stopped execution, two threads at the block: a handler returning after it",
	       (const char *const[]){ "0:1000", "1:1000", "S:1000:1000", "SIG", "1:1100", "1:1200", "1:1005",
				      "0:1000", "0:1005", NULL },
	       "start 100 0 0 0x1000\n"
	       "start 101 100 100 0x1000\n"
	       "101 cond-nt 0x1003 0x1005 2\n"
	       "101 async 0x1005 0x1100 2\n"
	       "101 ret 0x1101 0x1200 4\n"
	       "101 syscall 0x1207 0x1005 6\n"
	       "100 cond-nt 0x1003 0x1005 2\n"
	       "end 100 2 0x1005\n"
	       "end 101 6 0x1005\n", 0);
	held_bounded(600000);
	return done_testing();
}
