import CorsanoKit
import Foundation
import Testing
@testable import CorsanoCLI

/// Each error type declares its own exit status: read from the sources, every type
/// that conforms to `Error` conforms to `ExitStatusProviding` too, and the translator exits with
/// what the error declares; one that declares nothing is an internal error, said loudly.
@Suite struct ErrorStatusTests {
    static let sources = ExitListTests.packageRoot.appendingPathComponent("Sources")

    /// The core's internal error types: the command layer cannot name them, and each is caught
    /// inside the core where it is thrown (control flow of a flow, a retry, a dispatch); one
    /// that escaped anyway would be an internal error (70). A new one must be added here, with
    /// where it is caught, or declare a status.
    static let caughtInTheCore: [String: String] = [
        "FlowStop": "WearingOptimizationFlow.run: a declined step ends the run cancelledByUser",
        "WearingRunEnd": "WearingOptimizationFlow.run: the result it carries",
        "BPInitFlowEnd": "BPInitializationFlow.run: the result it carries",
        "AuditLog.AlreadySigned": "AuditLog.sign: the identical signature already there, returned as repeated",
        "PostgresFailure": "PostgresStore: turned into StoreError",
        "BridgeSessionError": "BridgeSession: answered as JSON-RPC -32601",
        "BridgeProtocolError": "BridgeClient: turned into BraceletError / answered as -32602",
    ]

    /// A type declaration or extension in Swift source: its qualified name (nesting by indent)
    /// and what it inherits.
    struct Declaration { var name: String; var inherits: [String]; var isExtension: Bool; var file: String }

    static func declarations() throws -> [Declaration] {
        let files = FileManager.default.enumerator(atPath: sources.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        let pattern = /^(\s*)(?:(?:public|private|fileprivate|internal|final|indirect)\s+)*(enum|struct|class|actor|extension|protocol)\s+([A-Za-z0-9_.]+)(?:<[^>]*>)?\s*(?::\s*([^{]+))?\{?/
        var result: [Declaration] = []
        for file in files.sorted() {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            var enclosing: [(indent: Int, name: String)] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                // Swift's Regex is slow: only lines that may declare a type are matched.
                guard ["enum ", "struct ", "class ", "actor ", "extension ", "protocol "].contains(where: line.contains),
                      let m = try pattern.prefixMatch(in: String(line)) else { continue }
                let indent = m.1.count
                enclosing.removeAll { $0.indent >= indent }
                let name = (enclosing.last.map { $0.name + "." } ?? "") + m.3
                enclosing.append((indent, name))
                guard m.2 != "protocol" else {
                    result.append(Declaration(name: "protocol " + name, inherits: Self.list(m.4), isExtension: false, file: file))
                    continue
                }
                result.append(Declaration(name: name, inherits: Self.list(m.4), isExtension: m.2 == "extension", file: file))
            }
        }
        return result
    }

    static func list(_ clause: Substring?) -> [String] {
        (clause ?? "").replacing(/where .*/, with: "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .map { $0.replacing("@retroactive ", with: "") }
    }

    @Test func everyErrorTypeInTheSourcesDeclaresItsStatus() throws {
        let all = try Self.declarations()
        // Protocols that refine Error (DiagnosticError): conforming to one is conforming to Error.
        let errorProtocols = Set(all.filter { $0.name.hasPrefix("protocol ") && $0.inherits.contains { ["Error", "DiagnosticError"].contains($0) } }
            .map { String($0.name.dropFirst("protocol ".count)) }).union(["Error", "LocalizedError"])
        let errors = all.filter { !$0.name.hasPrefix("protocol ") && $0.inherits.contains(where: errorProtocols.contains) }
        #expect(errors.count > 40, "the source reader found only \(errors.count) error types")
        let declaring = Set(all.filter { $0.inherits.contains("ExitStatusProviding") }.map(\.name))
        // An extension names a nested type by its path from the module (`REPLLexer.Problem`).
        for error in errors where !declaring.contains(error.name) && Self.caughtInTheCore[error.name] == nil {
            Issue.record("\(error.file): \(error.name) conforms to Error but declares no exit status (ExitStatusProviding)")
        }
        for name in Self.caughtInTheCore.keys {
            #expect(errors.contains { $0.name == name && $0.file.hasPrefix("CorsanoKit/") }, "\(name) is no internal error type of the core now")
        }
    }

    /// An error of each kind, and the status its type declares.
    static let samples: [(any Error, CorsanoCLI.ExitStatus)] = [
        (UsageError.unknownCommand("x"), .usage),
        (InputError.cannotOpen(path: "a", reason: "r"), .noInput),
        (AuditSignError.unknownRun("r"), .noInput),
        (AuditSignError.unfinished("r"), .notYet),
        (IngestError.unknownFormat(source: "s", firstLine: "x"), .usage),
        (IngestError.unreadable(source: "s", errno: EISDIR), .noInput),
        (ScenarioError.unreadable(path: "p"), .noInput),
        (ScenarioError.invalid(source: "s", message: "m"), .dataError),
        (BraceletError.refused("r"), .unavailable),
        (BraceletError.disconnected, .braceletDisconnected),
        (BridgeAuthError.badToken(path: "p", reason: "r"), .notPermitted),
        (BluetoothError.accessDenied("a"), .notPermitted),
        (BluetoothError.notReady("a"), .unavailable),
        (CuffCollector.Failure.bluetooth(.accessDenied("a")), .notPermitted),
        (CuffCollector.Failure.adapterOff("hci0"), .unavailable),
        (CuffError.noReading, .cuffError),
        (StoreError.busy(path: "/s"), .ioError),
        (ByteSourceError.readFailed(errno: EIO), .noInput),
        (CancellationError(), .interrupted),
    ]

    @Test(arguments: samples.indices)
    func theTranslatorExitsWithTheStatusTheTypeDeclares(_ i: Int) throws {
        let (error, status) = Self.samples[i]
        let declared = try #require(error as? any ExitStatusProviding)
        #expect(declared.exitStatus == status)
        #expect(ErrorTranslator.translate(error, command: "x").status == status)
    }

    struct Undeclared: Error {}

    @Test func anErrorThatDeclaresNoStatusIsAnInternalErrorSaidLoudly() {
        let (message, status) = ErrorTranslator.translate(Undeclared(), command: "history")
        #expect(status == .internalError)
        #expect(status.rawValue == 70)
        #expect(message == "internal error: history: CorsanoCLITests.ErrorStatusTests.Undeclared: Undeclared()"
                + " (an error that declares no exit status; please report it)")
    }
}
