/* libpq loaded at run time: see pq_load.h. */
#define PTD_PQ_LOAD_IMPL
#include "pq_load.h"

#include <dlfcn.h>
#include <stddef.h>

struct ptd_pq ptd_pq;

int ptd_pq_load(struct ptd_err *err)
{
	static const struct { const char *name; size_t off; } fns[] = {
#define F(f, n) { n, offsetof(struct ptd_pq, f) }
		F(connectdbParams, "PQconnectdbParams"), F(status, "PQstatus"),
		F(errorMessage, "PQerrorMessage"), F(finish, "PQfinish"), F(exec, "PQexec"),
		F(execParams, "PQexecParams"), F(resultStatus, "PQresultStatus"),
		F(resultErrorMessage, "PQresultErrorMessage"), F(ntuples, "PQntuples"),
		F(clear, "PQclear"), F(getResult, "PQgetResult"), F(putCopyData, "PQputCopyData"),
		F(putCopyEnd, "PQputCopyEnd"), F(escapeIdentifier, "PQescapeIdentifier"),
		F(freemem, "PQfreemem"), F(conninfoParse, "PQconninfoParse"),
		F(conninfoFree, "PQconninfoFree"),
#undef F
	};
	static void *lib;
	size_t i;

	if (lib)
		return 0;
	lib = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return ptd_err_set(err, PTD_E_UNSUPPORTED,
				   "--export=postgresql: cannot load libpq (Debian package libpq5): %s",
				   dlerror());
	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		void *p = dlsym(lib, fns[i].name);

		if (!p) {
			dlclose(lib);
			lib = NULL;
			return ptd_err_set(err, PTD_E_UNSUPPORTED, "--export=postgresql: libpq has no %s",
					   fns[i].name);
		}
		/* POSIX: a function's address converts to and from void * */
		*(void **)((char *)&ptd_pq + fns[i].off) = p;
	}
	return 0;
}
