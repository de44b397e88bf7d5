#include "COptionalLibrary.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int corsano_optional_library_open(corsano_optional_library *library) {
    if (library->handle) return 0;
    if (library->error[0]) return -1;
    /* RTLD_LOCAL: the library's symbols serve only the lookups below, never the binary's own
       declarations of the same names (CPostgres and CDBus define wrappers called PQexec, ...). */
    void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        snprintf(library->error, sizeof library->error, "%s", why ? why : library->soname);
        return -1;
    }
    for (size_t i = 0; i < library->count; i++) {
        void *address = dlsym(handle, library->names[i]);
        if (!address) {
            snprintf(library->error, sizeof library->error, "%s: no function %s", library->soname, library->names[i]);
            for (size_t j = 0; j < i; j++) library->slots[j] = NULL;
            dlclose(handle);
            return -1;
        }
        library->slots[i] = address;
    }
    library->handle = handle;
    return 0;
}

void corsano_optional_library_missing(const corsano_optional_library *library, const char *function) {
    fprintf(stderr, "corsano: %s called without %s loaded (%s); install %s (apt-get install %s)\n",
            function, library->soname, library->error[0] ? library->error : "never opened",
            library->package, library->package);
    abort();
}
