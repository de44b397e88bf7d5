#!/usr/bin/env python3
"""Python doing `corsano cuff ingest --from googlefit`'s work on a Takeout file: json.load, then
a loop writing each blood-pressure point as a reading line (systolic, diastolic, measuredAt,
isManualEntry, originDataSourceId) and counting the rejected ones.

usage: googlefit_load.py FILE
"""
import json, sys
from datetime import datetime, timezone

doc = json.load(open(sys.argv[1], encoding="utf-8"))
source = doc.get("Data Source")
out = sys.stdout
rejected = 0
for p in doc["Data Points"]:
    values = p.get("fitValue", [])
    if len(values) < 2:
        rejected += 1
        continue
    sys_, dia = (round(v["value"]["fpVal"]) for v in values[:2])
    seconds, nanos = divmod(int(p["startTimeNanos"]), 10**9)
    at = datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S") + (f".{nanos:09d}".rstrip("0") if nanos else "") + "Z"
    origin = p.get("originDataSourceId") or source
    out.write(json.dumps({"systolic": sys_, "diastolic": dia, "measuredAt": at, "isManualEntry": origin.endswith(":user_input"),
                          "originDataSourceId": origin}, separators=(",", ":")) + "\n")
print(f"rejected {rejected}", file=sys.stderr)
