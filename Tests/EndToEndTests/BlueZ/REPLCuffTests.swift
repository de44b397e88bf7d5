import Foundation
import Testing

/// The REPL's `cuff scan` and `cuff connect MAC` over a mocked BlueZ, and a bp-init that then
/// reads the connected cuff.
@Suite struct REPLCuffTests {
    /// With stdout not a terminal the replies are JSON lines, each shaped as corsano-repl(1)
    /// REPLIES shows; the connection lines go to stderr.
    @Test func scanConnectThenCalibrate() throws {
        let mock = try BlueZMock(["--history", "133/86/71@172800"])
        defer { mock.stop() }
        let repl = try StreamedProcess.corsano(["repl", "--no-state"], env: mock.env)
        repl.send("cuff scan --timeout 1")
        #expect(repl.stdout.waitFor(#""reply":"cuff-scan""#))
        #expect(repl.stdout.lines.last == #"{"reply":"cuff-scan","adapter":"hci0","devices":[{"address":"\#(BlueZMock.cuff)","name":"BP Cuff","cuff":true,"paired":false}]}"#)
        repl.send("cuff connect \(BlueZMock.cuff.lowercased())")
        #expect(repl.stdout.waitFor(#""reply":"cuff-connect""#))
        #expect(repl.stdout.lines.last == #"{"reply":"cuff-connect","cuff":"\#(BlueZMock.cuff)","name":"BP Cuff","adapter":null}"#)
        #expect(repl.stderr.waitFor("clock anchor: cuff "))
        #expect(mock.waitFor("disconnected host"))
        repl.send("status")
        #expect(repl.stdout.waitFor(#""cuff":"\#(BlueZMock.cuff)"}"#))
        let documented = try REPLReplyTests.documentedShapes()
        for line in repl.stdout.lines {
            let reply = line.firstMatch(of: /"reply":"([\w-]+)"/).map { String($0.output.1) } ?? ""
            #expect(REPLReplyTests.topLevelKeys(line) == documented[reply], "\(line)")
        }
        repl.send("bp-init")
        #expect(repl.stdout.waitFor(#""reason":"replayed""#))
        mock.send("reading 128 82 66")
        #expect(repl.stdout.waitFor(#""index":2"#))
        mock.send("reading 124 80 64")
        #expect(repl.stdout.waitFor(#""kind":"success","measurementCount":2"#))
        repl.send("quit")
        #expect(repl.finish() == 0, "\(repl.stderr.text)")
        #expect(repl.stderr.text.contains("corsano: cuff: connected to \(BlueZMock.cuff)"))
    }

    @Test func connectToACuffThatNeverComesFailsTheLine() throws {
        let mock = try BlueZMock(["--absent"])
        defer { mock.stop() }
        let repl = try StreamedProcess.corsano(["repl", "--no-state"], env: mock.env)
        repl.send("cuff connect \(BlueZMock.cuff) --timeout 1")
        repl.send("status")
        repl.closeInput()
        #expect(repl.finish() == 1)
        #expect(repl.stderr.text.contains("1: cuff connect: \(BlueZMock.cuff) was not seen within 1 s"))
        #expect(!repl.stdout.text.contains("cuff      ble:"))
    }

    @Test func scanSeesNothingWhenNoCuffIsThere() throws {
        let mock = try BlueZMock(["--absent"])
        defer { mock.stop() }
        let repl = try StreamedProcess.corsano(["repl", "--no-state"], env: mock.env)
        repl.send("cuff scan --timeout 1")
        repl.closeInput()
        #expect(repl.finish() == 0, "\(repl.stderr.text)")
        #expect(repl.stdout.lines == [#"{"reply":"cuff-scan","adapter":"hci0","devices":[]}"#])
        #expect(repl.stderr.text.contains("scanning on hci0 for 1 s..."))
    }
}
