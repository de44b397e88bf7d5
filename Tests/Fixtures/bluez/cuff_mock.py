#!/usr/bin/python3
"""A Bluetooth blood pressure cuff behind a mocked BlueZ, for corsano's tests and benchmark.

Runs python-dbusmock's bluez5 template in this process on the bus named by
DBUS_SYSTEM_BUS_ADDRESS (a private dbus-daemon the test started), adds adapter hci0 and the cuff,
and plays the cuff: on Connect it exports the GATT objects BlueZ would (Blood Pressure service
0x1810 with 0x2A35 "indicate" and 0x2A36 "notify"; Current Time 0x2A2B or Date Time 0x2A08) and
sets ServicesResolved; on StartNotify of 0x2A35 it dumps its stored records as Value changes
(UpdateProperties, one PropertiesChanged each, as BlueZ does per indication).

Options set the cuff up; commands on stdin (one per line) drive it; events go to stdout, one per
line, flushed, so the test can wait on them:

  commands: reading SYS DIA PULSE [AGE]   measure: store a record stamped AGE s ago on the
                                          cuff's clock; sent at once when indications are on
                                          (--bls11: as 0x2B34 when that is indicating)
            raw HEX                       send HEX as a 0x2A35 indication
            pressure MMHG                 send a 0x2A36 notification
            disconnect                    the cuff drops the link and stops advertising
            advertise                     it advertises again (connectable)
            appear                        an absent cuff shows up (InterfacesAdded)
            power on|off                  switch adapter hci0
            quit
  events:   ready, connect N, paired, agent CAPABILITY, clock-read, clock-written TIME,
            notifying, dumped N, sent SYS/DIA/PULSE, disconnected, connect-refused,
            racp HEX (a Record Access Control Point write), stored-sent N (records indicated)

--bls11 plays a Blood Pressure Service 1.1 cuff: it also exports Enhanced Blood Pressure
Measurement 0x2B34 (indicate), Blood Pressure Record 0x2B36 (indicate) and the Record Access
Control Point 0x2A52 (write, indicate); it dumps nothing at StartNotify; a Report Stored Records
write (all, or >= a sequence number) is answered with each record as 0x2B36 indications (a 0x2B34
value, split into segments of at most 12 bytes after the segmentation header) and then the
response code; Delete Stored Records is refused (op code not supported).
"""

import argparse
import calendar
import os
import sys
import time

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

import dbusmock.mockobject

ADAPTER = 'org.bluez.Adapter1'
DEVICE = 'org.bluez.Device1'
SERVICE = 'org.bluez.GattService1'
CHARACTERISTIC = 'org.bluez.GattCharacteristic1'
OBJECT_MANAGER = 'org.freedesktop.DBus.ObjectManager'
BASE = '-0000-1000-8000-00805f9b34fb'


def uuid(number):
    return f'0000{number:04x}{BASE}'


def emit(*words):
    print(*words, flush=True)


def sfloat(value):
    """An integer as an IEEE-11073 SFLOAT with exponent 0, little-endian."""
    raw = value & 0x0FFF
    return [raw & 0xFF, raw >> 8]


def date_time(epoch):
    t = time.gmtime(epoch)
    return [t.tm_year & 0xFF, t.tm_year >> 8, t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec]


EPOCH_2000 = 946684800


def enhanced(systolic, diastolic, pulse, stamp):
    """A 0x2B34 payload in mmHg: flags (time stamp, pulse, user id, status, user facing time,
    epoch 2000), sys, dia, MAP, uint32 seconds since 2000, pulse, user 1, status, the same time."""
    mean = diastolic + (systolic - diastolic) // 3
    seconds = list(int(stamp - EPOCH_2000).to_bytes(4, 'little'))
    return [0x7E] + sfloat(systolic) + sfloat(diastolic) + sfloat(mean) + seconds + sfloat(pulse) + [1, 0, 0] + seconds


