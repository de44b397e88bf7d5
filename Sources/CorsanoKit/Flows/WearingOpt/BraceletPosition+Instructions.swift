extension BraceletPosition {
    /// The instruction steps shown before an attempt in this position, as stable keys the text
    /// sink localizes. Seed ("Retry prompt"): supine has 2 steps, seated 3 with the extra
    /// hand-flat-on-desk step.
    public var instructionSteps: [String] {
        switch self {
        case .seated: return ["sitUpright", "forearmOnDesk", "handFlatOnDesk"]
        case .supine: return ["lieOnBack", "armAlongsideBody"]
        }
    }
}
