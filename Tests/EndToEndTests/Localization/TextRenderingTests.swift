@testable import CorsanoCLI
import CorsanoKit
import Testing

/// Layout rules of the text sink, checked over every locale and both flows.
@Suite struct TextRenderingTests {
    static func flows() async throws -> [[FlowEvent]] {
        [try await FlowEventFixtures.bpInit(), try await FlowEventFixtures.wearingOpt()]
    }

    @Test(arguments: AppLocale.allCases)
    func everyLineFitsEightyColumns(_ locale: AppLocale) async throws {
        for events in try await Self.flows() {
            for line in TextSnapshotTests.render(events, locale).split(separator: "\n") {
                #expect(TextLayout.columns(line) <= 80, "\(locale.tag): \(line)")
            }
        }
    }

    @Test(arguments: AppLocale.allCases)
    func rightToLeftLinesStartWithTheMarkAndOthersNever(_ locale: AppLocale) async throws {
        let lines = TextSnapshotTests.render(try await FlowEventFixtures.bpInit(), locale).split(separator: "\n")
        #expect(lines.count > 40)
        for line in lines {
            #expect(line.hasPrefix("\u{200F}") == locale.isRightToLeft, "\(locale.tag): \(line)")
        }
    }

    @Test func englishScreensSayWhatTheSeedSays() async throws {
        Self.expect(TextSnapshotTests.render(try await FlowEventFixtures.bpInit(), .en), contains: [
            "Blood pressure calibration (NIBP)\n---------------------------------\n",
            "Press START on the BP cuff monitor.\n",
            "Systolic 121 mmHg, diastolic 79 mmHg, pulse 64 bpm\n",
            "Systolic 118 mmHg, diastolic 78 mmHg, pulse 70 bpm (typed in)\n",
            "Ignored a cuff reading taken before this measurement was requested: 135/88\nmmHg, pulse 71 bpm\n",
            "Ignored input that is not a valid reading: 120/abc 70\n",
            "Attempt 1: the bracelet did not accept the calibration.\n",
            "- Measurement 2, attempt 1: 128/82 mmHg, pulse 66 bpm (not accepted)\n",
            "Result: calibrated, measurements: 2\n",
        ])
        Self.expect(TextSnapshotTests.render(try await FlowEventFixtures.wearingOpt(), .en), contains: [
            "[####----------------] 20%, signal quality 31, movement 0\n",
            "[####################] 100%, signal quality 72, movement 0\n",
            "Skin tone 3, hair density: low, wrist: left\n",
            "Position: supine\n1. Lie on your back.\n2. Keep your arms relaxed and still beside your body.\n",
            "3. Lay your hand flat on the desk, palm down, and keep it still.\n",
            "Attempt 1 failed: the PPG signal quality is too low.\n",
            "Signal quality 72%, position: supine, duration: 25 s.\n",
        ])
    }

    static func expect(_ text: String, contains pieces: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for piece in pieces { #expect(text.contains(piece), "missing: \(piece)", sourceLocation: sourceLocation) }
    }

    @Test func germanUsesLeafletTerms() async throws {
        let text = TextSnapshotTests.render(try await FlowEventFixtures.bpInit(), .de)
        #expect(text.contains("Drücken Sie START am Blutdruckmessgerät.\n"))
        #expect(text.contains("Systolisch 121 mmHg, diastolisch 79 mmHg, Puls 64 Schläge/min\n"))
        #expect(text.contains("Ergebnis: kalibriert, Messungen: 2\n"))
    }

    @Test func arabicIsolatesNumbers() async throws {
        let text = TextSnapshotTests.render(try await FlowEventFixtures.bpInit(), .ar)
        #expect(text.contains("\u{200F}الانقباضي \u{2068}121\u{2069} ملم زئبقي"))
    }

    @Test func colourOnlyWhenAsked() async throws {
        let plain = TextSnapshotTests.render(try await FlowEventFixtures.wearingOpt(), .en)
        let coloured = TextSnapshotTests.render(try await FlowEventFixtures.wearingOpt(), .en, color: true)
        #expect(!plain.contains("\u{1B}"))
        #expect(coloured.contains("\u{1B}[1mWearing optimization\u{1B}[0m\n"))
        #expect(coloured.contains("\u{1B}[32mResult: optimized, signal quality 72%, position: supine\u{1B}[0m\n"))
        #expect(Self.strippingEscapes(coloured) == plain)
    }

    @Test func liveProgressRedrawsOneLine() async throws {
        let text = TextSnapshotTests.render(Array(try await FlowEventFixtures.wearingOpt().prefix(8)), .en, live: true)
        #expect(text.hasSuffix("\r[####################] 100%, signal quality 44, movement 1\u{1B}[K"))
        #expect(text.contains("Keep still. The bracelet reports its progress every 5 seconds.\n\r[####"))
        let next = TextSnapshotTests.render(Array(try await FlowEventFixtures.wearingOpt().prefix(9)), .en, live: true)
        #expect(next.contains("movement 1\u{1B}[K\nAttempt 1 failed"))
    }

    @Test func flushesAfterEveryEventWithText() async throws {
        let buffer = TextBuffer()
        let sink = TextEventSink(writer: buffer, localizer: Localizer(locale: .en), color: false)
        for event in try await FlowEventFixtures.bpInit().prefix(3) { sink.emit(event) }
        #expect(buffer.flushCount == 3)
    }

    static let colourTable: [(Bool, [String: String], Bool)] = [
        (true, ["TERM": "xterm-256color"], true),
        (false, ["TERM": "xterm-256color"], false),
        (true, ["TERM": "xterm-256color", "NO_COLOR": "1"], false),
        (true, ["TERM": "xterm-256color", "NO_COLOR": ""], true),
        (true, ["TERM": "dumb"], false),
        (true, [:], false),
    ]

    @Test(arguments: colourTable.indices)
    func colourDecision(_ i: Int) {
        let (tty, env, expected) = Self.colourTable[i]
        #expect(EventSinks.wantsColor(isTerminal: tty, environment: env) == expected)
    }

    @Test func wrapsAtSpacesAndKeepsAWordWiderThanALineWhole() {
        let layout = TextLayout(width: 20, color: false, rightToLeft: false)
        #expect(layout.wrap("aaaa bbbb cccc dddd eeee", indent: "") == ["aaaa bbbb cccc dddd", "eeee"])
        // A word wider than a line stays whole on a line of its own (issue 24: never split inside
        // a word); the terminal folds it, and the next word starts a line of its own.
        #expect(layout.wrap("x 0123456789012345678901234 y", indent: "  ") == ["  x", "  0123456789012345678901234", "  y"])
        #expect(layout.wrap("e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}", indent: "", width: 10)
                == ["e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}"])
    }

