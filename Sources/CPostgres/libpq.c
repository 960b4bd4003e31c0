#include "CPostgres.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// Each function libpq is asked for, as `X(name)`.
#define DH_PQ_FUNCTIONS(X) \
    X(PQconnectdbParams) X(PQstatus) X(PQerrorMessage) X(PQfinish) X(PQsetNoticeProcessor) X(PQsocket) \
    X(PQexec) X(PQexecParams) X(PQgetResult) X(PQresultStatus) X(PQresultErrorMessage) X(PQresultErrorField) \
    X(PQntuples) X(PQnfields) X(PQfname) X(PQgetvalue) X(PQgetisnull) X(PQclear) X(PQputCopyData) \
    X(PQputCopyEnd) X(PQconsumeInput) X(PQnotifies) X(PQfreemem)

#define DH_PQ_POINTER(name) static __typeof__(name) *dh_##name;
DH_PQ_FUNCTIONS(DH_PQ_POINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[256];

static void load(void) {
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(failure, sizeof failure, "libpq could not be loaded: %s", dlerror());
        return;
    }
#define DH_PQ_RESOLVE(name)                                                               \
    if (!(dh_##name = (__typeof__(name) *)dlsym(library, #name))) {                       \
        snprintf(failure, sizeof failure, "libpq.so.5 has no %s", #name);                 \
        return;                                                                           \
    }
    DH_PQ_FUNCTIONS(DH_PQ_RESOLVE)
    loaded = 1;
}

int dh_pq_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (!loaded && error && size) snprintf(error, size, "%s", failure);
    return loaded;
}

// Nothing reaches these before a connection is made, which loads the library first; a
// connection string before that gets a failed connection, never a jump to nowhere.
PGconn *PQconnectdbParams(const char *const *keywords, const char *const *values, int expand) {
    return dh_pq_load(NULL, 0) ? dh_PQconnectdbParams(keywords, values, expand) : NULL;
}
ConnStatusType PQstatus(const PGconn *conn) { return dh_PQstatus(conn); }
char *PQerrorMessage(const PGconn *conn) { return dh_PQerrorMessage(conn); }
void PQfinish(PGconn *conn) { dh_PQfinish(conn); }
PQnoticeProcessor PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor processor, void *argument) {
    return dh_PQsetNoticeProcessor(conn, processor, argument);
}
int PQsocket(const PGconn *conn) { return dh_PQsocket(conn); }
PGresult *PQexec(PGconn *conn, const char *query) { return dh_PQexec(conn, query); }
PGresult *PQexecParams(PGconn *conn, const char *command, int count, const Oid *types, const char *const *values,
                       const int *lengths, const int *formats, int resultFormat) {
    return dh_PQexecParams(conn, command, count, types, values, lengths, formats, resultFormat);
}
PGresult *PQgetResult(PGconn *conn) { return dh_PQgetResult(conn); }
ExecStatusType PQresultStatus(const PGresult *result) { return dh_PQresultStatus(result); }
char *PQresultErrorMessage(const PGresult *result) { return dh_PQresultErrorMessage(result); }
char *PQresultErrorField(const PGresult *result, int code) { return dh_PQresultErrorField(result, code); }
int PQntuples(const PGresult *result) { return dh_PQntuples(result); }
int PQnfields(const PGresult *result) { return dh_PQnfields(result); }
char *PQfname(const PGresult *result, int field) { return dh_PQfname(result, field); }
char *PQgetvalue(const PGresult *result, int row, int field) { return dh_PQgetvalue(result, row, field); }
int PQgetisnull(const PGresult *result, int row, int field) { return dh_PQgetisnull(result, row, field); }
void PQclear(PGresult *result) { if (result) dh_PQclear(result); }
int PQputCopyData(PGconn *conn, const char *buffer, int count) { return dh_PQputCopyData(conn, buffer, count); }
int PQputCopyEnd(PGconn *conn, const char *error) { return dh_PQputCopyEnd(conn, error); }
int PQconsumeInput(PGconn *conn) { return dh_PQconsumeInput(conn); }
PGnotify *PQnotifies(PGconn *conn) { return dh_PQnotifies(conn); }
void PQfreemem(void *pointer) { if (pointer) dh_PQfreemem(pointer); }
