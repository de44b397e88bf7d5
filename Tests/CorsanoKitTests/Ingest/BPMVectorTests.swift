import CorsanoKit
import Foundation
import Testing

/// Every vector of Tests/Fixtures/ble/bpm-vectors.json, expectations written out here.
struct BPMVector: CustomTestStringConvertible, Sendable {
    var hex: String
    var kPa = false
    var sys: Double? = nil, dia: Double? = nil, map: Double? = nil
    var pulse: Double? = nil
    var time: String? = nil
    var user: UInt8? = nil
    /// raw, bodyMovement, cuffTooLoose, irregularPulse, pulseRateRange, improperPosition
    var status: (UInt16, Bool, Bool, Bool, Int, Bool)? = nil
    var error: BLEDecodeError? = nil
    var intermediate = false
    /// After conversion + validation: (systolic, diastolic, MAP, pulse) in mmHg/bpm, or the reject reason.
    var reading: (Int, Int, Int?, Int?)? = nil
    var reject: String? = nil
    var testDescription: String { hex }
}

enum BPMVectors {
    static let s27: (UInt16, Bool, Bool, Bool, Int, Bool) = (39, true, true, true, 0, true)
    static let s12: (UInt16, Bool, Bool, Bool, Int, Bool) = (18, false, true, false, 2, false)
    static let s0: (UInt16, Bool, Bool, Bool, Int, Bool) = (0, false, false, false, 0, false)
    static let all: [BPMVector] = [
        BPMVector(hex: "1e8a00580078000000041114293b3c00012700", sys: 138, dia: 88, map: 120, pulse: 60, user: 1,
                  status: s27, reading: (138, 88, 120, 60)),
        BPMVector(hex: "15bdf00b009ff03c001200", kPa: true, sys: 18.9, dia: 11.0, map: 15.9, pulse: 60, status: s12,
                  reading: (142, 83, 119, 60)),
        BPMVector(hex: "00bdf00b009ff0", sys: 18.9, dia: 11.0, map: 15.9, reject: "systolic: 19 mmHg outside 50-300"),
        BPMVector(hex: "1e0400000000000000041114293b3c00012700", sys: 4, dia: 0, map: 0, pulse: 60, user: 1, status: s27,
                  intermediate: true),
        BPMVector(hex: "156ff0000000003c001200", kPa: true, sys: 11.1, dia: 0, map: 0, pulse: 60, status: s12, intermediate: true),
        BPMVector(hex: "00d7f000000000", sys: 21.5, dia: 0, map: 0, intermediate: true),
        BPMVector(hex: "00780050005a00", sys: 120, dia: 80, map: 90, reading: (120, 80, 90, nil)),
        BPMVector(hex: "0110000b000c00", kPa: true, sys: 16, dia: 11, map: 12, reading: (120, 83, 90, nil)),
        BPMVector(hex: "028c005a006e00e807030f0e1e2d", sys: 140, dia: 90, map: 110, time: "2024-03-15T14:30:45",
                  reading: (140, 90, 110, nil)),
        BPMVector(hex: "04780050005a004800", sys: 120, dia: 80, map: 90, pulse: 72, reading: (120, 80, 90, 72)),
        BPMVector(hex: "18780050005a00050300", sys: 120, dia: 80, map: 90, user: 5, status: (3, true, true, false, 0, false),
                  reading: (120, 80, 90, nil)),
        BPMVector(hex: "1f12000c000e00e8070614102d0a5400031c00", kPa: true, sys: 18, dia: 12, map: 14, pulse: 84,
                  time: "2024-06-20T16:45:10", user: 3, status: (28, false, false, true, 3, false), reading: (135, 90, 105, 84)),
        BPMVector(hex: "1e780050005a00e807030f0e1e2d4800010100", sys: 120, dia: 80, map: 90, pulse: 72,
                  time: "2024-03-15T14:30:45", user: 1, status: (1, true, false, false, 0, false), reading: (120, 80, 90, 72)),
        BPMVector(hex: "167c0056006100e807060f11111b33000000", sys: 124, dia: 86, map: 97, pulse: 51,
                  time: "2024-06-15T17:17:27", status: s0, reading: (124, 86, 97, 51)),
        BPMVector(hex: "167c0056006100e807060f11111b33002700", sys: 124, dia: 86, map: 97, pulse: 51,
                  time: "2024-06-15T17:17:27", status: s27, reading: (124, 86, 97, 51)),
        BPMVector(hex: "167c0056006100e807060f11111b33000800", sys: 124, dia: 86, map: 97, pulse: 51,
                  time: "2024-06-15T17:17:27", status: (8, false, false, false, 1, false), reading: (124, 86, 97, 51)),
        BPMVector(hex: "167c0056006100e807060f11111b33001000", sys: 124, dia: 86, map: 97, pulse: 51,
                  time: "2024-06-15T17:17:27", status: (16, false, false, false, 2, false), reading: (124, 86, 97, 51)),
        BPMVector(hex: "00780050005d00", sys: 120, dia: 80, map: 93, reading: (120, 80, 93, nil)),
        BPMVector(hex: "16780050005d00ea070604081e0048000000", sys: 120, dia: 80, map: 93, pulse: 72,
                  time: "2026-06-04T08:30:00", status: s0, reading: (120, 80, 93, 72)),
        BPMVector(hex: "01a0f0aaf0c8f0", kPa: true, sys: 16.0, dia: 17.0, map: 20.0,
                  reject: "systolic: 120 mmHg not above diastolic 128 mmHg"),
        BPMVector(hex: "00720072007200", sys: 114, dia: 114, map: 114,
                  reject: "systolic: 114 mmHg not above diastolic 114 mmHg"),
        BPMVector(hex: "00b0f420f3a2f3", sys: 120, dia: 80, map: 93, reading: (120, 80, 93, nil)),
        BPMVector(hex: "000c1008105d00", sys: 120, dia: 80, map: 93, reading: (120, 80, 93, nil)),
        BPMVector(hex: "00000850005d00", dia: 80, map: 93, reject: "systolic: not a number (SFLOAT NRes)"),
        BPMVector(hex: "02780050005d00e807000f0e1e2d", sys: 120, dia: 80, map: 93, reading: (120, 80, 93, nil)),
        BPMVector(hex: "02780050005d00e807021d070000", sys: 120, dia: 80, map: 93, time: "2024-02-29T07:00:00",
                  reading: (120, 80, 93, nil)),
        BPMVector(hex: "06780050005d00e807030f", error: .truncated(byteCount: 11, needed: 16, flags: 0x06)),
        BPMVector(hex: "00780050005d", error: .tooShort(byteCount: 6)),
        BPMVector(hex: "01a0f06bf07cf0", kPa: true, sys: 16.0, dia: 10.7, map: 12.4, reading: (120, 80, 93, nil)),
        BPMVector(hex: "07a0f06bf07cf0e9070c1f173b3b4600", kPa: true, sys: 16.0, dia: 10.7, map: 12.4, pulse: 70,
                  time: "2025-12-31T23:59:59", reading: (120, 80, 93, 70)),
        BPMVector(hex: "08780050005d00ff", sys: 120, dia: 80, map: 93, user: 255, reading: (120, 80, 93, nil)),
        BPMVector(hex: "e0780050005d00", sys: 120, dia: 80, map: 93, reading: (120, 80, 93, nil)),
    ]
}

