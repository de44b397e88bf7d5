import CorsanoKit
import Foundation
import Testing

/// `corsano repl < script`: no prompts, `LINE: message` for failures, exit 1 if any line failed,
/// `--bail` stops at the first failure with its status.
@Suite struct REPLScriptTests {
    @Test func aFailingLineMakesTheSessionExit1AndIsReportedWithItsLineNumber() throws {
        let r = try Corsano.run(["repl", "--no-state"], stdin: """
            # queue two readings
            cuff add 120/80 72

            frobnicate now
            cuff add 118 / 79 70 at 2026-11-29T10:00:00Z
            status
            """)
        #expect(r.status == 1)
        #expect(r.stderr == "4: unknown command 'frobnicate'; try 'help'\n")
        #expect(r.stdout.withoutEnteredAt.contains(#""queued":[{"systolic":120,"diastolic":80,"pulse":72,"isManualEntry":true},"#
                                  + #"{"systolic":118,"diastolic":79,"pulse":70,"measuredAt":"2026-11-29T10:00:00Z","isManualEntry":false}],"cuff":null}"#))
        #expect(!r.stdout.contains("corsano>"))
    }

    /// Script lines come through the one line splitter: CRLF ends a line, an over-long line is
    /// reported with its number and skipped, and a last line without a newline still runs.
    @Test func crlfLinesAnOverLongLineAndAnUnterminatedLastLine() throws {
        let long = "cuff add " + String(repeating: "9", count: 1 << 20)
        let r = try Corsano.run(["repl", "--no-state"], stdin: "cuff add 120/80 72\r\n\(long)\r\ncuff add 118/79 70")
        #expect(r.status == 1)
        #expect(r.stderr == "2: line of \(long.utf8.count) bytes exceeds the 1048576-byte limit\n")
        let replies = r.stdout.split(separator: "\n")
        #expect(replies.count == 2)
        #expect(replies.first?.contains(#""systolic":120"#) == true && replies.first?.hasSuffix(#""queued":1}"#) == true)
        #expect(replies.last?.contains(#""systolic":118"#) == true && replies.last?.hasSuffix(#""queued":2}"#) == true)
    }

    @Test func bailStopsAtTheFirstFailureWithItsStatus() throws {
        let r = try Corsano.run(["repl", "--bail", "--no-state"], stdin: "cuff add 120/80 72\ncuff add 80/120 72\nstatus\n")
        #expect(r.status == 64)
        #expect(r.stderr == "2: cuff add: systolic: 80 mmHg not above diastolic 120 mmHg\n")
        #expect(!r.stdout.contains("plan"))
    }

    @Test func badOptionValueNamesTheLineAndTheFlag() throws {
        let r = try Corsano.run(["repl", "--bail", "--no-state"], stdin: "status --clock sundial\n")
        #expect(r.status == 64)
        #expect(r.stderr == "1: --clock: bad value 'sundial': expected one of real, virtual\n")
    }

    @Test func aCleanScriptExits0AndQuitStopsReading() throws {
        let r = try Corsano.run(["repl", "--no-state"], stdin: "cuff add 120/80 72\nquit\nfrobnicate\n")
        #expect(r.status == 0)
        #expect(r.stdout.withoutEnteredAt == #"{"reply":"cuff-add","reading":{"systolic":120,"diastolic":80,"pulse":72,"isManualEntry":true},"queued":1}"# + "\n")
        #expect(r.stdout.hasEnteredAt)
        #expect(r.stderr.isEmpty)
    }

