#!/usr/bin/env bash
# An installed binary needs nothing from the build folder (issue 8): take the release binary
# (Swift runtime linked in; scripts/release-binary), copy it alone to an empty directory, move
# .build away, and run the copy in German, Arabic and Georgian — by --lang and by the locale
# variables — on a real flow (bp-init and wearing-opt on the embedded simulator, text output),
# checking that each language's own script appears. .build is put back on every way out.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

bin=$(scripts/release-binary)

tmp=$(mktemp -d)
parked="$root/.build.parked-$$"
restore() {
  if [ -d "$parked" ]; then
    rm -rf "$root/.build" 2>/dev/null || true
    mv "$parked" "$root/.build"
  fi
  rm -rf "$tmp"
}
trap restore EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

cp "$bin" "$tmp/corsano"
# The Swift runtime is linked in: the copy loads no libswift*.so from the toolchain.
if command -v ldd >/dev/null && ldd "$tmp/corsano" | grep -q 'libswift\|libFoundation'; then
  echo "installed-binary: the release binary still loads Swift runtime libraries:" >&2
  ldd "$tmp/corsano" | grep 'libswift\|libFoundation' >&2
  exit 1
fi
cp "$root/examples/session-replay.jsonl" "$tmp/cuff.jsonl"
mv "$root/.build" "$parked"

failures=0
# run NAME EXPECTED [ENV...] -- ARGS...: runs the copy from the empty directory with a minimal
# environment and checks that stdout contains EXPECTED.
run() {
  local name=$1 expected=$2; shift 2
  local env=()
  while [ "$1" != "--" ]; do env+=("$1"); shift; done
  shift
  local out status=0
  out=$(cd "$tmp" && env -i PATH=/usr/bin:/bin HOME="$tmp" "${env[@]}" ./corsano "$@" 2>"$tmp/stderr") || status=$?
  if [ "$status" -ne 0 ] || ! grep -qF -- "$expected" <<<"$out"; then
    echo "FAIL $name: exit $status, expected '$expected' in:" >&2
    printf '%s\n' "$out" | head -20 >&2
    head -5 "$tmp/stderr" >&2
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}

# Turn the shipped cuff dump (a cuff clock 23 months behind) into anchored readings, then
# calibrate the simulated bracelet against them, as the README's main job does.
(cd "$tmp" && env -i PATH=/usr/bin:/bin HOME="$tmp" ./corsano cuff ingest \
  --anchor-device 2025-01-01T00:03:10 --anchor-phone 2026-11-29T10:00:05Z cuff.jsonl >readings.jsonl)
flow=(bp-init --text --no-state --now 2026-11-29T10:00:30Z --cuff readings.jsonl)

run "de via --lang" "Drücken Sie START am Blutdruckmessgerät." -- "${flow[@]}" --lang de
run "ar via --lang" "اضغط START على جهاز قياس ضغط الدم." -- "${flow[@]}" --lang ar
run "ka via --lang" "დააჭირეთ START-ს წნევის აპარატზე." -- "${flow[@]}" --lang ka
run "de via LANG" "Kalibrierung abgeschlossen" LANG=de_DE.UTF-8 -- "${flow[@]}"
run "ar via LC_ALL" "اكتملت المعايرة" LC_ALL=ar_EG.UTF-8 LANG=de_DE.UTF-8 -- "${flow[@]}"
run "ka via LC_MESSAGES" "კალიბრაცია დასრულდა" LC_MESSAGES=ka_GE.UTF-8 -- "${flow[@]}"
run "en for C" "Press START on the BP cuff monitor." LANG=C -- "${flow[@]}"

# Wearing optimization (progress bar, profile values) on a profile pushed to the simulator.
(cd "$tmp" && env -i PATH=/usr/bin:/bin HOME="$tmp" ./corsano profile push --state state.sqlite3 --json \
  --height 178 --weight 74 --wrist left --gender male --unit metric --birthdate 1980-04-02 \
  --skin-tone 3 --hair-density low >/dev/null)
run "wearing-opt ar" "اكتمل تحسين ارتداء السوار" -- wearing-opt --text --state state.sqlite3 --lang ar
run "wearing-opt ka" "სიგნალის ხარისხი" LANG=ka_GE.UTF-8 -- wearing-opt --text --state state.sqlite3

[ "$failures" -eq 0 ] || { echo "installed-binary: $failures failed" >&2; exit 1; }
echo "installed-binary: the copied release binary speaks de, ar and ka without .build"
