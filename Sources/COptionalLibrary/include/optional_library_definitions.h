/* The definitions behind a module's declarations of an optional library's functions (CPostgres,
   CDBus): a table of the functions filled by dlsym, one definition per function name that
   forwards to it (loading the library on first use), and the module's load/error/soname/package
   functions. Included once by the module's .c file after it defines:
     CORSANO_LIBRARY_HEADER     the module's header (types and declarations), e.g. "CPostgres.h"
     CORSANO_LIBRARY_FUNCTIONS  its table of functions, e.g. "libpq-functions.h"
     CORSANO_LIBRARY_SONAME     e.g. "libpq.so.5"
     CORSANO_LIBRARY_PACKAGE    the Debian package that ships it, e.g. "libpq5"
     CORSANO_LIBRARY_PREFIX(x)  the names of the four functions, e.g. corsano_libpq_##x
   No include guard: a template. */
#include CORSANO_LIBRARY_HEADER
#include "COptionalLibrary.h"

#include <pthread.h>

#define CORSANO_FN(ret, name, params, args) #name,
#define CORSANO_VOID_FN(name, params, args) #name,
static const char *const names[] = {
#include CORSANO_LIBRARY_FUNCTIONS
};
#undef CORSANO_FN
#undef CORSANO_VOID_FN

/* The addresses, one field per function with its own type, in the order of `names`. */
#define CORSANO_FN(ret, name, params, args) ret(*name) params;
#define CORSANO_VOID_FN(name, params, args) void(*name) params;
static union {
    struct {
#include CORSANO_LIBRARY_FUNCTIONS
    } fn;
    void *slot[sizeof names / sizeof names[0]];
} table;
#undef CORSANO_FN
#undef CORSANO_VOID_FN
_Static_assert(sizeof table.fn == sizeof table.slot, "one pointer-sized field per function");

static corsano_optional_library library = {
    .soname = CORSANO_LIBRARY_SONAME,
    .package = CORSANO_LIBRARY_PACKAGE,
    .names = names,
    .slots = table.slot,
    .count = sizeof names / sizeof names[0],
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static void open_library(void) { (void)corsano_optional_library_open(&library); }

int CORSANO_LIBRARY_PREFIX(load)(void) {
    pthread_once(&once, open_library);
    return library.handle ? 0 : -1;
}

const char *CORSANO_LIBRARY_PREFIX(error)(void) {
    CORSANO_LIBRARY_PREFIX(load)();
    return library.error;
}

const char *CORSANO_LIBRARY_PREFIX(soname)(void) { return library.soname; }
const char *CORSANO_LIBRARY_PREFIX(package)(void) { return library.package; }

static inline void require(const char *function) {
    if (CORSANO_LIBRARY_PREFIX(load)() != 0) corsano_optional_library_missing(&library, function);
}

#define CORSANO_FN(ret, name, params, args) \
    ret name params { require(#name); return table.fn.name args; }
#define CORSANO_VOID_FN(name, params, args) \
    void name params { require(#name); table.fn.name args; }
#include CORSANO_LIBRARY_FUNCTIONS
#undef CORSANO_FN
#undef CORSANO_VOID_FN
