import CorsanoKit
import Foundation

/// Input files that cannot be read (exit 66).
enum InputError: Error, Equatable {
    case cannotOpen(path: String, reason: String)
}

/// The one place errors become a message, a stream and an exit status (DESIGN "Exit status").
enum ErrorTranslator {
    /// What to print (on stderr, prefixed `corsano: `) and which status to exit with; `command`
    /// names what failed when the error is of no known kind.
    /// `inREPL` words usage hints for the REPL (`try 'help'`).
    static func translate(_ error: any Error, command: String? = nil, inREPL: Bool = false) -> (message: String?, status: ExitStatus) {
        switch error {
        case let e as UsageError:
            return (inREPL ? e.replMessage : e.message, .usage)
        case let e as InputError:
            switch e {
            case .cannotOpen(let path, let reason): return ("\(path): \(reason)", .noInput)
            }
        case let e as OutputFileError:
            switch e {
            case .cannotCreate(let path, let reason): return ("\(path): \(reason)", .ioError)
            }
        case let e as OutputFailure: return (e.message, .ioError)
        case let e as IngestError: return IngestMessages.translate(e)
        case let e as StoreError:
            return (storeMessage(e), .ioError)
        case let e as BraceletError:
            switch e {
            case .unavailable(let why): return ("bracelet unavailable: \(why)", .unavailable)
            case .refused(let why): return ("bracelet refused: \(why)", .unavailable)
            case .disconnected: return ("bracelet disconnected", .braceletDisconnected)
            case .timeout: return ("bracelet did not answer", .braceletDisconnected)
            }
        case let e as BraceletGateError:
            return (e.message, .unavailable)
        case let e as ScenarioError:
            switch e {
            case .unreadable(let path):
                let why = FileManager.default.fileExists(atPath: path) ? "cannot read" : "no such file"
                return ("scenario \(path): \(why)", .noInput)
            case .invalid(let source, let message): return ("scenario \(source): \(message)", .dataError)
            }
        case let e as ProfileFileError:
            return (e.text, .dataError)
        case let e as WearingOptError:
            return (WearingOptCommand.message(e), .usage)
        case is CancellationError:
            return (nil, .interrupted)
        case let e as ByteSourceError:
            return ("\(command ?? "input"): read failed: \(e)", .noInput)
        case let e as DecodingError:
            return ("\(command ?? "input"): \(e.fieldMessage)", .dataError)
        case let e as ListenError:
            return (e.message, .ioError)
        default:
            // No Swift case dump without saying which command failed and with what kind of error.
            return ("\(command ?? "corsano") failed: \(String(describing: type(of: error))): \(error)", .ioError)
        }
    }

    static func storeMessage(_ e: StoreError) -> String {
        switch e {
        case .cannotOpen(let path, let m): return "state store \(path): cannot open: \(m)"
        case .busy(let path): return "state store \(path): locked by another process for too long"
        case .corrupt(let path, let m): return "state store \(path): corrupt: \(m)"
        case .failed(let path, let m): return "state store \(path): \(m)"
        case .newerSchema(let path, let v): return "state store \(path): written by a newer corsano (schema \(v))"
        }
    }
}
