import CorsanoKit

extension FilterDrop {
    /// Appends `data.jsonl:3: duplicate`, `-:7: stale (age 901 s)`,
    /// `x:2: malformed: field "systolic": not an integer` and a newline, as bytes (one report per
    /// dropped line: no intermediate strings).
    func appendStderrLine(source: String, to out: inout [UInt8]) {
        out.append(contentsOf: source.utf8)
        out.append(UInt8(ascii: ":"))
        JSONBytes.appendInt(line, to: &out)
        out.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
        out.append(contentsOf: word.utf8)
        if let detail { out.append(contentsOf: ": \(detail)".utf8) }
        if let age = wholeSecondsAge { out.append(contentsOf: " (age \(age) s)".utf8) }
        out.append(0x0A)
    }
}