def measurement(systolic, diastolic, pulse, stamp, with_time=True):
    """A 0x2A35 payload in mmHg: flags (time, pulse, user id, status), sys, dia, MAP, ..."""
    flags = 0x1C | (0x02 if with_time else 0)
    mean = diastolic + (systolic - diastolic) // 3
    payload = [flags] + sfloat(systolic) + sfloat(diastolic) + sfloat(mean)
    if with_time:
        payload += date_time(stamp)
    return payload + sfloat(pulse) + [1, 0, 0]


class Cuff:
    """The cuff's state and what it does when corsano talks to it."""

    def __init__(self, mock, options):
        self.mock = mock
        self.options = options
        self.address = options.address.upper()
        self.adapter_path = '/org/bluez/hci0'
        self.path = f"{self.adapter_path}/dev_{self.address.replace(':', '_')}"
        self.offset = options.clock_offset   # cuff clock minus host time, seconds
        self.records = []                     # dicts: values, stamp on the cuff's clock, sent
        self.connected = False
        self.notifying = False
        self.enhanced_notifying = False
        self.segments = 0                     # the rolling segment counter of 0x2B36
        self.advertising = True
        self.connects = 0
        self.gatt = []
        self.bus = None

    def clock(self):
        return time.time() + self.offset

    # -- setup ---------------------------------------------------------------------------

    def start(self):
        self.mock.AddAdapter('hci0', 'corsano-test')
        if self.options.adapter_off:
            self.mock_object(self.adapter_path).props[ADAPTER]['Powered'] = dbus.Boolean(False, variant_level=1)
        for spec in self.options.history:
            values, age = spec.split('@')
            systolic, diastolic, pulse = (int(v) for v in values.split('/'))
            self.store(systolic, diastolic, pulse, float(age))
        if not self.options.absent:
            self.add_device()
        emit('ready')

    def mock_object(self, path):
        return dbusmock.mockobject.objects[path]

    def add_device(self):
        self.mock.AddDevice('hci0', self.address, self.options.name)
        device = self.mock_object(self.path)
        # A cuff advertises the Blood Pressure service.
        device.UpdateProperties(DEVICE, {'UUIDs': dbus.Array([uuid(0x1810)], signature='s', variant_level=1)})
        device.AddMethods(DEVICE, [
            ('Connect', '', '', lambda _self: self.connect()),
            ('Disconnect', '', '', lambda _self: self.disconnect('host')),
            ('Pair', '', '', lambda _self: self.pair()),
        ])

    # -- the link ------------------------------------------------------------------------

    def device_update(self, **props):
        values = {k: (dbus.Boolean(v, variant_level=1) if isinstance(v, bool) else v) for k, v in props.items()}
        self.mock_object(self.path).UpdateProperties(DEVICE, values)

    def connect(self):
        adapter = self.mock_object(self.adapter_path)
        if not adapter.props[ADAPTER]['Powered']:
            raise dbus.exceptions.DBusException('Resource Not Ready', name='org.bluez.Error.NotReady')
        if self.connected:
            raise dbus.exceptions.DBusException('Already Connected', name='org.bluez.Error.AlreadyConnected')
        if not self.advertising:
            emit('connect-refused')
            raise dbus.exceptions.DBusException('le-connection-abort-by-local', name='org.bluez.Error.Failed')
        self.connected = True
        self.connects += 1
        self.device_update(Connected=True)
        self.export_gatt()
        self.device_update(ServicesResolved=True)
        emit('connect', self.connects)

    def pair(self):
        agents = self.mock_object('/org/bluez').agent_paths
        if not agents:
            raise dbus.exceptions.DBusException('No agent available', name='org.bluez.Error.AuthenticationFailed')
        self.mock.PairDevice('hci0', self.address, 0)
        emit('paired')

    def disconnect(self, why):
        if not self.connected:
            raise dbus.exceptions.DBusException('Not Connected', name='org.bluez.Error.NotConnected')
        self.connected = False
        self.notifying = False
        self.enhanced_notifying = False
        self.device_update(ServicesResolved=False)
        self.device_update(Connected=False)
        self.remove_gatt()
        emit('disconnected', why)

    def advertise(self):
        self.advertising = True
        rssi = -60 - (int(time.time() * 10) % 20)
        self.device_update(RSSI=dbus.Int16(rssi, variant_level=1))

    # -- GATT ----------------------------------------------------------------------------

    def export_gatt(self):
        """The objects BlueZ exports once it resolved the cuff's services."""
        if self.gatt:
            return
        service = f'{self.path}/service0010'
        self.add_gatt(service, SERVICE, {'UUID': uuid(0x1810), 'Primary': True, 'Device': dbus.ObjectPath(self.path)}, [])
        self.measurement = f'{service}/char0011'
        self.add_characteristic(self.measurement, service, 0x2A35, ['indicate'], start=self.start_notify)
        self.intermediate = f'{service}/char0014'
        self.add_characteristic(self.intermediate, service, 0x2A36, ['notify'])
        self.add_characteristic(f'{service}/char0017', service, 0x2A49, ['read'], read=lambda: [0x00, 0x00])
        if self.options.bls11:
            self.enhanced_measurement = f'{service}/char001a'
            self.add_characteristic(self.enhanced_measurement, service, 0x2B34, ['indicate'], start=self.start_enhanced)
            self.record = f'{service}/char001d'
            self.add_characteristic(self.record, service, 0x2B36, ['indicate'])
            self.racp = f'{service}/char0020'
            self.add_characteristic(self.racp, service, 0x2A52, ['write', 'indicate'], write=self.racp_write)
        kind = self.options.clock
        if kind != 'none':
            clock = f'{self.path}/service0020'
            self.add_gatt(clock, SERVICE, {'UUID': uuid(0x1805), 'Primary': True, 'Device': dbus.ObjectPath(self.path)}, [])
            number = 0x2A08 if kind == 'date' else 0x2A2B
            flags = ['read'] if kind == 'date' or self.options.clock_readonly else ['read', 'write', 'notify']
            self.add_characteristic(f'{clock}/char0021', clock, number, flags, read=self.read_clock, write=self.write_clock)

    def add_gatt(self, path, interface, props, methods):
        props = {k: (dbus.Boolean(v, variant_level=1) if isinstance(v, bool) else v) for k, v in props.items()}
        self.mock.AddObject(path, interface, props, methods)
        self.gatt.append((path, interface))
        self.mock.EmitSignal(OBJECT_MANAGER, 'InterfacesAdded', 'oa{sa{sv}}', [dbus.ObjectPath(path), {interface: props}])

    def add_characteristic(self, path, service, number, flags, start=None, read=None, write=None):
        def start_notify(obj):
            if 'notify' not in flags and 'indicate' not in flags:
                raise dbus.exceptions.DBusException('Operation is not supported', name='org.bluez.Error.NotSupported')
            obj.UpdateProperties(CHARACTERISTIC, {'Notifying': dbus.Boolean(True, variant_level=1)})
            if start:
                GLib.idle_add(start)

        def read_value(_obj, _options):
            if read is None:
                raise dbus.exceptions.DBusException('Read not permitted', name='org.bluez.Error.NotPermitted')
            return dbus.Array(read(), signature='y')

        def write_value(_obj, value, _options):
            if write is None or 'write' not in flags:
                raise dbus.exceptions.DBusException('Write not permitted', name='org.bluez.Error.NotPermitted')
            write(bytes(value))

        self.add_gatt(path, CHARACTERISTIC, {
            'UUID': uuid(number), 'Service': dbus.ObjectPath(service),
            'Flags': dbus.Array(flags, signature='s'), 'Notifying': False, 'Value': dbus.Array([], signature='y'),
        }, [
            ('ReadValue', 'a{sv}', 'ay', read_value),
            ('WriteValue', 'aya{sv}', '', write_value),
            ('StartNotify', '', '', start_notify),
            ('StopNotify', '', '', ''),
        ])

    def remove_gatt(self):
        """BlueZ drops the GATT objects of an unpaired device when it disconnects."""
        if self.mock_object(self.path).paired:
            return
        for path, interface in reversed(self.gatt):
            self.mock.RemoveObject(path)
            self.mock.EmitSignal(OBJECT_MANAGER, 'InterfacesRemoved', 'oas', [dbus.ObjectPath(path), [interface]])
        self.gatt = []

    def read_clock(self):
        emit('clock-read')
        if self.options.clock == 'unset':
            return [0] * 10
        now = self.clock()
        fields = date_time(now)
        if self.options.clock == 'date':
            return fields
        return fields + [time.gmtime(now).tm_wday + 1, int((now % 1) * 256), 0]

    def write_clock(self, value):
        year = value[0] | value[1] << 8
        written = calendar.timegm((year, value[2], value[3], value[4], value[5], value[6], 0, 0, 0))
        self.offset = written - time.time()
        self.options.clock = 'current'
        emit('clock-written', time.strftime('%Y-%m-%dT%H:%M:%S', time.gmtime(written)))

    # -- records -------------------------------------------------------------------------

    def store(self, systolic, diastolic, pulse, age):
        record = {'values': (systolic, diastolic, pulse), 'stamp': int(self.clock() - age), 'sent': False}
        self.records.append(record)
        return record

    def indicate(self, payload):
        self.mock_object(self.measurement).UpdateProperties(CHARACTERISTIC, {'Value': dbus.Array(payload, signature='y')})

    def send(self, record):
        systolic, diastolic, pulse = record['values']
        if self.enhanced_notifying:
            self.mock_object(self.enhanced_measurement).UpdateProperties(
                CHARACTERISTIC, {'Value': dbus.Array(enhanced(systolic, diastolic, pulse, record['stamp']), signature='y')})
        else:
            self.indicate(measurement(systolic, diastolic, pulse, record['stamp'], not self.options.no_timestamp))
        record['sent'] = True
        emit('sent', f'{systolic}/{diastolic}/{pulse}')

    def start_enhanced(self):
        self.enhanced_notifying = True
        emit('notifying-enhanced')
        return False

    def racp_write(self, value):
        """Report Stored Records: all (01 01) or >= a sequence number (01 03 01 LO HI)."""
        emit('racp', value.hex())
        if value[:1] != b'\x01':
            self.racp_respond(value[0] if value else 0, 0x02)
            return
        if value[1:2] == b'\x01':
            first = 0
        elif value[1:3] == b'\x03\x01' and len(value) == 5:
            first = value[3] | value[4] << 8
        else:
            self.racp_respond(0x01, 0x04)
            return
        chosen = [(i + self.options.first_sequence, r) for i, r in enumerate(self.records)
                  if i + self.options.first_sequence >= first]
        GLib.idle_add(self.send_stored, chosen)

    def send_stored(self, chosen):
        for sequence, record in chosen:
            if not self.connected:
                return False
            systolic, diastolic, pulse = record['values']
            value = list(sequence.to_bytes(2, 'little')) + [0x34, 0x2B] + enhanced(systolic, diastolic, pulse, record['stamp'])
            parts = [value[i:i + 12] for i in range(0, len(value), 12)]
            for n, part in enumerate(parts):
                header = (1 if n == 0 else 0) | (2 if n == len(parts) - 1 else 0) | (self.segments << 2)
                self.segments = (self.segments + 1) % 64
                self.mock_object(self.record).UpdateProperties(
                    CHARACTERISTIC, {'Value': dbus.Array([header] + part, signature='y')})
            record['sent'] = True
        emit('stored-sent', len(chosen))
        self.racp_respond(0x01, 0x01 if chosen else 0x06)
        return False

    def racp_respond(self, request, code):
        self.mock_object(self.racp).UpdateProperties(
            CHARACTERISTIC, {'Value': dbus.Array([0x06, 0x00, request, code], signature='y')})

    def start_notify(self):
        """The cuff dumps its memory once indications are on (A&D: only what it has not sent);
        a BLS 1.1 cuff keeps it for the Record Access Control Point."""
        self.notifying = True
        emit('notifying')
        if self.options.bls11:
            return False
        dump = [r for r in self.records if not (self.options.only_new and r['sent'])]
        for record in dump:
            if self.connected:
                self.send(record)
        emit('dumped', len(dump))
        return False

    # -- commands ------------------------------------------------------------------------

    def command(self, line):
        words = line.split()
        if not words:
            return True
        verb, args = words[0], words[1:]
        if verb == 'reading':
            record = self.store(int(args[0]), int(args[1]), int(args[2]), float(args[3]) if len(args) > 3 else 0)
            if self.connected and (self.notifying or self.enhanced_notifying):
                self.send(record)
        elif verb == 'raw':
            self.indicate(list(bytes.fromhex(''.join(args))))
            emit('sent', 'raw')
        elif verb == 'pressure':
            payload = [0x00] + sfloat(int(args[0])) + [0xFF, 0x07, 0xFF, 0x07]
            self.mock_object(self.intermediate).UpdateProperties(CHARACTERISTIC, {'Value': dbus.Array(payload, signature='y')})
            emit('sent', 'pressure')
        elif verb == 'disconnect':
            self.advertising = False
            self.disconnect('cuff')
        elif verb == 'advertise':
            self.advertise()
            emit('advertising')
        elif verb == 'appear':
            self.add_device()
            emit('appeared')
        elif verb == 'power':
            powered = args[0] == 'on'
            self.mock_object(self.adapter_path).UpdateProperties(ADAPTER, {'Powered': dbus.Boolean(powered, variant_level=1)})
            emit('powered', args[0])
        elif verb == 'quit':
            return False
        else:
            emit('unknown-command', verb)
        return True


