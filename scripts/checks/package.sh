#!/usr/bin/env bash
# The Debian package (issue 22): scripts/package builds it from the release binary scripts/test
# built; lintian reports no error; then it is installed with apt-get (as root; refused when a
# corsano package is installed already) and removed again on every way out, and the installed
# files answer: `corsano --version`, `man -w corsano-bp-init`, and bash-completion completing
# `corsano bp-` to bp-init through its on-demand loader.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  as_root=(sudo)
else
  echo "package: installing the .deb needs root (CI runs as root): run scripts/test as root" >&2
  exit 1
fi
if [ "$(dpkg-query -W -f='${db:Status-Status}' corsano 2>/dev/null)" = installed ]; then
  echo "package: a corsano package is installed already; this check installs and removes its own:" >&2
  echo "apt-get remove corsano, then run it again" >&2
  exit 1
fi

out=$(mktemp -d "${TMPDIR:-/tmp}/corsano-package.XXXXXX")
installed=0
cleanup() {
  if [ "$installed" -eq 1 ]; then
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq corsano >/dev/null || true
  fi
  rm -rf "$out"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

deb=$(scripts/package "$out")
echo "package: $(basename "$deb")"
dpkg-deb --info "$deb" | sed -n 's/^ \(Depends\|Recommends\|Suggests\):/  \1:/p'
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/bin/corsano > "$out/corsano"
if ! readelf -d "$out/corsano" >"$out/dynamic" || grep -Eq '\((RPATH|RUNPATH)\)' "$out/dynamic"; then
  echo "package: usr/bin/corsano has an RPATH/RUNPATH" >&2
  exit 1
fi
lintian --fail-on error "$deb" || { echo "package: lintian reports errors (above)" >&2; exit 1; }
echo "package: lintian reports no error"

installed=1
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$deb" >/dev/null
failures=0
check() {  # check NAME EXPECTED COMMAND...: the command succeeds and prints EXPECTED
  local name=$1 expected=$2 got status=0; shift 2
  got=$("$@" 2>&1) || status=$?
  if [ "$status" -ne 0 ] || ! grep -qxF -- "$expected" <<<"$got"; then
    echo "FAIL $name: exit $status, expected the line '$expected' in:" >&2
    printf '%s\n' "$got" | head -20 >&2
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}
version=$(dpkg-deb --field "$deb" Version)
check "corsano --version" "corsano ${version%-*}" env -i PATH=/usr/bin:/bin /usr/bin/corsano --version
check "man -w corsano-bp-init" "/usr/share/man/man1/corsano-bp-init.1.gz" man -w corsano-bp-init
# A new bash as a user's would be: bash-completion loads corsano's completion on first use.
check "bash completes corsano bp-" "bp-init" env -i PATH=/usr/bin:/bin HOME="$out" bash --norc --noprofile -c '
  source /usr/share/bash-completion/bash_completion
  __load_completion corsano || exit 1
  COMP_WORDS=(corsano bp-) COMP_CWORD=1 COMP_LINE="corsano bp-" COMP_POINT=11
  "$(complete -p corsano | sed -n "s/.*-F \([^ ]*\) .*/\1/p")" corsano bp- corsano
  printf "%s\n" "${COMPREPLY[@]}"'
[ "$failures" -eq 0 ] || { echo "package: $failures failed" >&2; exit 1; }
echo "package: installed, answered, removed"
