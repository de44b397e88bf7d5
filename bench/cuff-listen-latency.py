#!/usr/bin/python3
"""Latency of `corsano cuff listen`: from a 0x2A35 `Value` change on the bus to its reading line
on corsano's stdout, one payload at a time (the next is sent once the line arrived).

Starts a private dbus-daemon (Tests/Fixtures/bluez/bus.conf), plays the cuff in this process with
python-dbusmock's bluez5 template (Tests/Fixtures/bluez/cuff_mock.py), runs the built corsano
against it and times each payload on one monotonic clock: taken just before the mock emits
PropertiesChanged (and flushes it to the bus), read when the line is on the pipe.

usage: /usr/bin/python3 bench/cuff-listen-latency.py [--payloads 100] [--corsano PATH]
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'Tests', 'Fixtures', 'bluez'))

import cuff_mock  # noqa: E402
cuff_mock.emit = lambda *words: None  # the mock's event lines are for the tests
from gi.repository import GLib  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--payloads', type=int, default=100)
    parser.add_argument('--corsano', default=os.path.join(ROOT, '.build', 'release', 'corsano'))
    args = parser.parse_args()
    if not os.access(args.corsano, os.X_OK):
        sys.exit(f'{args.corsano}: not built (swift build -c release)')

    directory = tempfile.mkdtemp(prefix='corsano-latency-')
    daemon = subprocess.Popen(['dbus-daemon', '--config-file=' + os.path.join(ROOT, 'Tests', 'Fixtures', 'bluez', 'bus.conf'),
                               f'--address=unix:path={directory}/bus', '--print-address=1', '--nofork'],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    address = daemon.stdout.readline().strip()
    try:
        latencies = run(address, args)
    finally:
        daemon.kill()
        daemon.wait()
        shutil.rmtree(directory, ignore_errors=True)
    ms = sorted(x * 1000 for x in latencies)
    print(f'cuff listen latency, Value change -> line on stdout, {len(ms)} payloads (ms): '
          f'median {statistics.median(ms):.3f}, p90 {ms[int(len(ms) * 0.9) - 1]:.3f}, '
          f'min {ms[0]:.3f}, max {ms[-1]:.3f}')


def run(address, args):
    os.environ['DBUS_SYSTEM_BUS_ADDRESS'] = address
    mock, bus = cuff_mock.start_mock(address)
    cuff = cuff_mock.Cuff(mock, cuff_mock.arguments([]))
    cuff.start()
    corsano = subprocess.Popen([args.corsano, 'cuff', 'listen', '--device', cuff.address, '--count', str(args.payloads)],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    os.set_blocking(corsano.stdout.fileno(), False)
    loop = GLib.MainLoop()
    state = {'sent': 0, 'at': None, 'pending': b'', 'latencies': [], 'systolic': None}

    def send():
        i = state['sent']
        record = cuff.store(100 + i % 100, 60 + i % 30, 50 + i % 40, 0)
        systolic, diastolic, pulse = record['values']
        state['systolic'] = systolic
        payload = cuff_mock.measurement(systolic, diastolic, pulse, record['stamp'])
        state['at'] = time.monotonic()
        cuff.indicate(payload)
        bus.flush()
        state['sent'] += 1
        return False

    def wait_for_indications():
        if not cuff.notifying:
            return True
        send()
        return False

    def on_output(fd, _condition):
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return True
        arrived = time.monotonic()
        if not chunk:
            loop.quit()
            return False
        state['pending'] += chunk
        while b'\n' in state['pending']:
            line, _, state['pending'] = state['pending'].partition(b'\n')
            # The line must be the payload just sent: one in flight at a time.
            if json.loads(line)['systolic'] != state['systolic']:
                sys.exit(f"line {line!r} is not the payload sent (systolic {state['systolic']})")
            state['latencies'].append(arrived - state['at'])
            if state['sent'] < args.payloads:
                GLib.idle_add(send)
        return True

    GLib.io_add_watch(corsano.stdout.fileno(), GLib.IO_IN | GLib.IO_HUP, on_output)
    GLib.timeout_add(5, wait_for_indications)
    GLib.timeout_add_seconds(120, lambda: (loop.quit(), False)[1])
    loop.run()
    corsano.wait(timeout=30)
    if len(state['latencies']) != args.payloads:
        sys.exit(f"only {len(state['latencies'])} of {args.payloads} lines arrived (corsano exit {corsano.returncode})")
    return state['latencies']


if __name__ == '__main__':
    main()
