// libpq, PostgreSQL's own C client: the report database's connection, queries and COPY.
//
// Loaded when a database is first connected to (`dh_pq_load`), not linked: libpq brings a dozen
// libraries (OpenSSL, Kerberos, LDAP, SASL) whose relocated pages a server without a database
// would keep resident. The functions the server calls are defined here under libpq's own names
// and forward to the loaded library.
#ifndef CPOSTGRES_H
#define CPOSTGRES_H

#include <postgresql/libpq-fe.h>
#include <stddef.h>

/// Loads libpq once; 1 when it is loaded, else 0 with the reason in `error` (NUL-terminated).
int dh_pq_load(char *error, size_t size);

#endif
