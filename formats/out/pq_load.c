/* libpq loaded at run time: see pq_load.h. */
#define PTD_PQ_LOAD_IMPL
#include "pq_load.h"

#include "common/dlsyms.h"

struct ptd_pq ptd_pq;

int ptd_pq_load(struct ptd_err *err)
{
	static const struct ptd_dlsym fns[] = {
#define F(f, n) PTD_DLSYM(struct ptd_pq, f, n)
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
	static int loaded;
	char why[256];

	if (loaded)
		return 0;
	if (ptd_dlsyms("libpq.so.5", fns, sizeof(fns) / sizeof(fns[0]), &ptd_pq, why, sizeof(why)))
		return ptd_err_set(err, PTD_E_UNSUPPORTED,
				   "--export=postgresql: cannot load libpq (Debian package libpq5): %s",
				   why);
	loaded = 1;
	return 0;
}
