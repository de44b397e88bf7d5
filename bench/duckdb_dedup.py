#!/usr/bin/env python3
"""DuckDB doing `corsano replay-filter --no-state`'s work on bench/gen_readings.py's lines: an
ordered dedup (rule 3 of docs/design.md "Host-side cuff rules"): a line is kept when no earlier
line has the same measuredAt, systolic, diastolic and pulse; kept lines are written as read, in
input order, on stdout (byte-identical to corsano's output on that input: its stamps are all in
one canonical form, so the text stands for the instant).

usage: duckdb_dedup.py FILE   (DuckDB's default threads: both cores)
"""
import sys
import duckdb

con = duckdb.connect()
path = sys.argv[1].replace("'", "''")
# Control characters no reading line holds: the line is one column, written back unquoted.
sep, quote = chr(1), chr(2)
con.sql(f"""
COPY (
  SELECT line FROM (
    SELECT line, row_number() OVER () AS n
    FROM read_csv('{path}', columns={{'line': 'VARCHAR'}}, header=false, delim='{sep}', quote='', escape='', auto_detect=false)
  )
  QUALIFY row_number() OVER (
    PARTITION BY json_extract_string(line, '$.measuredAt'), json_extract(line, '$.systolic')::INT,
                 json_extract(line, '$.diastolic')::INT, json_extract(line, '$.pulse')::INT
    ORDER BY n) = 1
  ORDER BY n
) TO '/dev/stdout' (FORMAT csv, HEADER false, DELIMITER '{sep}', QUOTE '{quote}', ESCAPE '{quote}')
""")
