import Synchronization

/// The Bluetooth central port over BlueZ on the system D-Bus (libdbus-1).
///
/// Objects come from `org.freedesktop.DBus.ObjectManager.GetManagedObjects` on `org.bluez`;
/// changes from `InterfacesAdded`/`InterfacesRemoved` and `PropertiesChanged` (a GATT
/// characteristic's `Value` change is one notification or indication). Source: BlueZ doc/
/// org.bluez.Adapter.rst, org.bluez.Device.rst, org.bluez.GattCharacteristic.rst,
/// org.bluez.AgentManager.rst, org.bluez.Agent.rst.
public final class BlueZCentral: BluetoothCentral {
    /// BlueZ's bus name.
    public static let service = "org.bluez"
    /// The standard place of the system bus socket (D-Bus Specification, "Well-known Message Bus Instances").
    public static let defaultSystemBus = "unix:path=/var/run/dbus/system_bus_socket"
    /// Where this client's pairing agent lives (paths are per connection).
    static let agentPath = "/org/corsano/agent"

    static let objectManager = "org.freedesktop.DBus.ObjectManager"
    static let properties = "org.freedesktop.DBus.Properties"
    static let adapterInterface = "org.bluez.Adapter1"
    static let deviceInterface = "org.bluez.Device1"
    static let serviceInterface = "org.bluez.GattService1"
    static let characteristicInterface = "org.bluez.GattCharacteristic1"
    static let agentManagerInterface = "org.bluez.AgentManager1"
    static let agentInterface = "org.bluez.Agent1"

    private let bus: DBusConnection
    private let events = Channel<BluetoothEvent>(capacity: nil)
    private let held = Mutex<(discovering: Set<String>, agent: Bool, closed: Bool)>(([], false, false))

    private init(bus: DBusConnection) { self.bus = bus }

    /// Connects to the system bus at `busAddress` and subscribes to BlueZ's signals.
    /// - Throws: `OptionalLibraryError` (exit 69) when libdbus-1 cannot be loaded, decided before
    ///   the bus is looked up (docs/design.md "Optional libraries"); `BluetoothError.bus` when the
    ///   bus cannot be reached, `.accessDenied`.
    public static func connect(busAddress: String) throws -> BlueZCentral {
        try OptionalLibrary.libdbus.require(for: "the system bus at \(busAddress)")
        let bus: DBusConnection
        do {
            bus = try DBusConnection.open(address: busAddress)
        } catch {
            if error.name == DBusFailure.accessDenied { throw BluetoothError.accessDenied("the connection to \(busAddress)") }
            throw BluetoothError.bus("cannot reach the system bus at \(busAddress): \(error.description)")
        }
        let central = BlueZCentral(bus: bus)
        let events = central.events
        bus.onSignal { signal in
            for event in BlueZSignals.events(of: signal) { events.send(event) }
        }
        bus.onLost { why in events.send(.lost("system bus: \(why)")) }
        bus.addMatch("type='signal',sender='\(service)',interface='\(objectManager)'")
        bus.addMatch("type='signal',sender='\(service)',interface='\(properties)',member='PropertiesChanged'")
        bus.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(service)'")
        return central
    }

    public func adapters() async throws -> [BluetoothAdapter] {
        try await managedObjects().compactMap { path, interfaces in
            interfaces[Self.adapterInterface].map { BlueZSignals.adapter(path: path, $0) }
        }.sorted { $0.name < $1.name }
    }

    public func devices(on adapter: String) async throws -> [BluetoothDevice] {
        try await managedObjects().compactMap { path, interfaces in
            interfaces[Self.deviceInterface].flatMap { BlueZSignals.device(path: path, $0) }
        }.filter { $0.adapter == adapter }
    }

    public func nextEvent(timeout: Duration?) async throws -> BluetoothEvent? {
        switch await events.receive(timeout: timeout) {
        case .item(let event): return event
        case .timedOut, .ended: return nil
        case .cancelled: throw CancellationError()
        }
    }

    public func startDiscovery(on adapter: String) async throws {
        // LE only (cuffs are LE); duplicates reported so a cuff advertising again is noticed.
        let filter = DBusValue.stringVariantMap([("Transport", .string("le")), ("DuplicateData", .boolean(true))])
        _ = try? await call(adapter, Self.adapterInterface, "SetDiscoveryFilter", [filter], "SetDiscoveryFilter")
        do {
            _ = try await call(adapter, Self.adapterInterface, "StartDiscovery", [], "StartDiscovery")
        } catch BluetoothError.failed(_, "org.bluez.Error.InProgress", _) {
            // This client already scans there.
        }
        held.withLock { _ = $0.discovering.insert(adapter) }
    }

    public func stopDiscovery(on adapter: String) async throws {
        guard held.withLock({ $0.discovering.remove(adapter) }) != nil else { return }
        do {
            _ = try await call(adapter, Self.adapterInterface, "StopDiscovery", [], "StopDiscovery")
        } catch BluetoothError.failed {
            // No scan of ours left (BlueZ stops it when the adapter goes off).
        }
    }

