import Foundation
import Testing
import TestSupport

/// Every section-1 man page has an EXAMPLES section with at least 3 examples, and each example's
/// command lines run, as written, against the simulator (or the mocked BlueZ, the test
/// PostgreSQL, a served simulator) and say what the page says they do (point 8).
///
/// An example is a `.Bd -literal` block of EXAMPLES: a shell script run by `sh` in a fresh
/// directory that holds `examples` (the repository's) with the built corsano first on PATH.
/// roff comment lines right before the block, `.\" example: ...`, say what to check and what
/// the example needs (they are invisible in the rendered page):
///
///     exit N                          the status (default 0)
///     stdout ~ TEXT / stderr ~ TEXT   a line of the stream contains TEXT (also `!~`: none does)
///     file NAME ~ TEXT                a file the example wrote contains TEXT
///     needs bluez ARGS...             a cuff behind the mocked BlueZ (cuff_mock.py ARGS)
///     needs postgres                  the test PostgreSQL, in PGHOST/PGPORT/PGUSER, database corsano
///     needs bridge                    `corsano bracelet serve --listen unix:bridge.sock` running
///     when STREAM ~ TEXT send LINE    then LINE to the BlueZ mock (a cuff measures)
///     when STREAM ~ TEXT signal SIG   then SIG to the example's programs (servers, the REPL)
///     when reading signal SIG         once every program of the example waits on its stdin
///
/// A signal goes to every process of the example but the `sh` running it, which then exits
/// with its last program's status, as a person's shell would.
@Suite struct ManExamplesTests {
    static let manDirectory = Corsano.packageRoot.appendingPathComponent("man")

