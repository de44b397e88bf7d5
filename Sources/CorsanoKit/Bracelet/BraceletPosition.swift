/// The patient's position during wearing optimization (SDK `BraceletPosition`).
///
/// The flow announces the position it asked for (`Bracelet.announcePosition`); the SDK infers the
/// position at success time from the accelerometer, which this type does from a gravity vector.
/// Convention (shared by the simulator and the flows, see docs/scenario.md): seated with the hand
/// flat on a desk puts gravity on the bracelet's z axis; supine with the arm beside the body puts
/// it across the wrist (x or y). Source: seeds/wearing-optimization.txt ("Result handling").
public enum BraceletPosition: String, CaseIterable, Sendable, Codable {
    case seated, supine

    /// The position a gravity vector (in g) points to: seated when |z| is the largest component,
    /// supine otherwise.
    public init(gravity: GravityVector) {
        self = abs(gravity.z) >= max(abs(gravity.x), abs(gravity.y)) ? .seated : .supine
    }

    /// The nominal gravity vector (g) of this position, before sensor noise.
    public var nominalGravity: GravityVector {
        switch self {
        case .seated: return GravityVector(x: 0.05, y: 0.1, z: -0.99)
        case .supine: return GravityVector(x: -0.98, y: 0.12, z: 0.1)
        }
    }
}
