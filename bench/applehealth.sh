#!/usr/bin/env bash
# Benchmark (not a test): `corsano cuff ingest --from applehealth` against a Python
# xml.etree.ElementTree.iterparse script writing the same fields (bench/applehealth_iterparse.py),
# side by side on the same export.xml (bench/gen_health_export.py: correlations, their top-level
# copies, heart rate, other record types, workouts): wall time, CPU time (user+sys), the ratios,
# peak RSS, the load average before each run, and whether both wrote the same readings.
#   bench/applehealth.sh [MB...]      default: 1024
# Targets (issue 30): ingest >= 5x faster than the iterparse script, peak RSS <= 64 MB.
# HEALTHKIT_TO_SQLITE=1 also times healthkit-to-sqlite (PyPI, in bench/out/venv) on the same file
# for context: it converts every record type into SQLite, not the same work.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1024)
. bench/lib.sh

printf '%-6s %9s %9s %7s %10s %10s %7s %9s %9s %6s %6s %5s  %s\n' MB ingest_s python_s ratio ingest_cpu python_cpu ratio \
  ingest_mb python_mb load1 load2 same ingest_summary
for mb in "${sizes[@]}"; do
  file=bench/out/export-$mb.xml
  [ -s "$file" ] || python3 bench/gen_health_export.py "$mb" > "$file"
  cat "$file" > /dev/null  # warm the page cache so both read the same file from memory
  l1=$(load)
  read -r ingest_s ingest_cpu ingest_kb < <(out=bench/out/ingest.jsonl measure "$bin" cuff ingest --from applehealth "$file")
  summary=$(tail -1 bench/out/stderr.txt | sed 's/^corsano: cuff ingest: //')
  l2=$(load)
  read -r py_s py_cpu py_kb < <(out=bench/out/python.jsonl measure python3 bench/applehealth_iterparse.py "$file")
  same=$(cmp -s bench/out/ingest.jsonl bench/out/python.jsonl && echo yes || echo NO)
  printf '%-6s %9s %9s %7s %10s %10s %7s %9s %9s %6s %6s %5s  %s\n' "$mb" "$ingest_s" "$py_s" "$(ratio "$ingest_s" "$py_s")" \
    "$ingest_cpu" "$py_cpu" "$(ratio "$ingest_cpu" "$py_cpu")" "$((ingest_kb / 1024))" "$((py_kb / 1024))" "$l1" "$l2" "$same" "$summary"
  if [ -n "${HEALTHKIT_TO_SQLITE:-}" ]; then
    venv=bench/out/venv
    [ -x "$venv/bin/healthkit-to-sqlite" ] || { python3 -m venv "$venv" >&2; "$venv/bin/pip" install --quiet healthkit-to-sqlite >&2; }
    rm -f bench/out/healthkit.db
    # It reads export.zip (or export.xml with --xml).
    read -r hk_s hk_cpu hk_kb < <(measure "$venv/bin/healthkit-to-sqlite" "$file" bench/out/healthkit.db --xml)
    echo "healthkit-to-sqlite (every record type into SQLite, for context): ${hk_s} s wall, ${hk_cpu} s CPU, $((hk_kb / 1024)) MB"
  fi
done
