#!/usr/bin/env bash
# Benchmark (not a test): `corsano replay-filter` against jq doing the same time filter, side by
# side in one run, on N lines (default 1,000,000) from bench/gen_readings.py.
# Targets (issue 3): >= 15x jq with --no-state, >= 5x jq with the SQLite seen-set; peak memory flat
# apart from the seen-set. Needs python3, jq and GNU time (/usr/bin/time, package `time`).
#
# usage: bench/replay-filter.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
gen=bench/gen_readings.py
[ -x /usr/bin/time ] || { echo "/usr/bin/time missing: apt-get install time" >&2; exit 69; }

swift build -c release --product corsano >/dev/null
bin=$(swift build -c release --show-bin-path)/corsano
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$gen" "$n" > "$work/in.jsonl"
since=2026-11-01T00:00:00Z   # every generated stamp is at or after this: all lines pass the time rule

# run NAME CMD...: elapsed and CPU (user+sys) seconds and peak RSS (KiB) of CMD, stdout to
# $work/NAME.out. CPU time is the fairer ratio on a shared machine; both are printed.
run() {
  local name=$1; shift
  /usr/bin/time -f '%e %U %S %M' -o "$work/$name.time" "$@" < "$work/in.jsonl" > "$work/$name.out" 2> "$work/$name.err" || true
  read -r secs user sys rss < "$work/$name.time"
  local cpu
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  printf '%-10s %7.2f s elapsed %7.2f s CPU %9d KiB peak %8d lines out\n' "$name" "$secs" "$cpu" "$rss" "$(wc -l < "$work/$name.out")"
  eval "t_${name//-/_}=$secs c_${name//-/_}=$cpu"
}

echo "replay-filter benchmark: $n lines ($(du -h "$work/in.jsonl" | cut -f1)), $(nproc) cores"
run jq jq -c "select(.measuredAt >= \"$since\")"
run no-state "$bin" replay-filter --no-state --requested-at "$since" --backdate 0 --max-reading-age none
run sqlite "$bin" replay-filter --state "$work/state.sqlite3" --requested-at "$since" --backdate 0 --max-reading-age none
tail -1 "$work/sqlite.err"
awk -v jq="$t_jq" -v ns="$t_no_state" -v sq="$t_sqlite" -v cjq="$c_jq" -v cns="$c_no_state" -v csq="$c_sqlite" '
function r(a, b) { return a / (b > 0 ? b : 0.01) }
BEGIN {
  printf "ratio jq/no-state: %5.1fx elapsed, %5.1fx CPU (target >= 15x)\n", r(jq, ns), r(cjq, cns)
  printf "ratio jq/sqlite:   %5.1fx elapsed, %5.1fx CPU (target >= 5x)\n", r(jq, sq), r(cjq, csq)
}'
