import Foundation

/// Paths of ../shared/fixtures beside the repo (real-format cuff data).
enum SharedFixtures {
    /// The first `shared/fixtures` found beside the package root or one level up (a worktree
    /// under wt/ sits one level deeper than the main checkout).
    static let root: URL = {
        var dir = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { dir = dir.deletingLastPathComponent() }
        for _ in 0..<3 {
            dir = dir.deletingLastPathComponent()
            let candidate = dir.appendingPathComponent("shared/fixtures")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        return dir.appendingPathComponent("shared/fixtures")
    }()

    /// The bytes of `relative` (e.g. `csv/sbm69.csv`).
    static func bytes(_ relative: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(relative)))
    }
}
