@testable import CorsanoCLI
import CorsanoKit
import Foundation
import Testing

/// Both flows' human text in real terminals (tmux) of 40 and 120 columns, in en, de and ar
/// (point 2): no row wider than the terminal (`capture-pane -J` joins the rows the
/// terminal wrapped by itself, so a line the program failed to wrap shows as a long row), the
/// same words at both widths (nothing broken mid-word), the prompts wrapped too, and one
/// progress row left after the live redraws (none stale).
@Suite(.serialized) struct TerminalWidthTests {
    static let locales: [(AppLocale, String)] = [(.en, "en_US.UTF-8"), (.de, "de_DE.UTF-8"), (.ar, "ar_EG.UTF-8")]
    static let widths = [40, 120]

    @Test func bpInitTextAndPromptsFitTheTerminal() throws {
        // Every run starts at once; they share nothing, so the six terminals run side by side.
        var runs: [(AppLocale, Int, Tmux)] = []
        for (locale, lang) in Self.locales {
            for width in Self.widths {
                runs.append((locale, width, try Tmux(["bp-init", "--no-state"], env: ["LANG": lang], columns: width)))
            }
        }
        for (locale, _, term) in runs {
            let l = Localizer(locale: locale)
            try Self.waitFor(term, l[.promptStart])
            try Self.startAndTypeTwoReadings(term, l)
            #expect(Self.plain(try term.transcript().joined(separator: " ")).contains(Self.plain(l[.resultHeading, l[.resultBPSuccess, 2]])))
        }
        try Self.expectFitting(runs)
    }

    @Test func wearingOptProgressRedrawsOnOneRow() throws {
        let scenario = try Self.scenario()
        var runs: [(AppLocale, Int, Tmux)] = []
        for (locale, lang) in Self.locales {
            for width in Self.widths {
                runs.append((locale, width, try Tmux(["wearing-opt", "--no-state", "--bracelet", "sim:" + scenario.path],
                                                     env: ["LANG": lang], columns: width)))
            }
        }
        for (locale, width, term) in runs {
            let l = Localizer(locale: locale)
            // Skin tone, hair density, wrist (Enter keeps each), strap, placement, start.
            // The strap and placement texts are also in the preparation overview printed first: wait
            // for them followed by the [Enter] mark, which only the prompt has (else Enter is typed ahead,
            // echoed before the prompt, and the next line lands on the prompt's row).
            for prompt in [l[.pickSkinTone], l[.pickHairDensity, "none/low/medium/high"], l[.pickWrist, "left/right"],
                           l[.woPrepStrapTightness] + " " + l[.pressEnter], l[.woPrepPlacement] + " " + l[.pressEnter],
                           l[.promptStart]] {
                try Self.waitFor(term, prompt)
                try term.send("Enter")
            }
            try term.waitFor("[exited 0]")
            let rows = try term.transcript()
            let progress = rows.filter { Self.isProgress($0, l) }
            #expect(progress.count == 1, "\(locale.tag) at \(width): progress rows \(progress)")
            if width == 120 { #expect(progress.first?.contains("[####################]") == true, "\(progress)") }
        }
        try Self.expectFitting(runs, ignoring: Self.isProgress)
    }

    /// A progress row: it holds the detail's text between quality and movement (`, movement `),
    /// which no other screen says.
    static func isProgress(_ row: String, _ l: Localizer) -> Bool {
        // Private-use markers: the localizer escapes control characters in its arguments.
        let detail = l[.progressLine, "\u{E001}", "\u{E002}", "\u{E003}"]
        guard let from = detail.firstIndex(of: "\u{E002}"), let to = detail.firstIndex(of: "\u{E003}") else { return false }
        return plain(row).contains(plain(String(detail[detail.index(after: from)..<to])))
    }

    /// A window made narrower mid-run (SIGWINCH): what the flow prints after it fits the new width.
    @Test func aResizeAppliesToTheNextScreen() throws {
        let term = try Tmux(["bp-init", "--no-state"], env: ["LANG": "en_US.UTF-8"], columns: 120)
        let l = Localizer(locale: .en)
        try Self.waitFor(term, l[.promptStart])
        try term.resize(columns: 40)
        try Self.startAndTypeTwoReadings(term, l)
        let rows = try term.transcript()
        // From the first screen after the resize on.
        let after = rows.drop { !$0.hasPrefix("Measurement 1, attempt 1") }.filter { !$0.hasPrefix("[exited") }
        #expect(after.count > 10)
        for row in after { #expect(TextLayout.columns(row) <= 40, "a row of \(TextLayout.columns(row)): \(row)") }
        #expect(after.contains("The bracelet's blood pressure model is"))
    }

    /// At bp-init's start prompt: starts the flow, types the two readings it asks for (each after
    /// its prompt) and waits for the exit.
    static func startAndTypeTwoReadings(_ term: Tmux, _ l: Localizer) throws {
        try term.send("Enter")
        try waitFor(term, l[.promptTypedReading], count: 1)
        try term.send("128/82 72", "Enter")
        try waitFor(term, l[.promptTypedReading], count: 2)
        try term.send("124/80 70", "Enter")
        try term.waitFor("[exited 0]")
    }

    /// Rows no wider than the terminal, and the same words at 40 as at 120 columns.
    static func expectFitting(_ runs: [(AppLocale, Int, Tmux)], ignoring: (String, Localizer) -> Bool = { _, _ in false },
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        var words: [String: [String]] = [:]
        for (locale, width, term) in runs {
            let rows = try term.transcript().filter { !$0.hasPrefix("[exited") }
            for row in rows where TextLayout.columns(row) > width {
                Issue.record("\(locale.tag) at \(width) columns: a row of \(TextLayout.columns(row)): \(row)", sourceLocation: sourceLocation)
            }
            let text = rows.filter { !ignoring($0, Localizer(locale: locale)) }.joined(separator: " ")
            let these = plain(text).split(separator: " ").map(String.init)
            if let other = words[locale.tag] {
                #expect(these == other, "\(locale.tag): the words differ between 40 and 120 columns", sourceLocation: sourceLocation)
            }
            words[locale.tag] = these
        }
    }

    /// Waits until the terminal shows `text` (however wrapped) `count` times.
    static func waitFor(_ term: Tmux, _ text: String, count: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let wanted = plain(text)
        try term.waitFor("'\(text)' \(count)x", sourceLocation: sourceLocation) { _ in
            let seen = plain((try? term.transcript().joined(separator: " ")) ?? "")
            return seen.components(separatedBy: wanted).count - 1 >= count
        }
    }

    /// `text` without bidi marks and isolates, every run of white space one space: what is left
    /// of a paragraph however it was wrapped (tmux also drops zero-width characters at a row's start).
    static func plain(_ text: String) -> String {
        let visible = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.generalCategory != .format }))
        return visible.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A bracelet that holds a profile and optimizes a still wearer (2 minutes of virtual time).
    static func scenario() throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-width-\(UUID().uuidString).json")
        try Data(#"""
            {"serial":"SIM-287-0042","profile":{"height":178,"weight":74,"wrist":"left","gender":"male","unit":"metric",
             "birthdate":"1980-04-12","skinTone":3,"hairDensity":"low"},
             "wearing":{"model":{"strapFit":"good","movement":"still"}}}
            """#.utf8).write(to: file)
        return file
    }
}
