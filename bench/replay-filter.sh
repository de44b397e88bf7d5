#!/usr/bin/env bash
# Benchmark (not a test): `corsano replay-filter` against jq doing the same time filter, side by
# side in one run, on N lines (default 1,000,000) from bench/gen_readings.py.
# Targets (issue 3): >= 15x jq with --no-state, >= 5x jq with the SQLite seen-set; peak memory flat
# apart from the seen-set. Issue 16: >= 2x jq with the PostgreSQL seen-set on loopback (a throwaway
# server started here, as the postgres user when run as root; default durability settings).
# Needs python3, jq, GNU time (/usr/bin/time, package `time`) and postgresql (initdb, pg_ctl).
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
pgdir=$(mktemp -d /tmp/corsano-bench-pg.XXXXXX)
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$pgbin/initdb" ] || { echo "initdb missing: apt-get install postgresql" >&2; exit 69; }
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$pgdir"
stop_pg() { as_pg "$pgbin/pg_ctl" -D "$pgdir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$pgdir"; }
trap 'stop_pg; rm -rf "$work"' EXIT
as_pg "$pgbin/initdb" -D "$pgdir/data" -U postgres -A trust --no-sync >/dev/null
port=$(( 20000 + RANDOM % 30000 ))
as_pg "$pgbin/pg_ctl" -D "$pgdir/data" -l "$pgdir/server.log" -w \
  -o "-k $pgdir -p $port -c listen_addresses=127.0.0.1" start >/dev/null
pguri="postgresql://postgres@127.0.0.1:$port/postgres"
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

echo "replay-filter benchmark: $n lines ($(du -h "$work/in.jsonl" | cut -f1)), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
run jq jq -c "select(.measuredAt >= \"$since\")"
run no-state "$bin" replay-filter --no-state --requested-at "$since" --backdate 0 --max-reading-age none
run sqlite "$bin" replay-filter --state "$work/state.sqlite3" --requested-at "$since" --backdate 0 --max-reading-age none
tail -1 "$work/sqlite.err"
# The same claims on the server over TCP loopback: per 64 KiB write of kept lines (about 600 keys), one
# transaction (BEGIN with txid_current(), an INSERT … ON CONFLICT DO NOTHING RETURNING of binary bigint
# arrays, COMMIT), durable before its lines are written (issue 28).
# The server's CPU (its processes and the backends it reaped), in clock ticks, around that run.
server_ticks() { awk '{ print $14 + $15 + $16 + $17 }' "/proc/$(head -1 "$pgdir/data/postmaster.pid")/stat"; }
before=$(server_ticks)
run postgres "$bin" replay-filter --state "$pguri" --requested-at "$since" --backdate 0 --max-reading-age none
tail -1 "$work/postgres.err"
sleep 1  # the backend is reaped after the client leaves
echo "postgres server CPU: $(awk -v t=$(( $(server_ticks) - before )) -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz }') s"
# The same file again on the same store: every key is held, so every batch goes through ON CONFLICT
# and all lines are dropped (not a target: what a replayed dump costs).
run pg-again "$bin" replay-filter --state "$pguri" --requested-at "$since" --backdate 0 --max-reading-age none
tail -1 "$work/pg-again.err"
# With the default --max-reading-age (900 s) every generated reading is stale or future: each such line
# asks the seen-set whether its record was handed on (rule 3 before age), once per batch on PostgreSQL.
run pg-stale "$bin" replay-filter --state "$pguri" --scope stale --requested-at "$since" --backdate 0
tail -1 "$work/pg-stale.err"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v jq="$t_jq" -v ns="$t_no_state" -v sq="$t_sqlite" -v pg="$t_postgres" -v pga="$t_pg_again" -v pgs="$t_pg_stale" -v cjq="$c_jq" -v cns="$c_no_state" \
    -v csq="$c_sqlite" -v cpg="$c_postgres" '
function r(a, b) { return a / (b > 0 ? b : 0.01) }
BEGIN {
  printf "ratio jq/no-state: %5.1fx elapsed, %5.1fx CPU (target >= 15x)\n", r(jq, ns), r(cjq, cns)
  printf "ratio jq/sqlite:   %5.1fx elapsed, %5.1fx CPU (target >= 5x)\n", r(jq, sq), r(cjq, csq)
  printf "ratio jq/postgres: %5.1fx elapsed, %5.1fx CPU of corsano alone (target >= 2x elapsed)\n", r(jq, pg), r(cjq, cpg)
  printf "ratio jq/postgres, every key already held: %5.1fx elapsed\n", r(jq, pga)
  printf "ratio jq/postgres, every line stale or future: %5.1fx elapsed\n", r(jq, pgs)
}'
