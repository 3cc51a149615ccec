/* Error codes and error chains.
 *
 * Functions return int: a negative -PTD_E_* on failure, zero or a positive
 * value on success.  Failing functions also fill a struct ptd_err, and each
 * caller on the way up may append context ("while reading X"), so that the
 * command line prints the whole chain, innermost cause first.
 */
#ifndef PTD_COMMON_ERR_H
#define PTD_COMMON_ERR_H

#include <stddef.h>

enum ptd_errcode {
	PTD_OK = 0,
	PTD_E_NOMEM = 1,   /* allocation failed or a limit on memory was reached */
	PTD_E_IO,          /* read or write failed (errno in the message) */
	PTD_E_FORMAT,      /* the input is not what its format says it must be */
	PTD_E_TRUNCATED,   /* the input ends inside a structure */
	PTD_E_UNSUPPORTED, /* valid input of a kind we do not handle */
	PTD_E_INVAL,       /* bad argument or option */
	PTD_E_LIMIT,       /* a configured resource limit was exceeded */
	PTD_E_NOTFOUND,    /* a lookup found nothing */
	PTD_E_MAX
};

#define PTD_ERR_MSG_MAX 2048

struct ptd_err {
	int code;                    /* enum ptd_errcode, 0 when no error */
	char msg[PTD_ERR_MSG_MAX];   /* "outer context: ...: innermost cause" */
};

/* Human-readable name of an error code; never NULL. */
const char *ptd_strerror(int code);

/* Reset to "no error". */
void ptd_err_clear(struct ptd_err *err);

/* Record a new error, replacing any previous one.  err may be NULL.
 * Returns -code so that callers can write `return ptd_err_set(...)`. */
int ptd_err_set(struct ptd_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefix context to the current error message ("CONTEXT: old message").
 * err may be NULL.  Returns -err->code. */
int ptd_err_append(struct ptd_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
