/// Text from outside (a bridge's serial, model or firmware, a CSV cell, a file name) made safe
/// for a terminal: every C0 control, DEL and C1 control is written as a visible escape, as
/// OpenSSH's `strnvis` and git's path quoting do, so no OSC 52 clipboard write, screen clear or
/// forged line can reach a person's terminal through corsano (issue 27). JSON output is not
/// passed through here: JSON escapes C0 itself.
public enum TerminalText {
    /// `text` with C0 (U+0000-U+001F), DEL (U+007F) and C1 (U+0080-U+009F) escaped: `\n`, `\r`,
    /// `\t` and `\e` by name, the others as `\xHH` (C0, DEL) or `\u{HH}` (C1). With
    /// `keepingNewlines`, `\n` stays (a message of several lines; each field inside it was
    /// escaped where it came in). Other text is unchanged; the result never holds a control.
    public static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else { out.unicodeScalars.append(scalar); continue }
            switch scalar.value {
            case 0x0a where keepingNewlines: out += "\n"
            case 0x0a: out += "\\n"
            case 0x0d: out += "\\r"
            case 0x09: out += "\\t"
            case 0x1b: out += "\\e"
            case 0x80...0x9f: out += "\\u{" + hex(scalar.value) + "}"
            default: out += "\\x" + hex(scalar.value)
            }
        }
        return out
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(value >> 4 & 0xf)], digits[Int(value & 0xf)]])
    }
}
