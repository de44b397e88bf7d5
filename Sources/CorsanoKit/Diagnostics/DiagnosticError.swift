import Foundation

/// An error that says, in one line for a person, what went wrong and with what (file, line,
/// field, address): the text after `corsano: ` on stderr. Each error type writes its own
/// message here; the executable's `ErrorTranslator` only chooses the exit status and whether
/// the message is printed.
public protocol DiagnosticError: Error {
    /// One line, English (scripts may match it).
    var message: String { get }
    /// The message in `localizer`'s language, for runs that print human text; English when the
    /// error has no translation.
    func message(in localizer: Localizer) -> String
}

extension DiagnosticError {
    public func message(in localizer: Localizer) -> String { message }
}

extension StoreError: DiagnosticError {
    /// `state store PATH: ...`.
    public var message: String {
        switch self {
        case .cannotOpen(let path, let m): return "state store \(path): cannot open: \(m)"
        case .busy(let path): return "state store \(path): locked by another process for too long"
        case .corrupt(let path, let m): return "state store \(path): corrupt: \(m)"
        case .failed(let path, let m): return "state store \(path): \(m)"
        case .newerSchema(let path, let v): return "state store \(path): written by a newer corsano (schema \(v))"
        case .busyServer(let path, let m): return "state store busy: \(path): \(m); try again (or give --store-wait longer)"
        }
    }
}

extension AuditKeyMismatch: DiagnosticError {
    /// Names both key ids and how to give the right key.
    public var message: String {
        "state store \(location): its audit chain is keyed with key \(storeKeyID), "
            + (offeredKeyID.map { "not with this audit key (\($0))" } ?? "and no audit key was found")
            + "; copy the lab's audit key here and pass it with --audit-key FILE"
    }
}

extension AuditChainStripped: DiagnosticError {
    /// Names the head and the last keyed record, and what to do.
    public var message: String {
        "state store \(location): its audit chain's head (record \(head)) has no HMAC although record \(lastKeyed) before it has one: "
            + "the MACs of its tail were stripped; nothing appended (corsano history --verify --audit-key FILE names the first record)"
    }
}

extension AuditSignError: DiagnosticError {
    public var message: String {
        switch self {
        case .unknownRun(let run): return "history sign: no run \(run) in the audit log"
        case .unfinished(let run): return "history sign: run \(run) has not ended; sign it when it ends"
        case .killed(let run, let bracelet, let restoredAt, let signable):
            return "history sign: run \(run) was killed and never ends" + (restoredAt.map { " (its plan was restored at \($0))" } ?? "")
                + ", so it cannot be signed; " + (signable.isEmpty
                    ? "bracelet \(bracelet) has no finished run to sign yet: sign the run that calibrates it when it ends"
                    : "sign a finished run of bracelet \(bracelet) instead: " + signable.joined(separator: ", ")
                        + " (corsano history --bracelet \(bracelet) lists them)")
        case .unverified(let run, let why):
            return "history sign: run \(run) does not verify against the audit chain (\(why)); nothing signed (corsano history --verify names what changed)"
        case .approvalOfFailure(let run, let result):
            return "history sign: run \(run) ended \(result), not success: it cannot be approved (review or responsibility can be signed)"
        }
    }
}

extension BraceletError: DiagnosticError {
    public var message: String {
        switch self {
        case .unavailable(let why): return "bracelet unavailable: \(why)"
        case .refused(let why): return "bracelet refused: \(why)"
        case .disconnected: return "bracelet disconnected"
        case .timeout: return "bracelet did not answer"
        case .held(let holder): return "bracelet held by a live run: \(holder) holds it in plan \(BraceletPlan.nibpCalibration); left alone; try again when it ends"
        case .busy(let why, let at): return "bracelet busy: \(why)" + (at.map { "; try again after \(RFC3339.format($0))" } ?? "; try again when it ends")
        }
    }

    public func message(in localizer: Localizer) -> String {
        if case .unavailable(let why) = self { return localizer[.errorBraceletUnavailable, why] }
        return message
    }
}

extension BraceletGateError: DiagnosticError {
    public func message(in localizer: Localizer) -> String {
        switch self {
        case .wrongModel(_, let found, _): return localizer[.errorWrongModel, found]
        case .firmwareTooOld(_, let found, _): return localizer[.errorFirmwareTooOld, found]
        }
    }
}

extension ScenarioError: DiagnosticError {
    /// `scenario PATH: no such file` (or `cannot read`), `scenario PATH: field ...`.
    public var message: String {
        switch self {
        case .unreadable(let path):
            return "scenario \(path): " + (FileManager.default.fileExists(atPath: path) ? "cannot read" : "no such file")
        case .invalid(let source, let message): return "scenario \(source): \(message)"
        }
    }
}

extension IngestError: DiagnosticError {
    public var message: String {
        switch self {
        case .unknownFormat(let source, let line):
            return "\(source): cannot tell the input format from its first line '\(line)' (not a JSON object, a BLE capture line, or a CSV header naming a column corsano reads); use --from jsonl|ble|csv|applehealth|googlefit"
        case .unreadable(let source, let code):
            return "\(source): \(String(cString: strerror(code)))"
        case .undecodable(let source, let offset, let detail):
            return "\(source): byte offset \(offset): \(detail); the input is read as UTF-8 (or UTF-16 after its BOM): give --encoding windows-1252 or --encoding latin1 for a file saved from Excel; nothing after this offset was read"
        case .notText(let source, let first):
            return "\(source): not text (it starts '\(first)'): cuff ingest reads JSON lines, BLE capture lines and CSV exports; nothing was read"
        case .malformed(let source, let line, let detail):
            return "\(source):" + (line.map { "\($0):" } ?? "") + " \(detail); nothing more of this input was read"
        }
    }
}

extension WearingOptError: DiagnosticError {
    /// What to run first.
    public var message: String {
        switch self {
        case .noProfile(let serial, let missing):
            return "no user profile for bracelet \(serial) (none given, none stored, none on the bracelet): missing "
                + missing.joined(separator: ", ") + "; give them with --profile FILE (a JSON object with the fields "
                + "'corsano profile push --from' reads), or push a profile first with 'corsano profile push'"
        }
    }
}

extension ReportError: DiagnosticError {
    public var message: String {
        switch self {
        case .unknownRun(let run): return "report: no run \(TerminalText.escaped(run)) in the audit log (corsano history lists them)"
        case .unknownBracelet(let serial): return "report: no run on bracelet \(TerminalText.escaped(serial)) in the audit log"
        }
    }
}
