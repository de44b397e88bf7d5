#!/usr/bin/env bash
# Builds and runs one libFuzzer target over the CorsanoKit sources it needs.
#   scripts/fuzz.sh ble|csv|json|applehealth|googlefit [RUNS]     RUNS defaults to 1000000
#   scripts/fuzz.sh all [RUNS]              every target in turn, RUNS defaulting to 10000000
#                                           (issue 18's figure; not in CI: hours on 2 cores)
#   FUZZ_SECONDS=N scripts/fuzz.sh TARGET   run for N seconds instead (the CI smoke)
# Targets: fuzz/TARGET.swift. Seed corpora come from Tests/Fixtures (BLE vectors, CSV
# exports, reading lines, Apple Health export.xml and a zip of it, Google Fit Takeout); the growing corpus and the binary live in fuzz/out/TARGET (ignored).
# SWIFT_BACKTRACE=enable=no: with the backtracer on, a crash hangs instead of reporting.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh ble|csv|json|applehealth|googlefit|all [RUNS]}
if [ "$target" = all ]; then
  for each in ble csv json applehealth googlefit; do
    echo "== fuzz $each" >&2
    bash "$0" "$each" "${2:-10000000}"
  done
  exit 0
fi
runs=${2:-1000000}
K=Sources/CorsanoKit
base=("$K"/Model/*.swift "$K"/Time/*.swift "$K"/JSON/JSONValue.swift "$K"/JSON/JSONValue+Parse.swift "$K"/Ingest/IngestIssue.swift "$K"/Ingest/IngestRecord.swift
      "$K"/Ingest/ReadingValidator.swift "$K"/Ingest/BLE/*.swift "$K"/Ingest/Time/ClockAnchor.swift "$K"/JSON/ReadingLineError.swift)
case "$target" in
  ble)  sources=("${base[@]}") ;;
  csv)  sources=("${base[@]}" "$K"/Ingest/CSV/*.swift "$K"/Ingest/Time/ZoneReader.swift) ;;
  json) sources=("${base[@]}" "$K"/JSON/FastReadingScanner.swift "$K"/JSON/ReadingFields.swift "$K"/JSON/ReadingEssentials.swift
                 "$K"/JSON/ReadingLineParser.swift) ;;
  applehealth) sources=("${base[@]}" "$K"/Ingest/AppleHealth/*.swift "$K"/Ingest/CSV/CSVValue.swift "$K"/IO/ByteSource.swift
                        "$K"/IO/RandomAccessSource.swift "$K"/Ingest/TextDecoding.swift) ;;
  googlefit) sources=("${base[@]}" "$K"/Ingest/GoogleFit/*.swift "$K"/JSON/JSONValue+Accessors.swift "$K"/IO/ByteSource.swift) ;;
  *) echo "fuzz.sh: unknown target '$target' (ble, csv, json, applehealth, googlefit)" >&2; exit 64 ;;
esac

fixtures=Tests/Fixtures
out=fuzz/out/$target
mkdir -p "$out/corpus"
if [ -n "$fixtures" ]; then
  python3 - "$target" "$fixtures" "$out/corpus" <<'PY'
import json, os, subprocess, sys
target, fixtures, corpus = sys.argv[1:]
def put(name, data):
    with open(os.path.join(corpus, "seed-" + name), "wb") as f: f.write(data)
if target == "ble":
    for i, v in enumerate(json.load(open(os.path.join(fixtures, "ble/bpm-vectors.json")))):
        put(f"{i}", v["hex"].encode())
        put(f"{i}-line", f"2026-11-29T10:00:05Z\t{v['characteristic']} {v['hex']}".encode())
        put(f"{i}-raw", bytes.fromhex(v["hex"]))
    for name in ("nrf-connect-log.txt", "bls11-records.txt"):
        put(name, open(os.path.join(fixtures, "ble", name), "rb").read())
elif target == "applehealth":
    import io, zipfile
    xml = open(os.path.join(fixtures, "applehealth/export.xml"), "rb").read()
    put("export.xml", xml)
    body = xml[xml.index(b"<HealthData"):]
    put("body.xml", body)
    for i, part in enumerate(body.split(b"\n <Correlation")[1:]):
        put(f"correlation-{i}", b"<HealthData>\n <Correlation" + part.split(b"</Correlation>")[0] + b"</Correlation>\n</HealthData>\n")
    for method in (zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED):
        z = io.BytesIO()
        with zipfile.ZipFile(z, "w", method) as f:
            with f.open("apple_health_export/export.xml", "w", force_zip64=method == zipfile.ZIP_STORED) as w: w.write(body[:1500])
        put(f"zip-{method}", z.getvalue())
elif target == "googlefit":
    d = os.path.join(fixtures, "googlefit")
    for name in sorted(os.listdir(d)):
        data = open(os.path.join(d, name), "rb").read()
        put(name, data)
        put(name + "-compact", json.dumps(json.loads(data), separators=(",", ":")).encode())
elif target == "csv":
    d = os.path.join(fixtures, "csv")
    for name in sorted(os.listdir(d)):
        put(name, b"\x03" + open(os.path.join(d, name), "rb").read())
else:
    lines = open(os.path.join(fixtures, "jsonl/session-replay.jsonl"), "rb").read().splitlines()
    gen = subprocess.run([sys.executable, "bench/gen_readings.py", "20", "3"],
                         capture_output=True, check=True).stdout.splitlines()
    extra = [b'{"systolic":120,"diastolic":80,"receivedAt":"a\\"b\\u0001","userId":{"x":[1,2.5e3]},"isManualEntry":true}',
             b'{"error":"noReading"}', b'{"systolic":1e2,"diastolic":8E1,"measuredAt":"2026-11-29T10:00:00.123+05:30"}',
             b'{"systolic":9007199254740993,"diastolic":-9223372036854775808,"pulse":9223372036854775807,"meanArterialPressure":18446744073709551615}',
             b'{"systolic":9007199254740993.0,"diastolic":80,"pulse":12666066666666666666,"meanArterialPressure":9223372036854775806}']
    for i, line in enumerate(lines + gen + extra): put(f"{i}", line)
PY
fi

echo "building fuzz/$target.swift ($(echo "${sources[@]}" | wc -w) core sources)" >&2
# ld.gold warns once per ASan register thunk ("Cannot export local symbol"): noise, filtered.
# zlib (applehealth's export.zip): the CZlib module map, linked as the package links it.
zlib=()
[ "$target" = applehealth ] && zlib=(-I Sources/CZlib)
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name "Fuzz$target" "${zlib[@]}" \
  "${sources[@]}" "fuzz/$target.swift" -o "$out/fuzz-$target" 2> >(grep -v "Cannot export local symbol" >&2)

limit=(-runs="$runs")
[ -n "${FUZZ_SECONDS:-}" ] && limit=(-max_total_time="$FUZZ_SECONDS")
dict=()
[ -f "fuzz/$target.dict" ] && dict=(-dict="fuzz/$target.dict")
export SWIFT_BACKTRACE=enable=no
# A small quarantine: ASan's default 256 MB makes every allocation fault in fresh pages (2x slower).
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=16:malloc_context_size=5}
# An export's correlation with its records is about 1.5 KB; the seeds need room for a few.
maxlen=4096
case "$target" in applehealth|googlefit) maxlen=16384 ;; esac
exec "$out/fuzz-$target" "${limit[@]}" "${dict[@]}" -max_len=$maxlen -timeout=10 -print_final_stats=1 \
  -artifact_prefix="$out/" "$out/corpus"
