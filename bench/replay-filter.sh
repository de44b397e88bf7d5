#!/usr/bin/env bash
# Benchmark (not a test): `corsano replay-filter` against peers doing the same work on N lines
# (default 1,000,000) from bench/gen_readings.py, in interleaved pairs (bench/lib.sh `pairs`:
# median and spread of the per-pair ratio, wall and CPU, peak RSS, the load).
#   - --no-state against DuckDB's and polars' ordered dedup (bench/duckdb_dedup.py,
#     bench/polars_dedup.py: the first line of each key kept, in input order), whose output must
#     be byte-identical to corsano's (checked, with its checksum);
#   - the SQLite store (a fresh file each run, the lab default) and a PostgreSQL store (a
#     throwaway local cluster from Debian's postgresql, a fresh scope each run) against --no-state.
# Targets (docs/design.md "State store"; bench/README.md): --no-state >= 3x DuckDB's dedup; the
# SQLite store <= 2.5x --no-state.
# Needs python3, GNU time, postgresql (initdb, pg_ctl), and DuckDB and polars from PyPI in a
# virtualenv this script makes (bench/out/venv).
#
# usage: bench/replay-filter.sh [N] [PAIRS]     (PAIRS default 7)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
runs=${2:-7}
. bench/lib.sh
venv=bench/out/venv
if ! "$venv/bin/python" -c 'import duckdb, polars' 2>/dev/null; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet duckdb polars >&2
fi
input=bench/out/readings-$n.jsonl
[ -s "$input" ] || python3 bench/gen_readings.py "$n" 7 > "$input"
cat "$input" > /dev/null  # warm the page cache: every run reads the file from memory
since=2026-11-01T00:00:00Z   # every generated stamp is at or after this: only rule 3 drops lines
filter=("$bin" replay-filter --requested-at "$since" --backdate 0 --max-reading-age none)
echo "replay-filter: $n lines ($(du -hL "$input" | cut -f1)), $(nproc) cores, corsano $("$bin" --version)," \
  "duckdb $("$venv/bin/python" -c 'import duckdb; print(duckdb.__version__)')," \
  "polars $("$venv/bin/python" -c 'import polars; print(polars.__version__)')"

# The same output: corsano's kept lines and DuckDB's, byte for byte.
out=bench/out/corsano.out measure "${filter[@]}" --no-state "$input" > /dev/null
out=bench/out/duckdb.out measure "$venv/bin/python" bench/duckdb_dedup.py "$input" > /dev/null
same=$(cmp -s bench/out/corsano.out bench/out/duckdb.out && echo yes || echo NO)
echo "same output as DuckDB: $same ($(wc -l < bench/out/corsano.out) lines, sha256 $(sha256sum < bench/out/corsano.out | cut -c1-16))"

cmd_a=("${filter[@]}" --no-state "$input")
cmd_b=("$venv/bin/python" bench/duckdb_dedup.py "$input")
pairs "$runs" no-state duckdb
cmd_b=("$venv/bin/python" bench/polars_dedup.py "$input")
pairs "$runs" no-state polars

store=bench/out/state.sqlite3
before_b() { rm -f "$store" "$store-wal" "$store-shm"; }
cmd_b=("${filter[@]}" --state "$store" "$input")
pairs "$runs" no-state sqlite
tail -1 bench/out/sqlite.err
unset -f before_b

if [ "${NO_POSTGRES:-}" != 1 ]; then
  pgdir=$(mktemp -d /tmp/corsano-bench-pg.XXXXXX)
  pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [ -x "$pgbin/initdb" ] || { echo "initdb missing: apt-get install postgresql (or NO_POSTGRES=1)" >&2; exit 69; }
  as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
  [ "$(id -u)" = 0 ] && chown postgres "$pgdir"
  trap 'as_pg "$pgbin/pg_ctl" -D "$pgdir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$pgdir"' EXIT
  as_pg "$pgbin/initdb" -D "$pgdir/data" -U postgres -A trust --no-sync >/dev/null
  port=$(( 20000 + RANDOM % 30000 ))
  as_pg "$pgbin/pg_ctl" -D "$pgdir/data" -l "$pgdir/server.log" -w \
    -o "-k $pgdir -p $port -c listen_addresses=127.0.0.1" start >/dev/null
  scope=0
  before_b() { scope=$((scope + 1)); cmd_b=("${filter[@]}" --state "postgresql://postgres@127.0.0.1:$port/postgres" --scope "run$scope" "$input"); }
  pairs "$runs" no-state postgres
  tail -1 bench/out/postgres.err
fi
