/* Loading an optional shared library when a command first needs it (issue 22; docs/design.md
   "Optional libraries"): dlopen by soname, then dlsym of every function corsano declares for it,
   all or nothing, the way systemd loads its optional libraries. CPostgres and CDBus build on it;
   neither includes the library's own headers, so a machine without the library (or its -dev
   package) builds and runs every command that does not use it. */
#ifndef CORSANO_OPTIONAL_LIBRARY_H
#define CORSANO_OPTIONAL_LIBRARY_H

#include <stddef.h>

/* One library: its soname, the Debian package that ships it, and the names of the functions to
   look up with the slots their addresses go to (same order). `error` holds why it is not
   loaded; `handle` is non-NULL once every symbol was found. Loaded at most once per process. */
typedef struct corsano_optional_library {
    const char *soname;
    const char *package;
    const char *const *names;
    void **slots;
    size_t count;
    void *handle;
    char error[512];
} corsano_optional_library;

/* Opens `library` (once; later calls return the first outcome). Returns 0 when loaded, -1 with
   `library->error` set (dlerror's text, or the first function the library lacks) otherwise.
   The caller serializes calls (CPostgres and CDBus do it with pthread_once). */
int corsano_optional_library_open(corsano_optional_library *library);

/* A function of a library that was not loaded was called: a command skipped its check
   (`OptionalLibrary.require`). Prints which function, which library and which package is
   missing on stderr and aborts: nothing sensible can be returned in its place. */
_Noreturn void corsano_optional_library_missing(const corsano_optional_library *library, const char *function);

#endif
