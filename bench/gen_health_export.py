#!/usr/bin/env python3
"""Write a synthetic Apple Health export.xml of about MB megabytes in the real structure.

usage: gen_health_export.py MB [SEED] > export.xml
The layout is Tests/Fixtures/applehealth/export.xml's (the export's DTD as an internal subset,
ExportDate, Me, top-level Records grouped by type, then the blood-pressure Correlations, Workouts
with children): per day, watch heart rate every ~5 minutes
(some with MetadataEntry), step counts, active energy, distance, body mass now and then, two cuff
readings (OMRON connect, with a heart-rate record of the app at the same instant; one in 40 a
typed entry in Health with HKWasUserEntered), their top-level copies, a workout. Offsets follow
New York's DST. Values are invented.
"""
import random, sys
from datetime import datetime, timedelta, timezone

mb = float(sys.argv[1]); rnd = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 30)
limit = int(mb * 1024 * 1024)
out = sys.stdout
fixture = open(__file__.rsplit("/", 2)[0] + "/Tests/Fixtures/applehealth/export.xml", encoding="utf-8").read()
head = fixture[:fixture.index(" <Record ")]
out.write(head)
written = len(head.encode())

def offset(t):  # America/New_York without a zone database: DST from the 2nd Sunday of March to the 1st of November
    def sunday(year, month, n):
        d = datetime(year, month, 1)
        d += timedelta(days=(6 - d.weekday()) % 7)
        return d + timedelta(weeks=n - 1)
    dst = sunday(t.year, 3, 2) + timedelta(hours=2) <= t < sunday(t.year, 11, 1) + timedelta(hours=2)
    return "-0400" if dst else "-0500"

def stamp(t):
    return t.strftime("%Y-%m-%d %H:%M:%S ") + offset(t)

WATCH = ('sourceName="Sam’s Apple Watch" sourceVersion="10.1" device="&lt;&lt;HKDevice: 0x283c1c140&gt;, name:Apple Watch, '
         'manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:10.1&gt;"')
PHONE = ('sourceName="Sam’s iPhone" sourceVersion="17.5.1" device="&lt;&lt;HKDevice: 0x283c1c1e0&gt;, name:iPhone, '
         'manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,5, software:17.5.1&gt;"')
OMRON = ('sourceName="OMRON connect" sourceVersion="2.24.0" device="&lt;&lt;HKDevice: 0x283c1c0a0&gt;, name:BP7450, '
         'manufacturer:OMRON HEALTHCARE, model:BP7450, localIdentifier:BP7450-0042&gt;"')
HEALTH = 'sourceName="Health" sourceVersion="17.5.1"'

def record(kind, src, unit, start, end, value, meta=""):
    s = (f' <Record type="HKQuantityTypeIdentifier{kind}" {src} unit="{unit}" creationDate="{stamp(end + timedelta(seconds=41))}" '
         f'startDate="{stamp(start)}" endDate="{stamp(end)}" value="{value}"')
    return s + (f">\n{meta} </Record>\n" if meta else "/>\n")

# One block of 28 days (2016-01-01..28) is generated, then written again for each month of each
# year from 2000 with its year and month replaced (a 1 GB file in about a minute instead of an
# hour): records grouped by type per block, then every block's correlations, then the workouts.
day = datetime(2016, 1, 1)
correlations, tail = [], []
chunks = {k: [] for k in ("HeartRate", "StepCount", "ActiveEnergyBurned", "DistanceWalkingRunning", "BodyMass",
                          "BloodPressureSystolic", "BloodPressureDiastolic")}
for _ in range(28):
    t = day + timedelta(hours=6)
    while t < day + timedelta(hours=23):
        meta = '  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/>\n' if rnd.random() < 0.2 else ""
        chunks["HeartRate"].append(record("HeartRate", WATCH, "count/min", t, t, rnd.randint(52, 120), meta))
        if rnd.random() < 0.5:
            e = t + timedelta(minutes=rnd.randint(1, 9))
            chunks["StepCount"].append(record("StepCount", PHONE, "count", t, e, rnd.randint(5, 900)))
            chunks["DistanceWalkingRunning"].append(record("DistanceWalkingRunning", PHONE, "mi", t, e, round(rnd.random(), 6)))
        chunks["ActiveEnergyBurned"].append(record("ActiveEnergyBurned", WATCH, "Cal", t, t + timedelta(minutes=1), round(rnd.random() * 5, 3)))
        t += timedelta(seconds=rnd.randint(200, 400))
    if rnd.random() < 0.2:
        t = day + timedelta(hours=7, minutes=5)
        chunks["BodyMass"].append(record("BodyMass", HEALTH, "lb", t, t, rnd.randint(160, 180),
                                         '  <MetadataEntry key="HKWasUserEntered" value="1"/>\n'))
    for hour in (7, 21):
        t = day + timedelta(hours=hour, minutes=rnd.randint(0, 50))
        typed = rnd.random() < 1 / 40
        src = HEALTH if typed else OMRON
        meta = '  <MetadataEntry key="HKWasUserEntered" value="1"/>\n' if typed else ""
        sys_, dia, pulse = rnd.randint(100, 165), rnd.randint(60, 95), rnd.randint(50, 100)
        if sys_ <= dia + 15: sys_ = dia + 30
        chunks["BloodPressureSystolic"].append(record("BloodPressureSystolic", src, "mmHg", t, t, sys_, meta))
        chunks["BloodPressureDiastolic"].append(record("BloodPressureDiastolic", src, "mmHg", t, t, dia, meta))
        chunks["HeartRate"].append(record("HeartRate", src, "count/min", t, t, pulse, meta))
        inner = "".join("  " + r.replace("\n ", "\n  ") for r in (record("BloodPressureSystolic", src, "mmHg", t, t, sys_, " " + meta if meta else ""),
                                                                   record("BloodPressureDiastolic", src, "mmHg", t, t, dia, " " + meta if meta else "")))
        correlations.append(f' <Correlation type="HKCorrelationTypeIdentifierBloodPressure" {src} creationDate="{stamp(t + timedelta(seconds=41))}" '
                            f'startDate="{stamp(t)}" endDate="{stamp(t)}">\n{meta}{inner} </Correlation>\n')
    s, e = day + timedelta(hours=17), day + timedelta(hours=17, minutes=31)
    tail.append(f' <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="31" durationUnit="min" {WATCH} '
                f'creationDate="{stamp(e)}" startDate="{stamp(s)}" endDate="{stamp(e)}">\n'
                f'  <MetadataEntry key="HKIndoorWorkout" value="0"/>\n'
                f'  <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="{stamp(s)}" endDate="{stamp(e)}" average="98" minimum="72" maximum="121" unit="count/min"/>\n'
                f' </Workout>\n')
    day += timedelta(days=1)
records = "".join("".join(lines) for lines in chunks.values())
correlations, tail = "".join(correlations), "".join(tail)
months = []
while written < limit:
    n = len(months)
    months.append(f"{2000 + n // 12}-{n % 12 + 1:02d}-")
    block = records.replace("2016-01-", months[-1])
    out.write(block)
    written += len(block.encode())
count = 0
for m in months:
    block = correlations.replace("2016-01-", m)
    count += block.count("<Correlation ")
    out.write(block)
    written += len(block.encode())
for m in months:
    block = tail.replace("2016-01-", m)
    out.write(block)
    written += len(block.encode())
out.write("</HealthData>\n")
print(f"gen_health_export: {written} bytes, {count} blood-pressure correlations, {len(months)} months of 28 days", file=sys.stderr)
