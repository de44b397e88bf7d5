#!/usr/bin/env python3
"""The comparison for bench/applehealth.sh: the usual Python way to pull blood pressure out of an
Apple Health export.xml (xml.etree.ElementTree.iterparse, elements cleared as it goes), writing the
fields `cuff ingest --from applehealth` writes, as JSON lines: systolic, diastolic, pulse (from a
heart-rate record of the same source at the same instant: a second pass, as ingest does),
measuredAt (UTC), isManualEntry, sourceName, device.

usage: applehealth_iterparse.py export.xml > readings.jsonl
"""
import json, sys
import xml.etree.ElementTree as ET
from datetime import datetime, timezone

path = sys.argv[1]
BP = "HKCorrelationTypeIdentifierBloodPressure"
SYS, DIA = "HKQuantityTypeIdentifierBloodPressureSystolic", "HKQuantityTypeIdentifierBloodPressureDiastolic"
HR = "HKQuantityTypeIdentifierHeartRate"

def instant(s):
    return datetime.strptime(s, "%Y-%m-%d %H:%M:%S %z").astimezone(timezone.utc)

readings = []
depth = 0
root = None
for event, el in ET.iterparse(path, events=("start", "end")):
    if event == "start":
        depth += 1
        if root is None: root = el
        continue
    depth -= 1
    if depth == 1:
        if el.tag == "Correlation" and el.get("type") == BP:
            values, manual = {}, False
            for child in el.iter():
                if child.tag == "MetadataEntry" and child.get("key") == "HKWasUserEntered" and child.get("value") == "1":
                    manual = True
                if child.tag == "Record" and child.get("type") in (SYS, DIA):
                    values[child.get("type")] = round(float(child.get("value")))
            readings.append((values.get(SYS), values.get(DIA), instant(el.get("startDate")), manual, el.get("sourceName"), el.get("device")))
        root.clear()  # the elements read so far: memory bounded

wanted = {(r[4], r[2]) for r in readings}
pulses = {}
for event, el in ET.iterparse(path, events=("end",)):
    if el.tag == "Record":
        if el.get("type") == HR and (el.get("sourceName"), instant(el.get("startDate"))) in wanted:
            pulses[(el.get("sourceName"), instant(el.get("startDate")))] = round(float(el.get("value")))
        el.clear()

out = sys.stdout
for sys_, dia, at, manual, source, device in readings:
    o = {"systolic": sys_, "diastolic": dia}
    if (source, at) in pulses: o["pulse"] = pulses[(source, at)]
    o["measuredAt"] = at.strftime("%Y-%m-%dT%H:%M:%SZ")
    o["isManualEntry"] = manual
    o["sourceName"] = source
    if device is not None: o["device"] = device
    out.write(json.dumps(o, ensure_ascii=False, separators=(",", ":")) + "\n")
