/* itrace_check: apply perf script's itrace options (src/itrace.h) in order
 * and print the result, for tests/golden/itrace_errors.test.
 *
 *   itrace_check [-r] OPTION...
 *
 * OPTION is --itrace[=STR], --no-itrace, --insn-trace[=ARG],
 * --no-insn-trace, --call-trace[=ARG] or --call-ret-trace[=ARG], as given
 * to perf script.  Prints ptd_itrace_format of the options (with -r: of
 * what Intel PT decoding uses, ptd_itrace_resolve) and exits 0; or prints
 * the error message on stderr, as perf's first line, and exits 129 as perf
 * does. */
#include <stdio.h>
#include <string.h>

#include "itrace.h"

static int apply(struct ptd_itrace *o, const char *opt, struct ptd_err *err)
{
	const char *eq = strchr(opt, '=');
	const char *val = eq ? eq + 1 : NULL;
	size_t n = eq ? (size_t)(eq - opt) : strlen(opt);

#define IS(name) (n == strlen(name) && !strncmp(opt, name, n))
	if (IS("--itrace"))
		return ptd_itrace_parse(o, val, err);
	if (IS("--no-itrace")) {
		ptd_itrace_unset(o);
		return 0;
	}
	if (IS("--insn-trace") || IS("--no-insn-trace"))
		return ptd_itrace_shortcut(o, PTD_ITRACE_INSN_TRACE, val, NULL, err);
	if (IS("--call-trace"))
		return ptd_itrace_shortcut(o, PTD_ITRACE_CALL_TRACE, val, NULL, err);
	if (IS("--call-ret-trace"))
		return ptd_itrace_shortcut(o, PTD_ITRACE_CALL_RET_TRACE, val, NULL, err);
#undef IS
	return ptd_err_set(err, PTD_E_INVAL, "itrace_check: unknown option '%s'", opt);
}

int main(int argc, char **argv)
{
	struct ptd_itrace o, r;
	struct ptd_err err;
	char buf[512];
	int i = 1, resolve = 0;

	if (i < argc && !strcmp(argv[i], "-r")) {
		resolve = 1;
		i++;
	}
	ptd_itrace_init(&o);
	ptd_err_clear(&err);
	for (; i < argc; i++) {
		if (apply(&o, argv[i], &err) < 0) {
			fprintf(stderr, "%s\n", err.msg);
			return 129;
		}
	}
	if (resolve) {
		ptd_itrace_resolve(&o, &r);
		o = r;
	}
	ptd_itrace_format(&o, buf, sizeof(buf));
	printf("%s\n", buf);
	return 0;
}
