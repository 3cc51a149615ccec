/* Facts the test programs (tests/programs) know about themselves, checked
 * on what an execution source reported (tests/unit/xrecord.h): the same
 * for x86-64 and AArch64 builds.  Test helper for tests/unit/test_sources
 * and test_sources_a64.
 *
 * Each check is reported through a callback (the tests' TAP ok(), which
 * lives in their own file) with its message; details of a failure are
 * printed as TAP comments. */
#ifndef PTD_TESTS_PROGFACTS_H
#define PTD_TESTS_PROGFACTS_H

#include "tests/unit/xrecord.h"

/* Report one check: cond true when it holds, msg its description. */
typedef void (*fact_ok_fn)(int cond, const char *msg);

/* The first thread reported (the program's main thread), or -1. */
int32_t main_tid(const struct result *r);

/* Events of the main thread with class cls (-1: any) whose from is in
 * symbol fsym (NULL: anywhere) and whose to is in tsym (NULL: anywhere) or,
 * when tsym starts with '=', equal to that symbol's address; when
 * outside is set, from must not be in tsym. */
unsigned count_events(const struct result *r, const struct syms *s, int cls, const char *fsym,
		      const char *tsym, int outside);

/* One function per program; src names the source in the messages.  The
 * symbols s must hold the names the function uses (see each program). */
void facts_loops(const struct result *r, const struct syms *s, const char *src, fact_ok_fn ok);
void facts_recursion(const struct result *r, const struct syms *s, const char *src, fact_ok_fn ok);
void facts_indirect(const struct result *r, const struct syms *s, const char *src, fact_ok_fn ok);
void facts_longjmp(const struct result *r, const struct syms *s, const char *src, fact_ok_fn ok);
void facts_signals(const struct result *r, const struct syms *s, const char *src, fact_ok_fn ok);
void facts_sigalrm(const struct result *r, const struct syms *s, const char *src, fact_ok_fn ok);
void facts_threads(const struct result *r, const struct syms *s, const char *src, fact_ok_fn ok);

#endif