    @Test func neverBreaksInsideAnIsolateOrBeforeAPercentSign() {
        let layout = TextLayout(width: 12, color: false, rightToLeft: true)
        let isolated = "\u{2068}135/88 mmHg\u{2069}"
        #expect(layout.wrap("abc def " + isolated + " x", indent: "") == ["abc def", isolated, "x"])
        // An isolate wider than a line breaks at a space inside it; each line closes what it
        // opened and the next opens it again, so no line leaves the bidi state open.
        let wide = "\u{2068}aaaaaaaa \u{2067}bbb ccccc\u{2069} d\u{2069}"
        #expect(layout.wrap("a " + wide, indent: "") == ["a", "\u{2068}aaaaaaaa \u{2067}bbb\u{2069}\u{2069}",
                                                          "\u{2068}\u{2067}ccccc\u{2069} d\u{2069}"])
        #expect(layout.wrap(wide, indent: "", width: 10) == ["\u{2068}aaaaaaaa\u{2069}", "\u{2068}\u{2067}bbb ccccc\u{2069}\u{2069}",
                                                             "\u{2068}d\u{2069}"])
        #expect(layout.wrap("Qualität 75 %, gut", indent: "") == ["Qualität", "75 %, gut"])
        #expect(layout.wrap("position : assis", indent: "", width: 10) == ["position :", "assis"])
    }

    @Test func columnsComeFromCOLUMNSThenTheTerminalThenEighty() {
        #expect(TerminalWidth(fd: -1, columns: "55").columns == 55)
        #expect(TerminalWidth(fd: -1, columns: "0").columns == 80)
        #expect(TerminalWidth(fd: -1, columns: "wide").columns == 80)
        #expect(TerminalWidth(fd: -1, columns: nil).columns == 80)
        #expect(TextLayout(terminal: TerminalWidth(columns: 40), color: false, rightToLeft: false).width == 38)
    }

    /// A prompt wraps like text, a leading `2. ` hangs, and its last line leaves room for the
    /// answer, wrapping whichever way keeps the prompt's end together.
    @Test func promptsWrapAndLeaveRoomForTheAnswer() {
        let layout = TextLayout(width: 38, color: false, rightToLeft: false)
        #expect(layout.prompt("Type the reading as systolic/diastolic pulse (for example 120/80 72): ")
                == "Type the reading as\nsystolic/diastolic pulse\n(for example 120/80 72): ")
        #expect(layout.prompt("1. Haardichte am Handgelenk (none/low/medium/high) [low]: ")
                == "1. Haardichte am Handgelenk\n   (none/low/medium/high)\n   [low]: ")
        #expect(layout.prompt("Short? [y/n] ") == "Short? [y/n] ")
        let rtl = TextLayout(width: 38, color: false, rightToLeft: true)
        #expect(rtl.prompt("a\nb ") == "\u{200F}a\n\u{200F}b ")
    }

    @Test func widthCountsGraphemesNotScalars() {
        #expect(TextLayout.columns("e\u{301}") == 1)
        #expect(TextLayout.columns("\u{200F}\u{2068}72\u{2069}") == 2)
        #expect(TextLayout.columns("血压") == 4)
        #expect(TextLayout.columns("ملم زئبقي") == 9)
    }

    /// 20 cells while the detail fits; fewer on a narrow terminal; only the detail below 5 cells;
    /// a detail too long on its own is cut with `…`, closing any isolate it opened.
    @Test(arguments: [(78, "[####################] 100%, signal quality 75, movement 0"),
                      (50, "[############] 100%, signal quality 75, movement 0"),
                      (38, "100%, signal quality 75, movement 0"),
                      (20, "[#####] 100%, signa…")])
    func progressLineFitsTheWidth(_ width: Int, _ expected: String) {
        let layout = TextLayout(width: width, color: false, rightToLeft: false)
        let line = layout.progressLine(percent: 100, detail: "100%, signal quality 75, movement 0")
        #expect(line == expected)
        #expect(TextLayout.columns(line) <= width)
        let cut = TextLayout.truncate("\u{2068}100\u{2069}%, \u{2068}signal quality\u{2069}", to: 10)
        #expect(cut == "\u{2068}100\u{2069}%, \u{2068}sig\u{2069}…")
    }

    static func strippingEscapes(_ s: String) -> String {
        var out = "", skipping = false
        for c in s {
            if c == "\u{1B}" { skipping = true; continue }
            if skipping { if c == "m" { skipping = false }; continue }
            out.append(c)
        }
        return out
    }
}
