/* libpq loaded at run time: see pq_load.h. */
#define PTD_PQ_LOAD_IMPL
#include "pq_load.h"

#include "common/dlsyms.h"

struct ptd_pq ptd_pq;

static const struct ptd_dlsym fns[] = {
#define F(f, n) PTD_DLSYM(struct ptd_pq, f, n)
	F(connectdbParams, "PQconnectdbParams"), F(status, "PQstatus"),
	F(errorMessage, "PQerrorMessage"), F(finish, "PQfinish"), F(exec, "PQexec"),
	F(execParams, "PQexecParams"), F(resultStatus, "PQresultStatus"),
	F(resultErrorMessage, "PQresultErrorMessage"), F(ntuples, "PQntuples"),
	F(clear, "PQclear"), F(getResult, "PQgetResult"), F(sendQuery, "PQsendQuery"),
	F(putCopyData, "PQputCopyData"),
	F(putCopyEnd, "PQputCopyEnd"), F(escapeIdentifier, "PQescapeIdentifier"),
	F(freemem, "PQfreemem"), F(conninfoParse, "PQconninfoParse"),
	F(conninfoFree, "PQconninfoFree"),
#undef F
};

static struct ptd_dllib lib = PTD_DLLIB("libpq.so.5", fns, &ptd_pq,
					"libpq (Debian package libpq5)", 0);

int ptd_pq_load(struct ptd_err *err)
{
	if (ptd_dllib_load(&lib))
		return ptd_err_set(err, PTD_E_UNSUPPORTED,
				   "--export=postgresql: cannot load %s: %s", lib.what, lib.why);
	return 0;
}
