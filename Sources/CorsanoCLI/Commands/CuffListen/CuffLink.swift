import CorsanoKit

/// The options of a live Bluetooth cuff (`cuff listen`, `bp-init --cuff ble:MAC`, the REPL's
/// `cuff scan` / `cuff connect`) as the core's collector configuration.
enum CuffLinkOptions {
    /// The `--cuff` prefix that names a Bluetooth cuff.
    static let scheme = "ble:"

    /// `DBUS_SYSTEM_BUS_ADDRESS` when set, else the standard system bus socket.
    static func busAddress(_ environment: [String: String]) -> String {
        environment["DBUS_SYSTEM_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 } ?? BlueZCentral.defaultSystemBus
    }

    /// The address of `--option VALUE`, normalized. - Throws: `UsageError` naming the option.
    static func address(_ text: String, option: String) throws -> String {
        guard let address = BluetoothAddress.normalized(text) else {
            throw UsageError.badValue(option: option, value: text, expected: "a Bluetooth address like A0:9E:1A:12:34:56")
        }
        return address
    }

    /// `--device` (required), `--adapter`, `--pair`, `--set-clock`, `--tz`, `--stored`,
    /// `--stored-from` of `cuff listen`. - Throws: `UsageError` naming the flag.
    static func config(_ args: ParsedCommand, _ ctx: CommandContext) throws -> CuffCollector.Config {
        // --device is required and --stored-from needs --stored: the table says so, the parser refuses.
        let device = args.string(.device) ?? ""
        let from = try args.integer(.storedFrom)
        let stored: CuffCollector.StoredHistory? = args.flag(.stored) ? from.map { .from(UInt16($0)) } ?? .all : nil
        return CuffCollector.Config(address: try address(device, option: "device"), adapterName: args.string(.adapter),
                                    pair: args.flag(.pair), setClock: args.flag(.setClock),
                                    zone: try CuffIngestCommand.zone(args, ctx.environment), stored: stored)
    }

    /// A `.seconds` option that must be above 0, nil when not given. - Throws: `UsageError`.
    static func positiveSeconds(_ args: ParsedCommand, _ name: OptionKey) throws -> Int? {
        guard case .some(.some(let seconds)) = try args.seconds(name) else { return nil }
        guard seconds > 0 else { throw UsageError.badValue(option: name.rawValue, value: "0", expected: "a duration above 0") }
        return seconds
    }
}

/// The stderr lines of a live cuff's connection: scanning, connecting, the clock anchor,
/// disconnects, rejected payloads; the 0x2A36 cuff pressure as a progress line on a terminal.
final class CuffLinkMessages: @unchecked Sendable {
    private let address: String
    private let zone: ZoneReader
    private let progress: Bool
    private let prefix: String
    private var progressShown = false
    private var warnedUnstamped = false

    /// - Parameter progress: show 0x2A36 pressure (stderr is a terminal).
    init(address: String, zone: ZoneReader, progress: Bool, prefix: String = "cuff listen: ") {
        (self.address, self.zone, self.progress, self.prefix) = (address, zone, progress, prefix)
    }

    /// What `event` says: `control`, terminal text written as it is (the pressure line redrawn
    /// in place, or cleared before the next line), and `lines` for a person (each written
    /// through the one wrapper, `CommandContext.writeText`).
    func say(_ event: CuffCollector.Event) -> (control: String, lines: [String]) {
        if case .pressure(let mmHg) = event {
            guard progress else { return ("", []) }
            progressShown = true
            return ("\r\(prefix)cuff pressure \(mmHg) mmHg\u{1B}[K", [])
        }
        var control = ""
        if progressShown {
            control = "\r\u{1B}[K"
            progressShown = false
        }
        return (control, messages(event))
    }

    /// Writes what `event` says on `ctx`'s stderr, each line as `corsano: PREFIX message`
    /// (`diagnose`: wrapped at a terminal, as it is elsewhere).
    func write(_ event: CuffCollector.Event, _ ctx: CommandContext) {
        let (control, lines) = say(event)
        if !control.isEmpty { ctx.stderr.write(control) }
        for line in lines { ctx.diagnose(prefix + line) }
    }

    /// Clears a progress line left on the terminal.
    func finish() -> String? {
        defer { progressShown = false }
        return progressShown ? "\r\u{1B}[K" : nil
    }

    private func messages(_ event: CuffCollector.Event) -> [String] {
        switch event {
        case .scanning(let adapter):
            return ["scanning on \(adapter) for \(address)"]
        case .connecting(let name):
            return ["connecting to \(address)\(name.map { " (\($0))" } ?? "")"]
        case .connectFailed(let why):
            return ["\(address): \(why); trying again"]
        case .connected(let name):
            return ["connected to \(address)\(name.map { " (\($0))" } ?? ""); waiting for readings"]
        case .clock(.anchored(let anchor, let offset)):
            return ["clock anchor: cuff \(anchor.device) = \(Self.toTheSecond(anchor.phone)) (the cuff's clock is \(Self.describe(offset)) host time in \(zone.identifier))"]
        case .clock(.unchanged):
            return []
        case .clock(.moved(let anchor, let seconds)):
            return ["the cuff's clock moved \(seconds) s since the last connect: new anchor cuff \(anchor.device) = \(Self.toTheSecond(anchor.phone))"]
        case .clock(.none):
            return ["no clock anchor: naive stamps read in zone \(zone.identifier) (--tz to choose)"]
        case .noClock(let why):
            return [why]
        case .clockSet(let from, let to):
            return ["set the cuff's clock to \(to) (\(zone.identifier))" + (from.map { ", was \($0)" } ?? "")]
        case .clockNotSet(let why):
            return ["--set-clock: \(why)"]
        case .reading(let reading, let note):
            var out: [String] = []
            if let note { out.append("note: \(note)") }
            if reading.measuredAt == nil, !warnedUnstamped {
                warnedUnstamped = true
                out.append("\(address) sends readings without a timestamp: stored history cannot be told from new readings")
            }
            return out
        case .rejected(let payload, let reason, let characteristic):
            return ["0x\(BLEHex.characteristic(characteristic)) payload \(BLEHex.string(payload)): \(reason)"]
        case .storedRequested(let from):
            return ["asked for the stored records" + (from.map { " from sequence number \($0)" } ?? "")]
        case .storedDone(let records):
            return ["stored records: \(records) received; listening for new measurements"]
        case .storedFailed(let why):
            return ["--stored: \(why)"]
        case .pressure:
            return []
        case .disconnected:
            return ["\(address) disconnected; scanning again"]
        }
    }

    /// A host time as a person reads it: RFC 3339 to the second (the anchor itself keeps its nanoseconds).
    static func toTheSecond(_ instant: Instant) -> String { RFC3339.format(Instant(secondsSinceEpoch: instant.secondsSinceEpoch)) }

    /// `31 s ahead of`, `2 s behind`, `equal to`.
    static func describe(_ offset: Int64) -> String {
        offset == 0 ? "equal to" : offset > 0 ? "\(offset) s ahead of" : "\(-offset) s behind"
    }
}
