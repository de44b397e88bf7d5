/// The stable exit statuses scripts depend on (docs/design.md "Exit status"): the numbers never
/// change; 64 and up are sysexits.h's. Each says its meaning here, once; a command's own reasons
/// are its `CommandSpec.exits` (rendered into its `--help`, checked against its man page).
enum ExitStatus: Int32, CaseIterable, Sendable {
    case success = 0
    /// The flow ran and ended failedAfterRetries; validate: a chosen criterion fails.
    case failedAfterRetries = 1
    /// validate: the criteria cannot be assessed (fewer subjects or pairs than required).
    case notAssessable = 2
    /// cuffError; replay-filter --first with nothing kept.
    case cuffError = 3
    case braceletDisconnected = 4
    case usage = 64
    /// Some record was rejected.
    case dataError = 65
    case noInput = 66
    /// Bracelet unavailable at start (connect, model, firmware).
    case unavailable = 69
    /// An error no type declares a status for reached the top: a defect in corsano, said loudly
    /// (`corsano: internal error: TYPE: …`; sysexits.h EX_SOFTWARE). No declared error exits so.
    case internalError = 70
    case ioError = 74
    /// Not yet: waiting fixes it — signing a run that has not ended, a set not due, a bracelet a
    /// live run holds (try again after its `retryAfter`).
    case notYet = 75
    /// Not permitted: BlueZ's D-Bus policy refuses the user.
    case notPermitted = 77
    /// SIGHUP: the terminal closed (cancelledByUser).
    case hangup = 129
    case interrupted = 130
    /// stdout closed by the reader.
    case brokenPipe = 141
    case terminated = 143

    /// What the status means for every command (corsano(1) EXIT STATUS), in a few words; a
    /// command's `ExitCase` says what it means there when it says more.
    var meaning: String {
        switch self {
        case .success: return "success"
        case .failedAfterRetries: return "the flow ran and ended failedAfterRetries"
        case .notAssessable: return "the criteria cannot be assessed"
        case .cuffError: return "cuffError: no reading, cuff disconnected or stale reading"
        case .braceletDisconnected: return "braceletDisconnected"
        case .usage: return "usage error: a bad option or value, named"
        case .dataError: return "bad data: a record rejected, named by file, line and field"
        case .noInput: return "an input file is missing or unreadable"
        case .unavailable: return "the bracelet is unavailable: cannot connect, wrong model, firmware too old"
        case .internalError: return "internal error: a defect in corsano (please report it)"
        case .ioError: return "I/O error: the state store or an output"
        case .notYet: return "not yet: waiting fixes it (a bracelet a live run holds; the message says when to try again)"
        case .notPermitted: return "not permitted"
        case .hangup: return "SIGHUP: the terminal closed (cancelledByUser)"
        case .interrupted: return "SIGINT or a declined retry (cancelledByUser)"
        case .brokenPipe: return "stdout closed by its reader (no message)"
        case .terminated: return "SIGTERM (cancelledByUser)"
        }
    }
}

/// An error that says which status a run it ends exits with (docs/design.md "Exit status").
/// Every error type in corsano's sources conforms (`ErrorStatusTests` reads the sources to
/// check), so `ErrorTranslator` has no default: one that reaches it without a status is a
/// defect, reported as `internal error` with 70.
protocol ExitStatusProviding: Error {
    /// The status a run ended by this error exits with.
    var exitStatus: ExitStatus { get }
}

/// One entry of a command's exit list (`CommandSpec.exits`): a status and, where the command
/// gives it a cause of its own, that cause. Shared causes are named once below, so a command's
/// list reads as `[.success, .usage, .scenarioInvalid, …]`. A status may appear with several
/// causes; help shows each status once, its causes joined.
struct ExitCase: Sendable, Equatable {
    var status: ExitStatus
    /// What the status means for this command; nil: the status's own `meaning`.
    var reason: String?

    init(_ status: ExitStatus, _ reason: String? = nil) {
        self.status = status
        self.reason = reason
    }

    /// The help text of this entry.
    var text: String { reason ?? status.meaning }

