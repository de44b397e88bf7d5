import Foundation

/// Paths of `Tests/Fixtures` in this repository (real-format cuff data; see its README).
enum Fixtures {
    /// `Tests/Fixtures`, found from this file's own path so any clone location works.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Ingest
        .deletingLastPathComponent()  // CorsanoKitTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures")

    /// The bytes of `relative` (e.g. `csv/sbm69.csv`).
    static func bytes(_ relative: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(relative)))
    }
}
