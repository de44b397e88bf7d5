/* The definitions behind CDBus.h (COptionalLibrary's template, for libdbus-1). */
#define CORSANO_LIBRARY_HEADER "CDBus.h"
#define CORSANO_LIBRARY_FUNCTIONS "libdbus-functions.h"
#define CORSANO_LIBRARY_SONAME "libdbus-1.so.3"
#define CORSANO_LIBRARY_PACKAGE "libdbus-1-3"
#define CORSANO_LIBRARY_PREFIX(x) corsano_libdbus_##x
#include "optional_library_definitions.h"
