#!/bin/sh
# Calibrate many bracelets at once: one `corsano bp-init` per station, in parallel, all on one
# state store (its seen-set, plan journal and audit log are shared safely between processes).
# Every event names its bracelet, so the runs write one log, split afterwards into one log per
# bracelet; the summary comes from `corsano history`.
#
# usage: calibrate-many.sh STATIONS STATE LOGDIR
#   STATIONS  lines of "BRACELET-URI CUFF-FILE" (# comments; paths relative to STATIONS' folder)
#   STATE     the state store (a file; all runs share it)
#   LOGDIR    gets all.jsonl (every event), SERIAL.jsonl per bracelet, errors.log, summary.txt
# Exit status: 0 when every bracelet was calibrated, else the highest bp-init status.
# CORSANO names the binary (default: corsano on PATH).
set -u
corsano=${CORSANO:-corsano}
stations=$1 state=$2 logs=$3
base=$(cd "$(dirname "$stations")" && pwd)
mkdir -p "$logs"
: > "$logs/all.jsonl"
: > "$logs/errors.log"
since=$(date -u +%Y-%m-%dT%H:%M:%SZ)

pids=""
while read -r bracelet cuff rest; do
  case $bracelet in ''|'#'*) continue ;; esac
  case $bracelet in sim:/*|sim) ;; sim:*) bracelet="sim:$base/${bracelet#sim:}" ;; esac
  case $cuff in /*) ;; *) cuff="$base/$cuff" ;; esac
  # Each event is one line written at once: appending runs share the log without mixing lines.
  # --quiet: errors.log gets errors only, not each run's notes and closing counts.
  "$corsano" bp-init --json --quiet --bracelet "$bracelet" --cuff "$cuff" --state "$state" \
    >> "$logs/all.jsonl" 2>> "$logs/errors.log" &
  pids="$pids $!"
done < "$stations"

worst=0
for pid in $pids; do
  wait "$pid"; status=$?
  [ "$status" -gt "$worst" ] && worst=$status
done

# One log per bracelet, by the serial every event carries.
for serial in $(jq -r '.bracelet // empty' "$logs/all.jsonl" | sort -u); do
  jq -c --arg serial "$serial" 'select(.bracelet == $serial)' "$logs/all.jsonl" > "$logs/$serial.jsonl"
done

# The summary: what the audit log recorded for these runs.
"$corsano" history --json --since "$since" --state "$state" |
  jq -r '[.bracelet.serial, .result.kind, "readings \(.readings | length)",
          "attempts \(.readings | map(.attempt) | max // 0)"] | @tsv' |
  sort > "$logs/summary.txt"
cat "$logs/summary.txt"
exit "$worst"
