@testable import corsano
import CorsanoKit
import Testing

/// Layout rules of the text sink, checked over every locale and both flows.
@Suite struct TextRenderingTests {
    static let flows = [FlowEventFixtures.bpInit, FlowEventFixtures.wearingOpt]

    @Test(arguments: AppLocale.allCases)
    func everyLineFitsEightyColumns(_ locale: AppLocale) {
        for events in Self.flows {
            for line in TextSnapshotTests.render(events, locale).split(separator: "\n") {
                #expect(TextLayout.columns(line) <= 80, "\(locale.tag): \(line)")
            }
        }
    }

    @Test(arguments: AppLocale.allCases)
    func rightToLeftLinesStartWithTheMarkAndOthersNever(_ locale: AppLocale) {
        let lines = TextSnapshotTests.render(FlowEventFixtures.bpInit, locale).split(separator: "\n")
        #expect(lines.count > 40)
        for line in lines {
            #expect(line.hasPrefix("\u{200F}") == locale.isRightToLeft, "\(locale.tag): \(line)")
        }
    }

    @Test func englishScreensSayWhatTheSeedSays() {
        Self.expect(TextSnapshotTests.render(FlowEventFixtures.bpInit, .en), contains: [
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
        Self.expect(TextSnapshotTests.render(FlowEventFixtures.wearingOpt, .en), contains: [
            "[####----------------] 20%, signal quality 31, movement 0\n",
            "[####################] 100%, signal quality 72, movement 0\n",
            "Skin tone 3, hair density: low, wrist: left\n",
            "Position: supine\n1. Lie on your back.\n2. Keep your arms relaxed and still beside your body.\n",
            "3. Lay your hand flat on the desk, palm down, and keep it still.\n",
            "Attempt 1 failed: the PPG signal quality is too low.\n",
            "Signal quality 72%, position: supine, duration: 4 min.\n",
        ])
    }

    static func expect(_ text: String, contains pieces: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for piece in pieces { #expect(text.contains(piece), "missing: \(piece)", sourceLocation: sourceLocation) }
    }

    @Test func germanUsesLeafletTerms() {
        let text = TextSnapshotTests.render(FlowEventFixtures.bpInit, .de)
        #expect(text.contains("Drücken Sie START am Blutdruckmessgerät.\n"))
        #expect(text.contains("Systolisch 121 mmHg, diastolisch 79 mmHg, Puls 64 Schläge/min\n"))
        #expect(text.contains("Ergebnis: kalibriert, Messungen: 2\n"))
    }

    @Test func arabicIsolatesNumbers() {
        let text = TextSnapshotTests.render(FlowEventFixtures.bpInit, .ar)
        #expect(text.contains("\u{200F}الانقباضي \u{2068}121\u{2069} ملم زئبقي"))
    }

    @Test func colourOnlyWhenAsked() {
        let plain = TextSnapshotTests.render(FlowEventFixtures.wearingOpt, .en)
        let coloured = TextSnapshotTests.render(FlowEventFixtures.wearingOpt, .en, color: true)
        #expect(!plain.contains("\u{1B}"))
        #expect(coloured.contains("\u{1B}[1mWearing optimization\u{1B}[0m\n"))
        #expect(coloured.contains("\u{1B}[32mResult: optimized, signal quality 72%, position: supine\u{1B}[0m\n"))
        #expect(Self.strippingEscapes(coloured) == plain)
    }

    @Test func liveProgressRedrawsOneLine() {
        let text = TextSnapshotTests.render(Array(FlowEventFixtures.wearingOpt.prefix(8)), .en, live: true)
        #expect(text.hasSuffix("\r[####################] 100%, signal quality 44, movement 1\u{1B}[K"))
        #expect(text.contains("Keep still. The bracelet reports its progress every 5 seconds.\n\r[####"))
        let next = TextSnapshotTests.render(Array(FlowEventFixtures.wearingOpt.prefix(9)), .en, live: true)
        #expect(next.contains("movement 1\u{1B}[K\nAttempt 1 failed"))
    }

    @Test func flushesAfterEveryEventWithText() {
        let buffer = TextBuffer()
        let sink = TextEventSink(writer: buffer, localizer: Localizer(locale: .en), color: false)
        for event in FlowEventFixtures.bpInit.prefix(3) { sink.emit(event) }
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

    @Test func wrapsLongWordsWithoutCutting() {
        let layout = TextLayout(width: 20, color: false, rightToLeft: false)
        #expect(layout.wrap("aaaa bbbb cccc dddd eeee", indent: "") == ["aaaa bbbb cccc dddd", "eeee"])
        #expect(layout.wrap("x 0123456789012345678901234 y", indent: "  ") == ["  x", "  0123456789012345678901234", "  y"])
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
