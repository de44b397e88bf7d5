#!/usr/bin/env bash
# Benchmark (not a test): one whole `corsano bp-init` process on the fixture session
# (examples/session-replay.jsonl after `cuff ingest` with its anchor), embedded simulator,
# virtual clock, no state file. Target: <= 20 ms wall per run (issue 5).
# Side by side with `corsano --version` (the same binary's process start, the floor any run
# pays) so a loaded machine shows in the ratio. Uses hyperfine when installed, else a loop timed
# with date. Set CORSANO=path to skip the build (the README's release build is the default).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${CORSANO:-}" ]; then
  swift build -c release --static-swift-stdlib >/dev/null
  CORSANO=.build/release/corsano
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$CORSANO" cuff ingest --anchor-device 2025-01-01T00:03:10 --anchor-phone 2026-11-29T10:00:05Z \
  examples/session-replay.jsonl >"$work/session.jsonl" 2>/dev/null
run="$CORSANO bp-init --now 2026-11-29T10:00:30Z --no-state --cuff $work/session.jsonl"
pipeline="$CORSANO cuff ingest --anchor-device 2025-01-01T00:03:10 --anchor-phone 2026-11-29T10:00:05Z examples/session-replay.jsonl 2>/dev/null | $CORSANO bp-init --now 2026-11-29T10:00:30Z --no-state"
# Sanity: the run must end success(2), or the figure means nothing.
$run | tail -1 | grep -q '"result":{"kind":"success","measurementCount":2}' || { echo "bp-init did not succeed" >&2; exit 1; }
if command -v hyperfine >/dev/null; then
  # One hyperfine run, commands interleaved per round, so load hits them alike.
  hyperfine --warmup 5 --runs "${RUNS:-100}" -N --export-json "$work/h.json" "$run" "$CORSANO --version" >/dev/null 2>"$work/err" \
    || { cat "$work/err" >&2; exit 1; }
  hyperfine --warmup 5 --runs "${RUNS:-100}" --shell=bash --export-json "$work/p.json" "$pipeline" >/dev/null 2>"$work/err" \
    || { cat "$work/err" >&2; exit 1; }
  python3 - "$work/h.json" "$work/p.json" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))["results"]
p = json.load(open(sys.argv[2]))["results"]
def line(label, r):
    print(f"{label}: mean {r['mean']*1000:5.1f} ms  median {r['median']*1000:5.1f} ms  min {r['min']*1000:5.1f} ms  "
          f"user+sys {(r['user'] + r['system'])*1000:4.1f} ms  (n={len(r['times'])})")
line("bp-init, fixture session, whole process", h[0])
line("corsano --version (process start floor)", h[1])
line("cuff ingest | bp-init (pipeline)       ", p[0])
median = h[0]["median"] * 1000
print(f"ratio bp-init / --version (median): {h[0]['median'] / h[1]['median']:.2f}")
print(f"target <= 20 ms wall (median): {'met' if median <= 20 else 'NOT met'} ({median:.1f} ms)")
PY
else
  n=${RUNS:-100}
  start=$(date +%s%N)
  for _ in $(seq "$n"); do $run >/dev/null; done
  end=$(date +%s%N)
  ms=$(( (end - start) / n / 1000 ))
  echo "bp-init (fixture session, whole process): mean $((ms / 1000)).$(( (ms % 1000) / 100 )) ms over $n runs"
fi
