#!/usr/bin/env bash
# Benchmark (not a test): `corsano cuff ingest --from googlefit` against Python's json.load and a
# loop writing the same reading lines (bench/googlefit_load.py), in interleaved pairs (bench/lib.sh
# `pairs`), on Takeout files of N points (bench/gen_googlefit.py), and whether both wrote the same
# readings. Targets (bench/README.md): >= 3x Python; peak RSS <= 64 MB at 200,000 and 2,000,000
# points (the document is read point by point).
#   bench/googlefit.sh [POINTS...]      default: 200000 2000000
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(200000 2000000)
runs=${PAIRS:-7}
. bench/lib.sh
for n in "${sizes[@]}"; do
  file=bench/out/googlefit-$n.json
  [ -s "$file" ] || python3 bench/gen_googlefit.py "$n" > "$file"
  cat "$file" > /dev/null
  out=bench/out/corsano-fit.jsonl measure "$bin" cuff ingest --from googlefit "$file" > /dev/null
  out=bench/out/python-fit.jsonl measure python3 bench/googlefit_load.py "$file" > /dev/null
  same=$(cmp -s bench/out/corsano-fit.jsonl bench/out/python-fit.jsonl && echo yes || echo NO)
  echo "googlefit $n points ($(du -h "$file" | cut -f1)): same readings as Python: $same"
  cmd_a=("$bin" cuff ingest --from googlefit "$file")
  cmd_b=(python3 bench/googlefit_load.py "$file")
  pairs "$runs" corsano python
  tail -1 bench/out/corsano.err
done
