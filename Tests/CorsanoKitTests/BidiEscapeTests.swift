import CorsanoKit
import Testing

/// Bidirectional formatting characters from outside are shown escaped like control characters
/// (docs/design.md "Privacy"; UAX #9; CVE-2021-42574), joiners kept; a localized message's own
/// balanced isolates kept where asked.
@Suite struct BidiEscapeTests {
    static let controls: [UInt32] = [0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]

    @Test(arguments: controls)
    func eachBidiControlIsEscaped(_ value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        let escaped = TerminalText.escaped("a" + String(Character(scalar)) + "b")
        #expect(escaped == "a\\u{" + String(format: "%04x", value) + "}b")
        #expect(!escaped.unicodeScalars.contains(scalar))
    }

    @Test func theOverrideOfANameIsShownAndJoinersStay() {
        #expect(TerminalText.escaped("Eve \u{202E}ecilA") == "Eve \\u{202e}ecilA")
        for joined in ["\u{0645}\u{200D}\u{0645}", "\u{0645}\u{200C}\u{0645}", "क्\u{200D}ष"] { #expect(TerminalText.escaped(joined) == joined) }
        #expect(HTML.escape("Eve \u{202E}ecilA") == "Eve \\u{202e}ecilA")
    }

    @Test func balancedIsolatesStayOnlyWhereAsked() {
        let isolated = "run \u{2068}abc\u{2069} ended"
        #expect(TerminalText.escaped(isolated, keepingIsolates: true) == isolated)
        #expect(TerminalText.escaped(isolated) == "run \\u{2068}abc\\u{2069} ended")
        // An isolate left open, or an override inside one, is escaped.
        #expect(TerminalText.escaped("x\u{2068}y", keepingIsolates: true) == "x\\u{2068}y")
        #expect(TerminalText.escaped("\u{2068}a\u{202E}b\u{2069}", keepingIsolates: true) == "\\u{2068}a\\u{202e}b\\u{2069}")
    }
}
