#!/usr/bin/env python3
"""DuckDB doing `corsano cuff ingest`'s work on bench/gen_omron_csv.py's CSV (issue 29): the same
five JSON fields, each row's zone applied, as JSON lines on stdout.

usage: duckdb_ingest.py FILE   (run with bench/out/venv/bin/python; DuckDB's default threads)
systolic, diastolic, pulse (null when empty: corsano leaves it out), measuredAt as RFC 3339 UTC
from "Measurement Date" read in the row's "Timezone", isManualEntry false.
"""
import sys
import duckdb

con = duckdb.connect()
con.sql("SET TimeZone='UTC'")
path = sys.argv[1].replace("'", "''")
con.sql(f"""
COPY (
  SELECT "SYS(mmHg)" AS systolic, "DIA(mmHg)" AS diastolic, "Pulse(bpm)" AS pulse,
         strftime(timezone("Timezone", strptime("Measurement Date", '%Y/%m/%d %H:%M')), '%Y-%m-%dT%H:%M:%SZ') AS measuredAt,
         false AS isManualEntry
  FROM read_csv('{path}', types={{'Measurement Date': 'VARCHAR'}})
) TO '/dev/stdout' (FORMAT json)
""")
