import CorsanoKit

// The exit status of every error type corsano throws (docs/design.md "Exit status"), one
// conformance per type. The core's error types get theirs here, in the command layer: the core is
// a library that never exits, and which number a process exits with is the executable's contract
// (sysexits.h), not a fact of calibration. `ErrorStatusTests` reads the sources and fails naming
// any `Error` type without one. Several types that the command layer catches and turns into
// another error (an unknown simulated subject into a usage error) declare the status of what they
// become, so one that escaped anyway still exits as its cause would.

// MARK: The command layer's errors

extension UsageError: ExitStatusProviding { var exitStatus: ExitStatus { .usage } }
extension InputError: ExitStatusProviding { var exitStatus: ExitStatus { .noInput } }
extension OutputFileError: ExitStatusProviding { var exitStatus: ExitStatus { .ioError } }
extension OutputFailure: ExitStatusProviding { var exitStatus: ExitStatus { .ioError } }
extension AuditKeyError: ExitStatusProviding { var exitStatus: ExitStatus { .ioError } }
extension AuditChainUnkeyed: ExitStatusProviding { var exitStatus: ExitStatus { .ioError } }
extension ReportUnverified: ExitStatusProviding { var exitStatus: ExitStatus { .dataError } }
/// bracelet serve's own socket that cannot be bound is I/O, not an absent bracelet.
extension ListenError: ExitStatusProviding { var exitStatus: ExitStatus { .ioError } }
extension ProfileFileError: ExitStatusProviding { var exitStatus: ExitStatus { .dataError } }
/// A line of a `source`d file longer than the reader takes.
extension REPLSession.LineTooLong: ExitStatusProviding { var exitStatus: ExitStatus { .dataError } }
/// The REPL's terminal cannot be set up (a pipe the editor needs).
extension LineEditor.EditorError: ExitStatusProviding { var exitStatus: ExitStatus { .ioError } }
/// An unclosed quote on a REPL line: the line's usage.
extension REPLLexer.Problem: ExitStatusProviding { var exitStatus: ExitStatus { .usage } }
extension IngestOutput.StdoutFailed: ExitStatusProviding { var exitStatus: ExitStatus { .ioError } }
/// validate --live: the reference cuff gave no reading.
extension LiveValidationError: ExitStatusProviding { var exitStatus: ExitStatus { .cuffError } }
/// bp-init --abandon closed the open calibration: what was asked.
extension MultiSetAbandoned: ExitStatusProviding { var exitStatus: ExitStatus { .success } }

// MARK: The core's errors

