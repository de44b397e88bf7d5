import Foundation

/// How a simulated bracelet behaves: identity, starting plan and profile, its NIBP and
/// wearing-optimization firmware models (or scripts), and faults. Read from JSON
/// (`--bracelet sim:SCENARIO.json`, `bracelet serve --scenario`); every field is optional.
///
/// The schema is documented in docs/scenario.md with an example in examples/scenario.json.
public struct Scenario: Codable, Equatable, Sendable {
    /// Hardware model (default `287-2`).
    public var model: String
    /// Firmware version (default `7.4`).
    public var firmware: String
    /// Serial number (default `SIM-287-0001`).
    public var serial: String
    /// The plan the bracelet starts in (default `monitoring`).
    public var plan: String
    /// The user profile the bracelet starts with (default none).
    public var profile: ScenarioProfile?
    /// NIBP calibration behaviour.
    public var nibp: NIBPScenario
    /// Wearing optimization behaviour.
    public var wearing: WearingScenario
    /// Faults: disconnects, holds, poll timeouts, failing plan switches.
    public var faults: FaultScenario
    /// The simulated people: the bracelet's wearer and whoever a `sim:` cuff measures.
    /// A scenario that declares none has `ScenarioSubject.defaultSubject` (`S1`).
    public var subjects: [ScenarioSubject]

    /// Creates a scenario; defaults give a healthy 287-2 on firmware 7.4 in the monitoring plan.
    public init(model: String = "287-2", firmware: String = "7.4", serial: String = "SIM-287-0001",
                plan: String = "monitoring", profile: ScenarioProfile? = nil, nibp: NIBPScenario = .init(),
                wearing: WearingScenario = .init(), faults: FaultScenario = .init(),
                subjects: [ScenarioSubject] = [ScenarioSubject.defaultSubject]) {
        self.model = model
        self.firmware = firmware
        self.serial = serial
        self.plan = plan
        self.profile = profile
        self.nibp = nibp
        self.wearing = wearing
        self.faults = faults
        self.subjects = subjects
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Scenario()
        model = try c.decodeIfPresent(String.self, forKey: .model) ?? d.model
        firmware = try c.decodeIfPresent(String.self, forKey: .firmware) ?? d.firmware
        serial = try c.decodeIfPresent(String.self, forKey: .serial) ?? d.serial
        plan = try c.decodeIfPresent(String.self, forKey: .plan) ?? d.plan
        profile = try c.decodeIfPresent(ScenarioProfile.self, forKey: .profile)
        nibp = try c.decodeIfPresent(NIBPScenario.self, forKey: .nibp) ?? d.nibp
        wearing = try c.decodeIfPresent(WearingScenario.self, forKey: .wearing) ?? d.wearing
        faults = try c.decodeIfPresent(FaultScenario.self, forKey: .faults) ?? d.faults
        let declared = try c.decodeIfPresent([ScenarioSubject].self, forKey: .subjects) ?? []
        subjects = declared.isEmpty ? d.subjects : declared
    }

    /// Decodes a scenario from JSON `data`; `source` names the file in errors. Unknown fields are
    /// refused (a misspelt fault must not silently do nothing).
    /// - Throws: `ScenarioError.invalid` naming the source and the field path.
    public static func decode(_ data: Data, source: String) throws -> Scenario {
        if let hidden = firstHiddenProblem(in: data) { throw ScenarioError.invalid(source: source, message: hidden) }
        let scenario: Scenario
        do {
            scenario = try JSONDecoder().decode(Scenario.self, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty, let unfit = firstUnfitNumber(in: data) {
                throw ScenarioError.invalid(source: source, message: unfit)  // valid JSON, a number out of range
            }
            throw ScenarioError.invalid(source: source, message: error.fieldMessage)
        } catch {
            throw ScenarioError.invalid(source: source, message: "\(error)")
        }
        if let unknown = scenario.firstUnknownField(in: data) {
            throw ScenarioError.invalid(source: source, message: unknown)
        }
        if let problem = scenario.firstOutOfRange() { throw ScenarioError.invalid(source: source, message: problem) }
        return scenario
    }

    /// Reads and decodes the scenario file at `path`.
    /// - Throws: `ScenarioError.unreadable` when the file cannot be read, `.invalid` when it is not a scenario.
    public static func load(path: String) throws -> Scenario {
        // Refused by its size before it is read: memory must not follow a hostile file.
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maxFileBytes {
            throw ScenarioError.invalid(source: path, message: "\(size) bytes is over the \(maxFileBytes >> 20) MiB a scenario may have")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScenarioError.unreadable(path: path)
        }
        return try decode(data, source: path)
    }
}

/// Why a scenario could not be used.
public enum ScenarioError: Error, Equatable, Sendable {
    /// The file is missing or unreadable (exit 66).
    case unreadable(path: String)
    /// The JSON is malformed or a field has the wrong type or value (exit 65); names the field.
    case invalid(source: String, message: String)
}
