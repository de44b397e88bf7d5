#!/usr/bin/env python3
"""polars doing the same ordered dedup as bench/duckdb_dedup.py: a line is kept when no earlier
line has the same measuredAt, systolic, diastolic and pulse; kept lines as read, in input order.

usage: polars_dedup.py FILE
"""
import sys
import polars as pl

lines = pl.read_csv(sys.argv[1], has_header=False, new_columns=["line"], separator="\x01", quote_char=None,
                    schema_overrides={"line": pl.Utf8})
fields = pl.col("line").str.json_decode(pl.Struct({"measuredAt": pl.Utf8, "systolic": pl.Int64,
                                                    "diastolic": pl.Int64, "pulse": pl.Int64}))
kept = (lines.with_columns(fields.alias("k"))
        .unique(subset=["k"], keep="first", maintain_order=True)
        .select("line"))
sys.stdout.write("\n".join(kept["line"].to_list()) + "\n")