    public func connect(_ device: String) async throws {
        do {
            _ = try await call(device, Self.deviceInterface, "Connect", [], "Connect", timeout: .seconds(60))
        } catch BluetoothError.failed(_, "org.bluez.Error.AlreadyConnected", _) {}
    }

    public func pair(_ device: String) async throws {
        do {
            _ = try await call(device, Self.deviceInterface, "Pair", [], "Pair", timeout: .seconds(90))
        } catch BluetoothError.failed(_, "org.bluez.Error.AlreadyExists", _) {}
    }

    public func disconnect(_ device: String) async throws {
        do {
            _ = try await call(device, Self.deviceInterface, "Disconnect", [], "Disconnect")
        } catch BluetoothError.failed(_, "org.bluez.Error.NotConnected", _) {}
    }

    public func characteristics(of device: String) async throws -> [GATTCharacteristic] {
        let objects = try await managedObjects()
        var services: [String: String] = [:]
        for (path, interfaces) in objects {
            guard let service = interfaces[Self.serviceInterface], service["Device"]?.text == device,
                  let uuid = service["UUID"]?.text else { continue }
            services[path] = uuid.lowercased()
        }
        return objects.compactMap { path, interfaces -> GATTCharacteristic? in
            guard let c = interfaces[Self.characteristicInterface], let service = c["Service"]?.text,
                  let serviceUUID = services[service], let uuid = c["UUID"]?.text else { return nil }
            return GATTCharacteristic(id: path, uuid: uuid.lowercased(), serviceUUID: serviceUUID, flags: c["Flags"]?.texts ?? [])
        }.sorted { $0.id < $1.id }
    }

    public func read(_ characteristic: String) async throws -> [UInt8] {
        let reply = try await call(characteristic, Self.characteristicInterface, "ReadValue",
                                   [.stringVariantMap([])], "ReadValue")
        guard let bytes = reply.first?.byteArray else {
            throw BluetoothError.failed(operation: "ReadValue", name: "org.freedesktop.DBus.Error.InvalidSignature",
                                        message: "reply is not a byte array")
        }
        return bytes
    }

    public func write(_ characteristic: String, value: [UInt8]) async throws {
        _ = try await call(characteristic, Self.characteristicInterface, "WriteValue",
                           [.bytes(value), .stringVariantMap([("type", .string("request"))])], "WriteValue")
    }

    public func startNotifications(_ characteristic: String) async throws {
        do {
            _ = try await call(characteristic, Self.characteristicInterface, "StartNotify", [], "StartNotify")
        } catch BluetoothError.failed(_, "org.bluez.Error.InProgress", _) {}
    }

    public func registerPairingAgent() async throws {
        bus.export(path: Self.agentPath, BlueZSignals.answerAgentCall)
        _ = try await call("/org/bluez", Self.agentManagerInterface, "RegisterAgent",
                           [.objectPath(Self.agentPath), .string("NoInputNoOutput")], "RegisterAgent")
        held.withLock { $0.agent = true }
    }

    public func close() async {
        let (adapters, agent, closed) = held.withLock { h -> (Set<String>, Bool, Bool) in
            defer { h = ([], false, true) }
            return (h.discovering, h.agent, h.closed)
        }
        guard !closed else { return }
        for adapter in adapters {
            _ = try? await call(adapter, Self.adapterInterface, "StopDiscovery", [], "StopDiscovery", timeout: .seconds(2))
        }
        if agent {
            _ = try? await call("/org/bluez", Self.agentManagerInterface, "UnregisterAgent", [.objectPath(Self.agentPath)],
                                "UnregisterAgent", timeout: .seconds(2))
        }
        bus.close()
    }

    /// Every object BlueZ exports: path → interface → property → value.
    private func managedObjects() async throws -> [String: [String: [String: DBusValue]]] {
        let reply = try await call("/", Self.objectManager, "GetManagedObjects", [], "GetManagedObjects")
        var objects: [String: [String: [String: DBusValue]]] = [:]
        for (path, interfaces) in reply.first?.entries ?? [:] {
            objects[path] = interfaces.entries?.compactMapValues(\.entries) ?? [:]
        }
        return objects
    }

    /// One BlueZ method call, its failure translated (the bus's refusal, bluetoothd absent,
    /// an adapter that is off, or the operation's own error).
    private func call(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue],
                      _ operation: String, timeout: Duration = .seconds(25)) async throws -> [DBusValue] {
        do {
            return try await bus.call(destination: Self.service, path: path, interface: interface, member: member,
                                      arguments, timeout: timeout)
        } catch let failure as DBusFailure {
            throw Self.translate(failure, operation: operation, path: path)
        }
    }

    static func translate(_ failure: DBusFailure, operation: String, path: String) -> BluetoothError {
        switch failure.name {
        case DBusFailure.accessDenied:
            return .accessDenied("\(operation) on \(service)")
        case DBusFailure.serviceUnknown, DBusFailure.nameHasNoOwner:
            return .serviceAbsent("\(service) is not on the system bus: is bluetoothd running? (systemctl start bluetooth)")
        case DBusFailure.disconnected:
            return .bus("the system bus connection was lost (\(failure.message))")
        case "org.bluez.Error.NotReady":
            return .notReady("\(operation): \(path): not ready (adapter powered off?)")
        case DBusFailure.noReply:
            return .failed(operation: operation, name: failure.name, message: "no reply from \(service)")
        default:
            return .failed(operation: operation, name: failure.name, message: failure.message)
        }
    }
}

