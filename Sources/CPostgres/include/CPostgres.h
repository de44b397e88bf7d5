/* libpq, the PostgreSQL client library, opened at run time (issue 22; docs/design.md
   "Optional libraries"): these are corsano's own declarations of the part of libpq it uses, with libpq's
   names and types, so `import CPostgres` reads as if libpq-fe.h were included — but no header
   of libpq is needed to build and libpq.so.5 (Debian libpq5) is not linked. The functions
   forward to the library, loaded by soname on the first call or by corsano_libpq_load().
   Types, enums and constants: libpq-fe.h and postgres_ext.h of PostgreSQL 15 (their values are
   libpq's ABI, stable since the versions named); functions: libpq-functions.h. */
#ifndef CORSANO_CPOSTGRES_H
#define CORSANO_CPOSTGRES_H

#include <stddef.h>

/* postgres_ext.h */
typedef unsigned int Oid;
#define InvalidOid ((Oid) 0)
/* Field codes of PQresultErrorField (postgres_ext.h). */
#define PG_DIAG_SEVERITY 'S'
#define PG_DIAG_SEVERITY_NONLOCALIZED 'V'
#define PG_DIAG_SQLSTATE 'C'
#define PG_DIAG_MESSAGE_PRIMARY 'M'
#define PG_DIAG_MESSAGE_DETAIL 'D'
#define PG_DIAG_MESSAGE_HINT 'H'
#define PG_DIAG_STATEMENT_POSITION 'P'
#define PG_DIAG_CONTEXT 'W'
#define PG_DIAG_SCHEMA_NAME 's'
#define PG_DIAG_TABLE_NAME 't'
#define PG_DIAG_COLUMN_NAME 'c'
#define PG_DIAG_CONSTRAINT_NAME 'n'

/* libpq-fe.h */
typedef enum {
    CONNECTION_OK,
    CONNECTION_BAD,
    CONNECTION_STARTED,
    CONNECTION_MADE,
    CONNECTION_AWAITING_RESPONSE,
    CONNECTION_AUTH_OK,
    CONNECTION_SETENV,
    CONNECTION_SSL_STARTUP,
    CONNECTION_NEEDED,
    CONNECTION_CHECK_WRITABLE,
    CONNECTION_CONSUME,
    CONNECTION_GSS_STARTUP,
    CONNECTION_CHECK_TARGET,
    CONNECTION_CHECK_STANDBY
} ConnStatusType;

typedef enum {
    PGRES_POLLING_FAILED = 0,
    PGRES_POLLING_READING,
    PGRES_POLLING_WRITING,
    PGRES_POLLING_OK,
    PGRES_POLLING_ACTIVE
} PostgresPollingStatusType;

typedef enum {
    PGRES_EMPTY_QUERY = 0,
    PGRES_COMMAND_OK,
    PGRES_TUPLES_OK,
    PGRES_COPY_OUT,
    PGRES_COPY_IN,
    PGRES_BAD_RESPONSE,
    PGRES_NONFATAL_ERROR,
    PGRES_FATAL_ERROR,
    PGRES_COPY_BOTH,
    PGRES_SINGLE_TUPLE,
    PGRES_PIPELINE_SYNC,
    PGRES_PIPELINE_ABORTED
} ExecStatusType;

typedef enum {
    PQTRANS_IDLE,
    PQTRANS_ACTIVE,
    PQTRANS_INTRANS,
    PQTRANS_INERROR,
    PQTRANS_UNKNOWN
} PGTransactionStatusType;

typedef enum {
    PQERRORS_TERSE,
    PQERRORS_DEFAULT,
    PQERRORS_VERBOSE,
    PQERRORS_SQLSTATE
} PGVerbosity;

typedef enum {
    PQPING_OK,
    PQPING_REJECT,
    PQPING_NO_RESPONSE,
    PQPING_NO_ATTEMPT
} PGPing;

/* Opaque handles (Swift: OpaquePointer). */
typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;
typedef struct pg_cancel PGcancel;

typedef void (*PQnoticeProcessor)(void *arg, const char *message);

/* What PQconninfoParse, PQconndefaults and PQconninfo return: an array ended by a NULL keyword. */
typedef struct _PQconninfoOption {
    char *keyword;
    char *envvar;
    char *compiled;
    char *val;
    char *label;
    char *dispchar;
    int dispsize;
} PQconninfoOption;

#define CORSANO_FN(ret, name, params, args) extern ret name params;
#define CORSANO_VOID_FN(name, params, args) extern void name params;
#include "libpq-functions.h"
#undef CORSANO_FN
#undef CORSANO_VOID_FN

/* Opens libpq.so.5 and looks up every function above (once per process; later calls return the
   first outcome). Returns 0 when loaded; -1 when not, corsano_libpq_error() then says why. */
int corsano_libpq_load(void);
/* Why libpq could not be loaded (dlerror's text, or a function it lacks); "" when it was. */
const char *corsano_libpq_error(void);
/* "libpq.so.5" and the Debian package that ships it, "libpq5". */
const char *corsano_libpq_soname(void);
const char *corsano_libpq_package(void);

#endif
