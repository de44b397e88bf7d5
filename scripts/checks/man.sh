#!/usr/bin/env bash
# Every man page is clean under `mandoc -T lint` (all levels, style included), and renders as man
# shows it (`MANWIDTH=80 man --warnings -l`, groff, UTF-8) with no groff warning ("can't break
# line") and no line wider than 80 columns (a wide character counts two). Run from the pages'
# directory so that mandoc resolves their cross references (.Xr) to each other: man/, or the
# directory given as the first argument (the tests check the check on pages of their own).
set -euo pipefail
dir="${1:-$(dirname "$0")/../../man}"
cd "$dir"
out="$(mandoc -T lint ./*.[1-9] 2>&1 || true)"
if [ -n "$out" ]; then
  echo "$out" >&2
  exit 1
fi
failed=0
for page in ./*.[1-9]; do
  name="${page#./}"
  warnings="$(LC_ALL=C.UTF-8 MANWIDTH=80 MAN_KEEP_FORMATTING= man --warnings -l "$page" 2>&1 >/dev/null || true)"
  if [ -n "$warnings" ]; then
    echo "$warnings" | sed "s|^|man: $name: |" >&2
    failed=1
  fi
  if ! LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$page" 2>/dev/null | col -bx | python3 -c '
import sys, unicodedata
def width(line):
    return sum(0 if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf")
               else 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in line)
wide = [(n, line) for n, line in enumerate(sys.stdin.read().split("\n"), 1) if width(line) > 80]
for n, line in wide:
    print(f"man: {sys.argv[1]}: rendered line {n} is {width(line)} columns wide (at most 80): {line.strip()}", file=sys.stderr)
sys.exit(1 if wide else 0)
' "$name"; then
    failed=1
  fi
done
[ "$failed" -eq 0 ] || exit 1
echo "man: $(ls ./*.[1-9] | wc -l) pages lint clean, within 80 columns at MANWIDTH=80, no groff warnings"
