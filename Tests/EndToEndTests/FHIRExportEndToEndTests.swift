import Foundation
import Testing

/// `--format fhir` end to end: the audit log of the e2e fixture runs (success, failedAfterRetries,
/// cuffError with readings fed) and cuff dumps, exported by the built binary and validated offline
/// by Tests/FHIRValidation/validate.py (fhir.resources R4B models + FHIRPath BP-profile rules, in a
/// virtualenv the test makes). The test fails, never skips, when the validator cannot be set up.
@Suite(.serialized)
struct FHIRExportEndToEndTests {
    typealias E = BPInitE2E

    /// The validator's python, from Tests/FHIRValidation/venv.sh (scripts/venv: .build/venv, made once).
    static let python: Result<String, ValidatorSetupFailed> = {
        let script = Corsano.packageRoot.appendingPathComponent("Tests/FHIRValidation/venv.sh").path
        guard let r = try? Shell.run("bash", [script]), r.status == 0 else {
            return .failure(ValidatorSetupFailed(message: "Tests/FHIRValidation/venv.sh failed (needs python3 -m venv and PyPI)"))
        }
        return .success(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }()

    struct ValidatorSetupFailed: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Runs validate.py over `paths`; its JSON summary.
    static func validate(_ paths: [String]) throws -> [String: Any] {
        let python = try python.get()
        let script = Corsano.packageRoot.appendingPathComponent("Tests/FHIRValidation/validate.py").path
        let r = try Shell.run(python, [script] + paths)
        #expect(r.status == 0, "validate.py: \(r.stderr)")
        return (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]) ?? [:]
    }

    /// A store holding the three fixture runs: success(2) on the replayed session, failedAfterRetries
    /// (the bracelet rejects every session), cuffError after one reading was fed.
    static func storeWithFixtureRuns() throws -> (dir: URL, state: String) {
        let dir = try E.directory()
        let state = dir.appendingPathComponent("state.sqlite3").path
        let success = try Corsano.run(["bp-init", "--state", state, "--gateway", "lab-pc-1"] + E.now, stdin: E.ingestedSession)
        #expect(success.status == 0)
        let scenario = try E.file(dir, "reject.json", #"{"serial":"SIM-REJECT","nibp":{"attempts":[{"session":false},{"session":false},{"session":false}]}}"#)
        let failed = try Corsano.run(["bp-init", "--bracelet", "sim:" + scenario, "--state", state] + E.now, stdin: E.sixReadings)
        #expect(failed.status == 1)
        let oneThenError = #"{"systolic":121,"diastolic":79,"pulse":64,"meanArterialPressure":93,"measuredAt":"2026-11-29T10:01:00Z"}"#
            + "\n" + #"{"error":"cuffDisconnected"}"# + "\n"
        let cuffError = try Corsano.run(["bp-init", "--state", state] + E.now, stdin: oneThenError)
        #expect(cuffError.status == 3)
        return (dir, state)
    }

    static func observations(_ summary: [String: Any]) -> [[String: Any]] { summary["observations"] as? [[String: Any]] ?? [] }

    @Test func historyOfTheFixtureRunsValidatesInAllThreeShapes() throws {
        let (dir, state) = try Self.storeWithFixtureRuns()
        let subject = ["--subject", "Patient/study-7"]
        let ndjson = try Corsano.run(["history", "--format", "fhir", "--state", state] + subject)
        #expect(ndjson.status == 0)
        let ndjsonPath = try E.file(dir, "history.ndjson", ndjson.stdout)
        let summary = try Self.validate([ndjsonPath])
        let types = summary["types"] as? [String: Int] ?? [:]
        // 3 runs: 3 Procedures; Provenance only where readings were fed (all three here).
        #expect(types["Procedure"] == 3)
        #expect(types["Provenance"] == 3)
        // Readings fed: 2 (success) + 6 (three rejected attempts of two) + 1 (cuffError), each BP + HR.
        #expect(types["Observation"] == 18)
        #expect((summary["profiles"] as? [String: Int])?["http://hl7.org/fhir/StructureDefinition/bp"] == 9)
        let outcomes = ndjson.lines.compactMap { line -> String? in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  o["resourceType"] as? String == "Procedure" else { return nil }
            return "\(o["status"] ?? "")/\((o["outcome"] as? [String: Any])?["text"] ?? "")"
        }
        #expect(outcomes == ["completed/success", "completed/failedAfterRetries", "stopped/cuffError"])
        // The gateway the audit log recorded is the Provenance agent's Device.
        #expect(ndjson.stdout.contains(#""deviceName":[{"name":"lab-pc-1","type":"user-friendly-name"}]"#))
        // The audit log knows which MAP the cuff reported: only the cuffError run's reading (93)
        // carries 8478-0; the others' MAP was derived when fed.
        let bp = Self.observations(summary).filter { $0["code"] as? String == "85354-9" }
        #expect(bp.filter { ($0["components"] as? [String])?.contains("8478-0") == true }.count == 1)

        let bulkDir = dir.appendingPathComponent("bulk").path
        let bulk = try Corsano.run(["history", "--format", "fhir", "--output-dir", bulkDir, "--state", state] + subject)
        #expect(bulk.status == 0 && bulk.stdout.isEmpty)
        let bulkSummary = try Self.validate([bulkDir + "/manifest.json"])
        #expect(bulkSummary["types"] as? [String: Int] == types)

        let bundle = try Corsano.run(["history", "--format", "fhir", "--bundle", "--state", state] + subject)
        let bundlePath = try E.file(dir, "bundle.json", bundle.stdout)
        let bundleSummary = try Self.validate([bundlePath])
        #expect((bundleSummary["types"] as? [String: Int])?["Bundle"] == 1)
        // The same readings get the same identifiers in every shape.
        #expect(Self.observations(bundleSummary).map { $0["identifier"] as? String }
                == Self.observations(summary).map { $0["identifier"] as? String })
    }

