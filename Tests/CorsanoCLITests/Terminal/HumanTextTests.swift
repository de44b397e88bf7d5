import CorsanoKit
import Foundation
import Testing
@testable import CorsanoCLI

/// `CommandContext.diagnose` and `writeText`: through the one wrapper at a terminal, as they are
/// elsewhere (scripts read pipes), right-to-left marks when the message reads right to left.
@Suite struct HumanTextTests {
    /// What `body` writes on a context whose stderr is a pipe that counts as a terminal or not,
    /// laid out for 40 columns.
    static func stderr(terminal: Bool, _ body: (CommandContext) -> Void) throws -> String {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let writer = OutputWriter(fd: fds[1], capacity: 0)
        var ctx = CommandContext(environment: ["COLUMNS": "40"], stdinIsTerminal: false, stdoutIsTerminal: false)
        ctx.stdout = OutputWriter(fd: fds[1], capacity: 0)
        ctx.stderr = writer
        ctx.stderrIsTerminal = terminal
        body(ctx)
        writer.flush()
        close(fds[1])
        let data = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true).readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self)
    }

    static let arabic = Localizer(locale: .ar)[.errorBraceletUnavailable, "unix:/run/corsano/a-socket-path-wider-than-the-line.sock: No such file"]

    @Test func aTranslatedDiagnosticIsWrappedAndMarkedRightToLeftAtATerminal() throws {
        let text = try Self.stderr(terminal: true) { $0.diagnose(Self.arabic) }
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count > 2, "\(lines)")
        for line in lines {
            #expect(line.hasPrefix("\u{200F}"), "\(line)")
            #expect(TextLayout.columns(line) <= 38 || TextLayout.words(line).count == 1, "\(line)")
        }
        #expect(TextWrapTests.visible(lines.joined(separator: " ")).replacing("\u{200F}", with: "")
                == TextWrapTests.visible("corsano: " + Self.arabic))
    }

    @Test func anEnglishDiagnosticIsNotMarked() throws {
        let text = try Self.stderr(terminal: true) { $0.diagnose("state store /var/lib/corsano/state.sqlite3: cannot open: " + Self.arabic) }
        #expect(!text.contains("\u{200F}"))
        #expect(text.split(separator: "\n").count > 1)
    }

    @Test func aDiagnosticToAPipeIsOneLineAsItWas() throws {
        let text = try Self.stderr(terminal: false) { $0.diagnose(Self.arabic) }
        #expect(text == "corsano: " + Self.arabic + "\n")
    }
}
