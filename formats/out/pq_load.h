/* libpq, loaded when a PostgreSQL export starts (dlopen) instead of linked:
 * libpq brings OpenSSL, Kerberos, LDAP and GnuTLS, whose loading and
 * relocation cost every run of ptdecode some 6 MB of resident memory.
 * pg.c calls libpq through these pointers under libpq's own names (the
 * macros below); libpq-fe.h still gives the types. */
#ifndef PTD_OUT_PQ_LOAD_H
#define PTD_OUT_PQ_LOAD_H

#include <libpq-fe.h>

#include "common/err.h"

struct ptd_pq {
	PGconn *(*connectdbParams)(const char *const *, const char *const *, int);
	ConnStatusType (*status)(const PGconn *);
	char *(*errorMessage)(const PGconn *);
	void (*finish)(PGconn *);
	PGresult *(*exec)(PGconn *, const char *);
	PGresult *(*execParams)(PGconn *, const char *, int, const Oid *, const char *const *,
				const int *, const int *, int);
	ExecStatusType (*resultStatus)(const PGresult *);
	char *(*resultErrorMessage)(const PGresult *);
	int (*ntuples)(const PGresult *);
	void (*clear)(PGresult *);
	PGresult *(*getResult)(PGconn *);
	int (*sendQuery)(PGconn *, const char *);
	int (*putCopyData)(PGconn *, const char *, int);
	int (*putCopyEnd)(PGconn *, const char *);
	char *(*escapeIdentifier)(PGconn *, const char *, size_t);
	void (*freemem)(void *);
	PQconninfoOption *(*conninfoParse)(const char *, char **);
	void (*conninfoFree)(PQconninfoOption *);
};

extern struct ptd_pq ptd_pq;

/* Load libpq (once); -PTD_E_UNSUPPORTED with the reason when it cannot. */
int ptd_pq_load(struct ptd_err *err);

#ifndef PTD_PQ_LOAD_IMPL
#define PQconnectdbParams ptd_pq.connectdbParams
#define PQstatus ptd_pq.status
#define PQerrorMessage ptd_pq.errorMessage
#define PQfinish ptd_pq.finish
#define PQexec ptd_pq.exec
#define PQexecParams ptd_pq.execParams
#define PQresultStatus ptd_pq.resultStatus
#define PQresultErrorMessage ptd_pq.resultErrorMessage
#define PQntuples ptd_pq.ntuples
#define PQclear ptd_pq.clear
#define PQgetResult ptd_pq.getResult
#define PQsendQuery ptd_pq.sendQuery
#define PQputCopyData ptd_pq.putCopyData
#define PQputCopyEnd ptd_pq.putCopyEnd
#define PQescapeIdentifier ptd_pq.escapeIdentifier
#define PQfreemem ptd_pq.freemem
#define PQconninfoParse ptd_pq.conninfoParse
#define PQconninfoFree ptd_pq.conninfoFree
#endif

#endif
