// zlib (libz.so.1), for inflating Apple Health's export.zip (issue 30); header from zlib1g-dev.
#include <zlib.h>
