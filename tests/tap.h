/* A minimal TAP producer for unit tests (automake's tap-driver.sh reads it).
 *
 *   plan(3);
 *   ok(x == 1, "x is one");
 *   is_u64(got, want, "count");
 *   return done_testing();
 */
#ifndef PTD_TESTS_TAP_H
#define PTD_TESTS_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed, tap_planned;

static inline void plan(int n)
{
	tap_planned = n;
	printf("1..%d\n", n);
}

static inline int ok_(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	fflush(stdout);
	return cond;
}

#define ok(cond, ...) ok_(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define is_u64(got, want, ...) do { \
	uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want); \
	if (!ok(g_ == w_, __VA_ARGS__)) \
		printf("#   got %" PRIu64 " (%#" PRIx64 "), want %" PRIu64 " (%#" PRIx64 ")\n", g_, g_, w_, w_); \
} while (0)

#define is_str(got, want, ...) do { \
	const char *g_ = (got), *w_ = (want); \
	if (!ok(g_ && w_ && !strcmp(g_, w_), __VA_ARGS__)) \
		printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)", w_ ? w_ : "(null)"); \
} while (0)

static inline int done_testing(void)
{
	if (!tap_planned)
		printf("1..%d\n", tap_n);
	else if (tap_n != tap_planned)
		printf("# planned %d tests but ran %d\n", tap_planned, tap_n);
	return tap_failed || (tap_planned && tap_n != tap_planned);
}

#endif
