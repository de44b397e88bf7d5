import Foundation
import Testing

/// A refused bracelet is explained in the run's language with text output, in English with JSON.
@Suite struct LocalizedDiagnosticsTests {
    static func run(_ args: [String], scenario: String, env: [String: String] = [:]) throws -> Corsano.Outcome {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-l10n-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("scenario.json")
        try Data(scenario.utf8).write(to: file)
        return try Corsano.run(args + ["--bracelet", "sim:" + file.path, "--no-state", "--now", "2026-11-29T10:00:00Z"],
                               env: env)
    }

    @Test func firmwareTooOldInGermanWithText() throws {
        let out = try Self.run(["wearing-opt", "--text", "--lang", "de"], scenario: #"{"firmware":"6.9"}"#)
        #expect(out.status == 69)
        #expect(out.stderr == "corsano: Die Firmware 6.9 des Armbands ist zu alt; die Trageoptimierung benötigt Firmware 7.0 oder neuer.\n")
        #expect(out.stdout.isEmpty)
    }

    @Test func wrongModelInGeorgianFromTheEnvironment() throws {
        let out = try Self.run(["bp-init", "--text"], scenario: #"{"model":"287-1"}"#, env: ["LC_ALL": "ka_GE.UTF-8"])
        #expect(out.status == 69)
        #expect(out.stderr == "corsano: ეს სამაჯური არის 287-1; საჭიროა 287-2.\n")
    }

    @Test func jsonRunsKeepEnglish() throws {
        let out = try Self.run(["bp-init", "--json", "--lang", "de"], scenario: #"{"model":"287-1"}"#)
        #expect(out.status == 69)
        #expect(out.stderr == "corsano: bp-init needs a 287-2 bracelet; this bracelet is model 287-1\n")
    }
}
