#!/usr/bin/env bash
# A lean binary, kept lean (issue 22): the release binary's NEEDED entries (readelf -d) are all
# in packaging/needed-libraries. A change that links anything else (libpq, libdbus-1, OpenSSL, ...)
# fails here, naming it.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(scripts/release-binary)
allowed=$(awk '!/^[[:space:]]*(#|$)/ { print $1 }' packaging/needed-libraries | sort -u)
needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*Shared library: \[\(.*\)\]/\1/p' | sort -u)
[ -n "$needed" ] || { echo "needed: readelf -d $bin lists no NEEDED entry" >&2; exit 1; }
extra=$(comm -23 <(echo "$needed") <(echo "$allowed"))
if [ -n "$extra" ]; then
  echo "needed: $bin links libraries packaging/needed-libraries does not allow:" >&2
  echo "$extra" | sed 's/^/  /' >&2
  echo "open an optional library at run time (Sources/COptionalLibrary), or add it to the list with its package and why" >&2
  exit 1
fi
echo "needed: $(echo "$needed" | tr '\n' ' ')— all allowed"