    static let success = ExitCase(.success)
    static let failedAfterRetries = ExitCase(.failedAfterRetries)
    static let cuffError = ExitCase(.cuffError)
    static let braceletDisconnected = ExitCase(.braceletDisconnected)
    static let usage = ExitCase(.usage)
    static let dataError = ExitCase(.dataError)
    static let noInput = ExitCase(.noInput)
    static let ioError = ExitCase(.ioError)
    static let brokenPipe = ExitCase(.brokenPipe)
    /// Three stop signals a command that handles them ends with, after finishing what it holds.
    static let stopSignals = [ExitCase(.interrupted), ExitCase(.terminated), ExitCase(.hangup)]

    /// `--bracelet sim:SCENARIO.json` (the `bracelet` group).
    static let scenarioInvalid = ExitCase(.dataError, "the --bracelet scenario is invalid (file and field named)")
    static let scenarioMissing = ExitCase(.noInput, "the --bracelet scenario is missing or unreadable")
    static let braceletUnavailable = ExitCase(.unavailable, "the bracelet is unavailable or not a 287-2")
    /// A bracelet a live run holds (its journal entry, or the bridge's holder): waiting fixes it
    /// (docs/design.md "Plan safety"); every command that claims or repairs a bracelet.
    static let braceletHeld = ExitCase(.notYet, "a live run holds the bracelet (retryAfter, its lease's end, in the message and the JSON error line)")
    /// A `tcp:` bridge (docs/bridge-protocol.md "Authentication").
    static let tokenRefused = ExitCase(.notPermitted, "a tcp: bridge refuses the token, or the token file cannot be used")
    /// Every command with the `bracelet` group reaches one.
    static let bracelet = [scenarioInvalid, scenarioMissing, braceletUnavailable, braceletDisconnected, tokenRefused]

    /// `--state` (the `state` group): a PostgreSQL store needs libpq5.
    static let libraryMissing = ExitCase(.unavailable, "a library the command needs is not installed (named)")
    static let store = ExitCase(.ioError, "the state store cannot be opened, read or written")
    /// A PostgreSQL server busy or restarting past `--store-wait` (docs/design.md "State store").
    static let storeBusy = ExitCase(.notYet, "the PostgreSQL store stayed busy or restarting for --store-wait (state store busy: …; try again)")
    static let state = [libraryMissing, store, storeBusy]
    /// The audit key of the `journal` group.
    static let auditKey = ExitCase(.ioError, "the audit key is missing, unreadable or not the store's")

    /// A failed write on stdout (`corsano: stdout: …`), or its reader gone.
    static let output = ExitCase(.ioError, "an output cannot be written (the stream named)")
    static let stdout = [output, brokenPipe]

    /// A `ble:` cuff through BlueZ (bp-init, validate --live, cuff listen).
    static let bluetoothUnavailable = ExitCase(.unavailable, "the Bluetooth adapter is absent or off, BlueZ is not running, or the cuff was never seen")
    static let bluetoothRefused = ExitCase(.notPermitted, "BlueZ's D-Bus policy refuses the user")
    static let systemBus = ExitCase(.ioError, "the system bus fails")
    static let bluetooth = [bluetoothUnavailable, bluetoothRefused, systemBus]
}

extension CommandSpec {
    /// The command's exit statuses, each once, lowest first, with what each means for it: its
    /// causes in the list's order, joined (`--help`'s "Exit status" section). A status's plain
    /// meaning is left out where the command gives it causes of its own (a shared group's `4`
    /// beside bp-init's).
    var exitRows: [(status: ExitStatus, text: String)] {
        var texts: [ExitStatus: [String]] = [:]
        let caused = Set(exits.filter { $0.reason != nil }.map(\.status))
        for entry in exits where !(texts[entry.status] ?? []).contains(entry.text) && (entry.reason != nil || !caused.contains(entry.status)) {
            texts[entry.status, default: []].append(entry.text)
        }
        return texts.keys.sorted { $0.rawValue < $1.rawValue }.map { ($0, texts[$0]!.joined(separator: "; ")) }
    }
}
