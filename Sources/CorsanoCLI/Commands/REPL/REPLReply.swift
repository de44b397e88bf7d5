import CorsanoKit

/// What a session command answers: text lines for a person, or — when standard output is not a
/// terminal, which then carries only JSON lines — one `{"reply":"status",…}` object (shapes in
/// corsano-repl(1), REPLIES).
struct REPLReply {
    /// The command's name as typed, hyphenated: `connect`, `status`, `cuff-add`, ...
    let reply: String
    /// The reply's fields after `reply`, in order.
    let fields: [(String, JSONValue)]
    /// The same answer as lines of text.
    let text: [String]
    /// Columns a text line's continuation is indented when it wraps: the label column of a
    /// `status` reply (`bracelet  model …`), so values wrap under values.
    var hang = 0

    /// The object written as one JSON line.
    var json: JSONValue { .object([("reply", .string(reply))] + fields) }

    /// Writes the reply as JSON when `ctx`'s standard output is not a terminal, else as text.
    func write(_ ctx: CommandContext) {
        if ctx.stdoutIsTerminal {
            for line in text { ctx.writeText(line, on: ctx.stdout, indent: String(repeating: " ", count: hang), first: "") }
        } else {
            ctx.stdout.line(json.serialized)
        }
        ctx.stdout.flush()
    }

    /// A reading as its reading line's object.
    static func json(_ reading: CuffReading) -> JSONValue { .raw(reading.jsonLine()) }
}

extension CommandContext {
    /// This context with text meant for a person (help, completion scripts, `--text` flows)
    /// sent to standard error when standard output is not a terminal (it carries only JSON lines).
    var forText: CommandContext {
        guard !stdoutIsTerminal else { return self }
        var c = self
        c.stdout.flush()
        c.stdout = stderr
        return c
    }
}
