/* Test helper for tests/unit/test_sources: run a program under one of the
 * recorder's execution sources and keep everything it reports; check a
 * report's invariants and its path against the code; find the events of
 * one call of a function. */
#ifndef PTD_TESTS_XRECORD_H
#define PTD_TESTS_XRECORD_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "common/vec.h"
#include "tools/record/xev.h"

/* What the sink was told, in order: events, thread starts and ends,
 * mappings. */
struct rec {
	int32_t tid;
	struct ptd_xev ev;
};

struct tstart {
	int32_t pid, tid, ppid, ptid;
	uint64_t ip;
};

struct tend {
	int32_t tid;
	uint64_t icount, last_ip;
};

struct mapping {
	uint64_t start, len;
	uint32_t prot;
	char path[128];
};

struct result {
	struct ptd_vec evs, starts, ends, maps;   /* rec, tstart, tend, mapping */
	int ncomm;
	char comm[32];
	int bad;                 /* callback order violations */
	char badmsg[160];
	uint64_t insns;
	uint64_t guessed;        /* qemu: transfers whose target was guessed */
	uint64_t deferred;       /* qemu: resolved when the handler returned */
	uint64_t splits;         /* qemu: blocks qemu ended before the decoded end */
	double secs;             /* how long the source ran */
	int rc;                  /* the source's return */
	struct ptd_err err;
};

void result_init(struct result *r);
void result_fini(struct result *r);
double now(void);

/* Run path (argv = { path }) with an empty environment and no address
 * randomization under qemu (use_qemu; x86-64 and AArch64 programs) or
 * ptrace into r (initialized here); the program's stdout goes to
 * /dev/null. */
void record(struct result *r, const char *path, int use_qemu);

/* Invariants of a report: callbacks in order, per-thread icounts
 * increasing, branch flags consistent.  Returns the number of problems
 * (0: fine), the first described in msg. */
size_t invariants(const struct result *r, char *msg, size_t msgsz);

/* Walk every thread's events through the code of the executable at path
 * (tests/unit/pathcheck.h), x86-64 or AArch64 by its ELF machine.  For
 * AArch64, a reported "[vdso]" mapping holds qemu 7.2's sigreturn
 * trampoline (mov x8, #139; svc #0) and is walked too.  Returns 0 or -1
 * with msg; *checked and *skipped count the events checked and those in
 * code not in the file. */
int walk_path(const struct result *r, const char *path, char *msg, size_t msgsz, size_t *checked,
	      size_t *skipped);

/* Symbols of a test program, to name addresses. */
struct syms {
	const char *name[16];
	uint64_t addr[16], size[16];
	int n;
};

/* Look names (NULL-terminated) up in path.  Returns 0, or -1 (printed as a
 * TAP comment). */
int load_syms(struct syms *s, const char *path, const char *const names[]);
uint64_t sym(const struct syms *s, const char *name);
int in_sym(const struct syms *s, const char *name, uint64_t a);

/* Events of thread tid from the first transfer into f to the return to
 * its caller, into out (struct ptd_xev): icounts relative to the
 * entering event, addresses inside the symbols of s as "symbol index,
 * offset" so that programs linked differently compare.  Returns the
 * number of events (0: no such call). */
size_t window(const struct result *r, int32_t tid, uint64_t f, const struct syms *s,
	      struct ptd_vec *out);

#endif
