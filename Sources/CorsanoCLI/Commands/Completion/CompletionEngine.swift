/// Completion of one word of a command line from a `CompletionTree`, the same rules as the
/// generated bash script: command words, two-word subcommands, an option's values after it,
/// flags after `-`, then operands (flags again when a command takes none). The REPL's TAB uses it.
struct CompletionEngine {
    /// What to offer for the word being completed.
    enum Offer: Equatable {
        /// These words (already filtered by the prefix).
        case words([String])
        /// File names (the caller's filename completion).
        case files
        /// Directory names that continue the word.
        case directories
        /// File names after `scheme` (`sim:` then a scenario), those ending in `suffix` (and
        /// directories) when it is given.
        case schemeFiles(scheme: String, suffix: String?)
    }

    let tree: CompletionTree

    /// The offer for `current`, the word under the cursor, after the complete `words` before it.
    /// `valueOf` names the option when the word follows `--option=`.
    func complete(words: [String], current: String, valueOf: String? = nil) -> Offer {
        let offer = unfiltered(words: words, current: current, valueOf: valueOf)
        guard case .words(let all) = offer else { return offer }
        return .words(all.filter { $0.hasPrefix(current) })
    }

    private func unfiltered(words: [String], current: String, valueOf: String?) -> Offer {
        if words.isEmpty { return .words(tree.firstWords) }
        if words.count == 1, let group = tree.groups.first(where: { $0.word == words[0] }) {
            return .words(group.subcommands)
        }
        guard let (spec, _) = CommandTable.lookup(words, in: tree.commands) else { return .words([]) }
        let previous = valueOf.map { "--" + $0 } ?? words.last!
        if previous.hasPrefix("--"), let option = spec.option(named: String(previous.dropFirst(2))), option.value != nil,
           valueOf != nil || words.count > spec.words.count {
            return offer(CompletionTree.values(of: option), current: current)
        }
        let flags = CompletionTree.flags(of: spec)
        if current.hasPrefix("-") { return .words(flags) }
        let operands = CompletionTree.operands(of: spec)
        if case .commands = operands {
            let rest = Array(words.dropFirst(spec.words.count))
            if rest.isEmpty { return .words(tree.firstWords) }
            if rest.count == 1, let group = tree.groups.first(where: { $0.word == rest[0] }) {
                return .words(group.subcommands)
            }
            return .words([])
        }
        return operands == .none ? .words(flags) : offer(operands, current: current)
    }

    private func offer(_ values: CompletionTree.Values, current: String) -> Offer {
        switch values {
        case .none: return .words([])
        case .files: return .files
        case .directories: return .directories
        case .words(let words): return .words(words)
        case .commands: return .words(tree.firstWords)
        case .uri(let starts):
            for (scheme, suffix) in CompletionTree.pathSchemes where starts.contains(scheme) && current.hasPrefix(scheme) {
                return .schemeFiles(scheme: scheme, suffix: suffix)
            }
            return .words(starts)
        }
    }
}
