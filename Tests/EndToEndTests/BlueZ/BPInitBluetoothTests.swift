import Foundation
import Testing

/// `corsano bp-init --cuff ble:MAC` against a cuff behind a mocked BlueZ (issue 14 "Must show"):
/// the same host rules as readings from stdin, over a cuff that dumps its memory at every connect.
@Suite struct BPInitBluetoothTests {
    typealias E = BPInitE2E

    static func bpInit(_ mock: BlueZMock, _ args: [String] = []) throws -> StreamedProcess {
        try StreamedProcess.corsano(["bp-init", "--cuff", "ble:" + BlueZMock.cuff, "--no-state"] + args, env: mock.env)
    }

    /// (reason, systolic) of each `cuffReadingDropped` event.
    static func drops(_ lines: [String]) -> [String] {
        E.events(lines).filter { $0["event"] as? String == "cuffReadingDropped" }.compactMap { event in
            guard let reason = event["reason"] as? String, let reading = event["reading"] as? [String: Any],
                  let systolic = reading["systolic"] as? Int else { return nil }
            return "\(reason) \(systolic)"
        }
    }

    /// Measurement 1 live; the cuff disconnects; measurement 2 is taken while it is away and
    /// arrives after the reconnect behind the whole memory again: success(2), the stored history
    /// dropped as replayed both times, measurement 1's replay as duplicate.
    @Test func historyReplayedAndReplayDuplicate() throws {
        let mock = try BlueZMock(["--history", "133/86/71@172800", "126/84/69@43200"])
        defer { mock.stop() }
        let run = try Self.bpInit(mock)
        #expect(run.stdout.waitFor { Self.drops($0) == ["replayed 133", "replayed 126"] })
        mock.send("reading 128 82 66")
        #expect(run.stdout.waitFor(#""step":"measuring","attempt":1,"index":2"#))
        mock.send("disconnect")
        #expect(run.stderr.waitFor("disconnected; scanning again"))
        mock.send("reading 124 80 64")
        mock.send("advertise")
        #expect(run.finish() == 0, "\(run.stderr.text)")
        let lines = run.stdout.lines
        #expect(E.result(lines) == #"{"kind":"success","measurementCount":2}"#)
        #expect(Self.drops(lines) == ["replayed 133", "replayed 126", "replayed 133", "replayed 126", "duplicate 128"])
        #expect(E.collected(lines) == [[1, 1, 128], [1, 2, 124]])
        #expect(mock.waitFor("connect 2"))
        // The cuff this run connected is let go at the end.
        #expect(mock.waitFor("disconnected host"))
    }

    /// Issue 31: bp-init never fetches a BLS 1.1 cuff's stored history (it would all be dropped
    /// as replayed): no Record Access Control Point write, the live measurements only.
    @Test func storedHistoryIsNeverFetched() throws {
        let mock = try BlueZMock(["--bls11", "--history", "133/86/71@172800"])
        defer { mock.stop() }
        let run = try Self.bpInit(mock)
        #expect(mock.waitFor("notifying"))
        mock.send("reading 128 82 66")
        #expect(run.stdout.waitFor(#""step":"measuring","attempt":1,"index":2"#))
        mock.send("reading 124 80 64")
        #expect(run.finish() == 0, "\(run.stderr.text)")
        #expect(E.collected(run.stdout.lines) == [[1, 1, 128], [1, 2, 124]])
        #expect(Self.drops(run.stdout.lines).isEmpty)
        #expect(!mock.events.contains { $0.hasPrefix("racp") })
    }

    /// The cuff drops the link in the middle of measurement 1's request, after its history and
    /// before the live reading: the run scans, reconnects, and the live reading still arrives.
    @Test func disconnectMidRequestThenTheLiveReadingArrives() throws {
        let mock = try BlueZMock(["--history", "133/86/71@172800"])
        defer { mock.stop() }
        let run = try Self.bpInit(mock)
        #expect(run.stdout.waitFor { Self.drops($0) == ["replayed 133"] })
        mock.send("disconnect")
        #expect(run.stderr.waitFor("disconnected; scanning again"))
        #expect(run.stderr.waitFor("scanning on hci0"))
        mock.send("reading 128 82 66")
        mock.send("advertise")
        #expect(run.stdout.waitFor(#""step":"measuring","attempt":1,"index":2"#))
        mock.send("reading 124 80 64")
        #expect(run.finish() == 0, "\(run.stderr.text)")
        let lines = run.stdout.lines
        #expect(E.result(lines) == #"{"kind":"success","measurementCount":2}"#)
        #expect(E.collected(lines) == [[1, 1, 128], [1, 2, 124]])
        #expect(Self.drops(lines) == ["replayed 133", "replayed 133"])
        #expect(!lines.contains { $0.contains(#""event":"finished""#) && $0.contains("cuffError") })
    }

    @Test func adapterOffIs69BeforeTheFlowStarts() throws {
        let mock = try BlueZMock(["--adapter-off"])
        defer { mock.stop() }
        let run = try Self.bpInit(mock)
        #expect(run.finish() == 69)
        #expect(run.stdout.lines.isEmpty)
        #expect(run.stderr.text.contains("every Bluetooth adapter is off (hci0)"))
    }

    @Test func noReadingWithinTheCuffTimeoutIsCuffError() throws {
        let mock = try BlueZMock(["--absent"])
        defer { mock.stop() }
        let run = try Self.bpInit(mock, ["--cuff-timeout", "2"])
        #expect(run.finish() == 3)
        #expect(E.result(run.stdout.lines) == #"{"error":{"kind":"noReading"},"kind":"cuffError"}"#)
        #expect(run.stderr.text.contains("scanning on hci0 for \(BlueZMock.cuff)"))
    }

    @Test func corruptPayloadIsDroppedAsInvalidAndTheWaitGoesOn() throws {
        let mock = try BlueZMock()
        defer { mock.stop() }
        let run = try Self.bpInit(mock)
        #expect(mock.waitFor("dumped 0"))
        mock.send("raw 1E7800")
        #expect(run.stdout.waitFor(#""reason":"invalid""#))
        mock.send("reading 128 82 66")
        #expect(run.stdout.waitFor(#""index":2"#))
        mock.send("reading 124 80 64")
        #expect(run.finish() == 0, "\(run.stderr.text)")
        #expect(run.stdout.text.contains(#""line":"1E7800""#))
        #expect(run.stderr.text.contains("0x2A35 payload 1E7800: payload: 3 bytes"))
    }

    @Test func badCuffAddressIs64() throws {
        let r = try Corsano.run(["bp-init", "--cuff", "ble:A0:9E", "--no-state"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--cuff: bad value 'A0:9E': expected a Bluetooth address"))
    }
}
