/* The definitions behind CPostgres.h (COptionalLibrary's template, for libpq). */
#define CORSANO_LIBRARY_HEADER "CPostgres.h"
#define CORSANO_LIBRARY_FUNCTIONS "libpq-functions.h"
#define CORSANO_LIBRARY_SONAME "libpq.so.5"
#define CORSANO_LIBRARY_PACKAGE "libpq5"
#define CORSANO_LIBRARY_PREFIX(x) corsano_libpq_##x
#include "optional_library_definitions.h"
