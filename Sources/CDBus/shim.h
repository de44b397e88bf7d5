// libdbus-1 (Debian libdbus-1-dev; include paths from `pkg-config --cflags dbus-1`). Swift cannot
// call C variadic functions, so corsano builds and reads messages with the iterator API only.
#include <dbus/dbus.h>
