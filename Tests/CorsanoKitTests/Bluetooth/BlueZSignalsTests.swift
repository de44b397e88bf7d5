import Testing
@testable import CorsanoKit

/// BlueZ's signals as port events (what BlueZCentral hands the collector).
@Suite struct BlueZSignalsTests {
    static let device = "/org/bluez/hci0/dev_A0_9E_1A_00_00_01"

    static func signal(_ interface: String, _ member: String, path: String = Self.device, _ arguments: [DBusValue]) -> DBusSignal {
        DBusSignal(sender: ":1.7", path: path, interface: interface, member: member, arguments: arguments)
    }

    static func changed(_ interface: String, _ properties: [(String, DBusValue)], path: String = Self.device) -> DBusSignal {
        signal("org.freedesktop.DBus.Properties", "PropertiesChanged", path: path,
               [.string(interface), .stringVariantMap(properties), .array(elementSignature: "s", [])])
    }

    @Test func characteristicValueIsOneNotification() {
        let path = Self.device + "/service0010/char0011"
        let events = BlueZSignals.events(of: Self.changed("org.bluez.GattCharacteristic1", [("Value", .bytes([0x1E, 0x78]))], path: path))
        #expect(events == [.value(characteristic: path, [0x1E, 0x78])])
        // Notifying alone is no value.
        #expect(BlueZSignals.events(of: Self.changed("org.bluez.GattCharacteristic1", [("Notifying", .boolean(true))], path: path)).isEmpty)
    }

    @Test func deviceChanges() {
        #expect(BlueZSignals.events(of: Self.changed("org.bluez.Device1", [("Connected", .boolean(false))]))
                == [.deviceChanged(id: Self.device, BluetoothDeviceChange(connected: false))])
        #expect(BlueZSignals.events(of: Self.changed("org.bluez.Device1", [("ServicesResolved", .boolean(true))]))
                == [.deviceChanged(id: Self.device, BluetoothDeviceChange(servicesResolved: true))])
        #expect(BlueZSignals.events(of: Self.changed("org.bluez.Device1", [("RSSI", .int16(-61))]))
                == [.deviceChanged(id: Self.device, BluetoothDeviceChange(advertising: true))])
        #expect(BlueZSignals.events(of: Self.changed("org.bluez.Device1", [("Alias", .string("x"))])).isEmpty)
    }

    @Test func adapterPower() {
        #expect(BlueZSignals.events(of: Self.changed("org.bluez.Adapter1", [("Powered", .boolean(false))], path: "/org/bluez/hci0"))
                == [.adapterChanged(id: "/org/bluez/hci0", powered: false)])
    }

    @Test func interfacesAddedAndRemoved() {
        let properties = DBusValue.stringVariantMap([
            ("Address", .string("a0:9e:1a:00:00:01")), ("Adapter", .objectPath("/org/bluez/hci0")), ("Name", .string("UA-651BLE")),
            ("Paired", .boolean(true)), ("RSSI", .int16(-70)), ("UUIDs", .array(elementSignature: "s", [.string("00001810-0000-1000-8000-00805F9B34FB")])),
        ])
        let added = Self.signal("org.freedesktop.DBus.ObjectManager", "InterfacesAdded", path: "/",
                                [.objectPath(Self.device), .dictionary(keySignature: "s", valueSignature: "a{sv}",
                                                                       [DBusDictEntry(key: .string("org.bluez.Device1"), value: properties)])])
        #expect(BlueZSignals.events(of: added) == [.deviceAdded(BluetoothDevice(
            id: Self.device, adapter: "/org/bluez/hci0", address: "A0:9E:1A:00:00:01", name: "UA-651BLE", paired: true,
            uuids: ["00001810-0000-1000-8000-00805f9b34fb"], rssi: -70))])
        let removed = Self.signal("org.freedesktop.DBus.ObjectManager", "InterfacesRemoved", path: "/",
                                  [.objectPath("/org/bluez/hci0"), .array(elementSignature: "s", [.string("org.bluez.Adapter1")])])
        #expect(BlueZSignals.events(of: removed) == [.adapterRemoved(id: "/org/bluez/hci0")])
    }

    @Test func bluetoothdLeavingTheBusIsLost() {
        let left = Self.signal("org.freedesktop.DBus", "NameOwnerChanged", path: "/org/freedesktop/DBus",
                               [.string("org.bluez"), .string(":1.4"), .string("")])
        #expect(BlueZSignals.events(of: left) == [.lost("org.bluez left the system bus (bluetoothd stopped)")])
        let came = Self.signal("org.freedesktop.DBus", "NameOwnerChanged", path: "/org/freedesktop/DBus",
                               [.string("org.bluez"), .string(""), .string(":1.9")])
        #expect(BlueZSignals.events(of: came).isEmpty)
    }

    @Test func agentAcceptsJustWorksAndRefusesCodes() {
        func call(_ member: String) -> DBusCallReply {
            BlueZSignals.answerAgentCall(DBusIncomingCall(path: BlueZCentral.agentPath, interface: "org.bluez.Agent1",
                                                          member: member, arguments: [.objectPath(Self.device)]))
        }
        for member in ["RequestAuthorization", "AuthorizeService", "RequestConfirmation", "Release", "Cancel"] {
            guard case .values([]) = call(member) else { Issue.record("\(member) not accepted"); continue }
        }
        for member in ["RequestPinCode", "RequestPasskey"] {
            guard case .error("org.bluez.Error.Rejected", _) = call(member) else { Issue.record("\(member) not rejected"); continue }
        }
    }

    @Test func failuresByName() {
        #expect(BlueZCentral.translate(DBusFailure(name: DBusFailure.accessDenied, message: ""), operation: "GetManagedObjects", path: "/")
                == .accessDenied("GetManagedObjects on org.bluez"))
        #expect(BlueZCentral.translate(DBusFailure(name: DBusFailure.serviceUnknown, message: ""), operation: "x", path: "/")
                == .serviceAbsent("org.bluez is not on the system bus: is bluetoothd running? (systemctl start bluetooth)"))
        #expect(BlueZCentral.translate(DBusFailure(name: "org.bluez.Error.NotReady", message: "Resource Not Ready"), operation: "Connect", path: "/d")
                == .notReady("Connect: /d: not ready (adapter powered off?)"))
        #expect(BlueZCentral.translate(DBusFailure(name: "org.bluez.Error.Failed", message: "le-connection-abort-by-local"), operation: "Connect", path: "/d")
                == .failed(operation: "Connect", name: "org.bluez.Error.Failed", message: "le-connection-abort-by-local"))
    }

    @Test(arguments: [("a0:9e:1a:00:00:01", "A0:9E:1A:00:00:01"), ("A0-9E-1A-00-00-01", "A0:9E:1A:00:00:01")])
    func addresses(text: String, normalized: String) {
        #expect(BluetoothAddress.normalized(text) == normalized)
    }

    @Test(arguments: ["", "A0:9E:1A:00:00", "A0:9E:1A:00:00:0G", "A0:9E:1A:00:00:001", "A0:9E-1A:00:00:01"])
    func notAddresses(text: String) {
        #expect(BluetoothAddress.normalized(text) == nil)
    }

    @Test func assignedNumbers() {
        #expect(GATTCharacteristic.assignedNumber(of: "00002A35-0000-1000-8000-00805f9b34fb") == 0x2A35)
        #expect(GATTCharacteristic.assignedNumber(of: "6e400001-b5a3-f393-e0a9-e50e24dcca9e") == nil)
        #expect(GATTCharacteristic.uuid(0x1810) == "00001810-0000-1000-8000-00805f9b34fb")
    }
}
