# Sourced by every bench/*.sh from the repository's root (not a benchmark of its own): GNU time
# present (exit 69 if not), bench/out made, corsano built as shipped, the way scripts/release-binary
# builds it (release, statically linked Swift runtime; a set CORSANO_BIN names a binary instead
# and skips the build) in $bin, and the helpers measure, ratio, load and pairs.
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time (GNU time) not installed" >&2; exit 69; }
mkdir -p bench/out
bin=${CORSANO_BIN:-$(scripts/release-binary)}

# Runs "$@" with stdout to $out (default /dev/null); prints "WALL_SECONDS CPU_SECONDS MAX_RSS_KB".
out=/dev/null
measure() {
  /usr/bin/time -f "%e %U %S %M" -o bench/out/time.txt "$@" > "$out" 2> bench/out/stderr.txt || true
  awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' bench/out/time.txt
}
# B / A to two decimals, e.g. `2.31x` (inf when A is 0).
ratio() { python3 -c "import sys; a,b=map(float,sys.argv[1:]); print(f'{b/a:.2f}x' if a > 0 else 'inf')" "$1" "$2"; }
# The machine's 1-minute load average (it is shared: said beside each run).
load() { cut -d' ' -f1 /proc/loadavg; }

# pairs N NAME_A NAME_B: runs the commands in the arrays cmd_a and cmd_b N times each in
# interleaved pairs (A B, then B A, ...: a load that comes and goes hits both alike), each
# before-run hook `before_a`/`before_b` (a function, if defined: a fresh store) outside the timing,
# stdout to $out_a / $out_b (default /dev/null), stderr of the last run in bench/out/NAME.err.
# Prints one line: the median wall and CPU seconds and peak RSS (MiB) of each, the per-pair ratio
# B/A of wall and of CPU time as median [min-max], and the load before and after.
pairs() {
  local n=$1 a=$2 b=$3 i rows=bench/out/pairs.txt first second l1 l2
  : > "$rows"
  l1=$(load)
  for ((i = 0; i < n; i++)); do
    if ((i % 2 == 0)); then first=a second=b; else first=b second=a; fi
    local -A got=()
    for side in $first $second; do
      if declare -F "before_$side" > /dev/null; then "before_$side"; fi
      local -n cmd="cmd_$side" dest="out_$side"
      local name; [ "$side" = a ] && name=$a || name=$b
      /usr/bin/time -f "%e %U %S %M" -o bench/out/time.txt "${cmd[@]}" > "${dest:-/dev/null}" 2> "bench/out/$name.err" || true
      got[$side]=$(awk '{ printf "%s %.3f %s", $1, $2 + $3, $4 }' bench/out/time.txt)
      unset -n cmd dest
    done
    echo "${got[a]} ${got[b]}" >> "$rows"
  done
  l2=$(load)
  python3 - "$rows" "$a" "$b" "$l1" "$l2" <<'PY'
import statistics as st, sys
rows = [list(map(float, r.split())) for r in open(sys.argv[1]) if r.strip()]
a, b, l1, l2 = sys.argv[2:]
def med(i): return st.median(r[i] for r in rows)
def ratios(i, j): return [r[j] / r[i] if r[i] > 0 else float("inf") for r in rows]
def spread(v): return f"{st.median(v):.2f}x [{min(v):.2f}-{max(v):.2f}]"
print(f"{a}: wall {med(0):.2f} s, cpu {med(1):.2f} s, rss {max(r[2] for r in rows) / 1024:.0f} MiB | "
      f"{b}: wall {med(3):.2f} s, cpu {med(4):.2f} s, rss {max(r[5] for r in rows) / 1024:.0f} MiB | "
      f"{b}/{a} wall {spread(ratios(0, 3))}, cpu {spread(ratios(1, 4))} | {len(rows)} pairs, load {l1} -> {l2}")
PY
}
