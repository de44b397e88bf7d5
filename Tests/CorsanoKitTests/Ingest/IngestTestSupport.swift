import CorsanoKit
import Foundation

/// Collects what `CuffIngester` hands out, as text.
final class RecordingSink: IngestSink {
    var lines: [String] = []
    var rejects: [RejectRecord] = []
    var notes: [String] = []
    var reads = 0

    func write(_ reading: CuffReading) {
        var bytes: [UInt8] = []
        reading.appendJSONLine(to: &bytes)
        lines.append(String(decoding: bytes, as: UTF8.self))
    }
    func write(cuffFailure: CuffError) { lines.append("error \(cuffFailure)") }
    func reject(_ reject: RejectRecord) { rejects.append(reject) }
    func note(source: String, line: Int, message: String) { notes.append("\(source):\(line): \(message)") }
    var skips: [String] = []
    func skipped(source: String, lines: ClosedRange<Int>, message: String) {
        skips.append("\(source):\(lines.count == 1 ? "\(lines.lowerBound)" : "\(lines.lowerBound)-\(lines.upperBound)"): \(message)")
    }
    func willRead() { reads += 1 }
}

enum IngestRun {
    static let utc = ZoneReader(identifier: "UTC")!

    /// Ingests `bytes` fed `chunk` bytes a read; returns the sink and the ingester.
    static func run(_ bytes: [UInt8], chunk: Int = .max, format: IngestFormat? = nil, anchor: ClockAnchor? = nil,
                    zone: ZoneReader = utc, strict: Bool = false, deriveMAP: Bool = false,
                    name: String = "in") throws -> (RecordingSink, CuffIngester) {
        let sink = RecordingSink()
        let ingester = CuffIngester(
            normalizer: IngestNormalizer(basis: NaiveTimeBasis(anchor: anchor, zone: zone), deriveMAP: deriveMAP),
            strict: strict, sink: sink)
        try ingester.ingest(MemoryByteSource(bytes, chunk: chunk), name: name, format: format)
        return (sink, ingester)
    }

    static func run(_ text: String, chunk: Int = .max, format: IngestFormat? = nil, anchor: ClockAnchor? = nil,
                    zone: ZoneReader = utc, strict: Bool = false, deriveMAP: Bool = false) throws -> (RecordingSink, CuffIngester) {
        try run(Array(text.utf8), chunk: chunk, format: format, anchor: anchor, zone: zone, strict: strict, deriveMAP: deriveMAP)
    }
}
