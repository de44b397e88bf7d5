import Foundation
import Testing

/// Issue 30: `cuff ingest` on Apple Health export.xml / export.zip and Google Fit Takeout files,
/// as a built binary; the typed entry of an export is a record of the past in `bp-init`.
@Suite struct HealthExportEndToEndTests {
    static let export = Corsano.fixtures.appendingPathComponent("applehealth/export.xml").path
    static let takeout = Corsano.fixtures.appendingPathComponent("googlefit/raw_com.google.blood_pressure_com.google.android.apps.json").path
    static let lines = [
        #"{"systolic":131,"diastolic":84,"pulse":72,"measuredAt":"2025-06-08T17:14:00Z","isManualEntry":true,"sourceName":"Health"}"#,
        #"{"systolic":127,"diastolic":81,"pulse":66,"measuredAt":"2026-11-20T12:30:00Z","isManualEntry":false,"sourceName":"OMRON connect","device":"<<HKDevice: 0x283c1c0a0>, name:BP7450, manufacturer:OMRON HEALTHCARE, model:BP7450, localIdentifier:BP7450-0042>"}"#,
        #"{"systolic":118,"diastolic":76,"measuredAt":"2026-11-21T13:01:00Z","isManualEntry":false,"sourceName":"Beurer HealthCoach"}"#,
    ]

    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("health-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// -v says where the stamps' time comes from: Apple Health writes a UTC offset on every date
    /// and Google Fit writes Unix time, so neither is "naive stamps read in zone …".
    @Test func verboseSaysTheStampsCarryTheirOwnOffsets() throws {
        let health = try Corsano.run(["cuff", "ingest", "-v", "--tz", "Europe/Berlin", Self.export])
        #expect(health.stderr.contains("stamps carry their own UTC offsets"), "\(health.stderr)")
        #expect(!health.stderr.contains("naive cuff stamps read"), "\(health.stderr)")
        let fit = try Corsano.run(["cuff", "ingest", "-v", Self.takeout])
        #expect(fit.stderr.contains("stamps are Unix time (UTC)") && !fit.stderr.contains("naive cuff stamps read"), "\(fit.stderr)")
        let lines = try Corsano.run(["cuff", "ingest", "-v", "--tz", "Europe/Berlin"], stdin: #"{"systolic":120,"diastolic":80,"pulse":60,"deviceTime":"2026-11-20T07:00:00"}"# + "\n")
        #expect(lines.stderr.contains("naive cuff stamps read in zone Europe/Berlin"), "\(lines.stderr)")
    }

    @Test func exportXMLIsDetectedAndReadWithThePulseJoin() throws {
        let r = try Corsano.run(["cuff", "ingest", Self.export])
        #expect(r.status == 0)
        #expect(r.lines == Self.lines)
        #expect(r.stderr.contains("export.xml:1: note: pulse from a heart-rate record of the same source at the same instant: 2 of 3 readings"))
        #expect(r.stderr.contains("cuff ingest: read 19, written 3, skipped 16 (copies of correlation records: 6, not blood pressure: 10), dropped 0, rejected 0"))
    }

    /// From a pipe, the export is spooled to a private temporary file (0600, unlinked at once)
    /// and read from there as its file is: the same lines, pulse joined, nothing left behind;
    /// a spool that cannot be written is 74 naming it.
    @Test func fromAPipeTheExportIsSpooledAndGetsItsPulse() throws {
        let bin = "'" + Corsano.binary.path + "'"
        let tmp = try Self.directory()
        for from in ["--from applehealth", ""] {
            let r = try Shell.run("sh", ["-c", "cat '\(Self.export)' | \(bin) cuff ingest \(from)"], env: ["TMPDIR": tmp.path])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.split(separator: "\n").map(String.init) == Self.lines, "\(from): \(r.stdout)")
            #expect(r.stderr.contains("<stdin>:1: note: pulse from a heart-rate record of the same source at the same instant: 2 of 3 readings"),
                    "\(r.stderr)")
            #expect(!r.stderr.contains("pulse not joined"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).isEmpty, "the spool is never left behind")
        let nowhere = tmp.appendingPathComponent("missing").path
        let failed = try Shell.run("sh", ["-c", "cat '\(Self.export)' | \(bin) cuff ingest"], env: ["TMPDIR": nowhere])
        #expect(failed.status == 74, "\(failed.stderr)")
        #expect(failed.stderr.contains(nowhere + "/corsano-spool-") && failed.stderr.contains("cannot hold the export read from a pipe"),
                "\(failed.stderr)")
        #expect(failed.stderr.contains("cuff ingest: read 0, written 0"), "the counts line before the 74: \(failed.stderr)")
    }

