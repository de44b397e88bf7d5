/// The Record Access Control Point (0x2A52) as `cuff listen --stored` uses it: Report Stored
/// Records only (never Delete Stored Records: the cuff's memory is the user's).
///
/// Request: Op Code 0x01 Report Stored Records, then Operator 0x01 All records, or Operator 0x03
/// Greater than or equal to with Filter Type 0x01 Sequence Number and a uint16 operand. The cuff
/// indicates the records (0x2B36), then Op Code 0x06 Response Code: Operator 0x00, the request op
/// code, a response value (0x01 Success, 0x06 No records found, other values errors).
/// Sources: Blood Pressure Service v1.1.1 (RACP with the Sequence Number filter); the RACP op
/// codes, operators and response values as the Glucose and CGM services define them and public
/// BLS/GLS clients (Stanford Spezi's RACP types) use.
public enum RecordAccess {
    public static let reportStoredRecords: UInt8 = 0x01
    public static let responseCode: UInt8 = 0x06
    public static let allRecords: UInt8 = 0x01
    public static let greaterThanOrEqual: UInt8 = 0x03
    public static let sequenceNumberFilter: UInt8 = 0x01

    /// The request bytes for `stored`.
    public static func reportStoredRecords(_ stored: CuffCollector.StoredHistory) -> [UInt8] {
        switch stored {
        case .all: return [reportStoredRecords, allRecords]
        case .from(let first):
            return [reportStoredRecords, greaterThanOrEqual, sequenceNumberFilter, UInt8(first & 0xFF), UInt8(first >> 8)]
        }
    }

    /// The names of the response values (Glucose Service / CGM / BLS RACP tables).
    static let responseValues: [UInt8: String] = [
        0x02: "op code not supported", 0x03: "invalid operator", 0x04: "operator not supported",
        0x05: "invalid operand", 0x07: "abort unsuccessful", 0x08: "procedure not completed",
        0x09: "operand not supported",
    ]

    /// What an indication of the control point says, `records` having arrived since the request.
    public static func outcome(of value: [UInt8], records: Int) -> CuffCollector.Event {
        guard value.count >= 4, value[0] == responseCode, value[2] == reportStoredRecords else {
            return .storedFailed("the Record Access Control Point sent \(BLEHex.string(value)), not a response to Report Stored Records")
        }
        switch value[3] {
        case 0x01: return .storedDone(records: records)
        case 0x06: return .storedDone(records: 0)
        case let code:
            let name = responseValues[code].map { "\($0) (0x\(BLEHex.byte(code)))" } ?? "response value 0x\(BLEHex.byte(code))"
            return .storedFailed("the cuff refused Report Stored Records: \(name)")
        }
    }
}
