/* libdbus-1 opened at run time (issue 22; docs/design.md "Optional libraries"): corsano's own
   declarations of the part of libdbus it uses, with libdbus's names and types, so
   `import CDBus` reads as if dbus/dbus.h were included — but no header of libdbus is needed to
   build and libdbus-1.so.3 (Debian libdbus-1-3) is not linked. The functions forward to the
   library, loaded by soname on the first call or by corsano_libdbus_load(). Swift cannot call C
   variadic functions, so corsano builds and reads messages with the iterator API only.
   Types and constants: dbus-types.h, dbus-arch-deps.h (x86_64), dbus-errors.h, dbus-message.h,
   dbus-connection.h, dbus-shared.h, dbus-protocol.h of libdbus-1 1.14 (libdbus's ABI, stable
   since 1.0); LibraryABITests checks the two structs passed by value against the real headers.
   Functions: libdbus-functions.h. */
#ifndef CORSANO_CDBUS_H
#define CORSANO_CDBUS_H

typedef unsigned int dbus_uint32_t;
typedef dbus_uint32_t dbus_bool_t;

/* Opaque handles (Swift: OpaquePointer). */
typedef struct DBusConnection DBusConnection;
typedef struct DBusMessage DBusMessage;

/* An error filled in by a call (dbus-errors.h): name and message are libdbus's, freed by
   dbus_error_free; the rest is private but its size is part of the ABI (callers allocate it). */
typedef struct DBusError {
    const char *name;
    const char *message;
    unsigned int dummy1 : 1;
    unsigned int dummy2 : 1;
    unsigned int dummy3 : 1;
    unsigned int dummy4 : 1;
    unsigned int dummy5 : 1;
    void *padding1;
} DBusError;

/* A message iterator (dbus-message.h): no public fields; callers allocate it, so its size and
   alignment are ABI (the 64-bit layout: DBUS_SIZEOF_VOID_P is 8). */
typedef struct DBusMessageIter {
    void *dummy1;
    void *dummy2;
    dbus_uint32_t dummy3;
    int dummy4;
    int dummy5;
    int dummy6;
    int dummy7;
    int dummy8;
    int dummy9;
    int dummy10;
    int dummy11;
    int pad1;
    void *pad2;
    void *pad3;
} DBusMessageIter;

/* dbus-connection.h */
typedef enum {
    DBUS_DISPATCH_DATA_REMAINS,
    DBUS_DISPATCH_COMPLETE,
    DBUS_DISPATCH_NEED_MEMORY
} DBusDispatchStatus;

/* dbus-shared.h */
typedef enum {
    DBUS_HANDLER_RESULT_HANDLED,
    DBUS_HANDLER_RESULT_NOT_YET_HANDLED,
    DBUS_HANDLER_RESULT_NEED_MEMORY
} DBusHandlerResult;

/* dbus-memory.h, dbus-connection.h */
typedef void (*DBusFreeFunction)(void *memory);
typedef DBusHandlerResult (*DBusHandleMessageFunction)(DBusConnection *connection, DBusMessage *message, void *user_data);

/* dbus-protocol.h */
#define DBUS_MESSAGE_TYPE_INVALID 0
#define DBUS_MESSAGE_TYPE_METHOD_CALL 1
#define DBUS_MESSAGE_TYPE_METHOD_RETURN 2
#define DBUS_MESSAGE_TYPE_ERROR 3
#define DBUS_MESSAGE_TYPE_SIGNAL 4

#define CORSANO_FN(ret, name, params, args) extern ret name params;
#define CORSANO_VOID_FN(name, params, args) extern void name params;
#include "libdbus-functions.h"
#undef CORSANO_FN
#undef CORSANO_VOID_FN

/* Opens libdbus-1.so.3 and looks up every function above (once per process; later calls return
   the first outcome). Returns 0 when loaded; -1 when not, corsano_libdbus_error() then says why. */
int corsano_libdbus_load(void);
/* Why libdbus-1 could not be loaded (dlerror's text, or a function it lacks); "" when it was. */
const char *corsano_libdbus_error(void);
/* "libdbus-1.so.3" and the Debian package that ships it, "libdbus-1-3". */
const char *corsano_libdbus_soname(void);
const char *corsano_libdbus_package(void);

#endif
