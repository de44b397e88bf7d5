# Sourced by bench/applehealth.sh and bench/ingest-csv.sh from the repository's root (not a
# benchmark of its own): GNU time present (exit 69 if not), bench/out made, corsano built as
# shipped (release, statically linked Swift runtime; a set CORSANO_BIN names a binary instead
# and skips the build) in $bin, and the helpers measure, ratio and load.
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time (GNU time) not installed" >&2; exit 69; }
mkdir -p bench/out
[ -n "${CORSANO_BIN:-}" ] || swift build -c release --static-swift-stdlib --product corsano >&2
bin=${CORSANO_BIN:-.build/release/corsano}

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
