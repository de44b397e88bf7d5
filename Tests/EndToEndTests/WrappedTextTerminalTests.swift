@testable import CorsanoCLI
import CorsanoKit
import Foundation
import Testing

/// Human text outside the flows' screens in real terminals (tmux) of 40 columns, in en, de and ar
/// (build 2: "wrapped stderr at 40 columns in tmux, in en, de and ar"): stderr
/// diagnostics (a translated error naming a path wider than any line, a long note and a store
/// error), the REPL's banner, `status`, `help` and a command's `--help` typed in the REPL. No row
/// wider than the terminal unless it holds one word wider than it (`capture-pane -J` joins the
/// rows the terminal folded, so text the program left unwrapped shows as a long row), and the
/// same words at 40 as at 200 columns: none split.
@Suite(.serialized) struct WrappedTextTerminalTests {
    static let locales: [(AppLocale, String)] = [(.en, "en_US.UTF-8"), (.de, "de_DE.UTF-8"), (.ar, "ar_EG.UTF-8")]
    static let narrow = 40
    static let wide = 200

    /// A bracelet socket that is not there: its path is one word wider than a 40-column line.
    static let socket = "/tmp/corsano-wrap-test-a-socket-path-that-is-not-there.sock"

    /// Starts `args` in a terminal of each width for each locale: `--lang` given (the terminal's
    /// LANG is C.UTF-8) or, without `lang`, the locale's LANG.
    static func terminals(_ args: [String], lang: Bool) throws -> [(AppLocale, Int, Tmux)] {
        var runs: [(AppLocale, Int, Tmux)] = []
        for (locale, name) in locales {
            for width in [narrow, wide] {
                let term = lang ? try Tmux(args + ["--lang", locale.tag], columns: width, rows: 60)
                    : try Tmux(args, env: ["LANG": name], columns: width, rows: 60)
                runs.append((locale, width, term))
            }
        }
        return runs
    }

    @Test func aTranslatedErrorKeepsItsWordsWhole() throws {
        let runs = try Self.terminals(["bp-init", "--no-state", "--bracelet", "unix:" + Self.socket], lang: true)
        for (locale, _, term) in runs {
            try term.waitFor("[exited 69]")
            let expected = Localizer(locale: locale)[.errorBraceletUnavailable, "unix:\(Self.socket): No such file or directory"]
            let seen = TerminalWidthTests.plain(try term.transcript().joined(separator: " "))
            #expect(seen.contains(TerminalWidthTests.plain("corsano: " + expected)), "\(locale.tag): \(seen)")
        }
        try Self.expectWrapped(runs)
    }

