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

/// Maps an error to its exit status and whether its message is printed (docs/design.md
/// "Exit status"). The status is the error's own (`ExitStatusProviding`), the message is the error's own
/// (`DiagnosticError`); the translator adds only the command's name for the errors that cannot
/// know it (a failed read, a decoding error). There is no default: an error that declares no
/// status is a defect, said loudly as `internal error` with 70 (`ErrorStatusTests` keeps every
/// error type in the sources declaring one).
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
        case let e as any DiagnosticError where error is any ExitStatusProviding:
            return (localizer.map(e.message(in:)) ?? e.message, status)
        case is any ExitStatusProviding:
            // No Swift case dump without saying which command failed and with what kind of error.
            return ("\(command ?? "corsano") failed: \(String(describing: type(of: error))): \(error)", status)
        default:
            return (internalErrorMessage(error, command: command), status)
        }
    }

    /// The exit status of `error`: the one its type declares; `internalError` (70) when its type
    /// declares none (docs/design.md "Exit status").
    static func status(of error: any Error) -> ExitStatus {
        (error as? any ExitStatusProviding)?.exitStatus ?? .internalError
    }

    /// `internal error: TYPE: …` naming the command: what an error without a status says.
    static func internalErrorMessage(_ error: any Error, command: String?) -> String {
        "internal error: \(command.map { $0 + ": " } ?? "")\(String(reflecting: type(of: error))): \(error)"
            + " (an error that declares no exit status; please report it)"
    }
}