    @Test func commandsThatWouldReadStandardInputAreRefused() throws {
        let r = try Corsano.run(["repl", "--no-state"], stdin: "replay-filter --now 2026-11-29T10:00:00Z\nstatus\n")
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("1: replay-filter: in the REPL, name the input FILE"))
        #expect(r.stdout.contains(#""plan":"monitoring""#))
    }

    @Test func helpListsSessionCommandsAndShowsACommandsOptions() throws {
        // Piped, standard output carries only JSON lines: help is text for a person, on stderr.
        let r = try Corsano.run(["repl"], stdin: "help\nhelp cuff add\nhelp bp-init\n")
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("  cuff add           Queue a cuff reading for the next flow.\n"))
        #expect(r.stderr.contains("usage: corsano cuff add SYS/DIA PULSE [at TIME]\n"))
        #expect(r.stderr.contains("  --max-attempts N"))
    }

    @Test func queuedReadingsFeedBpInitOnTheConnectedBracelet() throws {
        // The served bracelet refuses the attempt; the embedded default would accept it.
        let server = try ServedSimulator(.unix, scenario: Scenario(nibp: NIBPScenario(attempts: [NIBPAttemptScript(session: false)])))
        defer { server.stop() }
        let r = try Corsano.run(["repl", "--no-state"], stdin: """
            connect \(server.listening)
            cuff add 120/80 72
            cuff add 122/81 70 at 2026-11-29T10:00:00Z
            bp-init --json --max-attempts 1 --now 2026-11-29T10:00:30Z
            status
            """)
        #expect(r.status == 1)
        #expect(r.stderr == "corsano: bp-init: read 2, fed 2, dropped 0, unstamped 1, manual 1\n4: bp-init exited with status 1\n")
        let events = r.lines.filter { $0.hasPrefix(#"{"event":"#) }
        #expect(events.filter { $0.contains(#""event":"measurement""#) }.map { $0.contains(#""systolic":120"#) || $0.contains(#""systolic":122"#) } == [true, true])
        #expect(events.last?.contains(#""result":{"kind":"failedAfterRetries","attemptCount":1}"#) == true)
        #expect(r.lines.last?.hasPrefix(#"{"reply":"status","#) == true)
        #expect(r.lines.last?.hasSuffix(#""queued":[],"cuff":null}"#) == true)
        // Nothing but JSON lines on a piped standard output.
        for line in r.lines { #expect(line.hasPrefix("{") && line.hasSuffix("}"), "\(line)") }
    }

    @Test func profileSetMergesValidatesAndStoresForTheBracelet() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-repl-\(UUID().uuidString).sqlite3").path
        let r = try Corsano.run(["repl", "--state", state], stdin: """
            profile show
            profile set --height 180 --weight 80
            profile set --height 180 --weight 80 --wrist left --gender male --unit metric --birthdate 1980-02-03 --skin-tone 3 --hair-density low
            profile set --weight 82
            profile set --skin-tone 9
            """)
        #expect(r.status == 1)
        #expect(r.stderr.withoutNewStoreNotice == "2: missing --wrist, --gender, --unit, --birthdate, --skin-tone, --hair-density (not in the stored profile either)\n5: --skin-tone: bad value '9': expected an integer from 1 to 6 (Fitzpatrick I-VI)\n")
        // A later session on the same store sees the merged profile.
        let again = try Corsano.run(["repl", "--state", state], stdin: "profile show\nstatus\n")
        let profile = #"{"height":180,"weight":82,"wrist":"left","gender":"male","unit":"metric","birthdate":"1980-02-03","skinTone":3,"hairDensity":"low"}"#
        #expect(again.lines.first == #"{"reply":"profile-show","bracelet":"SIM-287-0001","profile":"# + profile + "}")
        #expect(again.lines.last?.contains(#""storedProfile":"# + profile) == true)
        #expect(r.lines.first == #"{"reply":"profile-show","bracelet":"SIM-287-0001","profile":null}"#)
        #expect(r.lines.last == #"{"reply":"profile-set","bracelet":"SIM-287-0001","profile":"# + profile + "}")
    }
}

/// The session commands' JSON replies (point 1): each shape as corsano-repl(1)
/// REPLIES documents it, key for key, and a `source`d file's lines reported with its name.
@Suite struct REPLReplyTests {
    /// `reply` → the keys the man page shows for it, in order.
    static func documentedShapes() throws -> [String: [String]] {
        let page = try String(contentsOf: Corsano.packageRoot.appendingPathComponent("man/corsano-repl.1"), encoding: .utf8)
        var shapes: [String: [String]] = [:]
        // A reply is a `.Li {"reply":…}` line, or a literal block whose first line starts
        // `{"reply":` and whose further lines (indented one space) continue the object.
        var current: String?
        for line in page.split(separator: "\n") {
            if line.hasPrefix(#".Li {"reply":""#) || line.hasPrefix(#"{"reply":""#) {
                let name = line.firstMatch(of: /"reply":"([\w-]+)"/).map { String($0.output.1) } ?? ""
                // Only the top level: nested objects are written `{...}` on the page.
                shapes[name] = line.matches(of: /"(\w+)":/).map { String($0.output.1) }
                current = line.hasPrefix("{") && !line.hasSuffix("}") ? name : nil
            } else if let name = current, line.hasPrefix(#" ""#) {
                shapes[name, default: []] += line.matches(of: /"(\w+)":/).map { String($0.output.1) }
                if line.hasSuffix("}") { current = nil }
            } else {
                current = nil
            }
        }
        return shapes
    }

    @Test func everyReplyHasTheShapeTheManPageShows() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-replies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let inner = dir.appendingPathComponent("inner.repl")
        try Data("cuff add 124/80 70\n".utf8).write(to: inner)
        let r = try Corsano.run(["repl", "--state", dir.appendingPathComponent("s.sqlite3").path], stdin: """
            connect sim
            cuff add 128/82 72 at 2026-11-29T10:00:00Z
            source \(inner.path)
            profile show
            profile set --height 180 --weight 80 --wrist left --gender male --unit metric --birthdate 1980-02-03 --skin-tone 3 --hair-density low
            status
            help
            quit
            """)
        #expect(r.status == 0, "\(r.stderr)")
        let documented = try Self.documentedShapes()
        var seen: [String] = []
        for line in r.lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            let reply = try #require(object["reply"] as? String, "\(line)")
            seen.append(reply)
            #expect(Self.topLevelKeys(line) == documented[reply], "\(reply): \(line)")
        }
        #expect(seen == ["connect", "cuff-add", "cuff-add", "source", "profile-show", "profile-set", "status"])
        // The Bluetooth cuff's replies need a (mocked) BlueZ: REPLCuffTests checks their shapes.
        #expect(Set(seen) == Set(documented.keys).subtracting(["cuff-scan", "cuff-connect"]))
    }

    /// The keys of the outermost object of a JSON line, in order.
    static func topLevelKeys(_ line: String) -> [String] {
        var keys: [String] = [], depth = 0, inString = false, escaped = false, token = ""
        for c in line {
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false } else { token.append(c) }
                continue
            }
            switch c {
            case "\"": inString = true; token = ""
            case "{", "[": depth += 1
            case "}", "]": depth -= 1
            case ":": if depth == 1 { keys.append(token) }
            default: break
            }
        }
        return keys
    }

    @Test func sourcedLinesAreReportedWithTheFileAndNestingIsBounded() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-source-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let loop = dir.appendingPathComponent("loop.repl")
        try Data("cuff add 80/120 72\nsource \(loop.path)\n".utf8).write(to: loop)
        let r = try Corsano.run(["repl", "--no-state"], stdin: "source \(loop.path)\nsource /nonexistent/x.repl\n")
        #expect(r.status == 1)
        let errors = r.stderr.split(separator: "\n").map(String.init)
        // Eight files deep, each reporting its failing line; the ninth is refused.
        #expect(errors.filter { $0 == "\(loop.path):1: cuff add: systolic: 80 mmHg not above diastolic 120 mmHg" }.count == 8)
        #expect(errors.contains("\(loop.path):2: source: files nested more than 8 deep (does \(loop.path) source itself?)"))
        #expect(errors.last == "2: /nonexistent/x.repl: No such file or directory")
        #expect(r.lines.filter { $0.hasPrefix(#"{"reply":"source","file":"\#(loop.path)","lines":2,"failed":2}"#) }.count == 8)
    }
}

/// A `#` that starts a word starts a comment to the end of the line; an apostrophe in a comment
/// is no quote (a REPL script's comments are prose).
@Suite struct REPLCommentTests {
    @Test func commentsEndTheLineWhateverTheyHold() throws {
        let r = try Corsano.run(["repl", "--no-state"], stdin: "# the bracelet's queue\ncuff add 120/80 72   # it's the first\n'#not' a comment\n")
        #expect(r.status == 1)
        #expect(r.lines.map(\.withoutEnteredAt) == [#"{"reply":"cuff-add","reading":{"systolic":120,"diastolic":80,"pulse":72,"isManualEntry":true},"queued":1}"#])
        #expect(r.stderr == "3: unknown command '#not'; try 'help'\n")  // quoted, # is a word
    }
}
