extension Localizer {
    /// Why a typed reading (`120/80 72`) was refused, as one localized sentence for the prompt.
    public func describe(typedReading problem: ManualCuffEntry.Problem) -> String {
        switch problem {
        case .notAReading:
            return self[.errorTypedReading]
        case .outOfRange(let field, let value, let range):
            let label: L10nKey = switch field {
            case "systolic": .fieldSystolic
            case "diastolic": .fieldDiastolic
            default: .fieldPulse
            }
            return self[.errorValueOutOfRange, self[label] + " " + String(value), range.lowerBound, range.upperBound]
        case .systolicNotAboveDiastolic:
            return self[.errorSystolicNotAboveDiastolic]
        }
    }
}
