/// Text from outside (a bridge's serial, model or firmware, a CSV cell, a file name) made safe
/// for a terminal: every C0 control, DEL and C1 control is written as a visible escape, as
/// OpenSSH's `strnvis` and git's path quoting do, so no OSC 52 clipboard write, screen clear or
/// forged line can reach a person's terminal through corsano. The bidirectional
/// formatting characters (U+061C ALM, U+200E LRM, U+200F RLM, U+202A-U+202E embeddings and
/// overrides, U+2066-U+2069 isolates; Unicode UAX #9 §2) are escaped the same way: a serial or a
/// name holding U+202E would otherwise display reordered ("Eve \u{202e}ecilA" as "Eve Alice"), as
/// the "Trojan Source" attacks (CVE-2021-42574) do. ZWJ and ZWNJ stay: names need them. JSON
/// output is not passed through here: JSON escapes C0 itself.
public enum TerminalText {
    /// `text` with C0 (U+0000-U+001F), DEL (U+007F) and C1 (U+0080-U+009F) escaped: `\n`, `\r`,
    /// `\t` and `\e` by name, the others as `\xHH` (C0, DEL) or `\u{HH}` (C1). With
    /// `keepingNewlines`, `\n` stays (a message of several lines; each field inside it was
    /// escaped where it came in). Bidirectional formatting characters are escaped as `\u{HHHH}`;
    /// with `keepingIsolates`, a U+2068 FIRST STRONG ISOLATE and the U+2069 POP DIRECTIONAL
    /// ISOLATE that closes it stay (a localized message's own isolation of its values, each of
    /// which was escaped where it came in; a balanced isolate cannot reorder text outside it).
    /// Other text is unchanged; the result never holds a control.
    public static func escaped(_ text: String, keepingNewlines: Bool = false, keepingIsolates: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) || isBidiControl($0) }) else { return text }
        let kept = keepingIsolates ? balancedIsolates(text) : []
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if isBidiControl(scalar), !kept.contains(offset) {
                out += "\\u{" + hex(scalar.value >> 8) + hex(scalar.value) + "}"
                continue
            }
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

    /// U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069 (UAX #9 Table 1's explicit formatting
    /// characters and marks; not ZWJ U+200D nor ZWNJ U+200C).
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061c, 0x200e, 0x200f, 0x202a...0x202e, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// The scalar offsets of each U+2068 with the U+2069 that closes it (no other bidi control between).
    private static func balancedIsolates(_ text: String) -> Set<Int> {
        var kept = Set<Int>(), open: [Int] = []
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            switch scalar.value {
            case 0x2068: open.append(offset)
            case 0x2069:
                if let start = open.popLast() { kept.insert(start); kept.insert(offset) }
            default:
                if isBidiControl(scalar) { open.removeAll() }
            }
        }
        return kept
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(value >> 4 & 0xf)], digits[Int(value & 0xf)]])
    }
}
