import CorsanoKit
import Foundation

/// Input files that cannot be read (exit 66).
enum InputError: DiagnosticError, Equatable {
    case cannotOpen(path: String, reason: String)

    /// `PATH: reason`.
    var message: String {
        switch self {
        case .cannotOpen(let path, let reason): return "\(path): \(reason)"
        }
    }
}

/// Maps an error to its exit status and whether its message is printed (docs/design.md "Exit status").
/// The message is the error's own (`DiagnosticError`); the translator adds only the command's
/// name for the errors that cannot know it (a failed read, a decoding error, an unforeseen one).
enum ErrorTranslator {
    /// What to print (on stderr, prefixed `corsano: `; nil for nothing) and which status to exit
    /// with. `command` names what failed where the error does not; `inREPL` words usage hints
    /// for the REPL (`try 'help'`); `localizer` is the language of a human-text run.
    static func translate(_ error: any Error, command: String? = nil, inREPL: Bool = false,
                          localizer: Localizer? = nil) -> (message: String?, status: ExitStatus) {
        let status = self.status(of: error)
        switch error {
        case is CancellationError:
            return (nil, status)
        case let e as UsageError where inREPL:
            return (e.replMessage, status)
        case let e as ByteSourceError:
            return ("\(command ?? "input"): read failed: \(e)", status)
        case let e as DecodingError:
            return ("\(command ?? "input"): \(e.fieldMessage)", status)
        case let e as any DiagnosticError:
            return (localizer.map(e.message(in:)) ?? e.message, status)
        default:
            // No Swift case dump without saying which command failed and with what kind of error.
            return ("\(command ?? "corsano") failed: \(String(describing: type(of: error))): \(error)", status)
        }
    }

    /// The exit status of `error` (docs/design.md "Exit status").
    static func status(of error: any Error) -> ExitStatus {
        switch error {
        case is UsageError, is WearingOptError, is NIBPRead.RequestError: return .usage
        case is InputError, is ByteSourceError: return .noInput
        case is OutputFileError, is OutputFailure, is StoreError, is ListenError, is AuditKeyMismatch, is AuditKeyError: return .ioError
        case AuditSignError.unknownRun: return .noInput
        case AuditSignError.unfinished, is MultiSetNotDue: return .notYet
        case is ReportError: return .noInput
        case let e as IngestError:
            switch e {
            case .unknownFormat: return .usage
            case .undecodable, .notText, .malformed: return .dataError
            case .unreadable: return .noInput
            }
        case let e as BraceletError:
            switch e {
            case .unavailable, .refused, .held: return .unavailable
            case .disconnected, .timeout: return .braceletDisconnected
            }
        case is BraceletGateError, is OptionalLibraryError: return .unavailable
        case is BridgeAuthError: return .notPermitted
        case let e as CuffCollector.Failure:
            if case .bluetooth(let b) = e { return status(of: b) }
            return .unavailable
        case let e as BluetoothError:
            switch e {
            case .accessDenied: return .notPermitted
            case .serviceAbsent, .notReady: return .unavailable
            case .bus, .failed: return .ioError
            }
        case let e as ScenarioError:
            if case .unreadable = e { return .noInput }
            return .dataError
        case is ProfileFileError, is DecodingError: return .dataError
        case is CancellationError: return .interrupted
        default: return .ioError
        }
    }
}
