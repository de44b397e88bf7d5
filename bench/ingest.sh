#!/usr/bin/env bash
# Benchmark (not a test): `corsano cuff ingest` against `jq -c .` on the same reading lines from
# bench/gen_readings.py, side by side in one run, at 100k and 1M lines, with
# wall time, the ratio (jq time / ingest time), and peak memory (max RSS) of each.
#   bench/ingest.sh [LINES...]      default: 100000 1000000
# Release build (statically linked Swift runtime, as shipped). Target: >= 10x jq, memory flat.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100000 1000000)
command -v jq >/dev/null || { echo "bench: jq not installed" >&2; exit 69; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time (GNU time) not installed" >&2; exit 69; }

swift build -c release --static-swift-stdlib --product corsano >&2
bin=.build/release/corsano
mkdir -p bench/out

# Runs "$@" with stdout to /dev/null; prints "WALL_SECONDS CPU_SECONDS MAX_RSS_KB".
measure() {
  /usr/bin/time -f "%e %U %S %M" -o bench/out/time.txt "$@" > /dev/null 2> bench/out/stderr.txt
  awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' bench/out/time.txt
}

ratio() { python3 -c "import sys; a,b=map(float,sys.argv[1:]); print(f'{b/a:.1f}x' if a > 0 else 'inf')" "$1" "$2"; }

# Wall time is what a pipeline sees; CPU time (user+sys) is steadier on a shared machine.
printf '%-8s %9s %9s %7s %9s %9s %7s %12s %10s  %s\n' lines ingest_s jq_s ratio ingest_cpu jq_cpu ratio ingest_rss_kb jq_rss_kb ingest_summary
for n in "${sizes[@]}"; do
  file=bench/out/readings-$n.jsonl
  [ -s "$file" ] || python3 bench/gen_readings.py "$n" 7 > "$file"
  # Warm the page cache so both read the same file from memory.
  cat "$file" > /dev/null
  read -r ingest_s ingest_cpu ingest_kb < <(measure "$bin" cuff ingest --from jsonl "$file")
  summary=$(tail -1 bench/out/stderr.txt | sed 's/^corsano: cuff ingest: //')
  read -r jq_s jq_cpu jq_kb < <(measure jq -c . "$file")
  printf '%-8s %9s %9s %7s %9s %9s %7s %12s %10s  %s\n' "$n" "$ingest_s" "$jq_s" "$(ratio "$ingest_s" "$jq_s")" \
    "$ingest_cpu" "$jq_cpu" "$(ratio "$ingest_cpu" "$jq_cpu")" "$ingest_kb" "$jq_kb" "$summary"
done
