#!/usr/bin/env python3
"""Write a Google Fit Takeout blood-pressure file of N data points (pretty-printed as Takeout
writes it: 4-space indent), every 10th typed in the Fit app (user_input), every 50th holding only its
systolic (a rejected point: diastolic missing).

usage: gen_googlefit.py N [SEED] > raw_com.google.blood_pressure.json
"""
import json, random, sys

n = int(sys.argv[1]); rnd = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 7)
typed = "raw:com.google.blood_pressure:com.google.android.apps.fitness:user_input"
cuff = "raw:com.google.blood_pressure:com.omronhealthcare.omronconnect:OMRON:HEM-7361T"
t0 = 1_733_040_000 * 10**9
out = sys.stdout
out.write('{\n    "Data Source": ' + json.dumps(typed) + ',\n    "Data Points": [\n')
for i in range(n):
    sys_ = rnd.randint(95, 175); dia = rnd.randint(55, min(110, sys_ - 20))
    values = [{"value": {"fpVal": float(sys_)}}] + ([] if i % 50 == 49 else [
        {"value": {"fpVal": float(dia)}}, {"value": {"intVal": 2}}, {"value": {"intVal": 3}}])
    t = t0 + i * 60 * 10**9
    point = {"fitValue": values, "originDataSourceId": typed if i % 10 == 0 else cuff, "endTimeNanos": t,
             "dataTypeName": "com.google.blood_pressure", "startTimeNanos": t, "modifiedTimeMillis": t // 10**6 + 31337,
             "rawTimestampNanos": 0}
    text = json.dumps(point, indent=4)
    out.write("        " + text.replace("\n", "\n        ") + (",\n" if i + 1 < n else "\n"))
out.write("    ]\n}\n")
