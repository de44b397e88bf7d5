@testable import CorsanoKit
import Testing

/// A cuff's measurement-status columns become the reading's `status`
/// (docs/design.md "Cuff input formats"); a verdict other than `Good` is flagged, never read as
/// clean, and a value no layout writes is refused naming its column.
@Suite struct CSVStatusColumnsTests {
    static let omron = "Measurement Date,Timezone,SYS(mmHg),DIA(mmHg),Pulse(bpm),Irregular heartbeat,Body Movement,Cuff wrap guide,Positioning Indicator\n"

    @Test func omronVerdictsOtherThanGoodAreFlagged() throws {
        let r = try CSVExportTests.run(CSVExportTests.text(Self.omron + "2026/11/20 07:02,Europe/Berlin,124,79,61,No,No,Loose,Good\n"))
        #expect(r.rejects.isEmpty)
        #expect(r.lines.first?.hasSuffix(#""status":{"bodyMovement":false,"cuffTooLoose":true,"irregularPulse":false,"improperPosition":false}}"#) == true,
                "\(r.lines)")
        let flags = try ReadingQuality(CuffReading(systolic: 124, diastolic: 79, pulse: 61,
                                                   provenance: [ProvenanceField(name: "status", rawJSON: #"{"cuffTooLoose":true}"#)]))
        #expect(flags == .flagged(["cuffTooLoose"]))
    }

    @Test func aStatusCellNoLayoutWritesIsRefusedNamingItsColumn() throws {
        let flag = try CSVExportTests.run(CSVExportTests.text(Self.omron + "2026/11/20 07:02,Europe/Berlin,124,79,61,Maybe,No,Good,Good\n"))
        #expect(flag.lines.isEmpty)
        #expect(flag.rejects == ["in:2: irregularPulse (column 'Irregular heartbeat'): 'Maybe' is not yes or no"])
        let sbm = "Time Stamp,Systolic Pressure,Diastolic Pressure,Mean Arterial Pressure,Pulse Rate,Pulse Rate Range\n"
        let range = try CSVExportTests.run(CSVExportTests.text(sbm + "2026-11-20 07:02:00,124,79,94,61,exceeded\n"))
        #expect(range.rejects == ["in:2: pulseRateRange (column 'Pulse Rate Range'): 'exceeded' is not a pulse rate range (not_exceeded, exceedsUpperLimit, belowLowerLimit)"])
        // An empty status cell says nothing: the member is left out, the reading kept.
        let empty = try CSVExportTests.run(CSVExportTests.text(sbm + "2026-11-20 07:02:00,124,79,94,61,\n"))
        #expect(empty.rejects.isEmpty && empty.lines.first?.contains("status") == false)
    }
}