    /// Python's zipfile makes the archives: deflated, stored, with data descriptors (written to
    /// a stream that cannot seek) and with ZIP64 records forced; a damaged copy fails with 65.
    @Test func exportZipInEveryFormIsReadInPlace() throws {
        let dir = try Self.directory()
        let script = """
            import io, sys, zipfile
            src, out = sys.argv[1], sys.argv[2]
            data = open(src, 'rb').read()
            name = 'apple_health_export/export.xml'
            def plain(path, method):
                with zipfile.ZipFile(path, 'w', method) as z:
                    z.writestr('apple_health_export/export_cda.xml', b'<ClinicalDocument/>')
                    z.writestr(name, data)
            plain(out + '/deflated.zip', zipfile.ZIP_DEFLATED)
            plain(out + '/stored.zip', zipfile.ZIP_STORED)
            class Stream(io.RawIOBase):
                def __init__(self, f): self.f = f
                def writable(self): return True
                def write(self, b): return self.f.write(b)
                def seekable(self): return False
            with open(out + '/descriptor.zip', 'wb') as f:
                with zipfile.ZipFile(Stream(f), 'w', zipfile.ZIP_DEFLATED) as z:
                    with z.open(name, 'w') as w: w.write(data)
            with zipfile.ZipFile(out + '/zip64.zip', 'w', zipfile.ZIP_DEFLATED) as z:
                with z.open(name, 'w', force_zip64=True) as w: w.write(data)
            with zipfile.ZipFile(out + '/descriptor.zip') as z:
                assert z.infolist()[0].flag_bits & 8, 'no data descriptor'
            raw = bytearray(open(out + '/deflated.zip', 'rb').read())
            at = raw.index(b'apple_health_export/export.xml') + 60
            raw[at] ^= 0xFF
            open(out + '/damaged.zip', 'wb').write(bytes(raw))
            """
        let made = try Shell.run("python3", ["-c", script, Self.export, dir.path])
        try #require(made.status == 0, "\(made.stderr)")
        for name in ["deflated", "stored", "descriptor", "zip64"] {
            let path = dir.appendingPathComponent(name + ".zip").path
            let r = try Corsano.run(["cuff", "ingest", path])
            #expect(r.status == 0, "\(name): \(r.stderr)")
            #expect(r.lines == Self.lines, "\(name)")
            #expect(r.stderr.contains(".zip:apple_health_export/export.xml:1: note: pulse from a heart-rate record"), "\(name)")
        }
        let damaged = try Corsano.run(["cuff", "ingest", dir.appendingPathComponent("damaged.zip").path])
        #expect(damaged.status == 65)
        #expect(damaged.stderr.contains("apple_health_export/export.xml"))
        let bin = "'" + Corsano.binary.path + "'"
        // From a pipe, spooled and read in place as its file is.
        let piped = try Shell.run("sh", ["-c", "cat '\(dir.appendingPathComponent("stored.zip").path)' | \(bin) cuff ingest"])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.split(separator: "\n").map(String.init) == Self.lines)
    }

    @Test func aConstructTheScannerDoesNotHandleIsRefusedWithItsLine() throws {
        let r = try Corsano.run(["cuff", "ingest", "--from", "applehealth"],
                                stdin: "<HealthData>\n <Record type=\"&nbsp;\"/>\n</HealthData>\n")
        #expect(r.status == 65)
        #expect(r.stderr.contains("<stdin>:2: entity &nbsp; is not one of XML's five"))
    }

    /// The issue's case: the typed entry of last year, and the older cuff reading, are replayed
    /// history for a calibration requested now; the third reading has no pulse (none in the
    /// export), so nothing calibrates the bracelet.
    @Test func anAppleHealthTypedEntryFromLastYearIsDroppedAsReplayedByBPInit() throws {
        let bin = "'" + Corsano.binary.path + "'"
        let r = try Shell.run("sh", ["-c", "\(bin) cuff ingest '\(Self.export)' | \(bin) bp-init --now 2026-11-29T10:00:00Z --no-state"],
                              env: ["XDG_STATE_HOME": try Self.directory().path])
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(r.status == 3)
        #expect(BPInitE2E.dropReasons(lines) == ["replayed", "replayed", "incomplete"])
        let dropped = BPInitE2E.events(lines).first { $0["event"] as? String == "cuffReadingDropped" }
        #expect((dropped?["reading"] as? [String: Any])?["isManualEntry"] as? Bool == true)
        #expect(BPInitE2E.result(lines) == #"{"error":{"kind":"noReading"},"kind":"cuffError"}"#)
    }

    @Test func googleFitTakeoutIsDetectedAndRead() throws {
        let r = try Corsano.run(["cuff", "ingest", Self.takeout])
        #expect(r.status == 65)  // the last point has no diastolic
        #expect(r.lines == [
            #"{"systolic":132,"diastolic":85,"measuredAt":"2024-12-01T08:00:00Z","isManualEntry":true,"originDataSourceId":"raw:com.google.blood_pressure:com.google.android.apps.fitness:user_input"}"#,
            #"{"systolic":124,"diastolic":79,"measuredAt":"2025-11-30T09:00:00Z","isManualEntry":false,"originDataSourceId":"raw:com.google.blood_pressure:com.omronhealthcare.omronconnect:OMRON:HEM-7361T"}"#,
        ])
        #expect(r.stderr.contains("raw_com.google.blood_pressure_com.google.android.apps.json:54: diastolic: missing (fitValue[1])"))
        #expect(r.stderr.contains("read 3, written 2, skipped 0, dropped 0, rejected 1"))
    }
}
