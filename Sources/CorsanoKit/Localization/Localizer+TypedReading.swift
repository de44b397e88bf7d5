extension Localizer {
    /// Why a typed reading (`120/80 72`) was refused, as one localized sentence for the prompt.
    ///
    /// An implausible reading names its field; the validator checks systolic range, diastolic
    /// range, systolic above diastolic, then pulse range, so a systolic issue with an in-range
    /// value is the systolic-above-diastolic rule.
    public func describe(typedReading problem: ManualCuffEntry.Problem,
                         validator: ReadingValidator = .standard) -> String {
        guard case .implausible(let issue) = problem else { return self[.errorTypedReading] }
        let value = Int(issue.message.prefix { $0.isNumber || $0 == "-" })
        let (label, range): (L10nKey, ClosedRange<Int>) = switch issue.field {
        case "systolic": (.fieldSystolic, validator.systolic)
        case "diastolic": (.fieldDiastolic, validator.diastolic)
        case "pulse": (.fieldPulse, validator.pulse)
        default: (.errorTypedReading, 0...0)
        }
        guard label != .errorTypedReading, let value else { return self[.errorTypedReading] }
        if label == .fieldSystolic, range.contains(value) { return self[.errorSystolicNotAboveDiastolic] }
        return self[.errorValueOutOfRange, self[label] + " " + String(value), range.lowerBound, range.upperBound]
    }
}