extension StoreError: ExitStatusProviding { var exitStatus: ExitStatus { .ioError } }
extension AuditKeyMismatch: ExitStatusProviding { var exitStatus: ExitStatus { .ioError } }
extension AuditChainStripped: ExitStatusProviding { var exitStatus: ExitStatus { .ioError } }
extension AuditSignError: ExitStatusProviding {
    var exitStatus: ExitStatus {
        switch self {
        case .unknownRun: return .noInput
        case .unfinished: return .notYet
        case .unverified, .approvalOfFailure: return .dataError
        }
    }
}
extension MultiSetNotDue: ExitStatusProviding { var exitStatus: ExitStatus { .notYet } }
extension PrivateFileError: ExitStatusProviding { var exitStatus: ExitStatus { .ioError } }
extension ByteSourceError: ExitStatusProviding { var exitStatus: ExitStatus { .noInput } }
extension IngestError: ExitStatusProviding {
    var exitStatus: ExitStatus {
        switch self {
        case .unknownFormat: return .usage
        case .undecodable, .notText, .malformed: return .dataError
        case .unreadable: return .noInput
        }
    }
}
// Bad records of the input formats: each is bad data, named.
extension TextDecodingIssue: ExitStatusProviding { var exitStatus: ExitStatus { .dataError } }
extension ZipError: ExitStatusProviding { var exitStatus: ExitStatus { .dataError } }
extension HealthXMLError: ExitStatusProviding { var exitStatus: ExitStatus { .dataError } }
extension GoogleFitError: ExitStatusProviding { var exitStatus: ExitStatus { .dataError } }
extension IngestIssue: ExitStatusProviding { var exitStatus: ExitStatus { .dataError } }
extension ValidationIssue: ExitStatusProviding { var exitStatus: ExitStatus { .dataError } }
extension BLEDecodeError: ExitStatusProviding { var exitStatus: ExitStatus { .dataError } }
extension BLECaptureLine.ParseError: ExitStatusProviding { var exitStatus: ExitStatus { .dataError } }
extension ReadingLineError: ExitStatusProviding { var exitStatus: ExitStatus { .dataError } }
extension JSONParseError: ExitStatusProviding { var exitStatus: ExitStatus { .dataError } }
extension CuffClockValue.Problem: ExitStatusProviding { var exitStatus: ExitStatus { .dataError } }
extension ManualCuffEntry.Problem: ExitStatusProviding { var exitStatus: ExitStatus { .dataError } }
extension ProfileError: ExitStatusProviding { var exitStatus: ExitStatus { .dataError } }
/// A stations file line refused (file, line and field named).
extension StationsFileError: ExitStatusProviding { var exitStatus: ExitStatus { .dataError } }
/// A stored run that cannot be read back for FHIR (history, cuff ingest --format fhir).
extension FHIRExportError: ExitStatusProviding { var exitStatus: ExitStatus { .dataError } }
extension ScenarioError: ExitStatusProviding {
    var exitStatus: ExitStatus {
        if case .unreadable = self { return .noInput }
        return .dataError
    }
}
extension DecodingError: ExitStatusProviding { var exitStatus: ExitStatus { .dataError } }
// Values of options the parser or a rule refuses.
extension WearingOptError: ExitStatusProviding { var exitStatus: ExitStatus { .usage } }
extension NIBPRead.RequestError: ExitStatusProviding { var exitStatus: ExitStatus { .usage } }
extension BraceletAddressError: ExitStatusProviding { var exitStatus: ExitStatus { .usage } }
extension ValidationCriterionError: ExitStatusProviding { var exitStatus: ExitStatus { .usage } }
extension ValidationSequenceError: ExitStatusProviding { var exitStatus: ExitStatus { .usage } }
/// An unknown or unnamed subject of a simulated cuff: bp-init turns it into a usage error.
extension SimulatedCuffError: ExitStatusProviding { var exitStatus: ExitStatus { .usage } }
extension ReportError: ExitStatusProviding { var exitStatus: ExitStatus { .noInput } }
extension BraceletError: ExitStatusProviding {
    var exitStatus: ExitStatus {
        switch self {
        case .unavailable, .refused, .held: return .unavailable
        case .disconnected, .timeout: return .braceletDisconnected
        }
    }
}
extension BraceletGateError: ExitStatusProviding { var exitStatus: ExitStatus { .unavailable } }
extension OptionalLibraryError: ExitStatusProviding { var exitStatus: ExitStatus { .unavailable } }
/// A program the command starts (an `exec:` bridge) cannot be started: the bracelet is unavailable.
extension SpawnFailure: ExitStatusProviding { var exitStatus: ExitStatus { .unavailable } }
extension BridgeAuthError: ExitStatusProviding { var exitStatus: ExitStatus { .notPermitted } }
extension CuffError: ExitStatusProviding { var exitStatus: ExitStatus { .cuffError } }
extension BluetoothError: ExitStatusProviding {
    var exitStatus: ExitStatus {
        switch self {
        case .accessDenied: return .notPermitted
        case .serviceAbsent, .notReady: return .unavailable
        case .bus, .failed: return .ioError
        }
    }
}
/// The system bus itself failing (BlueZCentral turns the rest into `BluetoothError`).
extension DBusFailure: ExitStatusProviding { var exitStatus: ExitStatus { .ioError } }
extension CuffCollector.Failure: ExitStatusProviding {
    var exitStatus: ExitStatus {
        if case .bluetooth(let b) = self { return b.exitStatus }
        return .unavailable
    }
}
/// A task cancelled by a stop signal.
extension CancellationError: ExitStatusProviding { var exitStatus: ExitStatus { .interrupted } }
