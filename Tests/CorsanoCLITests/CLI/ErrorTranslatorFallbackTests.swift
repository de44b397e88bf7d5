import CorsanoKit
import Foundation
import Testing
@testable import CorsanoCLI

/// Errors of no command-specific kind still reach users as words naming what failed, never as a
/// bare Swift case dump (`readFailed(errno: 21)`).
@Suite struct ErrorTranslatorFallbackTests {
    struct Unforeseen: Error {}

    @Test func aReadFailureSaysWhichCommandAndWhy() {
        let (message, status) = ErrorTranslator.translate(ByteSourceError.readFailed(errno: EISDIR), command: "cuff ingest")
        #expect(message == "cuff ingest: read failed: Is a directory")
        #expect(status == .noInput)
    }

    @Test func aDecodingErrorNamesTheFieldAndTheExpectedKind() throws {
        struct Shape: Decodable { let attempts: [Int] }
        do {
            _ = try JSONDecoder().decode(Shape.self, from: Data(#"{"attempts":"x"}"#.utf8))
            Issue.record("decoded a string as an array")
        } catch {
            let (message, status) = ErrorTranslator.translate(error, command: "bp-init")
            #expect(message == "bp-init: field attempts: expected an array, found a string")
            #expect(status == .dataError)
        }
    }

    /// An error that declares no status is a defect: said as one, naming the command and its
    /// type, with 70 — never passed off as an I/O error.
    @Test func anUnknownErrorNamesTheCommandAndTheErrorsType() {
        let (message, status) = ErrorTranslator.translate(Unforeseen(), command: "history")
        #expect(message == "internal error: history: CorsanoCLITests.ErrorTranslatorFallbackTests.Unforeseen: Unforeseen()"
                + " (an error that declares no exit status; please report it)")
        #expect(status == .internalError)
    }

    @Test func theREPLHintsAtItsOwnHelp() {
        #expect(ErrorTranslator.translate(UsageError.unknownCommand("frob"), inREPL: true).message == "unknown command 'frob'; try 'help'")
        #expect(ErrorTranslator.translate(UsageError.unknownCommand("frob")).message == "unknown command 'frob'; try 'corsano --help'")
    }
}

/// Every error says its own message; the translator adds only the exit status (and, for a
/// human-text run, the translation the error itself carries).
@Suite struct ErrorMessageTests {
    static let cases: [(any DiagnosticError, String, CorsanoCLI.ExitStatus)] = [
        (UsageError.missing("--x is required"), "--x is required", .usage),
        (InputError.cannotOpen(path: "a.jsonl", reason: "No such file or directory"), "a.jsonl: No such file or directory", .noInput),
        (OutputFileError.cannotCreate(path: "/r", reason: "Permission denied"), "/r: Permission denied", .ioError),
        (StoreError.busy(path: "/s"), "state store /s: locked by another process for too long", .ioError),
        (BraceletError.unavailable("no bridge"), "bracelet unavailable: no bridge", .unavailable),
        (BraceletError.timeout, "bracelet did not answer", .braceletDisconnected),
        (BraceletGateError.wrongModel(flow: "bp-init", found: "287-1", required: "287-2"),
         "bp-init needs a 287-2 bracelet; this bracelet is model 287-1", .unavailable),
        (ScenarioError.invalid(source: "s.json", message: "field x"), "scenario s.json: field x", .dataError),
        (ScenarioError.unreadable(path: "/nonexistent/s.json"), "scenario /nonexistent/s.json: no such file", .noInput),
        (IngestError.unreadable(source: "d", errno: EISDIR), "d: Is a directory", .noInput),
        (ProfileFileError(path: "p.json", line: 3, message: "field 'weight': bad"), "p.json:3: field 'weight': bad", .dataError),
        (ListenError.cannotListen("tcp:x:1", reason: "x: Address in use"), "bracelet serve: cannot listen on tcp:x:1: Address in use", .ioError),
    ]

    @Test(arguments: cases.indices)
    func theTranslatorPrintsTheErrorsOwnMessage(_ i: Int) {
        let (error, message, status) = Self.cases[i]
        #expect(error.message == message)
        let translated = ErrorTranslator.translate(error, command: "x")
        #expect(translated.message == message)
        #expect(translated.status == status)
    }

    @Test func aHumanTextRunGetsTheTranslationTheErrorCarries() {
        let de = Localizer(locale: .de)
        let gate = BraceletGateError.firmwareTooOld(flow: "wearing-opt", found: "6.9", required: "7.0")
        #expect(ErrorTranslator.translate(gate, localizer: de).message == gate.message(in: de))
        #expect(gate.message(in: de) != gate.message)
        // Errors without a translation stay English.
        #expect(ErrorTranslator.translate(StoreError.busy(path: "/s"), localizer: de).message
                == "state store /s: locked by another process for too long")
    }
}
