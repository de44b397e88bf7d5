import Foundation
import Testing

/// bp-init does not feed a reading its own cuff flagged (the 0x2A35 Measurement Status as the
/// reading's `status`): it is dropped as `flagged`, its flags the problem, and the flow waits for
/// the next; `--feed-flagged` feeds it.
@Suite struct BPInitFlaggedReadingTests {
    typealias E = BPInitE2E

    /// Six readings from 10:01; the first taken while moving, as `cuff ingest --from ble` writes it.
    static let session: String = {
        var lines = E.sixReadings.split(separator: "\n").map(String.init)
        lines[0] = String(lines[0].dropLast()) + #","status":{"bodyMovement":true,"cuffTooLoose":false,"irregularPulse":false,"#
            + #""pulseRateRange":"withinRange","improperPosition":false}}"#
        return lines.joined(separator: "\n") + "\n"
    }()

    @Test func aBodyMovementReadingIsDroppedAndTheNextTaken() throws {
        let r = try Corsano.run(["bp-init"] + E.now + ["--no-state", "--no-preparation"], stdin: Self.session)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(E.dropReasons(r.lines) == ["flagged"])
        let dropped = E.events(r.lines).first { $0["event"] as? String == "cuffReadingDropped" }
        #expect(dropped?["problem"] as? String == "bodyMovement")
        // The first reading fed is 10:02's (systolic 120), not 10:01's (119).
        #expect(E.collected(r.lines).first == [1, 1, 120])
        #expect(r.stderr.contains("dropped 1 (flagged: 1)"), "\(r.stderr)")
    }

    /// A 0x2A35 payload (mmHg, time stamp, pulse, Measurement Status) of 29 Nov 2026 10:MM:00.
    static func payload(systolic: Int, minute: Int, status: UInt16) -> String {
        String(format: "16%02X005000 5D00EA070B1D0A%02X00 4600%02X%02X", systolic, minute, status & 0xFF, status >> 8)
            .replacingOccurrences(of: " ", with: "")
    }

    /// The issue's capture: `cuff ingest --from ble` writes the status bits, bp-init drops the
    /// reading taken while moving and feeds the next.
    @Test func aCapturedBodyMovementBitIsDroppedThroughThePipeline() throws {
        let capture = [Self.payload(systolic: 120, minute: 1, status: 0x0001)]
            + (2...4).map { Self.payload(systolic: 119 + $0, minute: $0, status: 0) }
        let dir = try E.directory()
        let file = try E.file(dir, "capture.txt", capture.joined(separator: "\n") + "\n")
        let bin = "'" + Corsano.binary.path + "'"
        let r = try Shell.run("sh", ["-c", "\(bin) cuff ingest --from ble --tz UTC '\(file)' | \(bin) bp-init --now 2026-11-29T10:00:30Z --no-state --no-preparation"],
                              env: ["XDG_STATE_HOME": dir.path])
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(E.dropReasons(lines) == ["flagged"])
        let dropped = E.events(lines).first { $0["event"] as? String == "cuffReadingDropped" }
        #expect(((dropped?["reading"] as? [String: Any])?["status"] as? [String: Any])?["bodyMovement"] as? Bool == true)
        #expect(E.collected(lines).first == [1, 1, 121])
    }

    @Test func feedFlaggedFeedsIt() throws {
        let r = try Corsano.run(["bp-init"] + E.now + ["--no-state", "--no-preparation", "--feed-flagged"], stdin: Self.session)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(E.dropReasons(r.lines) == [])
        #expect(E.collected(r.lines).first == [1, 1, 119])
    }
}