def arguments(argv=None):
    parser = argparse.ArgumentParser(description='A blood pressure cuff behind a mocked BlueZ.')
    parser.add_argument('--address', default='A0:9E:1A:00:00:01')
    parser.add_argument('--name', default='BP Cuff')
    parser.add_argument('--clock', choices=['current', 'date', 'none', 'unset'], default='current')
    parser.add_argument('--clock-offset', type=float, default=0.0, help='cuff clock minus host time, seconds')
    parser.add_argument('--clock-readonly', action='store_true')
    parser.add_argument('--history', nargs='*', default=[], metavar='SYS/DIA/PULSE@AGE')
    parser.add_argument('--only-new', action='store_true', help='dump only records not sent before (A&D)')
    parser.add_argument('--no-timestamp', action='store_true')
    parser.add_argument('--absent', action='store_true', help='the cuff is not known until "appear"')
    parser.add_argument('--adapter-off', action='store_true')
    parser.add_argument('--bls11', action='store_true', help='a Blood Pressure Service 1.1 cuff (RACP, 0x2B34, 0x2B36)')
    parser.add_argument('--first-sequence', type=int, default=0, help='sequence number of the first stored record')
    parser.add_argument('--log', default=os.devnull, help="dbusmock's call log (default none)")
    return parser.parse_args(argv)


