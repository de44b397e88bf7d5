@testable import CorsanoCLI
import CorsanoKit
import Foundation
import Testing

/// Both flows' text output compared with reviewed snapshot files in `Tests/Snapshots/` (outside
/// the target folder, so SwiftPM does not take them for resources).
/// `CORSANO_RECORD_SNAPSHOTS=1 swift test --filter TextSnapshotTests` rewrites them and fails naming
/// each file written; review the diff, then run again without the variable.
@Suite struct TextSnapshotTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Snapshots")

    static func render(_ events: [FlowEvent], _ locale: AppLocale, color: Bool = false, live: Bool = false) -> String {
        let buffer = TextBuffer()
        let sink = TextEventSink(writer: buffer, localizer: Localizer(locale: locale), color: color, liveProgress: live)
        for event in events { sink.emit(event) }
        return buffer.text
    }

    static let cases: [(String, AppLocale)] = [
        ("bp-init", .en), ("bp-init", .de), ("bp-init", .ar),
        ("wearing-opt", .en), ("wearing-opt", .de), ("wearing-opt", .ar),
    ]

    @Test(arguments: cases.indices)
    func matchesSnapshot(_ i: Int) async throws {
        let (flow, locale) = Self.cases[i]
        let text = Self.render(flow == "bp-init" ? try await FlowEventFixtures.bpInit() : try await FlowEventFixtures.wearingOpt(), locale)
        let file = Self.directory.appendingPathComponent("\(flow).\(locale.tag).txt")
        try Snapshot.expect(text, equals: file, rerun: "swift test --filter TextSnapshotTests")
    }
}
