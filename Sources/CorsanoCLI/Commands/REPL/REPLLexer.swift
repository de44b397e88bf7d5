/// Splits a REPL line into words the way a POSIX shell would for plain arguments: blanks
/// separate, single quotes keep everything, double quotes keep all but `\"` and `\\`, a
/// backslash escapes the next character, and a `#` that starts a word starts a comment to the end
/// of the line (an apostrophe in a comment is no quote). No variables, globs or pipes: a line is
/// one command.
enum REPLLexer {
    /// Why a line cannot be split.
    enum Problem: Error, Equatable {
        case unclosedQuote(Character)
    }

    /// The words of `line`. - Throws: `Problem.unclosedQuote`.
    static func words(_ line: String) throws(Problem) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for ch in line {
            if escaped {
                current.append(ch)
                escaped = false
                continue
            }
            switch (quote, ch) {
            case ("'", "'"), ("\"", "\""):
                quote = nil
            case ("'", _):
                current.append(ch)
            case ("\"", "\\"), (nil, "\\"):
                escaped = true
                inWord = true
            case ("\"", _):
                current.append(ch)
            case (nil, "'"), (nil, "\""):
                quote = ch
                inWord = true
            case (nil, "#") where !inWord:
                return words
            case (nil, " "), (nil, "\t"), (nil, "\r"), (nil, "\n"):
                if inWord { words.append(current) }
                current = ""
                inWord = false
            default:
                current.append(ch)
                inWord = true
            }
        }
        if let quote { throw .unclosedQuote(quote) }
        if escaped { current.append("\\") }
        if inWord { words.append(current) }
        return words
    }
}
