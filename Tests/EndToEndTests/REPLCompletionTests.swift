import Foundation
import Testing
@testable import CorsanoCLI

/// The REPL's TAB answers (`REPLCompletion.offer`) agree with the bash completion table and know
/// the session commands.
@Suite struct REPLCompletionTests {
    /// `line` is what was typed; its last word (after the last blank or `=`) is being completed.
    static func offer(_ line: String) -> CompletionEngine.Offer? {
        let cut = line.lastIndex { $0 == " " || $0 == "=" }.map { line.index(after: $0) } ?? line.startIndex
        return REPLCompletion.offer(prefix: String(line[..<cut]), current: String(line[cut...]))
    }

    /// (Not the lines whose last word has a `:`: bash replies with what follows it, the REPL
    /// with the whole word; `schemeFilesAfterSimAndUnix` covers those. Not file or directory
    /// names: the REPL offers those as `.files` and `.directories`, `knowsSessionCommands`.)
    @Test(arguments: CompletionTests.bashCases.filter {
        !$0.expected.contains { $0.hasPrefix("dump") } && !$0.line.hasPrefix("corsano --") && !($0.line.split(separator: " ").last ?? "").contains(":")
            && !$0.line.contains("--output-dir")
    })
    func agreesWithBash(line: String, expected: [String]) {
        let typed = String(line.dropFirst("corsano ".count))
        guard case .words(let words)? = Self.offer(typed) else {
            Issue.record("\(typed): no word list")
            return
        }
        // The REPL adds its session words (`cuff add`, `connect`, ...) and has no `repl`.
        let extra: Set = ["add", "scan", "connect", "quit"]
        #expect(words.filter { !extra.contains($0) }.sorted() == expected.filter { $0 != "repl" }.sorted(), "\(typed)")
    }

    @Test(arguments: [
        ("cuff ", CompletionEngine.Offer.words(["ingest", "listen", "add", "scan", "connect"])),
        ("co", .words(["completion", "connect"])),
        ("st", .words(["state", "status"])),
        ("status --clock ", .words(["real", "virtual"])),
        ("help cuff ", .words(["ingest", "listen", "add", "scan", "connect"])),
        ("cuff connect --", .words(["--timeout", "--adapter", "--pair", "--help"])),
        ("bp-init --cuff ", .files),
        ("cuff ingest ", .files),
        ("cuff ingest --output-dir ", .directories),
        ("bp-init --now ", .words([])),
        ("bp-init --bracelet sim:", .schemeFiles(scheme: "sim:", suffix: ".json")),
        ("bracelet serve --listen unix:/tmp/x", .schemeFiles(scheme: "unix:", suffix: nil)),
        ("bp-init --bracelet s", .words(["sim", "sim:"])),
    ])
    func knowsSessionCommands(line: String, expected: CompletionEngine.Offer) {
        #expect(Self.offer(line) == expected, "\(line)")
    }

    @Test func anOpenQuoteOffersNothing() {
        #expect(REPLCompletion.offer(prefix: "cuff ingest 'my ", current: "fi") == nil)
    }
}

extension REPLCompletionTests {
    /// A directory option offers the directories that continue the word, never files.
    @Test func directoryOptionsOfferDirectoriesOnly() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-repldirs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        for sub in ["out", "other"] { try FileManager.default.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true) }
        try Data().write(to: dir.appendingPathComponent("out.ndjson"))
        let base = dir.path + "/"
        #expect(REPLCompletion.directories(typed: base + "o") == [base + "other/", base + "out/"])
        #expect(REPLCompletion.directories(typed: base + "out.") == [])
    }

    /// `sim:` offers the directories and scenario files that continue the path, `unix:` any path.
    @Test func schemeFilesAfterSimAndUnix() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-replcomp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("lab"), withIntermediateDirectories: true)
        for name in ["scen.json", "notes.txt", ".hidden.json"] { try Data().write(to: dir.appendingPathComponent(name)) }
        let base = dir.path + "/"
        #expect(REPLCompletion.files(after: "sim:", endingIn: ".json", typed: "sim:" + base) == ["sim:\(base)lab/", "sim:\(base)scen.json"])
        #expect(REPLCompletion.files(after: "unix:", endingIn: nil, typed: "unix:" + base + "n") == ["unix:\(base)notes.txt"])
        #expect(REPLCompletion.files(after: "sim:", endingIn: ".json", typed: "sim:" + base + ".") == ["sim:\(base).hidden.json"])
    }
}
