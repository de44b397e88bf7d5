/// What one input record turned out to be, before clock anchoring and validation.
public enum IngestRecord: Equatable, Sendable {
    /// A reading (its naive `deviceTime`, if any, is not yet mapped to real time).
    case reading(CuffReading)
    /// A record that is deliberately not a reading; counted, never an error.
    case skipped(SkipReason)
    /// A jsonl cuff failure line (`{"error":"noReading"}`): passed on, so a consumer such as
    /// `bp-init` still ends with `cuffError` (as `replay-filter` passes it on).
    case cuffFailure(CuffError)
    /// No record at all: an empty line, a comment, a CSV header.
    case none
}

/// Why a record was skipped rather than read or rejected.
public enum SkipReason: String, CaseIterable, Sendable {
    /// A 0x2A36 Intermediate Cuff Pressure line: live inflation values, never a reading.
    case intermediateCuffPressure = "intermediate cuff pressure (0x2A36)"
    /// A BLE capture value of a characteristic that holds no reading (an nRF Connect log of a
    /// whole device), named on its first line.
    case otherCharacteristic = "another characteristic"
    /// A row with no pressure values (e.g. a Withings heart-rate-only row).
    case noPressure = "no pressure values"
    /// A CSV line before the header row (an export's title, user details, another table).
    case beforeHeader = "before the header"
    /// A CSV line after the reading table ended (a blank line, then another section).
    case afterTable = "after the table"
    /// CSV lines under a header row that cannot be read (its one error says why).
    case unusableHeader = "under an unusable header"
    /// An Apple Health top-level copy of a blood-pressure correlation's record (the export's DTD:
    /// every record of a correlation also appears at the top level); the correlation is the reading.
    case correlationCopy = "copies of correlation records"
    /// An Apple Health record, correlation or element that is not blood pressure (heart rate,
    /// steps, workouts, ...), or a Google Fit data point of another type.
    case notBloodPressure = "not blood pressure"
}
