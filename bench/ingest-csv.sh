#!/usr/bin/env bash
# Benchmark (not a test): `corsano cuff ingest` against DuckDB doing the same work on the same
# OMRON connect-style CSV (bench/gen_omron_csv.py: a Timezone column per row): the same five
# JSON fields with each row's zone applied (bench/duckdb_ingest.py; issue 29: before, DuckDB ran
# `SELECT *` with no zone, not the same work). Side by side in one run: wall time, CPU time
# (user+sys), the ratio (DuckDB / ingest), peak RSS, the load average of the (shared) machine
# before each run, and whether both wrote the same records.
#   bench/ingest-csv.sh [ROWS...]     default: 1000000
# Targets (issues 13, 29): ingest >= 2x faster than DuckDB (wall, 2 cores), peak RSS <= 64 MB.
# DuckDB comes from PyPI into a virtualenv this script makes (bench/out/venv); both are whole
# processes reading the file from the page cache and writing JSON lines to /dev/null.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000000)
. bench/lib.sh
venv=bench/out/venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet duckdb >&2
fi
duckdb_version=$("$venv/bin/python" -c 'import duckdb; print(duckdb.__version__)')

echo "duckdb $duckdb_version (python), corsano $("$bin" --version)"
printf '%-8s %9s %9s %7s %9s %9s %7s %9s %9s %6s %6s  %s\n' rows ingest_s duckdb_s ratio ingest_cpu duckdb_cpu ratio \
  ingest_mb duckdb_mb load1 load2 ingest_summary
for n in "${sizes[@]}"; do
  file=bench/out/omron-$n.csv
  [ -s "$file" ] || python3 bench/gen_omron_csv.py "$n" 7 > "$file"
  cat "$file" > /dev/null  # warm the page cache so both read the same file from memory
  l1=$(load)
  read -r ingest_s ingest_cpu ingest_kb < <(measure "$bin" cuff ingest --from csv "$file")
  summary=$(tail -1 bench/out/stderr.txt | sed 's/^corsano: cuff ingest: //')
  l2=$(load)
  read -r duck_s duck_cpu duck_kb < <(measure "$venv/bin/python" bench/duckdb_ingest.py "$file")
  printf '%-8s %9s %9s %7s %9s %9s %7s %9s %9s %6s %6s  %s\n' "$n" "$ingest_s" "$duck_s" "$(ratio "$ingest_s" "$duck_s")" \
    "$ingest_cpu" "$duck_cpu" "$(ratio "$ingest_cpu" "$duck_cpu")" "$((ingest_kb / 1024))" "$((duck_kb / 1024))" "$l1" "$l2" "$summary"
done
# The same records: both outputs of the last size, DuckDB's "pulse":null read as no pulse. In a
# repeated hour (a DST fold) DuckDB takes the later offset, corsano the earlier with a note: those
# rows are counted apart, and must be exactly the rows corsano noted.
n=${sizes[-1]}
out=bench/out/ingest.jsonl measure "$bin" cuff ingest --from csv "bench/out/omron-$n.csv" > /dev/null
folds=$(grep -c "happened twice in" bench/out/stderr.txt || true)
out=bench/out/duckdb.jsonl measure "$venv/bin/python" bench/duckdb_ingest.py "bench/out/omron-$n.csv" > /dev/null
differ=$(sed 's/"pulse":null,//' bench/out/duckdb.jsonl | diff - bench/out/ingest.jsonl | grep -c '^>' || true)
if [ "$differ" = "$folds" ]; then
  echo "same records: yes ($n rows; $folds in repeated hours, where DuckDB takes the later offset and corsano the earlier, with a note)"
else
  echo "same records: NO ($differ rows differ, $folds in repeated hours; diff bench/out/ingest.jsonl bench/out/duckdb.jsonl)"
fi
