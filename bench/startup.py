#!/usr/bin/env python3
"""Benchmark (not a test; figures, no target): process start-up of corsano (issue 22).

Whole processes, side by side, interleaved round by round so a loaded machine hits them alike:
  corsano --version                     the binary's start and exit
  corsano cuff ingest ONE-READING       one reading through cuff ingest (anchored, one line out)
  jq -n 1                               another small C program's start, for scale
  /bin/true                             the floor: fork, exec, exit
For each: median and min wall time and user+sys CPU of the process (os.wait4's rusage, per
child), and its peak RSS from one more run under GNU time (a child of Python would carry
Python's own RSS until exec into ru_maxrss). Give two binaries to see before/after side by side:
  bench/startup.py [--runs N] CORSANO [CORSANO_BEFORE]
(default: .build/release/corsano, the README's release build).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--runs", type=int, default=200)
parser.add_argument("binaries", nargs="*", default=[".build/release/corsano"])
args = parser.parse_args()

reading = '{"systolic":128,"diastolic":82,"pulse":66,"deviceTime":"2025-01-01T00:04:00","isManualEntry":false}\n'
work = tempfile.mkdtemp()
one = os.path.join(work, "one.jsonl")
with open(one, "w") as f:
    f.write(reading)
anchor = ["--anchor-device", "2025-01-01T00:03:10", "--anchor-phone", "2026-11-29T10:00:05Z"]

commands = []
for index, binary in enumerate(args.binaries):
    tag = "" if len(args.binaries) == 1 else (" (after)" if index == 0 else " (before)")
    commands.append((f"corsano --version{tag}", [binary, "--version"]))
    commands.append((f"corsano cuff ingest, one reading{tag}", [binary, "cuff", "ingest", *anchor, one]))
commands += [("jq -n 1", ["jq", "-n", "1"]), ("/bin/true", ["/bin/true"])]

env = {"PATH": "/usr/bin:/bin", "HOME": work, "LANG": "C.UTF-8"}


def run(argv):
    """Wall seconds, CPU seconds and peak RSS (KiB) of one process, which must succeed."""
    started = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    out = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0 or (argv[0] != "/bin/true" and not out):
        sys.exit(f"bench: {' '.join(argv)} failed or printed nothing")
    return wall, usage.ru_utime + usage.ru_stime


def peak_rss_kib(argv):
    """Peak RSS of one run, by GNU time (a small C parent, so its child starts small)."""
    report = os.path.join(work, "time.txt")
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report, *argv], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env=env, check=True)
    return int(open(report).read().split()[-1])


for _, argv in commands:  # warm-up: page cache, dynamic loader cache
    run(argv)
samples = {name: [] for name, _ in commands}
for _ in range(args.runs):
    for name, argv in commands:
        samples[name].append(run(argv))

print(f"{args.runs} runs each, interleaved; wall and CPU in ms, peak RSS in MiB")
print(f"{'command':44} {'wall med':>9} {'wall min':>9} {'cpu med':>8} {'rss':>6}")
for name, runs in samples.items():
    walls = [w for w, _ in runs]
    cpus = [c for _, c in runs]
    rss = peak_rss_kib(dict(commands)[name]) / 1024
    print(f"{name:44} {statistics.median(walls)*1000:9.2f} {min(walls)*1000:9.2f} "
          f"{statistics.median(cpus)*1000:8.2f} {rss:6.1f}")
