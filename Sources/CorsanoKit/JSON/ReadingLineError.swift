/// Why a reading line was rejected, naming the field and the reason (docs/design.md "Data on the wire").
public enum ReadingLineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The line is not one JSON object (`reason` says what is wrong).
    case malformed(String)
    /// A required field (`systolic`, `diastolic`) is absent.
    case missingField(String)
    /// A field is present but unusable: `.invalidField("systolic", "not an integer")`.
    case invalidField(String, String)

    /// The field at fault, when one is.
    public var field: String? {
        switch self {
        case .malformed: return nil
        case .missingField(let f), .invalidField(let f, _): return f
        }
    }

    /// `field "systolic": not an integer`, `missing field "diastolic"`, `not a JSON object`.
    public var description: String {
        switch self {
        case .malformed(let why): return why
        case .missingField(let f): return "missing field \"\(f)\""
        case .invalidField(let f, let why): return "field \"\(f)\": \(why)"
        }
    }

    static let notAnInteger = "not an integer"
    static let outOfRange = "integer out of range"
    static let notRFC3339 = "not an RFC 3339 time"
    static let notNaive = "not a YYYY-MM-DDTHH:MM:SS time"
    static let notAString = "not a string"
    static let notABool = "not true or false"
}

/// What one reading line says: a reading, or a cuff failure (`{"error":"noReading"}`).
public enum ReadingLine: Equatable, Sendable {
    /// A blood-pressure reading.
    case reading(CuffReading)
    /// The cuff source reports it has no reading: `noReading`, `cuffDisconnected`, or other text
    /// as `.unknown(text)` (bp-init ends with `cuffError`).
    case cuffFailure(CuffError)
}
