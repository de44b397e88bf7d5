import CorsanoKit
import Foundation
import Testing

/// `corsano cuff listen` against a cuff behind a mocked BlueZ on a private bus.
@Suite struct CuffListenTests {
    static let device = ["--device", BlueZMock.cuff.lowercased()]

    /// Each stdout line as a JSON object.
    static func readings(_ lines: [String]) -> [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static func systolics(_ lines: [String]) -> [Int] { readings(lines).compactMap { $0["systolic"] as? Int } }

    /// Seconds from now to a reading's `measuredAt` (negative: in the past).
    static func age(_ reading: [String: Any], field: String = "measuredAt") -> Double? {
        guard let text = reading[field] as? String else { return nil }
        let instant = field == "deviceTime" ? RFC3339.parseNaive(text)?.asUTC : RFC3339.parseInstant(text)
        guard let instant else { return nil }
        return Double(instant.secondsSinceEpoch) - Date().timeIntervalSince1970
    }

    static func listen(_ mock: BlueZMock, _ args: [String]) throws -> StreamedProcess {
        try StreamedProcess.corsano(["cuff", "listen"] + device + args, env: mock.env)
    }

    /// A live reading (the run's second line), then the cuff drops the link, measures 124/80 62
    /// while away, and comes back; the run then ends with status 0.
    static func liveThenAwayThenBack(_ mock: BlueZMock, _ run: StreamedProcess, live: String) {
        mock.send(live)
        #expect(run.stdout.waitFor { $0.count == 2 })
        mock.send("disconnect")
        #expect(run.stderr.waitFor("disconnected; scanning again"))
        mock.send("reading 124 80 62")
        mock.send("advertise")
        #expect(run.finish() == 0, "\(run.stderr.text)")
    }

    @Test func historyDumpThenLiveReading() throws {
        let mock = try BlueZMock(["--history", "120/80/60@86400", "130/85/70@3600"])
        defer { mock.stop() }
        let run = try Self.listen(mock, ["--count", "3"])
        // The stored records arrive at connect, before START is pressed; each line as it comes.
        #expect(run.stdout.waitFor { $0.count == 2 })
        #expect(mock.waitFor("dumped 2"))
        mock.send("reading 125 82 66")
        #expect(run.finish() == 0, "\(run.stderr.text)")
        let lines = Self.readings(run.stdout.lines)
        #expect(Self.systolics(run.stdout.lines) == [120, 130, 125])
        for (line, age) in zip(lines, [-86_400.0, -3600, 0]) {
            #expect(abs((Self.age(line) ?? .infinity) - age) < 5, "\(line)")
            #expect(line["deviceTime"] is String)
            #expect(line["source"] as? String == BlueZMock.cuff)
            #expect(line["userId"] as? Int == 1)
            #expect((line["status"] as? [String: Any])?["pulseRateRange"] as? String == "withinRange")
            #expect(line["isManualEntry"] as? Bool == false)
        }
        #expect(run.stderr.text.contains("connected to \(BlueZMock.cuff) (BP Cuff)"))
        #expect(run.stderr.text.contains("clock anchor: cuff "))
        // The host time of the anchor as a person reads it: to the second, no nanoseconds.
        #expect(run.stderr.text.contains(/clock anchor: cuff \S+ = \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(/), "\(run.stderr.text)")
        #expect(run.stderr.text.contains("cuff listen: read 3, written 3, skipped 0, dropped 0, rejected 0"))
        // The cuff this run connected is disconnected on the way out.
        #expect(mock.waitFor("disconnected host"))
    }

    /// The cuff dumps, disconnects, is measured while away and comes back: the run scans again,
    /// reconnects, and the replayed records map to the same instants as the first time.
    @Test func disconnectThenReconnect() throws {
        let mock = try BlueZMock(["--history", "120/80/60@86400"])
        defer { mock.stop() }
        let run = try Self.listen(mock, ["--count", "5"])
        #expect(mock.waitFor("dumped 1"))
        Self.liveThenAwayThenBack(mock, run, live: "reading 128 82 64")
        #expect(Self.systolics(run.stdout.lines) == [120, 128, 120, 128, 124])
        let stamps = Self.readings(run.stdout.lines).map { $0["measuredAt"] as? String }
        try #require(stamps.count == 5)
        #expect(stamps[0] == stamps[2] && stamps[1] == stamps[3], "a replay must keep its instant: \(stamps)")
        #expect(mock.waitFor("connect 2"))
        #expect(run.stderr.text.contains("scanning on hci0 for \(BlueZMock.cuff)"))
    }

    static func sequences(_ lines: [String]) -> [Int?] { readings(lines).map { $0["sequence"] as? Int } }

    /// Issue 31: a Blood Pressure Service 1.1 cuff's whole stored history through the Record
    /// Access Control Point (each record a segmented 0x2B36 indication, then the response code),
    /// then a live 0x2B34 measurement, then a disconnect, a measurement while away and a
    /// reconnect, which asks only for the records after the last one received.
    @Test func storedHistoryThroughRACPThenLiveThenReconnect() throws {
        let mock = try BlueZMock(["--bls11", "--first-sequence", "40", "--history", "120/80/60@86400", "130/85/70@3600"])
        defer { mock.stop() }
        let run = try Self.listen(mock, ["--count", "5", "--stored"])
        #expect(mock.waitFor("racp 0101"), "Report Stored Records, all: \(mock.events)")
        #expect(run.stdout.waitFor { $0.count == 2 })
        #expect(run.stderr.waitFor("stored records: 2 received; listening for new measurements"))
        Self.liveThenAwayThenBack(mock, run, live: "reading 125 82 66")
        #expect(Self.systolics(run.stdout.lines) == [120, 130, 125, 125, 124])
        #expect(Self.sequences(run.stdout.lines) == [40, 41, nil, 42, 43])
        let lines = Self.readings(run.stdout.lines)
        for (line, age) in zip(lines, [-86_400.0, -3600, 0, 0, 0]) {
            #expect(abs((Self.age(line) ?? .infinity) - age) < 5, "\(line)")
            #expect(line["source"] as? String == BlueZMock.cuff)
        }
        // The reconnect asks for sequence >= 42 (operator 0x03, filter 0x01, 42 little-endian).
        #expect(mock.events.filter { $0.hasPrefix("racp ") } == ["racp 0101", "racp 0103012a00"])
        #expect(mock.events.contains("notifying-enhanced"))
        #expect(run.stderr.text.contains("asked for the stored records\n"))
        #expect(run.stderr.text.contains("asked for the stored records from sequence number 42"))
    }

    @Test func storedFromAsksOnlyForThoseRecords() throws {
        let mock = try BlueZMock(["--bls11", "--history", "120/80/60@86400", "130/85/70@3600", "128/84/66@600"])
        defer { mock.stop() }
        let run = try Self.listen(mock, ["--count", "2", "--stored", "--stored-from", "1"])
        #expect(run.finish() == 0, "\(run.stderr.text)")
        #expect(Self.systolics(run.stdout.lines) == [130, 128])
        #expect(Self.sequences(run.stdout.lines) == [1, 2])
        #expect(mock.events.filter { $0.hasPrefix("racp ") } == ["racp 0103010100"])
    }

    /// Without --stored a BLS 1.1 cuff is read as today: no RACP write, live 0x2A35 only.
    @Test func withoutStoredNoRecordAccessIsWritten() throws {
        let mock = try BlueZMock(["--bls11", "--history", "120/80/60@86400"])
        defer { mock.stop() }
        let run = try Self.listen(mock, ["--count", "1"])
        #expect(mock.waitFor("notifying"))
        mock.send("reading 125 82 66")
        #expect(run.finish() == 0, "\(run.stderr.text)")
        #expect(Self.systolics(run.stdout.lines) == [125])
        #expect(!mock.events.contains { $0.hasPrefix("racp") || $0 == "notifying-enhanced" })
    }

    /// A cuff without RACP: --stored says so and reads what the cuff sends by itself.
    @Test func storedFromACuffWithoutRACPSaysSoAndListens() throws {
        let mock = try BlueZMock(["--history", "120/80/60@600"])
        defer { mock.stop() }
        let run = try Self.listen(mock, ["--count", "1", "--stored"])
        #expect(run.finish() == 0, "\(run.stderr.text)")
        #expect(Self.systolics(run.stdout.lines) == [120])
        #expect(run.stderr.text.contains("--stored: the cuff has no Blood Pressure Record (0x2B36) with a Record Access Control Point (0x2A52)"))
    }

    @Test func cuffWithoutAClockIsReadInTheZone() throws {
        let mock = try BlueZMock(["--clock", "none"])
        defer { mock.stop() }
        let run = try Self.listen(mock, ["--count", "1", "--tz", "Asia/Tokyo"])
        #expect(mock.waitFor("dumped 0"))
        mock.send("reading 121 79 64")
        #expect(run.finish() == 0, "\(run.stderr.text)")
        let line = try #require(Self.readings(run.stdout.lines).first)
        // The mock's clock runs on UTC; read as Tokyo time (UTC+9, no DST) it lands 9 h earlier.
        let device = try #require(RFC3339.parseNaive(line["deviceTime"] as? String ?? ""))
        let measured = try #require(RFC3339.parseInstant(line["measuredAt"] as? String ?? ""))
        #expect(device.asUTC.secondsSinceEpoch - measured.secondsSinceEpoch == 9 * 3600)
        #expect(run.stderr.text.contains("the cuff has no Current Time (0x2A2B) or Date Time (0x2A08) characteristic"))
        #expect(run.stderr.text.contains("naive stamps read in zone Asia/Tokyo"))
        #expect(!mock.events.contains("clock-read"))
    }

    @Test(arguments: ["current", "date"])
    func clockAYearOffIsAnchored(kind: String) throws {
        let mock = try BlueZMock(["--clock", kind, "--clock-offset", "-31536000", "--history", "133/86/71@7200"])
        defer { mock.stop() }
        let run = try Self.listen(mock, ["--count", "2"])
        #expect(mock.waitFor("dumped 1"))
        mock.send("reading 128 82 66")
        #expect(run.finish() == 0, "\(run.stderr.text)")
        let lines = Self.readings(run.stdout.lines)
        #expect(lines.count == 2)
        for (line, age) in zip(lines, [-7200.0, 0]) {
            #expect(abs((Self.age(line) ?? .infinity) - age) < 5, "\(line)")
            #expect(abs((Self.age(line, field: "deviceTime") ?? .infinity) - (age - 31_536_000)) < 5, "\(line)")
        }
        #expect(run.stderr.text.contains(" s behind host time"))
        #expect(mock.events.contains("clock-read"))
    }

    @Test func setClockWritesHostTimeAndKeepsOldStampsRight() throws {
        let mock = try BlueZMock(["--clock-offset", "-31536000", "--history", "133/86/71@3600"])
        defer { mock.stop() }
        let run = try Self.listen(mock, ["--count", "2", "--set-clock", "--tz", "UTC"])
        #expect(mock.waitFor("clock-written"))
        #expect(mock.waitFor("dumped 1"))
        mock.send("reading 128 82 66")
        #expect(run.finish() == 0, "\(run.stderr.text)")
        let lines = Self.readings(run.stdout.lines)
        #expect(lines.count == 2)
        // Stored before the write: the old clock's stamp, a year off, mapped by the old anchor.
        #expect(abs((Self.age(lines[0]) ?? .infinity) + 3600) < 5)
        #expect(abs((Self.age(lines[0], field: "deviceTime") ?? .infinity) + 3600 + 31_536_000) < 5)
        // Measured after it: the cuff's stamp is real time now.
        #expect(abs(Self.age(lines[1]) ?? .infinity) < 5)
        #expect(abs(Self.age(lines[1], field: "deviceTime") ?? .infinity) < 5)
        #expect(run.stderr.text.contains("set the cuff's clock to "))
    }

    /// A cuff 10 minutes ahead is set back once its stored record arrived; that record keeps its
    /// old-clock stamp, also when the cuff dumps it again after a reconnect, where the new clock
    /// has written stamps in the same range.
    @Test func setClockBackKeepsTheOldRecordsApart() throws {
        let mock = try BlueZMock(["--clock-offset", "600", "--history", "133/86/71@60"])
        defer { mock.stop() }
        let run = try Self.listen(mock, ["--count", "5", "--set-clock", "--tz", "UTC"])
        #expect(mock.waitFor("clock-written"))
        Self.liveThenAwayThenBack(mock, run, live: "reading 128 82 66")
        let lines = Self.readings(run.stdout.lines)
        #expect(Self.systolics(run.stdout.lines) == [133, 128, 133, 128, 124])
        try #require(lines.count == 5)
        for (line, age) in zip(lines, [-60.0, 0, -60, 0, 0]) {
            #expect(abs((Self.age(line) ?? .infinity) - age) < 5, "\(line)")
        }
        #expect(lines[0]["measuredAt"] as? String == lines[2]["measuredAt"] as? String)
        #expect(lines[1]["measuredAt"] as? String == lines[3]["measuredAt"] as? String)
        // Only the first connect found the clock off.
        #expect(mock.events.filter { $0.hasPrefix("clock-written") }.count == 1)
    }

    /// Payloads before a good reading: corrupt ones are reported with their bytes and make the
    /// exit 65 (the reading is still written); 0x2A36 pressure is progress, counted as skipped.
    @Test(arguments: [
        (["raw 1E7800", "raw 00FF07FF07FF07"], Int32(65), [String]([
            "0x2A35 payload 1E7800: payload: 3 bytes, shorter than flags + systolic, diastolic, MAP (7 bytes)",
            // A cuff showing "Err": NaN in every pressure field.
            "0x2A35 payload 00FF07FF07FF07: systolic: not a number (SFLOAT NaN)",
            "read 3, written 1, skipped 0, dropped 0, rejected 2",
        ])),
        (["pressure 150"], Int32(0), ["read 1, written 1, skipped 1 (intermediate cuff pressure (0x2A36): 1), dropped 0, rejected 0"]),
    ] as [([String], Int32, [String])])
    func payloadsThatAreNotReadings(commands: [String], status: Int32, messages: [String]) throws {
        let mock = try BlueZMock()
        defer { mock.stop() }
        let run = try Self.listen(mock, ["--count", "1"])
        #expect(mock.waitFor("dumped 0"))
        for command in commands + ["reading 119 78 60"] { mock.send(command) }
        #expect(run.finish() == status, "\(run.stderr.text)")
        #expect(Self.systolics(run.stdout.lines) == [119])
        for message in messages { #expect(run.stderr.text.contains(message)) }
    }

    @Test func absentCuffIsScannedForUntilItAppears() throws {
        let mock = try BlueZMock(["--absent"])
        defer { mock.stop() }
        let run = try Self.listen(mock, ["--count", "1"])
        #expect(run.stderr.waitFor("scanning on hci0 for \(BlueZMock.cuff)"))
        mock.send("appear")
        #expect(mock.waitFor("dumped 0"))
        mock.send("reading 119 78 60")
        #expect(run.finish() == 0, "\(run.stderr.text)")
        #expect(Self.systolics(run.stdout.lines) == [119])
    }

    @Test func cuffNeverSeenIs69() throws {
        let mock = try BlueZMock(["--absent"])
        defer { mock.stop() }
        let run = try Self.listen(mock, ["--count", "1", "--timeout", "2"])
        #expect(run.finish() == 69)
        #expect(run.stderr.text.contains("cuff listen: \(BlueZMock.cuff) was not seen within 2 s"))
        #expect(run.stdout.lines.isEmpty)
    }

    @Test func fewerReadingsThanCountAtTheTimeoutIs3() throws {
        let mock = try BlueZMock(["--history", "120/80/60@600"])
        defer { mock.stop() }
        let run = try Self.listen(mock, ["--count", "2", "--timeout", "3"])
        #expect(run.finish() == 3)
        #expect(Self.systolics(run.stdout.lines) == [120])
    }

    @Test func adapterOffIs69() throws {
        let mock = try BlueZMock(["--adapter-off"])
        defer { mock.stop() }
        let named = try Self.listen(mock, ["--adapter", "hci0"])
        #expect(named.finish() == 69)
        #expect(named.stderr.text.contains("Bluetooth adapter hci0 is off: bluetoothctl power on"))
        let first = try Self.listen(mock, [])
        #expect(first.finish() == 69)
        #expect(first.stderr.text.contains("every Bluetooth adapter is off (hci0)"))
        let missing = try Self.listen(mock, ["--adapter", "hci1"])
        #expect(missing.finish() == 69)
        #expect(missing.stderr.text.contains("Bluetooth adapter hci1 not found (present: hci0)"))
    }

    @Test func adapterSwitchedOffWhileListeningIs69AfterTheReadings() throws {
        let mock = try BlueZMock(["--history", "120/80/60@600"])
        defer { mock.stop() }
        let run = try Self.listen(mock, [])
        #expect(run.stdout.waitFor { $0.count == 1 })
        mock.send("power off")
        #expect(run.finish() == 69)
        #expect(Self.systolics(run.stdout.lines) == [120])
        #expect(run.stderr.text.contains("Bluetooth adapter hci0 is off"))
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalWhileWaitingWritesWhatItHas(signo: Int32, status: Int32) throws {
        let mock = try BlueZMock(["--history", "120/80/60@600"])
        defer { mock.stop() }
        let run = try Self.listen(mock, ["--count", "5"])
        #expect(run.stdout.waitFor { $0.count == 1 })
        #expect(run.stderr.waitFor("waiting for readings"))
        run.signal(signo)
        #expect(run.finish() == status)
        #expect(Self.systolics(run.stdout.lines) == [120])
        #expect(run.stderr.text.contains("cuff listen: read 1, written 1"))
        #expect(mock.waitFor("disconnected host"))
    }

    /// `cuff listen | head -1`: once the reader has its line and goes away, the listen ends at
    /// once — 141, quietly, the cuff hung up — though no further reading comes and there is no
    /// `--timeout` (the stdout watch of issue 18 sees the pipe close; the counts line is left out).
    @Test func aReaderThatGoesAwayEndsTheListenAt141() throws {
        let mock = try BlueZMock(["--history", "120/80/60@600"])
        defer { mock.stop() }
        let script = #""$0" cuff listen "$@" | head -1; echo "listen exited ${PIPESTATUS[0]}" >&2"#
        let run = try StreamedProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", script, Corsano.binary.path] + Self.device,
                                      env: mock.env.merging(["XDG_STATE_HOME": FileManager.default.temporaryDirectory
                                          .appendingPathComponent("corsano-e2e-\(UUID().uuidString)").path]) { $1 })
        #expect(run.finish(seconds: 20) == 0, "the listen must end without a reading or a timeout")
        #expect(Self.systolics(run.stdout.lines) == [120])
        #expect(run.stderr.lines.last == "listen exited 141", "\(run.stderr.text)")
        #expect(!run.stderr.text.contains("cuff listen: read"), "quiet: no counts line")
        #expect(mock.waitFor("disconnected host"))
    }

    @Test func pairFirstRegistersANoInputNoOutputAgent() throws {
        let mock = try BlueZMock()
        defer { mock.stop() }
        let run = try Self.listen(mock, ["--count", "1", "--pair"])
        #expect(mock.waitFor("dumped 0"))
        mock.send("reading 119 78 60")
        #expect(run.finish() == 0, "\(run.stderr.text)")
        #expect(mock.events.firstIndex(of: "paired") ?? .max < mock.events.firstIndex(of: "connect 1") ?? -1)
    }

    @Test func hundredIndicationsArriveInOrder() throws {
        let mock = try BlueZMock()
        defer { mock.stop() }
        let run = try Self.listen(mock, ["--count", "100"])
        #expect(mock.waitFor("dumped 0"))
        for i in 0..<100 { mock.send("reading \(100 + i) \(60 + i % 30) \(50 + i % 40) \(100 - i)") }
        #expect(run.finish() == 0, "\(run.stderr.text)")
        #expect(Self.systolics(run.stdout.lines) == Array(100..<200))
    }

    @Test func policyRefusingTheUserIs77() throws {
        let mock = try BlueZMock(config: "bus-deny-bluez.conf")
        defer { mock.stop() }
        let run = try Self.listen(mock, ["--count", "1"])
        #expect(run.finish() == 77)
        #expect(run.stderr.text.contains("BlueZ's D-Bus policy refuses this user"))
        #expect(run.stderr.text.contains("sudo usermod -aG bluetooth $USER"))
    }

    @Test func noBlueZOnTheBusIs69() throws {
        let bus = try BlueZMock(mock: false)
        defer { bus.stop() }
        let run = try Self.listen(bus, ["--count", "1"])
        #expect(run.finish() == 69)
        #expect(run.stderr.text.contains("org.bluez is not on the system bus: is bluetoothd running?"))
    }

    @Test func noBusIs74() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-bus-\(UUID().uuidString)").path
        let run = try StreamedProcess.corsano(["cuff", "listen"] + Self.device,
                                              env: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=" + missing])
        #expect(run.finish() == 74)
        #expect(run.stderr.text.contains("cannot reach the system bus at unix:path=\(missing)"))
    }

    @Test(arguments: [([String](), "cuff listen: missing --device MAC"),
                      (["--device", "A0:9E:1A:00:00"], "--device: bad value 'A0:9E:1A:00:00': expected a Bluetooth address"),
                      (["--device", "A0:9E:1A:00:00:01", "--timeout", "0"], "--timeout: bad value '0'"),
                      (["--device", "A0:9E:1A:00:00:01", "--stored-from", "3"], "--stored-from needs --stored"),
                      (["--device", "A0:9E:1A:00:00:01", "--stored", "--stored-from", "65536"], "--stored-from: bad value '65536'")])
    func usageErrors(args: [String], message: String) throws {
        let r = try Corsano.run(["cuff", "listen"] + args)
        #expect(r.status == 64)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }
}
