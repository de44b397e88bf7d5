import CorsanoKit
import Testing

/// A calibration run as Device, Procedure and Provenance.
struct FHIRRunExportTests {
    static let start = RFC3339.parseInstant("2026-11-29T10:00:30Z")!
    static let end = RFC3339.parseInstant("2026-11-29T10:02:55Z")!
    static let bracelet = BraceletIdentity(model: "287-2", firmware: "7.4", serial: "SIM-287-0001")

    static func run(result: String?, fed: Int) -> FHIRRunInput {
        let readings = (0..<fed).map { i in
            FHIRReadingInput(reading: CuffReading(systolic: 120 + i, diastolic: 80, pulse: 60,
                                                  measuredAt: Instant(secondsSinceEpoch: start.secondsSinceEpoch + Int64(30 * i))),
                             source: "run:r1")
        }
        return FHIRRunInput(run: "r1", flow: "bp-init", bracelet: bracelet, startedAt: start, endedAt: result == nil ? nil : end,
                            resultKind: result, gateway: "lab-pc-1", readingsFed: readings)
    }

    @Test(arguments: [("success", "completed"), ("failedAfterRetries", "completed"), ("cancelledByUser", "stopped"),
                      ("cuffError", "stopped"), ("braceletDisconnected", "stopped")])
    func procedureStatusFollowsTheResult(result: String, status: String) {
        let resources = FHIRExporter(subject: nil, style: .logicalID).resources(for: Self.run(result: result, fed: 2))
        let procedure = resources.first { $0.resourceType == "Procedure" }?.json
        #expect(procedure?["status"] == .string(status))
        #expect(procedure?["outcome"]?["text"] == .string(result))
        #expect(procedure?["performedPeriod"]?["end"] == .string("2026-11-29T10:02:55Z"))
    }

    @Test func killedRunIsUnknownWithoutAnEnd() {
        let resources = FHIRExporter(subject: nil, style: .logicalID).resources(for: Self.run(result: nil, fed: 1))
        let procedure = resources.first { $0.resourceType == "Procedure" }?.json
        #expect(procedure?["status"] == .string("unknown"))
        #expect(procedure?["performedPeriod"]?["end"] == nil)
    }

    @Test func provenanceTargetsTheReadingsFedAndNamesTheGateway() {
        let resources = FHIRExporter(subject: nil, style: .logicalID).resources(for: Self.run(result: "success", fed: 2))
        #expect(resources.map(\.resourceType) == ["Device", "Device", "Observation", "Observation", "Observation", "Observation",
                                                   "Procedure", "Provenance"])
        let bpIDs = resources.filter { $0.resourceType == "Observation" && $0.json["component"] != nil }.map(\.identity.uuid)
        let provenance = resources.last!.json
        #expect(provenance["target"] == .array(bpIDs.map { .object([("reference", .string("Observation/\($0)"))]) }))
        guard case .array(let agents)? = provenance["agent"] else { Issue.record("no agent"); return }
        #expect(agents.first?["who"] == .object([("reference", .string("Device/\(resources[1].identity.uuid)"))]))
        #expect(resources[1].json["deviceName"] == .array([.object([("name", .string("lab-pc-1")), ("type", .string("user-friendly-name"))])]))
        #expect(resources[0].json["serialNumber"] == .string("SIM-287-0001"))
    }

    @Test func runWithoutReadingsFedHasNoProvenanceAndAnAbsentSubject() {
        let resources = FHIRExporter(subject: nil, style: .logicalID).resources(for: Self.run(result: "cancelledByUser", fed: 0))
        #expect(resources.map(\.resourceType) == ["Device", "Device", "Procedure"])
        #expect(resources[2].json["subject"]?["extension"] != nil)
    }

    @Test func exportingTwiceGivesIdenticalResources() {
        let exporter = FHIRExporter(subject: .identifier(system: "urn:oid:1.2.3", value: "7"), style: .logicalID)
        let first = exporter.resources(for: Self.run(result: "success", fed: 3)).map(\.json.serialized)
        let second = exporter.resources(for: Self.run(result: "success", fed: 3)).map(\.json.serialized)
        #expect(first == second)
    }
}
