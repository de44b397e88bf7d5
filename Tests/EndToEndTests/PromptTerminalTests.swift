@testable import CorsanoCLI
import CorsanoKit
import Foundation
import Testing

/// Prompts forgive a typo and Ctrl-D means cancelled at a terminal: the retry
/// question re-asks on any answer it does not know, in every locale; Control-D at each prompt of
/// a flow (start, typed reading, retry; the REPL's `cuff>` and its retry question) is
/// `cancelledByUser` (130). A stdin that is not a terminal still ends in `noReading` (3).
@Suite struct PromptTerminalTests {
    typealias E = BPInitE2E
    static let start = "Press Enter to start, Ctrl-C to cancel."
    static let reading = "Type the reading as systolic/diastolic pulse (for example 120/80 72):"
    static let retry = "Start another attempt? [y/n]"

    static func rejectedFirstAttempt() throws -> String {
        let dir = try E.directory()
        return "sim:" + (try E.file(dir, "s.json", #"{"nibp":{"attempts":[{"session":false}]}}"#))
    }

    /// In every shipped locale, unknown answers re-ask with "Please answer y or n." and the
    /// locale's no (or yes) answers; an empty line re-asks without the reminder.
    @Test(arguments: AppLocale.allCases)
    func theRetryQuestionReasksUntilAnsweredInEveryLocale(locale: AppLocale) async throws {
        let l = Localizer(locale: locale)
        let no = String(l[.answersNo].split(separator: ",")[0])
        let yes = String(l[.answersYes].split(separator: ",")[0])
        for (final, expected) in [(no, false), (yes, true), ("no", false), ("y", true)] {
            var answers = ["maybe", "yse", "", "jo", final]
            var asked: [String] = []
            let retried = await TerminalInteraction.askRetry(l) { question in
                asked.append(question)
                return answers.isEmpty ? nil : answers.removeFirst()
            }
            #expect(retried == expected, "\(locale) \(final)")
            #expect(asked.count == 5, "\(locale): \(asked)")
            let reminder = l[.answerYesOrNo] + "\n" + l[.retryQuestion]
            #expect(asked == [l[.retryQuestion], reminder, reminder, l[.retryQuestion], reminder], "\(locale)")
        }
        #expect(l.isYes(yes) && !l.isNo(yes) && l.isNo(no) && !l.isYes(no), "\(locale): yes and no overlap")
    }

    /// At 40 columns a typed reading that is not understood is wrapped at spaces by the one
    /// wrapper, as every human line (no row the terminal had to break: `transcript` joins those),
    /// and Control-C at the reading prompt leaves the terminal's ^C at the end of its line: what
    /// the run writes next starts on a line of its own.
    @Test func aTypedReadingErrorWrapsAndControlCEndsItsLineAt40Columns() throws {
        let term = try Tmux(["bp-init", "--no-state", "--text"], env: ["LANG": "C", "NO_COLOR": "1", "TERM": "dumb"], columns: 40)
        try term.waitFor("the start prompt") { $0.hasSuffix("cancel.") }
        try term.send("Enter")
        try term.waitFor("the reading prompt") { $0.hasSuffix("120/80 72):") }
        try term.send("12x/80 72", "Enter")
        try term.waitFor("the error") { $0.contains("Not understood.") && $0.hasSuffix("120/80 72):") }
        try term.send("C-c")
        let status = try term.exitStatus()
        let rows = try term.transcript()
        let text = rows.joined(separator: "\n")
        #expect(status == 130, "\(text)")
        #expect(rows.allSatisfy { $0.count <= 40 }, "a row the program did not wrap:\n\(text)")
        #expect(text.contains("corsano: Not understood. Type"), "\(text)")
        let interrupted = try #require(rows.first { $0.contains("^C") }, "no ^C:\n\(text)")
        #expect(interrupted.hasSuffix("^C"), "text after ^C on its line: '\(interrupted)'")
    }

    @Test func theRetryPromptReasksOnATypoAndNoCancels() throws {
        let term = try BPInitTerminalTests.onTerminal(["bp-init", "--bracelet", try Self.rejectedFirstAttempt(), "--no-state", "--text"])
        try term.answer(Self.start, with: "")
        try term.answer(Self.reading, with: "120/80 72")
        try term.answer(Self.reading, with: "122/81 70")
        try term.answer(Self.retry, with: "maybe")
        try term.waitFor("the reminder") { $0.contains("Please answer y or n.") && $0.hasSuffix(Self.retry) }
        try term.send("yse", "Enter")
        try term.waitFor("the second reminder") { $0.components(separatedBy: "Please answer y or n.").count == 3 && $0.hasSuffix(Self.retry) }
        try term.send("y", "Enter")
        // The retry goes ahead: attempt 2 asks for readings again.
        try term.waitFor("attempt 2") { $0.components(separatedBy: Self.reading).count == 4 }
        try term.send("C-d")
        let status = try term.exitStatus()
        let text = try term.transcript().joined(separator: "\n")
        #expect(status == 130, "\(text)")
        #expect(text.contains("Result: cancelled"))
    }

    @Test func theRetryPromptReasksInGerman() throws {
        let term = try Tmux(["bp-init", "--bracelet", try Self.rejectedFirstAttempt(), "--no-state", "--text"],
                            env: ["LANG": "de_DE.UTF-8", "NO_COLOR": "1", "TERM": "dumb"])
        let l = Localizer(locale: .de)
        try term.answer(l[.promptStart], with: "")
        try term.answer(l[.promptTypedReading].trimmingCharacters(in: .whitespaces), with: "120/80 72")
        try term.waitFor("second reading") { $0.components(separatedBy: l[.promptTypedReading].trimmingCharacters(in: .whitespaces)).count == 3 }
        try term.send("122/81 70", "Enter")
        let question = l[.retryQuestion].trimmingCharacters(in: .whitespaces)
        try term.answer(question, with: "jo")
        try term.waitFor("the reminder") { $0.contains(l[.answerYesOrNo]) && $0.hasSuffix(question) }
        try term.send("nein", "Enter")
        #expect(try term.exitStatus() == 130)
    }

    /// Control-D at each prompt of bp-init at a terminal is cancelled (130), never a cuff error.
    @Test(arguments: ["start", "reading", "retry"])
    func controlDAtEachPromptIsCancelled(prompt: String) throws {
        let term = try BPInitTerminalTests.onTerminal(["bp-init", "--bracelet", try Self.rejectedFirstAttempt(), "--no-state", "--text"])
        if prompt == "start" {
            try term.waitFor(Self.start)
        } else {
            try term.answer(Self.start, with: "")
            try term.waitFor(Self.reading)
        }
        if prompt == "retry" {
            try term.send("120/80 72", "Enter")
            try term.answer(Self.reading, with: "122/81 70")
            try term.waitFor(Self.retry)
        }
        try term.send("C-d")
        let status = try term.exitStatus()
        let text = try term.transcript().joined(separator: "\n")
        #expect(status == 130, "\(prompt): \(text)")
        #expect(text.contains("Result: cancelled"), "\(prompt): \(text)")
    }

    /// The REPL's `cuff>` prompt and its retry question: Control-D cancels the flow (130), the shell stays.
    @Test(arguments: ["cuff", "retry"])
    func controlDInTheREPLFlowIsCancelled(prompt: String) throws {
        let term = try Tmux(["repl", "--no-state", "--bracelet", try Self.rejectedFirstAttempt()])
        try term.waitFor("corsano>")
        if prompt == "retry" {
            try term.queue("120/80 72", waiting: 1)
            try term.queue("122/81 70", waiting: 2)
        }
        try term.send("bp-init --no-preparation", "Enter")
        if prompt == "retry" {
            try term.waitFor("the retry question") { $0.hasSuffix(Self.retry) }
        } else {
            try term.waitFor("the cuff prompt") { $0.hasSuffix("cuff (120/80 72)>") }
        }
        try term.send("C-d")
        let screen = try term.waitFor("the prompt after Control-D") { $0.contains("[exit status 130]") && $0.hasSuffix("corsano>") }
        #expect(screen.contains("Result: cancelled"), "\(screen)")
    }

    /// stdin that ends when it is not a terminal stays `cuffError(noReading)` (3), as the seed says.
    @Test func stdinEndingWhenNotATerminalIsStillNoReading() throws {
        let r = try Corsano.run(["bp-init", "--no-state", "--json"], stdin: #"{"systolic":120,"diastolic":80,"pulse":70}"# + "\n")
        #expect(r.status == 3, "\(r.stderr)")
        #expect(r.stdout.contains(#""result":{"kind":"cuffError","error":{"kind":"noReading"}}"#))
    }
}