/// BlueZ's objects and signals as the port's values (called on the D-Bus I/O thread).
enum BlueZSignals {
    static func adapter(path: String, _ p: [String: DBusValue]) -> BluetoothAdapter {
        BluetoothAdapter(id: path, name: String(path.split(separator: "/").last ?? ""),
                         address: p["Address"]?.text ?? "", powered: p["Powered"]?.bool ?? false)
    }

    static func device(path: String, _ p: [String: DBusValue]) -> BluetoothDevice? {
        guard let address = p["Address"]?.text, let adapter = p["Adapter"]?.text else { return nil }
        var rssi: Int?
        if case .int16(let r)? = p["RSSI"]?.unwrapped { rssi = Int(r) }
        return BluetoothDevice(id: path, adapter: adapter, address: address.uppercased(),
                               name: p["Alias"]?.text ?? p["Name"]?.text, connected: p["Connected"]?.bool ?? false,
                               paired: p["Paired"]?.bool ?? false, servicesResolved: p["ServicesResolved"]?.bool ?? false,
                               uuids: (p["UUIDs"]?.texts ?? []).map { $0.lowercased() }, rssi: rssi)
    }

    /// The port events one signal stands for (none for signals of no interest).
    static func events(of signal: DBusSignal) -> [BluetoothEvent] {
        let args = signal.arguments
        switch (signal.interface, signal.member) {
        case (BlueZCentral.objectManager, "InterfacesAdded"):
            guard args.count == 2, let path = args[0].text, let interfaces = args[1].entries else { return [] }
            var out: [BluetoothEvent] = []
            if let a = interfaces[BlueZCentral.adapterInterface]?.entries { out.append(.adapterAdded(adapter(path: path, a))) }
            if let d = interfaces[BlueZCentral.deviceInterface]?.entries, let dev = device(path: path, d) {
                out.append(.deviceAdded(dev))
            }
            return out
        case (BlueZCentral.objectManager, "InterfacesRemoved"):
            guard args.count == 2, let path = args[0].text, let names = args[1].texts else { return [] }
            var out: [BluetoothEvent] = []
            if names.contains(BlueZCentral.deviceInterface) { out.append(.deviceRemoved(id: path)) }
            if names.contains(BlueZCentral.adapterInterface) { out.append(.adapterRemoved(id: path)) }
            return out
        case (BlueZCentral.properties, "PropertiesChanged"):
            guard args.count >= 2, let interface = args[0].text, let changed = args[1].entries else { return [] }
            switch interface {
            case BlueZCentral.characteristicInterface:
                guard let value = changed["Value"]?.byteArray else { return [] }
                return [.value(characteristic: signal.path, value)]
            case BlueZCentral.deviceInterface:
                let advertising = ["RSSI", "ManufacturerData", "ServiceData", "TxPower"].contains { changed[$0] != nil }
                let change = BluetoothDeviceChange(connected: changed["Connected"]?.bool,
                                                   servicesResolved: changed["ServicesResolved"]?.bool,
                                                   paired: changed["Paired"]?.bool, advertising: advertising)
                return change == BluetoothDeviceChange() ? [] : [.deviceChanged(id: signal.path, change)]
            case BlueZCentral.adapterInterface:
                guard let powered = changed["Powered"]?.bool else { return [] }
                return [.adapterChanged(id: signal.path, powered: powered)]
            default:
                return []
            }
        case ("org.freedesktop.DBus", "NameOwnerChanged"):
            guard args.count == 3, args[0].text == BlueZCentral.service, args[2].text == "" else { return [] }
            return [.lost("\(BlueZCentral.service) left the system bus (bluetoothd stopped)")]
        default:
            return []
        }
    }

    /// The NoInputNoOutput agent: it cannot show or type a code, so it refuses PIN and passkey
    /// requests and accepts what needs no input ("Just Works"). Source: BlueZ org.bluez.Agent.rst.
    static func answerAgentCall(_ call: DBusIncomingCall) -> DBusCallReply {
        guard call.interface == BlueZCentral.agentInterface else {
            return .error(name: DBusFailure.unknownMethod, message: "\(call.interface).\(call.member)")
        }
        switch call.member {
        case "RequestPinCode", "RequestPasskey":
            return .error(name: "org.bluez.Error.Rejected", message: "corsano's agent has no input (NoInputNoOutput)")
        default:
            return .values([])
        }
    }
}
