/// A decoded 0x2A35 measurement to a `CuffReading`: units, rounding, not-a-number values.
///
/// kPa values are multiplied by 7.500615758 and rounded to the nearest mmHg (half away from
/// zero); the pulse is never converted (always bpm) but a fractional pulse is rounded. A
/// systolic or diastolic that is not a number rejects the record: a cuff showing "Err" sends
/// NaN in every field, which must never become a 2047 reading. A non-number MAP or pulse is
/// read as not reported. Source: Bluetooth GATT Specification Supplement; IEEE 11073-20601.
public enum BLEReadingConverter {
    /// mmHg per kPa (1 kPa = 1000 Pa; 1 mmHg = 133.322387415 Pa).
    public static let mmHgPerKPa = 7.500615758

    /// The reading of `measurement` (plausibility is checked later, by `ReadingValidator`).
    /// The timestamp becomes `deviceTime` (the cuff clock); `measuredAt` is left to the anchor.
    /// - Throws: `IngestIssue` naming the field that is not a number or out of any Int range.
    public static func reading(from m: BloodPressureMeasurement, receivedAt: String?) throws(IngestIssue) -> CuffReading {
        let factor = m.unit == .kPa ? mmHgPerKPa : 1
        let systolic = try pressure(m.systolic, factor, "systolic")
        let diastolic = try pressure(m.diastolic, factor, "diastolic")
        let map = m.meanArterialPressure.value.flatMap { rounded($0 * factor) }
        let pulse = m.pulse?.value.flatMap { rounded($0) }
        var provenance: [ProvenanceField] = []
        if let user = m.knownUserId { provenance.append(ProvenanceField(name: "userId", rawJSON: String(user))) }
        if let status = m.status { provenance.append(ProvenanceField(name: "status", rawJSON: status.json)) }
        // 0x2B34: the user-facing time is the cuff's wall clock (what 0x2A35's Date Time is); a
        // different Time Stamp is kept, not lost.
        let deviceTime = m.userFacingTime ?? m.timestamp
        if let stamp = m.timestamp, stamp != deviceTime {
            provenance.append(ProvenanceField(name: "cuffTimeStamp", rawJSON: "\"\(stamp)\""))
        }
        return CuffReading(systolic: systolic, diastolic: diastolic, pulse: pulse, meanArterialPressure: map,
                           deviceTime: deviceTime, receivedAt: receivedAt, provenance: provenance)
    }

    private static func pressure(_ value: SFloat, _ factor: Double, _ field: String) throws(IngestIssue) -> Int {
        guard let v = value.value else {
            throw IngestIssue("\(field): not a number (SFLOAT \(value.special?.name ?? "special"))")
        }
        guard let r = rounded(v * factor) else { throw IngestIssue("\(field): \(v) out of range") }
        return r
    }

    /// Rounds half away from zero; nil when not finite or too large for a pressure or pulse.
    static func rounded(_ v: Double) -> Int? {
        let r = v.rounded(.toNearestOrAwayFromZero)
        guard r.isFinite, abs(r) < 1_000_000_000 else { return nil }
        return Int(r)
    }
}
