/// "Did you mean" for a mistyped command or option, as git suggests `commit` for `comit`: the
/// candidates nearest by edit distance (optimal string alignment: insertions, deletions,
/// substitutions and swaps of two neighbours each cost 1), when near enough to be a typo.
enum DidYouMean {
    /// The candidates at the smallest distance from `word`, if that distance is a typo's:
    /// at most 1 for words up to 4 characters, 2 up to 8, else 3. A candidate that starts with
    /// `word` (an abbreviation, which the parser does not accept) counts too.
    static func suggestions(for word: String, among candidates: [String]) -> [String] {
        let typed = Array(word.lowercased())
        guard !typed.isEmpty else { return [] }
        let allowed = typed.count <= 4 ? 1 : typed.count <= 8 ? 2 : 3
        var best: [String] = []
        var bestDistance = Int.max
        for candidate in Set(candidates).sorted() where candidate != word {
            let d = candidate.lowercased().hasPrefix(word.lowercased()) && typed.count >= 3
                ? 1 : distance(typed, Array(candidate.lowercased()))
            guard d <= allowed else { continue }
            if d < bestDistance { (best, bestDistance) = ([candidate], d) } else if d == bestDistance { best.append(candidate) }
        }
        return best
    }

    /// ` did you mean 'a' or 'b'?` (with a leading space; each suggestion as `shown` writes
    /// it), or "" with no suggestion.
    static func phrase(for word: String, among candidates: [String], shown: (String) -> String = { $0 }) -> String {
        let found = suggestions(for: word, among: candidates)
        guard !found.isEmpty else { return "" }
        return " did you mean " + found.map { "'\(shown($0))'" }.joined(separator: " or ") + "?"
    }

    /// The optimal-string-alignment distance between `a` and `b`.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
