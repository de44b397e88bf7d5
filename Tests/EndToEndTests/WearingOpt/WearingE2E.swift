import Foundation

/// Shared pieces of the wearing-opt and profile-push end-to-end tests: a temporary directory
/// with a state store and scenario files, the profile flags, and event-line accessors.
struct WearingE2E {
    let dir: URL
    var state: String { dir.appendingPathComponent("state.sqlite3").path }

    static let now = "2026-11-29T10:00:00Z"
    static let profileFlags = ["--height", "172", "--weight", "68", "--wrist", "left", "--gender", "female",
                               "--unit", "metric", "--birthdate", "1990-04-01", "--skin-tone", "3",
                               "--hair-density", "low"]
    /// The profile flags with `flag`'s value replaced.
    static func profileFlags(setting flag: String, to value: String) -> [String] {
        var args = profileFlags
        if let i = args.firstIndex(of: flag) { args[i + 1] = value }
        return args
    }

    /// The same profile as a scenario's `profile` (the one profile shape, as `--from` reads it).
    static let scenarioProfile = #"{"height":172,"weight":68,"wrist":"left","gender":"female","unit":"metric","birthdate":"1990-04-01","skinTone":3,"hairDensity":"low"}"#

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-wo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` in the directory and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// `corsano ARGS` on this directory's store, virtual clock at `now`, JSON events.
    func run(_ args: [String], scenario: String? = nil, stdin: String = "") throws -> Corsano.Outcome {
        var bracelet: [String] = []
        if let scenario { bracelet = ["--bracelet", "sim:" + (try file("scenario-\(UUID().uuidString).json", scenario))] }
        return try Corsano.run(args + bracelet + ["--now", Self.now, "--state", state, "--json"], stdin: stdin)
    }

    /// Each stdout line as a JSON object.
    static func events(_ out: Corsano.Outcome) -> [[String: Any]] {
        out.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The events called `name`.
    static func events(_ out: Corsano.Outcome, _ name: String) -> [[String: Any]] {
        events(out).filter { $0["event"] as? String == name }
    }

    /// The `finished` event's result re-serialized with sorted keys, for exact comparison.
    static func result(_ out: Corsano.Outcome) -> String? {
        guard let result = events(out, "finished").last?["result"],
              let data = try? JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
