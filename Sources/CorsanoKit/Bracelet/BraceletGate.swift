/// Checks at connect that a bracelet can run a flow: both flows need model 287-2, wearing
/// optimization also needs firmware 7.0 or later (compared as version numbers).
///
/// Source: seeds/bp-initialization.txt ("Only available for 287-2 bracelet"),
/// seeds/wearing-optimization.txt ("Only available for 287-2 bracelet, from Firmware 7.0").
public enum BraceletGate {
    /// What a flow requires of a bracelet.
    public struct Requirement: Equatable, Sendable {
        /// Required hardware model.
        public var model: String
        /// Lowest firmware accepted, nil when any.
        public var minimumFirmware: String?
    }

    /// The requirement of `flow` (`bp-init`, `wearing-opt`); nil for commands that are not gated.
    public static func requirement(flow: FlowName) -> Requirement? {
        switch flow {
        case .bpInit, .nibpRead: return Requirement(model: "287-2", minimumFirmware: nil)
        case .wearingOpt: return Requirement(model: "287-2", minimumFirmware: "7.0")
        default: return nil
        }
    }

    /// Refuses a bracelet that cannot run `flow`.
    /// - Throws: `BraceletGateError` naming what was found and what is required (exit 69).
    public static func check(_ identity: BraceletIdentity, flow: FlowName) throws {
        guard let need = requirement(flow: flow) else { return }
        guard identity.model == need.model else {
            throw BraceletGateError.wrongModel(flow: flow.rawValue, found: identity.model, required: need.model)
        }
        guard let minimum = need.minimumFirmware, let required = FirmwareVersion(minimum) else { return }
        guard let found = FirmwareVersion(identity.firmware), found >= required else {
            throw BraceletGateError.firmwareTooOld(flow: flow.rawValue, found: identity.firmware, required: minimum)
        }
    }
}

/// Why a bracelet was refused at connect (exit 69).
public enum BraceletGateError: Error, Equatable, Sendable {
    /// The model is not the one the flow needs.
    case wrongModel(flow: String, found: String, required: String)
    /// The firmware is older than the flow needs (or not a version number at all).
    case firmwareTooOld(flow: String, found: String, required: String)

    /// One line for stderr: what was found and what is required.
    public var message: String {
        switch self {
        case let .wrongModel(flow, found, required):
            return "\(flow) needs a \(required) bracelet; this bracelet is model \(found)"
        case let .firmwareTooOld(flow, found, required):
            return "\(flow) needs firmware \(required) or later; this bracelet has firmware \(found)"
        }
    }
}
