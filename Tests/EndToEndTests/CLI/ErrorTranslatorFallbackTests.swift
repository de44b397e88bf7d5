import CorsanoKit
import Foundation
import Testing
@testable import corsano

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

    @Test func anUnknownErrorNamesTheCommandAndTheErrorsType() {
        let (message, status) = ErrorTranslator.translate(Unforeseen(), command: "history")
        #expect(message == "history failed: Unforeseen: Unforeseen()")
        #expect(status == .ioError)
    }

    @Test func theREPLHintsAtItsOwnHelp() {
        #expect(ErrorTranslator.translate(UsageError.unknownCommand("frob"), inREPL: true).message == "unknown command 'frob'; try 'help'")
        #expect(ErrorTranslator.translate(UsageError.unknownCommand("frob")).message == "unknown command 'frob'; try 'corsano --help'")
    }
}
