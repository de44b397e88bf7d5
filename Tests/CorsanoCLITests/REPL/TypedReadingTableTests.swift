import CorsanoKit
import Testing
@testable import CorsanoCLI

/// The REPL's typed readings (`cuff add …`, a `cuff>` line) have no grammar or ranges of their own:
/// each line gets the core parser's verdict (`ManualCuffEntry`, `ReadingValidator.standard`), the
/// reading it parses or its reason.
@Suite struct TypedReadingTableTests {
    static let typed = Instant(secondsSinceEpoch: 1_800_000_000)

    static let lines = [
        "120/80 72", "120 / 80 72", "120/ 80 72", "120 /80  72", "+120/80 72",
        "50/20 20", "49/30 60", "300/80 60", "301/80 60", "120/19 60", "120/200 60", "120/201 60",
        "120/80 19", "120/80 20", "120/80 250", "120/80 251", "80/120 70", "120/120 70",
        "120/80/72", "120/80", "120 80 72", "abc", "12O/80 72", "99999999999999999999/80 70",
        "120/80 72 at 2026-11-29T10:00:00Z", "120/80 72 at 2026-11-29T10:00:00+01:00",
        "120/80 72 at noon", "120/80 72 at", "80/120 72 at 2026-11-29T10:00:00Z", "at 2026-11-29T10:00:00Z",
    ]

    enum Verdict: Equatable {
        case reading(CuffReading)
        case refused(String)
    }

    /// The core's verdict: the reading, or `cuff add: ` and the core's reason.
    static func core(_ line: String) -> Verdict {
        do {
            return .reading(try ManualCuffEntry.parse(line, enteredAt: typed, allowingTime: true))
        } catch {
            return .refused("cuff add: \(error)")
        }
    }

    static func repl(_ words: [String]) -> Verdict {
        do {
            return .reading(try CuffQueue.reading(words, enteredAt: typed))
        } catch let error as UsageError {
            return .refused(error.message)
        } catch {
            return .refused("\(error)")
        }
    }

    @Test(arguments: lines)
    func cuffAddGivesTheCoreVerdict(_ line: String) throws {
        let words = try REPLLexer.words(line)
        #expect(Self.repl(words) == Self.core(line))
    }

    /// A `cuff>` line, bare or after `cuff add`, parses as `cuff add` does (the wall clock stamps
    /// a manual entry's `enteredAt`, so only the numbers and the time are compared).
    @Test(arguments: lines)
    func aCuffPromptLineGivesTheCoreVerdict(_ line: String) throws {
        for words in [try REPLLexer.words(line), ["cuff", "add"] + (try REPLLexer.words(line))] where !words.isEmpty {
            let prompt: Verdict
            do {
                prompt = .reading(try #require(try TypedReadings.reading(words)))
            } catch let error as UsageError {
                prompt = .refused(error.message)
            }
            switch (prompt, Self.core(line)) {
            case (.reading(let got), .reading(let want)):
                #expect([got.systolic, got.diastolic, got.pulse] == [want.systolic, want.diastolic, want.pulse])
                #expect(got.measuredAt == want.measuredAt && got.isManualEntry == want.isManualEntry)
            case (.refused(let got), .refused(let want)):
                #expect(got == want, "\(words)")
            default:
                Issue.record("\(words): the prompt says \(prompt), the core \(Self.core(line))")
            }
        }
    }
}