    @Test func aLongNoteAndAStoreErrorWrapAtSpaces() throws {
        // Nothing listens there: refused until --store-wait runs out, then 75 (state store busy).
        let runs = try Self.terminals(["history", "--state", "postgresql://corsano:secret@127.0.0.1:1/wrapped", "--store-wait", "1"], lang: false)
        for (locale, _, term) in runs {
            try term.waitFor("[exited 75]")
            let seen = TerminalWidthTests.plain(try term.transcript().joined(separator: " "))
            #expect(seen.contains("corsano: warning: a password on the command line can be read by every user of this machine (ps, "
                                  + "/proc/PID/cmdline); leave it out of the URI"), "\(locale.tag): \(seen)")
            #expect(seen.contains("corsano: state store busy: postgresql://corsano@127.0.0.1:1/wrapped:"), "\(locale.tag): \(seen)")
        }
        try Self.expectWrapped(runs)
    }

    /// A rejected record and the closing counts of `cuff ingest` on stderr (the reject names the
    /// file: a path wider than a line).
    @Test func aRejectAndTheCountsWrap() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-wrapped-rejects-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("readings.jsonl")
        try Data(("{\"systolic\":120,\"diastolic\":80,\"pulse\":70,\"measuredAt\":\"2026-12-01T10:00:00Z\"}\n"
                  + "{\"systolic\":400,\"diastolic\":80,\"pulse\":70,\"measuredAt\":\"2026-12-01T10:05:00Z\"}\n").utf8).write(to: file)
        let runs = try Self.terminals(["cuff", "ingest", "--from", "jsonl", file.path], lang: false)
        for (locale, _, term) in runs {
            try term.waitFor("[exited 65]")  // a record rejected
            let seen = TerminalWidthTests.plain(try term.transcript().joined(separator: " "))
            #expect(seen.contains("\(file.path):2: systolic: 400 mmHg outside 50-300"), "\(locale.tag): \(seen)")
            #expect(seen.contains("corsano: cuff ingest: read 2, written 1, skipped 0, dropped 0, rejected 1"), "\(locale.tag): \(seen)")
        }
        try Self.expectWrapped(runs)
    }

    /// A command's help, whose defaults name paths wider than a 40-column line.
    @Test func helpWrapsInEveryLocale() throws {
        let runs = try Self.terminals(["bp-init", "--help"], lang: false)
        for (_, _, term) in runs { try term.waitFor("[exited 0]") }
        try Self.expectWrapped(runs)
    }

    /// `history` text on stdout (a run's header, result, readings; `--due`): the one wrapper at a
    /// terminal, the localized lines kept whole in a pipe (`HistoryLocalizedTextTests`).
    @Test func historyTextWraps() throws {
        let (state, _) = try HistoryLocalizedTextTests.store()
        let runs = try Self.terminals(["history", "--state", state], lang: false)
        for (_, _, term) in runs { try term.waitFor("[exited 0]") }
        try Self.expectWrapped(runs)
        let due = try Self.terminals(["history", "--state", state, "--due", "1", "--now", "2026-12-01T00:00:00Z"], lang: false)
        for (_, _, term) in due { try term.waitFor("[exited 1]") }
        try Self.expectWrapped(due)
    }

    /// The banner, replies, `status` (its values wrapped under the values) and help in the REPL,
    /// whose text reaches the terminal through the line editor's pipe.
    @Test func theREPLsBannerStatusAndHelpWrap() throws {
        let runs = try Self.terminals(["repl", "--no-state"], lang: false)
        let readings = ["120/80 72", "118/79 70", "121/81 71"]
        for (_, _, term) in runs {
            try TerminalWidthTests.waitFor(term, "Control-D quits.")
            for (i, reading) in readings.enumerated() {
                try term.send("cuff add " + reading, "Enter")
                try TerminalWidthTests.waitFor(term, "(\(i + 1) waiting for the next bp-init)")
            }
            try term.send("status", "Enter")
            try TerminalWidthTests.waitFor(term, "queued " + readings.map { $0 + " (manual)" }.joined(separator: ", "))
            try term.send("help", "Enter")
            try TerminalWidthTests.waitFor(term, "help COMMAND shows a command's options.")
            try term.send("bp-init --help", "Enter")
            try TerminalWidthTests.waitFor(term, "usage: corsano bp-init [OPTIONS]")
            try term.send("quit", "Enter")
            try term.waitFor("[exited 0]")
        }
        for (_, width, term) in runs where width == Self.narrow {
            // A status value wider than the line goes on under the values, past the labels.
            let rows = try term.transcript()
            let bracelet = rows.firstIndex { $0.hasPrefix("bracelet  model ") }
            #expect(bracelet.map { rows[$0 + 1].hasPrefix(String(repeating: " ", count: 10) + "serial") } == true, "\(rows)")
        }
        try Self.expectWrapped(runs)
    }

    /// Rows no wider than the terminal unless one word, and the same words at 40 as at 200 columns.
    static func expectWrapped(_ runs: [(AppLocale, Int, Tmux)], sourceLocation: SourceLocation = #_sourceLocation) throws {
        var words: [String: [String]] = [:]
        for (locale, width, term) in runs {
            let rows = try term.transcript().filter { !$0.hasPrefix("[exited") }
            for row in rows where TextLayout.columns(row) > width && TextLayout.words(row).count > 1 {
                Issue.record("\(locale.tag) at \(width) columns: a row of \(TextLayout.columns(row)): \(row)", sourceLocation: sourceLocation)
            }
            let these = TerminalWidthTests.plain(rows.joined(separator: " ")).split(separator: " ").map(String.init)
            if let other = words[locale.tag] {
                #expect(these == other, "\(locale.tag): the words differ between \(narrow) and \(wide) columns:\n\(rows.joined(separator: "\n"))",
                        sourceLocation: sourceLocation)
            }
            words[locale.tag] = these
        }
    }
}
