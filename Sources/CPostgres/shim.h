// libpq, PostgreSQL's own C client: the report database's connection, queries and COPY.
#ifndef CPOSTGRES_SHIM_H
#define CPOSTGRES_SHIM_H

#include <libpq-fe.h>

#endif
