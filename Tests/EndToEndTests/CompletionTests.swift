import CorsanoKit
import Foundation
import Testing

/// Shell completions: the committed files are what `corsano completion SHELL` prints, and the
/// bash one completes commands, two-word subcommands, flags, enum values and paths.
@Suite struct CompletionTests {
    static let files = ["bash": "corsano.bash", "zsh": "_corsano", "fish": "corsano.fish"]

    /// Committed == generated. `CORSANO_RECORD_SNAPSHOTS=1 swift test --filter CompletionTests`
    /// rewrites the committed files and fails naming each one written.
    @Test(arguments: ["bash", "zsh", "fish"])
    func committedMatchesGenerated(shell: String) throws {
        let r = try Corsano.run(["completion", shell])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        let url = Corsano.packageRoot.appendingPathComponent("completions/\(Self.files[shell]!)")
        try Snapshot.expect(r.stdout, equals: url, rerun: "swift test --filter CompletionTests")
    }

    @Test func completionWithoutShellIsAUsageError() throws {
        let r = try Corsano.run(["completion"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("bash, zsh or fish"))
        let bad = try Corsano.run(["completion", "tcsh"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("tcsh"))
    }

    /// What the user typed (a trailing space = an empty word being completed) → COMPREPLY.
    static let bashCases: [(line: String, expected: [String])] = [
        ("corsano bp-", ["bp-init"]),
        ("corsano cu", ["cuff"]),
        ("corsano re", ["replay-filter", "repl", "report"]),
        ("corsano --v", ["--version"]),
        ("corsano cuff ", ["ingest", "listen"]),
        ("corsano profile p", ["push"]),
        ("corsano bracelet ", ["repair", "serve"]),
        ("corsano bp-init --max", ["--max-attempts", "--max-clock-skew", "--max-reading-age", "--max-set-gap"]),
        ("corsano replay-filter --s", ["--scope", "--strict", "--state", "--store-wait"]),
        ("corsano bp-init --clock ", ["real", "virtual"]),
        ("corsano bp-init --clock=v", ["virtual"]),
        ("corsano cuff ingest --from ", ["auto", "jsonl", "ble", "csv", "applehealth", "googlefit"] + CSVLayout.all.map { "csv:" + $0.name }),
        ("corsano profile push --wrist ", ["left", "right"]),
        ("corsano wearing-opt --lang nl", ["nl", "nl-BE"]),
        ("corsano completion ", ["bash", "zsh", "fish"]),
        ("corsano help bp", ["bp-init"]),
        ("corsano help cuff ", ["ingest", "listen"]),
        ("corsano bp-init --now ", []),
        ("corsano bp-init --bracelet ", ["sim", "sim:", "unix:", "tcp:", "exec:"]),
        ("corsano bp-init --bracelet=u", ["unix:"]),
        ("corsano bracelet serve --listen ", ["unix:", "tcp:"]),
        ("corsano replay-filter --max-reading-age=", ["none"]),
        ("corsano bp-init --max-reading-age ", ["none"]),
        ("corsano bp-init --cuff-timeout ", []),
        ("corsano cuff ingest dump", ["dump-a.csv", "dump-b.jsonl"]),
        ("corsano bp-init --cuff dump-b", ["dump-b.jsonl"]),
        ("corsano profile push --from=dump-b", ["dump-b.jsonl"]),
        // After sim: a scenario (JSON files and directories), after unix: any path; bash splits
        // the word at ':', so the reply is what follows it (point 9).
        ("corsano bp-init --bracelet sim:", ["lab/", "scen.json "]),
        ("corsano bp-init --bracelet sim:sc", ["scen.json "]),
        ("corsano bp-init --bracelet=sim:l", ["lab/"]),
        ("corsano wearing-opt --bracelet unix:o", ["other.txt "]),
        ("corsano bracelet serve --listen unix:d", ["dump-a.csv ", "dump-b.jsonl "]),
        ("corsano bp-init --bracelet s", ["sim", "sim:"]),
        ("corsano cuff ingest --from csv:omron-connect-r", ["omron-connect-report"]),
        // --output-dir takes a directory: no files offered.
        ("corsano cuff ingest --output-dir ", ["lab"]),
        ("corsano cuff ingest --output-dir=l", ["lab"]),
    ]

    @Test(arguments: bashCases)
    func bashCompletes(line: String, expected: [String]) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-comp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["dump-a.csv", "dump-b.jsonl", "other.txt", "scen.json"] {
            try Data().write(to: dir.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("lab"), withIntermediateDirectories: true)
        let words = Self.bashWords(line)
        let script = #"source "$1"; cd "$2"; COMP_CWORD=$3; shift 3; COMP_WORDS=("$@"); _corsano; printf '%s\n' "${COMPREPLY[@]}""#
        let out = try Shell.run("bash", ["--norc", "--noprofile", "-c", script, "bash",
                                         Corsano.packageRoot.appendingPathComponent("completions/corsano.bash").path,
                                         dir.path, String(words.count - 1)] + words)
        #expect(out.status == 0, "\(out.stderr)")
        let reply = out.stdout.split(separator: "\n").map(String.init)
        #expect(reply.sorted() == expected.sorted(), "\(line)")
    }

    /// Splits like bash with the default COMP_WORDBREAKS: words at spaces, `=` and `:` words of
    /// their own (in the last word, the one being completed).
    static func bashWords(_ line: String) -> [String] {
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var last = words.removeLast()
        var tail: [String] = []
        while let mark = last.lastIndex(where: { $0 == "=" || $0 == ":" }) {
            tail = [String(last[mark]), String(last[last.index(after: mark)...])].filter { !$0.isEmpty } + tail
            last = String(last[..<mark])
        }
        words += [last] + tail
        return words
    }

    @Test(arguments: [
        ("corsano bp-", ["bp-init"]),
        ("corsano cuff ", ["ingest", "listen"]),
        ("corsano bp-init --clock ", ["real", "virtual"]),
        ("corsano cuff ingest --from=", ["--from=auto", "--from=ble", "--from=csv", "--from=jsonl", "--from=applehealth", "--from=googlefit"] + CSVLayout.all.map { "--from=csv:" + $0.name }),
        ("corsano help cuff ", ["ingest", "listen"]),
        ("corsano bp-init --bracelet=", ["--bracelet=sim", "--bracelet=sim:", "--bracelet=unix:", "--bracelet=tcp:", "--bracelet=exec:"]),
        ("corsano replay-filter --max-reading-age=", ["--max-reading-age=none"]),
        ("corsano bp-init --lang=nl", ["--lang=nl", "--lang=nl-BE"]),
        ("corsano bp-init --bracelet sim:", ["sim:lab/", "sim:scen.json"]),
        ("corsano bp-init --bracelet=sim:s", ["--bracelet=sim:scen.json"]),
        ("corsano bracelet serve --listen unix:o", ["unix:other.txt"]),
        ("corsano bp-init --json --te", []),
        ("corsano bp-init --te", ["--text"]),
    ])
    func fishCompletes(line: String, expected: [String]) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-fish-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("lab"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["scen.json", "other.txt"] { try Data().write(to: dir.appendingPathComponent(name)) }
        let file = Corsano.packageRoot.appendingPathComponent("completions/corsano.fish").path
        let out = try Shell.run("fish", ["--no-config", "-c", "source $argv[1]; cd $argv[3]; complete -C $argv[2]", file, line, dir.path])
        #expect(out.status == 0, "\(out.stderr)")
        let names = out.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        #expect(names.sorted() == expected.sorted(), "\(line)")
        // A value never repeats its option's description (each would read the same).
        let valueOf = line.hasSuffix(" ") ? line.split(separator: " ").last.map(String.init) : nil
        if valueOf?.hasPrefix("--") == true || line.contains("=") {
            let described = out.stdout.split(separator: "\n").filter { $0.contains("\t") && !$0.hasPrefix("-") }
            #expect(described.isEmpty, "\(line): \(described)")
        }
    }

    /// zsh: an option with a value is declared `--name=` so `_arguments` completes the value both
    /// as the next word and after `=` in the same word; URIs and `none` are offered like choices.
    @Test func zshOffersValuesAfterEqualsAndForURIsAndNone() throws {
        let r = try Corsano.run(["completion", "zsh"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("'--from=[Input format: auto, jsonl, ble, csv, applehealth, googlefit, or csv:LAYOUT, a CSV export that must have that vendor layout (corsano-formats(5)) (default auto).]:format:(auto jsonl ble csv applehealth googlefit csv\\:omron-connect-email csv\\:omron-connect"))
        #expect(r.stdout.contains("'--date-order=[Day/month order of numeric CSV dates (default decided from the rows).]:dmy or mdy or ymd:(dmy mdy ymd)'"))
        #expect(r.stdout.contains(#":uri:{_corsano_uri sim sim\: unix\: tcp\: exec\:}'"#))
        #expect(r.stdout.contains("'(--text)--json[Write JSON lines even on a terminal.]'"))
        #expect(r.stdout.contains("'(--json)--text[Write human text even when stdout is not a terminal.]'"))
        #expect(r.stdout.contains("'--max-reading-age=[Reject readings further than this from now, either direction (default 900).]:duration or none:(none)'"))
        #expect(r.stdout.contains("'--strict[Stop at the first bad record (exit 65).]'"))
    }
}
