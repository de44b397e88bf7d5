#!/usr/bin/env bash
# Benchmark (not a test): what the SQLite store's damage checks cost a `replay-filter` run
# (docs/design.md "State store": PRAGMA quick_check and the seen-set's row checksums against
# its digest, before a record is handed on). N lines (default 1,000,000) from
# bench/gen_readings.py go through replay-filter into a new store (run "fresh": the check sees
# an empty set), then again (run "replay": every line already seen, the check reads all N rows).
# The checks' own time is what the binary reports for their statements at -vv, printed as a
# share of the replay run (wall time). Target: at most 5 %.
# Needs python3, GNU time. CORSANO_BIN names a binary (default: a release build).
#
# usage: bench/store-check.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
. bench/lib.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 bench/gen_readings.py "$n" > "$work/in.jsonl"
args=(replay-filter --state "$work/state.sqlite3" --requested-at 2026-11-01T00:00:00Z --backdate 0 --max-reading-age none)
echo "store-check benchmark: $n lines, $(nproc) cores, load $(load)"
read -r t1 c1 m1 < <(measure "$bin" "${args[@]}" < "$work/in.jsonl")
read -r t2 c2 m2 < <(measure "$bin" "${args[@]}" < "$work/in.jsonl")
# The checks' own time, as the binary measures each statement at -vv (monotonic clock).
"$bin" "${args[@]}" -vv < "$work/in.jsonl" > /dev/null 2> "$work/vv.txt"
check=$(awk '/statement [0-9.]+ ms: (PRAGMA quick_check|SELECT count\(\*\), coalesce\(sum|SELECT seconds, packed FROM seen_reading WHERE scope)/ { ms += $4 } END { printf "%.3f", ms / 1000 }' "$work/vv.txt")
printf 'fresh   %6.2f s wall %6.2f s CPU %8d KiB\n' "$t1" "$c1" "$m1"
printf 'replay  %6.2f s wall %6.2f s CPU %8d KiB\n' "$t2" "$c2" "$m2"
printf 'checks  %6.3f s on %d rows (store %s): %.1f %% of the replay run (wall; the fresh run checks an empty set)\n' "$check" "$n" \
  "$(du -h "$work/state.sqlite3" | cut -f1)" "$(echo "100 * $check / $t2" | bc -l)"
