import CorsanoKit
import Synchronization
import Testing

/// The core's one leveled sink (docs/design.md "Diagnostics"): a level takes what is at or below
/// it, a message is built only when wanted, and a store's statements are said without their
/// parameters.
@Suite struct DiagnosticsTests {
    final class Heard: Sendable {
        let said = Mutex<[Diagnostic]>([])
        func sink(_ level: DiagnosticLevel?) -> Diagnostics { Diagnostics(level: level) { d in self.said.withLock { $0.append(d) } } }
        var all: [Diagnostic] { said.withLock { $0 } }
    }

    /// `-v` on a CSV whose own cells place its stamps (OMRON connect's `Timezone` column; a layout
    /// whose stamps are UTC) says so: "read in zone Europe/Amsterdam" alone would be untrue there.
    @Test(arguments: [
        ("Measurement Date,Timezone,SYS(mmHg),DIA(mmHg),Pulse(bpm)\n2024/11/21 11:40,Asia/Bangkok,105,73,73\n",
         "each row's stamp read in the zone its Timezone cell names, not the run's zone"),
        ("Date,SYS,DIA,Pulse\n2024-11-21 11:40,105,73,73\n", nil),
    ] as [(String, String?)])
    func aCSVHeaderSaysWhereItsOwnCellsPlaceItsStamps(csv: String, says: String?) throws {
        let heard = Heard()
        let ingester = CuffIngester(normalizer: IngestNormalizer(basis: NaiveTimeBasis(anchor: nil, zone: ZoneReader(identifier: "Europe/Amsterdam")!)),
                                    sink: RecordingSink())
        ingester.diagnostics = heard.sink(.info)
        try ingester.ingest(MemoryByteSource(Array(csv.utf8)), name: "in.csv", format: .csv)
        let header = try #require(heard.all.first { $0.message.contains("CSV header") }?.message)
        if let says { #expect(header.hasSuffix(says), "\(header)") } else { #expect(!header.contains("zone"), "\(header)") }
    }

    @Test func aLevelTakesWhatIsAtOrBelowIt() {
        for level in [nil] + DiagnosticLevel.allCases.map(Optional.some) {
            let heard = Heard()
            let sink = heard.sink(level)
            sink.notice(.plan, "n")
            sink.info(.store, "i")
            sink.debug(.bridge, "d")
            let expected = [Diagnostic(.notice, .plan, "n"), Diagnostic(.info, .store, "i"), Diagnostic(.debug, .bridge, "d")]
            #expect(heard.all == Array(expected.prefix((level?.rawValue ?? -1) + 1)), "\(String(describing: level))")
        }
    }

    @Test func aMessageIsBuiltOnlyWhenWanted() {
        let built = Mutex(0)
        func message() -> String { built.withLock { $0 += 1 }; return "m" }
        Diagnostics(level: .info) { _ in }.debug(.store, message())
        Diagnostics.none.notice(.store, message())
        #expect(built.withLock { $0 } == 0)
        Diagnostics(level: .debug) { _ in }.debug(.store, message())
        #expect(built.withLock { $0 } == 1)
    }

    @Test func durationsAreMilliseconds() {
        #expect(Diagnostics.milliseconds(.microseconds(42)) == "0.042 ms")
        #expect(Diagnostics.milliseconds(.microseconds(3170)) == "3.17 ms")
        #expect(Diagnostics.milliseconds(.microseconds(12_340)) == "12.3 ms")
        #expect(Diagnostics.milliseconds(.milliseconds(1520)) == "1520 ms")
    }

    /// A SQLite store at `.debug` says every statement with a duration, and never a parameter:
    /// a profile saved is named by its columns, not its values.
    @Test func aStoreSaysItsStatementsWithoutTheirParameters() throws {
        let heard = Heard()
        let store = try SQLiteStore(path: nil, diagnostics: heard.sink(.debug))
        let profile = UserProfile(heightCm: 187, weightKg: 81, wrist: .left, gender: .female, unit: .metric,
                                  birthdate: "1961-02-03", skinTone: 4, hairDensity: .low)
        try store.profileSave(profile, serial: "SIM-SECRET-SERIAL", pushedAt: "2026-01-01T00:00:00Z", onlyIfAbsent: false)
        let lines = heard.all.filter { $0.level == .debug }.map(\.message)
        #expect(lines.contains { $0.hasPrefix("statement ") && $0.contains(" ms: INSERT") && $0.contains("pushed_profile") }, "\(lines)")
        #expect(lines.allSatisfy { $0.wholeMatch(of: /statement [0-9.]+ ms: .+/) != nil }, "\(lines)")
        for value in ["1961-02-03", "SIM-SECRET-SERIAL", "female"] {
            #expect(!lines.contains { $0.contains(value) }, "\(value)")
        }
        #expect(heard.all.contains(Diagnostic(.info, .store, "state kept in memory for this run only (SQLite :memory:)")))
        // Without .debug, no statement is said (no hook is installed).
        let quiet = Heard()
        _ = try SQLiteStore(path: nil, diagnostics: quiet.sink(.info))
        #expect(quiet.all.allSatisfy { $0.level != .debug })
    }
}