@Suite struct BPMVectorTests {
    static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { i in
            let start = hex.index(hex.startIndex, offsetBy: i)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    @Test func tableCoversEveryFixtureVector() throws {
        let data = try Data(contentsOf: Fixtures.root.appendingPathComponent("ble/bpm-vectors.json"))
        let list = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let fixture = list.compactMap { $0["hex"] as? String }
        #expect(fixture.count == 32)
        #expect(fixture == BPMVectors.all.map(\.hex))
        let intermediate = list.filter { $0["characteristic"] as? String == "2A36" }.compactMap { $0["hex"] as? String }
        #expect(intermediate == BPMVectors.all.filter(\.intermediate).map(\.hex))
    }

    @Test(arguments: BPMVectors.all)
    func decodesAsPublished(_ v: BPMVector) throws {
        let payload = Self.bytes(v.hex)
        if let error = v.error {
            #expect(throws: error) { try BloodPressureMeasurement.decode(payload) }
            return
        }
        let m = try BloodPressureMeasurement.decode(payload)
        #expect(m.unit == (v.kPa ? .kPa : .mmHg))
        #expect(m.systolic.value == v.sys)
        #expect(m.diastolic.value == v.dia)
        #expect(m.meanArterialPressure.value == v.map)
        #expect(m.pulse?.value == v.pulse)
        #expect(m.timestamp?.description == v.time)
        #expect(m.userId == v.user)
        if let s = v.status {
            let status = try #require(m.status)
            #expect(status.raw == s.0)
            #expect(status.bodyMovement == s.1)
            #expect(status.cuffTooLoose == s.2)
            #expect(status.irregularPulse == s.3)
            #expect(status.pulseRateRange.rawValue == s.4)
            #expect(status.improperPosition == s.5)
        } else {
            #expect(m.status == nil)
        }
    }

    @Test(arguments: BPMVectors.all.filter { $0.error == nil && !$0.intermediate })
    func convertsAndValidates(_ v: BPMVector) throws {
        let m = try BloodPressureMeasurement.decode(Self.bytes(v.hex))
        let outcome: Result<CuffReading, any Error> = Result {
            let r = try BLEReadingConverter.reading(from: m, receivedAt: nil)
            if let issue = ReadingValidator.standard.validate(r) { throw issue }
            return r
        }
        switch outcome {
        case .success(let r):
            let want = try #require(v.reading, "expected reject \(v.reject ?? "")")
            #expect(r.systolic == want.0)
            #expect(r.diastolic == want.1)
            #expect(r.meanArterialPressure == want.2)
            #expect(r.pulse == want.3)
            #expect(r.deviceTime?.description == v.time)
            #expect(r.measuredAt == nil)
        case .failure(let e as IngestIssue):
            #expect(e.reason == v.reject)
        case .failure(let e as ValidationIssue):
            #expect(e.reason == v.reject)
        case .failure(let e):
            Issue.record("unexpected \(e)")
        }
    }

    @Test(arguments: BPMVectors.all.filter(\.intermediate))
    func intermediateCuffPressureLinesAreSkipped(_ v: BPMVector) throws {
        #expect(try BLECaptureLine.parse(Array("2A36 \(v.hex)".utf8)) == .intermediateCuffPressure)
        #expect(try BLECaptureLine.parse(Array("2026-11-29T10:00:00Z\t0x2a36 \(v.hex)".utf8)) == .intermediateCuffPressure)
    }
}
