#!/usr/bin/env bash
# CI smoke of the libFuzzer targets: builds each (so a broken target fails CI) and runs it a few
# seconds on the seed corpus from Tests/Fixtures. The long runs are `scripts/fuzz.sh TARGET`.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p fuzz/out
for target in ble csv json applehealth googlefit; do
  echo "fuzz-smoke: $target"
  FUZZ_SECONDS=${FUZZ_SMOKE_SECONDS:-5} scripts/fuzz.sh "$target" > "fuzz/out/$target-smoke.log" 2>&1 || {
    status=$?
    tail -40 "fuzz/out/$target-smoke.log" >&2
    echo "fuzz-smoke: $target failed (exit $status)" >&2
    exit 1
  }
  grep -E "^Done [0-9]+ runs" "fuzz/out/$target-smoke.log"
done