    @Test func reExportIsByteIdentical() throws {
        let (_, state) = try Self.storeWithFixtureRuns()
        let first = try Corsano.run(["history", "--format", "fhir", "--state", state])
        let second = try Corsano.run(["history", "--format", "fhir", "--state", state])
        #expect(first.status == 0 && !first.stdout.isEmpty)
        #expect(first.stdout == second.stdout)
        let dump = Corsano.packageRoot.appendingPathComponent("examples/session-replay.jsonl").path
        let anchor = ["--anchor-device", "2025-01-01T00:03:10", "--anchor-phone", "2026-11-29T10:00:05Z"]
        let a = try Corsano.run(["cuff", "ingest", "--format", "fhir", "--bundle"] + anchor + [dump])
        let b = try Corsano.run(["cuff", "ingest", "--format", "fhir", "--bundle"] + anchor + [dump])
        #expect(a.status == 0 && a.stdout == b.stdout)
    }

    @Test func withoutASubjectNoProfileIsClaimed() throws {
        let (dir, state) = try Self.storeWithFixtureRuns()
        let r = try Corsano.run(["history", "--format", "fhir", "--state", state])
        let summary = try Self.validate([try E.file(dir, "nosubject.ndjson", r.stdout)])
        #expect((summary["profiles"] as? [String: Int]) == [:])
        #expect(!r.stdout.contains("\"subject\":{\"reference\""))
    }

    @Test func ingestExportKeepsMAPOnlyWhenReportedAndDedupesTheReplay() throws {
        let dir = try E.directory()
        let lines = #"{"systolic":128,"diastolic":82,"pulse":66,"meanArterialPressure":97,"measuredAt":"2026-11-29T10:00:55Z"}"#
            + "\n" + #"{"systolic":124,"diastolic":80,"pulse":64,"measuredAt":"2026-11-29T10:02:55Z"}"#
            + "\n" + #"{"systolic":124,"diastolic":80,"pulse":64,"measuredAt":"2026-11-29T10:02:55Z"}"# + "\n"
        let input = try E.file(dir, "cuff.jsonl", lines)
        let r = try Corsano.run(["cuff", "ingest", "--format", "fhir", "--subject-identifier", "urn:oid:1.2.3|42", input])
        #expect(r.status == 0)
        let summary = try Self.validate([try E.file(dir, "out.ndjson", r.stdout)])
        let bp = Self.observations(summary).filter { $0["code"] as? String == "85354-9" }
        #expect(bp.map { $0["components"] as? [String] ?? [] } == [["8480-6", "8462-4", "8478-0"], ["8480-6", "8462-4"]])
        #expect(r.lines.count == 4)  // the replayed third line is the same resource: written once
        let derived = try Corsano.run(["cuff", "ingest", "--format", "fhir", "--derive-map", input])
        #expect(derived.status == 64 && derived.stderr.contains("--derive-map"))
    }

    /// A second bulk export into the same directory leaves no file its manifest does not list.
    @Test func bulkExportIntoAReusedDirectoryLeavesNoStaleFile() throws {
        let (dir, state) = try Self.storeWithFixtureRuns()
        let bulk = dir.appendingPathComponent("bulk").path
        #expect(try Corsano.run(["history", "--format", "fhir", "--output-dir", bulk, "--state", state]).status == 0)
        #expect(FileManager.default.fileExists(atPath: bulk + "/Procedure.ndjson"))
        let dump = try E.file(dir, "one.jsonl", #"{"systolic":121,"diastolic":79,"pulse":64,"measuredAt":"2026-11-29T10:01:00Z"}"# + "\n")
        #expect(try Corsano.run(["cuff", "ingest", "--format", "fhir", "--output-dir", bulk, dump]).status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: bulk).sorted()
        #expect(files == ["Observation.ndjson", "manifest.json"])
        _ = try Self.validate([bulk + "/manifest.json"])
    }

    @Test func usageErrorsNameTheOption() throws {
        let bad = try Corsano.run(["history", "--format", "fhir", "--subject", "Practitioner/1", "--no-state"])
        #expect(bad.status == 64 && bad.stderr.contains("--subject"))
        let both = try Corsano.run(["history", "--format", "fhir", "--bundle", "--output-dir", "/tmp/x", "--no-state"])
        #expect(both.status == 64)
        let notFHIR = try Corsano.run(["history", "--bundle", "--no-state"])
        #expect(notFHIR.status == 64 && notFHIR.stderr.contains("--format fhir"))
    }
}

/// The sample export under examples/ is what the binary writes today, and it validates.
struct FHIRSampleExportTests {
    @Test func committedSampleIsCurrentAndValid() throws {
        let sample = Corsano.packageRoot.appendingPathComponent("examples/session-replay.fhir.ndjson")
        let r = try Corsano.run(["cuff", "ingest", "--anchor-device", "2025-01-01T00:03:10", "--anchor-phone", "2026-11-29T10:00:05Z",
                                 "--format", "fhir", "--subject", "Patient/example",
                                 Corsano.packageRoot.appendingPathComponent("examples/session-replay.jsonl").path])
        #expect(r.status == 0)
        #expect(r.stdout == (try String(contentsOf: sample, encoding: .utf8)),
                "examples/session-replay.fhir.ndjson is stale: regenerate it with the command in this test")
        let summary = try FHIRExportEndToEndTests.validate([sample.path])
        #expect((summary["profiles"] as? [String: Int])?["http://hl7.org/fhir/StructureDefinition/bp"] == 4)
    }
}