    /// Every section-1 page (pages other helpers add are picked up as they land).
    static let pages: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: manDirectory.path)) ?? [])
        .filter { $0.hasSuffix(".1") }.sorted()

    struct Example: CustomStringConvertible {
        let page: String
        let number: Int
        var script = ""
        var checks: [String] = []
        var description: String { "\(page) example \(number)" }
    }

    /// The examples of `page`, in order.
    static func examples(of page: String) throws -> [Example] {
        let source = try String(contentsOf: manDirectory.appendingPathComponent(page), encoding: .utf8)
        var examples: [Example] = [], checks: [String] = [], inside = false, block: [String] = []
        var section = ""
        for line in source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix(".Sh ") { section = String(line.dropFirst(4)); continue }
            guard section == "EXAMPLES" else { continue }
            if inside {
                if line == ".Ed" {
                    examples.append(Example(page: page, number: examples.count + 1, script: block.map(unescape).joined(separator: "\n"),
                                            checks: checks))
                    inside = false
                    checks = []
                    block = []
                } else {
                    block.append(line)
                }
            } else if line.hasPrefix(#".\" example: "#) {
                checks.append(String(line.dropFirst(#".\" example: "#.count)))
            } else if line.hasPrefix(".Bd -literal") {
                inside = true
            }
        }
        return examples
    }

    /// roff escapes used in the pages' literal blocks.
    static func unescape(_ line: String) -> String {
        line.replacing(#"\e"#, with: #"\"#).replacing(#"\(aq"#, with: "'").replacing(#"\(dq"#, with: "\"")
            .replacing(#"\-"#, with: "-").replacing(#"\&"#, with: "")
    }

    @Test(arguments: pages)
    func everyPageHasThreeExamplesOrMore(_ page: String) throws {
        let examples = try Self.examples(of: page)
        #expect(examples.count >= 3, "\(page) has \(examples.count) examples")
        for example in examples {
            #expect(example.checks.contains { $0.hasPrefix("stdout") || $0.hasPrefix("stderr") || $0.hasPrefix("file") },
                    "\(example): nothing of its output is checked")
        }
    }

    @Test(arguments: pages)
    func everyExampleRunsAndSaysWhatThePageSays(_ page: String) throws {
        for example in try Self.examples(of: page) {
            try Self.run(example)
        }
    }

    /// Runs one example in a fresh directory and checks it.
    static func run(_ example: Example) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("examples"),
                                                   withDestinationURL: Corsano.packageRoot.appendingPathComponent("examples"))
        var env = ["PATH": Corsano.binary.deletingLastPathComponent().path + ":/usr/local/bin:/usr/bin:/bin",
                   "HOME": dir.path, "XDG_STATE_HOME": dir.appendingPathComponent("state").path,
                   "LANG": "C.UTF-8", "TZ": "UTC", "NO_COLOR": "1", "COLUMNS": "80"]
        var mock: BlueZMock?
        var bridge: StreamedProcess?
        defer {
            mock?.stop()
            if let bridge { bridge.signal(SIGTERM); bridge.finish(seconds: 20) }
        }
        for need in example.checks.filter({ $0.hasPrefix("needs ") }).map({ $0.dropFirst(6).split(separator: " ").map(String.init) }) {
            switch need.first {
            case "bluez":
                let started = try BlueZMock(Array(need.dropFirst()))
                mock = started
                for (k, v) in started.env { env[k] = v }
            case "postgres":
                let server = try ThrowawayPostgres.shared()
                try server.execute("DROP DATABASE IF EXISTS corsano")
                try server.execute("CREATE DATABASE corsano")
                env["PGHOST"] = server.directory
                env["PGPORT"] = String(server.port)
                env["PGUSER"] = "postgres"
            case "bridge":
                let served = try StreamedProcess(Corsano.binary, ["bracelet", "serve", "--listen", "unix:bridge.sock"],
                                                 env: env, cwd: dir)
                bridge = served
                #expect(served.stdout.waitFor("listening"), "\(example): the bridge did not start: \(served.stderr.text)")
            default:
                Issue.record("\(example): unknown need \(need)")
            }
        }
        // Foundation starts the child as the leader of a process group of its own: a signal to the
        // group reaches every process of the example. It inherits the spawning test thread's
        // signal mask, which blocks SIGTERM: python3 clears it and execs sh, so the example's
        // programs take signals as from a person's shell.
        let run = try StreamedProcess(URL(fileURLWithPath: "/usr/bin/python3"),
                                      ["-c", "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv('/bin/sh', ['sh', '-c', sys.argv[1]])",
                                       example.script], env: env, cwd: dir)
        let group = run.process.processIdentifier
        defer { kill(-group, SIGKILL) }
        for step in example.checks where step.hasPrefix("when ") {
            let words = step.dropFirst(5)
            if words.hasPrefix("reading signal ") {
                let signal = Self.signal(String(words.dropFirst("reading signal ".count)))
                let waiting = Wait.until(seconds: 30) {
                    let programs = Self.programs(of: group)
                    return !programs.isEmpty && programs.allSatisfy { ProcessProbe.isReading(fd: 0, pid: $0) }
                }
                #expect(waiting, "\(example): nothing waited on its input")
                Self.signal(group, signal)
                continue
            }
            guard let (stream, rest) = Self.stream(words), let action = rest.range(of: " send ") ?? rest.range(of: " signal ") else {
                Issue.record("\(example): cannot read '\(step)'")
                continue
            }
            let text = String(rest[..<action.lowerBound])
            let collector = stream == "stdout" ? run.stdout : run.stderr
            #expect(collector.waitFor(text), "\(example): \(stream) never said \(text)\n\(run.stdout.text)\n\(run.stderr.text)")
            let argument = String(rest[action.upperBound...])
            if rest[action].contains("send") { mock?.send(argument) } else { Self.signal(group, Self.signal(argument)) }
        }
        let ended = Wait.until(seconds: 60) { !run.process.isRunning }
        #expect(ended, "\(example): still running after 60 s")
        kill(-group, SIGKILL)  // what it left running (or all of it, when it hung), so its pipes close
        let status = ended ? run.finish(seconds: 10) : nil
        let expected = example.checks.first { $0.hasPrefix("exit ") }.flatMap { Int32($0.dropFirst(5)) } ?? 0
        let output = "\n--- stdout\n\(run.stdout.text)\n--- stderr\n\(run.stderr.text)"
        #expect(status == expected, "\(example): exit \(status.map(String.init) ?? "killed"), expected \(expected)\(output)")
        for check in example.checks where !check.hasPrefix("when ") && !check.hasPrefix("needs ") && !check.hasPrefix("exit ") {
            if check.hasPrefix("file ") {
                let parts = check.dropFirst(5).split(separator: " ~ ", maxSplits: 1).map(String.init)
                let text = (try? String(contentsOf: dir.appendingPathComponent(parts[0]), encoding: .utf8)) ?? ""
                #expect(parts.count == 2 && text.contains(parts[1]), "\(example): \(parts[0]) lacks \(parts.last ?? "")\n\(text)")
                continue
            }
            guard let (stream, rest) = Self.stream(Substring(check)) else {
                Issue.record("\(example): cannot read '\(check)'")
                continue
            }
            let lines = stream == "stdout" ? run.stdout.lines : run.stderr.lines
            if check.contains(" !~ ") {
                #expect(!lines.contains { $0.contains(rest) }, "\(example): \(stream) says \(rest)\(output)")
            } else {
                #expect(lines.contains { $0.contains(rest) }, "\(example): \(stream) lacks \(rest)\(output)")
            }
        }
    }

    /// `stdout ~ TEXT` / `stderr !~ TEXT` → the stream and TEXT.
    static func stream(_ words: Substring) -> (String, String)? {
        for stream in ["stdout", "stderr"] {
            for op in [" ~ ", " !~ "] where words.hasPrefix(stream + op) { return (stream, String(words.dropFirst(stream.count + op.count))) }
        }
        return nil
    }

    static func signal(_ name: String) -> Int32 {
        ["SIGINT": SIGINT, "SIGTERM": SIGTERM, "SIGHUP": SIGHUP][name] ?? SIGTERM
    }

    /// Sends `signo` once to each of the example's programs, including those the shell starts
    /// while this runs (a pipeline's programs start one after the other), until none is left
    /// that was not sent it.
    static func signal(_ group: pid_t, _ signo: Int32) {
        var sent = Set<pid_t>()
        _ = Wait.until(seconds: 10) {
            // corsano first: a person's Control-C reaches a whole pipeline at once, but kills go one
            // by one, and a writer (cat) killed first would end the REPL's input before its signal.
            let targets = programs(of: group).sorted { isCorsano($0) && !isCorsano($1) }
            for pid in targets where !sent.contains(pid) {
                kill(pid, signo)
                sent.insert(pid)
            }
            return targets.allSatisfy { kill($0, 0) != 0 }
        }
    }

    /// True when `pid` runs corsano (/proc/PID/comm).
    static func isCorsano(_ pid: pid_t) -> Bool {
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.hasPrefix("corsano") ?? false
    }

    /// The processes of the example's group but its leader while that is still the example's
    /// `sh` (one that ran its only command with exec is that command).
    static func programs(of group: pid_t) -> [pid_t] {
        let leader = (try? String(contentsOfFile: "/proc/\(group)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        return members(of: group).filter { $0 != group || leader != "sh" }
    }

    /// The processes of process group `group` (/proc/PID/stat's fifth field).
    static func members(of group: pid_t) -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 3 && pid_t(fields[2]) == group ? pid : nil
        }
    }

    /// SEE ALSO is complete: every page a page refers to (`.Xr`) is listed there, and corsano(1)
    /// lists every page.
    @Test func seeAlsoNamesEveryPageReferredTo() throws {
        let all = try FileManager.default.contentsOfDirectory(atPath: Self.manDirectory.path)
            .filter { $0.hasPrefix("corsano") && $0.contains(".") }.sorted()
        for page in all {
            let source = try String(contentsOf: Self.manDirectory.appendingPathComponent(page), encoding: .utf8)
            let parts = source.components(separatedBy: ".Sh SEE ALSO")
            #expect(parts.count == 2, "\(page) has no SEE ALSO")
            let body = parts[0], seeAlso = parts.count == 2 ? parts[1] : ""
            let named = { (text: String) in Set(text.matches(of: /\.Xr (corsano[a-z-]*) ([1-9])/).map { "\($0.1).\($0.2)" }) }
            for referred in named(body).subtracting([page]).sorted() {
                #expect(named(seeAlso).contains(referred), "\(page) refers to \(referred) but its SEE ALSO does not list it")
            }
            if page == "corsano.1" {
                #expect(named(seeAlso) == Set(all.filter { $0 != page }), "corsano(1) SEE ALSO: \(named(seeAlso).sorted())")
            }
        }
    }
}
