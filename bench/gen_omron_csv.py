#!/usr/bin/env python3
"""Write N synthetic rows in the OMRON connect app's CSV layout (the Timezone column per row).

usage: gen_omron_csv.py N [SEED] > omron.csv
Rows are 7 minutes apart from 2010-01-01 (so 1,000,000 rows span 13 years and cross every DST
change of their zones), in Europe/Berlin with every 10th in America/New_York; a wall time that
does not exist in its zone (a DST gap) is not written, as the app would not; about 1% have an
empty pulse. Values are invented; the header is the app's (Tests/Fixtures/csv/omron-connect-tz.csv).
"""
import random, sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

n = int(sys.argv[1]); rnd = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 7)
out = sys.stdout
out.write("Measurement Date,Timezone,SYS(mmHg),DIA(mmHg),Pulse(bpm),Irregular heartbeat,IHB detection count,"
          "Body Movement,Cuff wrap guide,Positioning Indicator,room temperature(°C),Measurement Mode,Device\n")
t = datetime(2010, 1, 1, 6, 0)
rows = []
i = 0
while i < n:
    t += timedelta(minutes=7)
    zone = "America/New_York" if i % 10 == 9 else "Europe/Berlin"
    local = t.replace(tzinfo=ZoneInfo(zone))
    if local.astimezone(timezone.utc).astimezone(ZoneInfo(zone)).replace(tzinfo=None) != t:
        continue  # in a DST gap
    i += 1
    sys_ = rnd.randint(95, 175); dia = rnd.randint(55, min(110, sys_ - 20))
    pulse = "" if rnd.random() < 0.01 else str(rnd.randint(48, 110))
    ihb = rnd.random() < 0.05
    rows.append(f"{t:%Y/%m/%d %H:%M},{zone},{sys_},{dia},{pulse},{'Yes' if ihb else 'No'},{2 if ihb else 0},"
                f"{'Yes' if rnd.random() < 0.1 else 'No'},Good,Good,{rnd.randint(17, 27)},Normal,HEM-7361T\n")
    if len(rows) >= 10000:
        out.write("".join(rows)); rows = []
out.write("".join(rows))
