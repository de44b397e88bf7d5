#!/usr/bin/env python3
"""Writes the CSV layouts and header aliases into man/corsano-formats.5, between the
'.\\" BEGIN csv-tables' and '.\\" END csv-tables' lines, from the tables in the Swift sources
(CSVLayout.all, CSVHeaderAliases), and each layout's exact header line into
examples/csv-headers/LAYOUT.csv, which the page names. The page shows a header one column name a
line and the names a role takes as filled text that breaks only between names, so it renders
within 80 columns (scripts/checks/man.sh). The tables are the one source; CSVExportEndToEndTests
fails when the page or a header file lags them. Run after changing a layout or an alias:
python3 scripts/man-formats-csv.py"""
import re, sys, pathlib, textwrap

root = pathlib.Path(__file__).resolve().parent.parent
src = root / "Sources/CorsanoKit/Ingest/CSV"
string = r'"((?:[^"\\]|\\.)*)"'
unescape = lambda s: s.replace('\\"', '"').replace("\\\\", "\\")

layouts = re.findall(r'CSVLayout\(' + string + r',\s*export:\s*' + string + r',\s*header:\s*' + string,
                     (src / "CSVLayout.swift").read_text())
aliases = {}
text = (src / "CSVHeaderAliases.swift").read_text()
names = r'((?:\s*' + string + r'\s*,?)*)'
for m in re.finditer(r'\(' + string + r',\s*\[' + names + r'\],\s*\[' + names + r'\]\)', text):  # pressureRows
    aliases.setdefault("systolic", []).extend(unescape(n) for n in re.findall(string, m.group(2)))
    aliases.setdefault("diastolic", []).extend(unescape(n) for n in re.findall(string, m.group(4)))
for m in re.finditer(r'a\(\.(\w+),\s*' + string + r',((?:\s*' + string + r',?)+)\)', text):
    role, names = m.group(1), re.findall(string, m.group(3))
    aliases.setdefault(role, []).extend(unescape(n) for n in names)

roles = [("systolic", "systolic, mmHg (kPa when the unit says so)"), ("diastolic", "diastolic"),
         ("pulse", "pulse, beats per minute"), ("meanArterialPressure", "meanArterialPressure as the cuff reported it"),
         ("dateTime", "date and time of the reading in one cell"), ("date", "the date (with the time, or a time column)"),
         ("time", "the time of day, with a date column"), ("unixMilliseconds", "Unix time in milliseconds"),
         ("zone", "the row's zone: an IANA name or a UTC offset"), ("userId", "the cuff's user, kept as userId"),
         ("bodyMovement", "status: body movement, yes or no"), ("cuffTooLoose", "status: cuff too loose, yes or no (a wrap guide: Good or not)"),
         ("irregularPulse", "status: irregular pulse, yes or no"),
         ("pulseRateRange", "status: pulse rate range (not_exceeded, withinRange, exceedsUpperLimit, belowLowerLimit)"),
         ("improperPosition", "status: improper position, yes or no (a positioning indicator: Good or not)")]

roles_words = re.findall(r'\("([a-z]+)", (?:\.[A-Za-z]+|nil)\)', (root / "Sources/CorsanoKit/Ingest/CSV/CSVColumnAssignment.swift").read_text())
out = ['.\\" BEGIN csv-tables (written by scripts/man-formats-csv.py from the Swift tables)',
       ".Ss CSV layouts",
       "Vendor layouts found by their header (or required with",
       ".Fl -from Cm csv\\&: Ns Ar LAYOUT )",
       "and named in the run's summary; a header that matches none is",
       ".Li generic .",
       "Each layout's header as its tool writes it, one column name a line (the",
       "exact header line is in the file under",
       ".Pa examples/csv-headers",
       "the entry names):",
       ".Bl -tag -width Ds"]
headers = root / "examples/csv-headers"
headers.mkdir(exist_ok=True)
for name, export, header in layouts:
    (headers / f"{name}.csv").write_text(unescape(header) + "\n")
    out += [f".It Li {name}"] + textwrap.wrap(unescape(export).replace('"', "\\(dq") + ";", 78)
    out += [".Pa examples/csv-headers/" + name + ".csv :", ".Bd -literal"]
    out += ["\\&" + cell.replace("\\", "\\e") for cell in unescape(header).split(",")] + [".Ed"]
out += [".El", ".Ss CSV column names",
        "Names are compared with case folded and punctuation dropped; a unit in",
        "parentheses is set apart, a bracketed qualifier is part of the name, and a",
        "dotted namespace",
        ".Pq Li com.samsung.health.blood_pressure.\\&",
        "is dropped.",
        "Names in English, in the languages of the 17 locales and in the 15 of the",
        "OMRON connect e-mailed logbook:",
        ".Bl -tag -width Ds"]
def name(n):
    """One name as filled text that never breaks or hyphenates inside it."""
    return "\\%" + n.replace("\\", "\\e").replace(" ", "\\~")

for role, what in roles:
    names = list(dict.fromkeys(aliases.get(role, [])))
    out += [f".It Li {role}"] + textwrap.wrap(what + ":", 78) + [name(n) + ("," if i + 1 < len(names) else "") for i, n in enumerate(names)]
out += [".El",
        "Whatever the names, a column no name maps whose cells hold dates, times of",
        "day, date-times or Unix seconds or milliseconds (2000 to 2099) in most of the",
        "first 16 rows is a stamp column: with no stamp column mapped, the header is",
        "refused (exit 65) naming it and the",
        ".Fl -column",
        "that reads it.",
        ".Pp",
        ".Fl -column Ar ROLE Ns = Ns Ar N | NAME",
        "(of",
        ".Xr corsano-cuff-ingest 1 )",
        "names one column's role by its position from 1 or its exact name, over the",
        "names above and a layout's mapping; roles:",
        ".Cm " + " , ".join(w for w in roles_words) + " .",
        '.\\" END csv-tables']

page = root / "man/corsano-formats.5"
lines = page.read_text().split("\n")
try:
    start = next(i for i, l in enumerate(lines) if l.startswith('.\\" BEGIN csv-tables'))
    end = next(i for i, l in enumerate(lines) if l.startswith('.\\" END csv-tables'))
except StopIteration:
    sys.exit("man-formats-csv: markers not found in man/corsano-formats.5")
page.write_text("\n".join(lines[:start] + out + lines[end + 1:]))
