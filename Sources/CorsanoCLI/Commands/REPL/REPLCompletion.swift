import CReadline
import Foundation

/// TAB in the REPL: readline's `rl_attempted_completion_function`, answered from the command
/// table through `CompletionEngine` (commands, two-word subcommands, flags, `.choice` values),
/// falling back to readline's own file-name completion where a path is expected.
///
/// readline calls this on the editor thread only; the candidate list lives in a static between
/// the attempt and the generator calls that hand the candidates out one by one.
enum REPLCompletion {
    nonisolated(unsafe) private static var candidates: [String] = []
    nonisolated(unsafe) private static var nextCandidate = 0

    static func attempt(text: UnsafePointer<CChar>?, start: Int32, end: Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        // A reading at `cuff>` or an answer to a question: nothing to complete (and never the
        // commands, which cannot run there).
        guard LineEditor.shared?.active?.kind ?? .command == .command else {
            corsano_rl_set_completion_over(1)
            return nil
        }
        let line = String(cString: corsano_rl_line_buffer())
        let prefix = String(decoding: Array(line.utf8.prefix(Int(start))), as: UTF8.self)
        let current = text.map { String(cString: $0) } ?? ""
        guard let offer = offer(prefix: prefix, current: current) else {
            corsano_rl_set_completion_over(1)
            return nil
        }
        switch offer {
        case .files:
            corsano_rl_set_completion_over(0)  // readline completes file names
            return nil
        case .directories:
            return matches(Self.directories(typed: current), text)
        case .schemeFiles(let scheme, let suffix):
            return matches(Self.files(after: scheme, endingIn: suffix, typed: current), text)
        case .words(let words):
            return matches(words, text)
        }
    }

    /// readline's match list for `words` (already those that start with `text`).
    private static func matches(_ words: [String], _ text: UnsafePointer<CChar>?) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
            corsano_rl_set_completion_over(1)
            corsano_rl_suppress_append(words.count == 1 && words[0].hasSuffix("/") ? 1 : 0)
            candidates = words
            nextCandidate = 0
            guard let text else { return nil }
            return rl_completion_matches(text) { _, _ in
                guard REPLCompletion.nextCandidate < REPLCompletion.candidates.count else { return nil }
                defer { REPLCompletion.nextCandidate += 1 }
                return strdup(REPLCompletion.candidates[REPLCompletion.nextCandidate])
            }
    }

    /// The directories (each with its `/`) that continue the path `typed`.
    static func directories(typed: String) -> [String] {
        files(after: "", endingIn: nil, typed: typed).filter { $0.hasSuffix("/") }
    }

    /// `sim:` + the directories and `suffix` files that continue the path typed after it.
    static func files(after scheme: String, endingIn suffix: String?, typed: String) -> [String] {
        let path = String(typed.dropFirst(scheme.count))
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let start = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let listed = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
        return listed.filter { $0.hasPrefix(start) && ($0.hasPrefix(".") == start.hasPrefix(".")) }.sorted().compactMap { name in
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory + name, isDirectory: &isDirectory), isDirectory.boolValue {
                return scheme + directory + name + "/"
            }
            return suffix.map { name.hasSuffix($0) } ?? true ? scheme + directory + name : nil
        }
    }

    /// What to offer for `current` after the line's `prefix` (the text before the word).
    /// nil when the prefix cannot be split (an open quote).
    static func offer(prefix: String, current: String) -> CompletionEngine.Offer? {
        guard var words = try? REPLLexer.words(prefix) else { return nil }
        var valueOf: String?
        if prefix.hasSuffix("="), let last = words.last, last.hasPrefix("--"), last.hasSuffix("=") {
            valueOf = String(last.dropFirst(2).dropLast())
            words.removeLast()
        }
        return REPLGrammar.completion.complete(words: words, current: current, valueOf: valueOf)
    }
}