def start_mock(address, log=os.devnull):
    """The bluez5 template on the bus at `address`, owning org.bluez; returns its main object."""
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(address)
    name = dbus.service.BusName('org.bluez', bus, allow_replacement=True, replace_existing=True, do_not_queue=True)
    main = dbusmock.mockobject.DBusMockObject(name, '/', OBJECT_MANAGER, {}, log, True)
    dbusmock.mockobject.objects['/'] = main
    main.AddTemplate('bluez5', {})
    return main, bus


def main():
    options = arguments()
    mock, bus = start_mock(os.environ['DBUS_SYSTEM_BUS_ADDRESS'], options.log)
    cuff = Cuff(mock, options)
    cuff.bus = bus
    loop = GLib.MainLoop()

    pending = bytearray()

    def on_input(fd, _condition):
        # os.read, not readline: a buffered reader would keep a second line the watch never reports.
        chunk = os.read(fd, 65536)
        pending.extend(chunk)
        while b'\n' in pending:
            line, _, rest = bytes(pending).partition(b'\n')
            pending[:] = rest
            if not cuff.command(line.decode()):
                loop.quit()
                return False
        bus.flush()
        if not chunk:
            loop.quit()
            return False
        return True

    GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP, on_input)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, 15, lambda: (loop.quit(), False)[1])
    cuff.start()
    loop.run()


if __name__ == '__main__':
    main()
