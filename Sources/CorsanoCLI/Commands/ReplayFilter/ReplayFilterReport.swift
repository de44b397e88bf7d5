import CorsanoKit

/// One dropped or malformed line, as `FILE:LINE: reason` on stderr and as a `--rejects` JSON line.
struct ReplayFilterReport {
    let source: String
    let line: Int
    /// A `DropReason` word or `malformed`.
    let reason: String
    let detail: String?
    /// Signed age, seconds, for `stale` and `future`.
    let age: Double?

    /// Appends `data.jsonl:3: duplicate`, `-:7: stale (age 901 s)`,
    /// `x:2: malformed: field "systolic": not an integer` and a newline, as bytes (one report per
    /// dropped line: no intermediate strings).
    func appendStderrLine(to out: inout [UInt8]) {
        out.append(contentsOf: source.utf8)
        out.append(UInt8(ascii: ":"))
        JSONBytes.appendInt(line, to: &out)
        out.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
        out.append(contentsOf: reason.utf8)
        if let detail { out.append(contentsOf: ": \(detail)".utf8) }
        if let age { out.append(contentsOf: " (age \(WholeSeconds.truncating(age)) s)".utf8) }
        out.append(0x0A)
    }

    /// `{"source":…,"line":…,"reason":…[,"age":…][,"error":…],"reading":{…}}`; a malformed line
    /// carries its text as a string instead of `reading`.
    func json(reading: String?, text: String?) -> String {
        var members: [(String, JSONValue)] = [("source", .string(source)), ("line", .int(line)), ("reason", .string(reason))]
        if let age { members.append(("age", .int(WholeSeconds.truncating(age)))) }
        if let detail { members.append(("error", .string(detail))) }
        if let reading { members.append(("reading", .raw(reading))) }
        if let text { members.append(("text", .string(text))) }
        return JSONValue.object(members).serialized
    }
}

/// What a run read and did with it, for the closing counts line.
struct ReplayFilterCounts {
    /// Records read (blank lines are none).
    var read = 0
    /// Lines written to stdout (readings and passed-on cuff failure lines).
    var emitted = 0
    /// Readings kept (for `--first`).
    var emittedReadings = 0
    var dropped: [DropReason: Int] = [:]
    var malformed = 0
    /// Kept lines lost to a failed write on stdout (exit 74).
    var unwritten = 0
    /// Claims of unwritten lines given back to the seen-set, and those whose release failed.
    var released = 0, unreleased = 0
    /// Kept readings with no time, and manual entries (issue 29).
    var origins = ReadingOrigins()

    /// `read 5, written 2, dropped 3 (replayed 2, duplicate 1), rejected 0`: the shape of
    /// `cuff ingest`'s counts (read, written, set aside by reason, rejected as malformed).
    var summary: String {
        let total = dropped.values.reduce(0, +)
        let byReason = DropReason.allCases.compactMap { reason in dropped[reason].map { "\(reason.rawValue) \($0)" } }
        let detail = byReason.isEmpty ? "" : " (" + byReason.joined(separator: ", ") + ")"
        var lost = unwritten > 0 ? ", unwritten \(unwritten)" : ""
        if released > 0 { lost += ", released \(released)" }
        if unreleased > 0 { lost += ", unreleased \(unreleased)" }
        return "read \(read), written \(emitted), dropped \(total)\(detail), rejected \(malformed)\(lost)" + origins.suffix
    }
}
