#include "common/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const errnames[PTD_E_MAX] = {
	[PTD_OK] = "success",
	[PTD_E_NOMEM] = "out of memory",
	[PTD_E_IO] = "input/output error",
	[PTD_E_FORMAT] = "bad format",
	[PTD_E_TRUNCATED] = "truncated input",
	[PTD_E_UNSUPPORTED] = "unsupported",
	[PTD_E_INVAL] = "invalid argument",
	[PTD_E_LIMIT] = "limit exceeded",
	[PTD_E_NOTFOUND] = "not found",
};

const char *ptd_strerror(int code)
{
	if (code < 0)
		code = -code;
	if (code >= PTD_E_MAX || !errnames[code])
		return "unknown error";
	return errnames[code];
}

void ptd_err_clear(struct ptd_err *err)
{
	if (!err)
		return;
	err->code = 0;
	err->msg[0] = '\0';
}

int ptd_err_set(struct ptd_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -code;
}

int ptd_err_append(struct ptd_err *err, const char *fmt, ...)
{
	char ctx[512];
	char old[PTD_ERR_MSG_MAX];
	va_list ap;

	if (!err)
		return -PTD_E_INVAL;
	va_start(ap, fmt);
	vsnprintf(ctx, sizeof(ctx), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	{
		size_t n = strlen(ctx);

		/* "CTX: OLD", cut to fit */
		if (n > sizeof(err->msg) - 3)
			n = sizeof(err->msg) - 3;
		memcpy(err->msg, ctx, n);
		memcpy(err->msg + n, ": ", 2);
		n += 2;
		old[sizeof(old) - 1 - n] = '\0';
		memcpy(err->msg + n, old, strlen(old) + 1);
	}
	if (!err->code)
		err->code = PTD_E_FORMAT;
	return -err->code;
}
