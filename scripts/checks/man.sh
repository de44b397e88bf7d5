#!/usr/bin/env bash
# Every man page is clean under `mandoc -T lint` (all levels, style included). Run from man/ so
# that mandoc resolves the pages' cross references (.Xr) to each other.
set -euo pipefail
cd "$(dirname "$0")/../../man"
out="$(mandoc -T lint ./*.[1-9] 2>&1 || true)"
if [ -n "$out" ]; then
  echo "$out" >&2
  exit 1
fi
echo "man: $(ls ./*.[1-9] | wc -l) pages lint clean"
