import Foundation
import Testing

/// The committed zsh completion in a real zsh (tmux), the shell with no scripted check beside
/// `zsh -n` (point 9): `--bracelet sim:` offers scenario files, and an option is not
/// offered once one it excludes is on the line (`--text` after `--json`).
@Suite(.serialized) struct ShellCompletionTerminalTests {
    /// zsh with only corsano's completion loaded, in a directory holding one scenario file.
    static func zsh() throws -> Tmux {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-zsh-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for name in ["scen.json", "notes.txt"] { try Data().write(to: dir.appendingPathComponent(name)) }
        let rc = dir.appendingPathComponent(".zshrc")
        try Data("""
            fpath=(\(Tmux.quote(Corsano.packageRoot.appendingPathComponent("completions").path)) $fpath)
            autoload -U compinit && compinit -u
            PS1='zsh> '
            cd \(Tmux.quote(dir.path))

            """.utf8).write(to: rc)
        let term = try Tmux(program: ["zsh", "-i"], env: ["ZDOTDIR": dir.path])
        try term.waitFor("zsh>")
        return term
    }

    @Test func zshCompletesScenarioFilesAfterSim() throws {
        let term = try Self.zsh()
        try term.send("corsano bp-init --bracelet sim:", "Tab")
        try term.waitFor("the scenario completed") { $0.hasSuffix("zsh> corsano bp-init --bracelet sim:scen.json") }
    }

    @Test func zshOffersNoTextAfterJson() throws {
        let term = try Self.zsh()
        // Alone, --te completes to --text; after --json nothing (the # typed after the TAB lands
        // right after --te).
        try term.send("corsano bp-init --te", "Tab")
        try term.waitFor("--text completed") { $0.hasSuffix("zsh> corsano bp-init --text") }
        try term.send("C-u", "corsano bp-init --json --te", "Tab", "#")
        let screen = try term.waitFor("nothing completed") { $0.hasSuffix("--json --te#") }
        #expect(!screen.contains("--json --text"), "\(screen)")
    }
}
